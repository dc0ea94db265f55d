"""The first screen, the evidence behind it and what the adapter may not do."""

from __future__ import annotations


def status_projection(todo_id: str) -> dict:
    return {
        "waiting_on": "agent",
        "next_action": "Validate the memory preview fixture.",
        "user_action_required": False,
        "agent_can_continue": True,
        "first_agent_todo": todo_id,
        "gate_state": "clear",
        "quota_state": "eligible",
        "memory_state": "preview_only",
    }


def evidence_projection(goal_id: str, session_ref: str) -> dict:
    return {
        "source_refs": [{"kind": "goal", "id": goal_id}, {"kind": "session", "id": session_ref}],
        "validation_refs": [{"kind": "smoke", "id": "memory_adapter_smoke"}],
        "public_safe_summary": "Preview available without live retrieval, writeback or raw evidence.",
        "raw_trajectories_copied": False,
        "comment_bodies_copied": False,
        "raw_tool_outputs_copied": False,
        "credentials_copied": False,
        "private_paths_copied": False,
    }


def truth_contract() -> dict:
    return {
        "source_of_truth": [
            "loopx_goal_state",
            "session_runtime_projection",
            "public_issue_metadata",
            "memory_system_refs",
        ],
        "adapter_is_writable": False,
        "live_retrieval_allowed": False,
        "memory_writeback_allowed": False,
        "issue_body_read_allowed": False,
        "comment_body_read_allowed": False,
        "tool_output_ingest_allowed": False,
    }
