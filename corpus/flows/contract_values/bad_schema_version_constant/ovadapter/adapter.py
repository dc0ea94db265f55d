"""Assemble the adapter projection for one goal."""

from __future__ import annotations

from . import first_screen, sections
from .constants import ADAPTER_MODE, ADAPTER_SCHEMA, PARENT_SCHEMA
from .gates import FUTURE_GATES, RETRIEVAL_GATES


def build_adapter(goal_id: str, repo: str, number: int, session_ref: str, todo_id: str) -> dict:
    return {
        "schema_version": ADAPTER_SCHEMA,  # expect: OVA101
        "mode": ADAPTER_MODE,
        "specializes": PARENT_SCHEMA,
        "goal_id": goal_id,
        "issue_projection": sections.issue_projection(repo, number),
        "session_projection": sections.session_projection(session_ref, todo_id),
        "memory_projection": sections.memory_projection(),
        "retrieval_gates": list(RETRIEVAL_GATES),
        "future_gates": list(FUTURE_GATES),
        "status_projection": first_screen.status_projection(todo_id),
        "evidence_projection": first_screen.evidence_projection(goal_id, session_ref),
        "truth_contract": first_screen.truth_contract(),
    }
