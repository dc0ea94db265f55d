"""Peer agent profiles: the registry keeps free-text notes next to the public identity fields."""

from __future__ import annotations


def public_profile(profile: dict | None) -> dict | None:
    if not isinstance(profile, dict):
        return None
    shown = {"agent_id", "profile_role", "default_scope", "preferred_action_kinds", "enabled"}
    kept = {key: value for key, value in profile.items() if key in shown}
    kept["schema_version"] = "peer_profile_v1"
    return kept or None
