"""The adapter's sections, each a compact projection of one kind of private state."""

from __future__ import annotations


def issue_projection(repo: str, number: int) -> dict:
    return {
        "provider": "github",
        "repo": repo,
        "issue_number": number,
        "issue_ref_id": f"github_issue_{number}",
        "title_summary": "Public issue metadata only; body and comments stay gated.",
        "issue_body_copied": False,
        "comment_bodies_copied": False,
        "provider_payload_copied": False,
    }


def session_projection(session_ref: str, todo_id: str) -> dict:
    return {
        "runtime_id": "codex_cli_tui",
        "session_refs": [session_ref],
        "latest_event_ref": "event_validation_summary",
        "linked_todo_ids": [todo_id],
        "outcome_refs": ["outcome_memory_preview_ready"],
        "raw_trajectory_copied": False,
        "raw_transcripts_copied": False,
        "raw_tool_outputs_copied": False,
    }


def memory_projection() -> dict:
    return {
        "namespace": "issue_fix_public_preview",
        "retrieval_mode": "preview_only",
        "live_retrieval_performed": False,
        "writeback_performed": False,
        "query_summary": "Compact prior issue-fix lessons for routing.",
        "top_k_preview": 2,
        "candidate_refs": [
            {
                "memory_ref_id": "mem_prior_issue_001",
                "source_kind": "prior_issue",
                "score_bucket": "high",
                "summary": "Prior fix kept issue metadata apart from gated bodies.",
                "raw_memory_copied": False,
            },
            {
                "memory_ref_id": "mem_session_outcome_002",
                "source_kind": "session_outcome",
                "score_bucket": "medium",
                "summary": "Prior session validated a repo-relative change.",
                "raw_memory_copied": False,
            },
        ],
    }
