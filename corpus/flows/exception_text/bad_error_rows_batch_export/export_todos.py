"""Export the public todo board snapshot; todos that fail to render are listed, not dropped."""

from __future__ import annotations

import json
from pathlib import Path

from .summaries import require_one_line

SNAPSHOT = Path("examples") / "todo-board.public.json"


def _render(todo: dict) -> dict:
    require_one_line(todo["body"])
    return {"todo_id": todo["id"], "status": todo["status"], "title_summary": todo["title_summary"]}


def export_snapshot(todos: list[dict]) -> None:
    rendered, failures = [], []
    for todo in todos:
        try:
            rendered.append(_render(todo))
        except (KeyError, ValueError) as exc:
            failures.append({"todo_id": todo.get("id"), "error": str(exc)})  # expect: OVA208
    snapshot = {"todos": rendered, "render_failures": failures, "failure_count": len(failures)}
    with SNAPSHOT.open("w", encoding="utf-8") as fh:
        json.dump(snapshot, fh, indent=2, sort_keys=True)
