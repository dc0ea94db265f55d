"""Assemble the adapter projection for one goal, section by section."""

from __future__ import annotations

from . import constants as C
from . import first_screen
from . import sections as S
from .gates import FUTURE_GATES as FUTURE
from .gates import RETRIEVAL_GATES as GATES


def build_adapter(goal_id: str, repo: str, number: int, session_ref: str, todo_id: str) -> dict:
    adapter = dict(schema_version=C.ADAPTER_SCHEMA, mode=C.ADAPTER_MODE, specializes=C.PARENT_SCHEMA)
    adapter["goal_id"] = goal_id
    issue = adapter.setdefault("issue_projection", S.issue_projection(repo, number))
    issue["title_summary"] = "Issue thread summarised for the preview."
    adapter.setdefault("session_projection", {}).update(S.session_projection(session_ref, todo_id))
    memory = S.memory_projection()
    memory["retrieval_mode"] = "future_gated"
    adapter["memory_projection"] = memory
    adapter.update(retrieval_gates=[dict(gate) for gate in GATES], future_gates=list(FUTURE))
    adapter.update(
        {
            "status_projection": first_screen.status_projection(todo_id),
            "evidence_projection": first_screen.evidence_projection(goal_id, session_ref),
            "truth_contract": first_screen.truth_contract(),
        }
    )
    return adapter
