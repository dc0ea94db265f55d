"""Build the goal's status document."""

from __future__ import annotations

from .probe import runtime_probe


def build_public_status(goal_id: str) -> dict:
    probe = runtime_probe(goal_id)
    lines = probe.stdout.strip().splitlines()
    return {
        "goal_id": goal_id,
        "runtime_ok": probe.returncode == 0,
        "runtime_says": lines[-1] if lines else "",  # expect: OVA208
    }
