"""Assemble the adapter projection for one goal."""

from __future__ import annotations

from . import constants as C
from . import first_screen, sections
from .constants import RUNTIME_PROJECTION as PARENT
from .gates import FUTURE_GATES, RETRIEVAL_GATES


def build_adapter(goal_id: str, repo: str, number: int, session_ref: str, todo_id: str) -> dict:
    adapter = {"schema_version": C.ADAPTER_SCHEMA, "mode": C.ADAPTER_MODE}
    adapter["specializes"] = PARENT  # expect: OVA103
    adapter["goal_id"] = goal_id
    adapter["issue_projection"] = sections.issue_projection(repo, number)
    adapter["session_projection"] = sections.session_projection(session_ref, todo_id)
    adapter["memory_projection"] = sections.memory_projection()
    adapter["retrieval_gates"] = list(RETRIEVAL_GATES)
    adapter["future_gates"] = list(FUTURE_GATES)
    adapter["status_projection"] = first_screen.status_projection(todo_id)
    adapter["evidence_projection"] = first_screen.evidence_projection(goal_id, session_ref)
    adapter["truth_contract"] = first_screen.truth_contract()
    return adapter
