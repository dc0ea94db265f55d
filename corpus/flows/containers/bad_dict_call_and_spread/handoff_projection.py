"""Handoff projection: what the next agent needs to pick a todo up."""

from __future__ import annotations

import subprocess
import tempfile

HANDOFF_SCHEMA = "agent_handoff_projection_v1"


def _scratch() -> dict:
    scratch_dir = tempfile.mkdtemp(prefix="handoff-")
    return {"scratch_dir": scratch_dir}  # expect: OVA504


def handoff_projection(todo: dict) -> dict:
    base = dict(schema_version=HANDOFF_SCHEMA, todo_id=todo["id"])
    diff = subprocess.run(["git", "diff", "--stat"], capture_output=True, text=True).stdout
    extra = dict(diff_stat=diff)  # expect: OVA208
    return {**base, **extra, **_scratch(), "waiting_on": "agent"}
