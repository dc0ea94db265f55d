"""Thin wrapper over the OpenViking client used by the bridge."""

from __future__ import annotations


def list_user_memories(client, user_id: str) -> list[dict]:
    return client.ls(f"viking://user/{user_id}/memories/", recursive=True)
