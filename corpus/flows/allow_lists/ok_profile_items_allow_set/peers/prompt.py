"""The prompt payload handed to the agent host."""

from __future__ import annotations

from .profiles import public_profile


def prompt_payload(goal_id: str, profile: dict | None) -> dict:
    return {
        "ok": True,
        "goal_id": goal_id,
        "agent_profile": public_profile(profile),
    }
