"""Assemble the adapter projection for one goal."""

from __future__ import annotations

from . import first_screen, sections
from .gates import FUTURE_GATES, RETRIEVAL_GATES
from .models import CandidateRef, MemoryProjection, SessionMemoryAdapter


def build_adapter(goal_id: str, repo: str, number: int, session_ref: str, todo_id: str) -> SessionMemoryAdapter:
    memory = MemoryProjection(
        namespace="issue_fix_public_preview",
        query_summary="Compact prior issue-fix lessons for routing.",
        candidate_refs=[
            CandidateRef(memory_ref_id="mem_prior_issue_001", source_kind="prior_issue", score_bucket="high",
                         summary="Prior fix kept issue metadata apart from gated bodies."),
        ],
    )
    return SessionMemoryAdapter(
        goal_id=goal_id,
        issue_projection=sections.issue_projection(repo, number),
        session_projection=sections.session_projection(session_ref, todo_id),
        memory_projection=memory,
        retrieval_gates=list(RETRIEVAL_GATES),
        future_gates=list(FUTURE_GATES),
        status_projection=first_screen.status_projection(todo_id),
        evidence_projection=first_screen.evidence_projection(goal_id, session_ref),
        truth_contract=first_screen.truth_contract(),
    )
