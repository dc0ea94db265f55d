"""Gate records: a capability the adapter may not use without an authority it does not hold."""

from __future__ import annotations

FUTURE_GATED = "future_gated"
BLOCKED = "blocked_without_authority"


def gate(capability: str, state: str, authority: str, blocks: str) -> dict:
    return {"capability": capability, "state": state, "required_authority": authority, "blocks": blocks}
