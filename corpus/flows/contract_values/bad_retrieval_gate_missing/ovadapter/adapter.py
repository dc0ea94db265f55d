"""Assemble the adapter projection for one goal."""

from __future__ import annotations

from . import first_screen, sections
from .constants import ADAPTER_MODE, ADAPTER_SCHEMA, PARENT_SCHEMA
from .gates import BLOCKED, FUTURE_GATED, gate


def build_adapter(goal_id: str, repo: str, number: int, session_ref: str, todo_id: str) -> dict:
    # Tool output is never ingested by this adapter, so it was left without a gate of its own.
    gates = [  # expect: OVA108
        gate("live_openviking_retrieval", FUTURE_GATED, "live_memory_adapter_contract", "live retrieval"),
        gate("memory_writeback", FUTURE_GATED, "controlled_memory_writeback_contract", "memory writeback"),
        gate("issue_body_read", BLOCKED, "explicit_issue_body_read_gate", "copying issue body text"),
        gate("comment_body_read", BLOCKED, "explicit_comment_body_read_gate", "copying comment text"),
    ]
    return {
        "schema_version": ADAPTER_SCHEMA,
        "mode": ADAPTER_MODE,
        "specializes": PARENT_SCHEMA,
        "goal_id": goal_id,
        "issue_projection": sections.issue_projection(repo, number),
        "session_projection": sections.session_projection(session_ref, todo_id),
        "memory_projection": sections.memory_projection(),
        "retrieval_gates": gates,
        "future_gates": [
            "live_openviking_retrieval",
            "memory_writeback",
            "issue_body_read",
            "comment_body_read",
            "raw_tool_output_ingest",
            "external_issue_comment_or_pr_publish",
        ],
        "status_projection": first_screen.status_projection(todo_id),
        "evidence_projection": first_screen.evidence_projection(goal_id, session_ref),
        "truth_contract": first_screen.truth_contract(),
    }
