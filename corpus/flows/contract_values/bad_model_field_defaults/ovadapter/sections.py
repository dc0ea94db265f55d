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
