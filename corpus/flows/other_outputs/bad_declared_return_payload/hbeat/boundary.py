"""The goal boundary section of the should-run packet the CLI prints."""

from __future__ import annotations

import shlex
from pathlib import Path


def _sync_action(goal: dict, registry: Path | None) -> dict:
    command = ["hb"]
    if registry is not None:
        command.extend(["--registry", str(registry.expanduser())])  # expect: OVA504
    command += ["sync", "--goal-id", str(goal.get("id") or "")]
    return {"actions": [{"action_id": "sync", "command": shlex.join(command)}]}


def goal_boundary(goal: dict, registry: Path | None) -> dict:
    boundary = {"goal_id": goal.get("id"), "local_private_content_returned": False}
    boundary.update(_sync_action(goal, registry))
    return boundary
