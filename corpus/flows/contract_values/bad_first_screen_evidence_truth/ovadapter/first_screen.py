"""The first screen, the evidence behind it and what the adapter may not do."""

from __future__ import annotations

# Who the goal waits on, as the runtime names it.
WAITING_ON_RUNTIME = "codex"
SOURCES_OF_TRUTH = ("loopx_goal_state", "session_runtime_projection", "public_issue_metadata", "memory_system_refs")


def status_projection(todo_id: str) -> dict:
    return {
        "waiting_on": WAITING_ON_RUNTIME,  # expect: OVA109
        "next_action": "Validate the memory preview fixture.",
        "user_action_required": False,
        "agent_can_continue": True,
        "first_agent_todo": todo_id,
        "gate_state": "clear",
        "quota_state": "eligible",
        "memory_state": "preview_only",
    }


def evidence_projection(goal_id: str, session_ref: str) -> dict:
    return dict(
        source_refs=[{"kind": "goal", "id": goal_id}, {"kind": "session", "id": session_ref}],
        validation_refs=[{"kind": "smoke", "id": "memory_adapter_smoke"}],
        public_safe_summary="Preview available without live retrieval, writeback or raw evidence.",
        raw_trajectories_copied=False,
        comment_bodies_copied=False,
        raw_tool_outputs_copied=False,
        credentials_copied=True,  # expect: OVA110
        private_paths_copied=False,
    )


def truth_contract() -> dict:
    contract = {"source_of_truth": list(SOURCES_OF_TRUTH)}
    contract.update(live_retrieval_allowed=False, memory_writeback_allowed=False, issue_body_read_allowed=False)
    contract.update(comment_body_read_allowed=False, tool_output_ingest_allowed=False)
    contract["adapter_is_writable"] = True  # expect: OVA111
    return contract
