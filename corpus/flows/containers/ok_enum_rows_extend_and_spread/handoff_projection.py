"""Handoff projection: what the next agent needs to pick a todo up, as ids, enums and counts."""

from __future__ import annotations

import subprocess

HANDOFF_SCHEMA = "agent_handoff_projection_v1"


def _change_kind(code: str) -> str:
    if code == "A":
        return "added"
    if code == "M":
        return "modified"
    if code == "D":
        return "deleted"
    return "other"


def handoff_projection(todo: dict, blockers: list[str]) -> dict:
    status = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True).stdout
    base = dict(schema_version=HANDOFF_SCHEMA, todo_id=todo["id"], waiting_on="agent")
    rows: list[dict] = []
    kinds = [_change_kind(line[:1]) for line in status.splitlines() if line]
    rows.extend({"kind": kind, "count": kinds.count(kind)} for kind in sorted(set(kinds)))
    rows.insert(0, {"kind": "total", "count": len(kinds)})
    counts = {"blocker_count": len(blockers), "has_untracked": "??" in status}
    return {**base, **counts, "changes": rows, "raw_tool_outputs_copied": False}
