"""Capabilities the adapter may not use without an authority it does not hold."""

from __future__ import annotations

GATED = "future_gated"
BLOCKED = "blocked_without_authority"


def _gate(capability: str, state: str, authority: str, blocks: str) -> dict:
    return {"capability": capability, "state": state, "required_authority": authority, "blocks": blocks}


RETRIEVAL_GATES = [
    _gate("live_openviking_retrieval", GATED, "live_memory_adapter_contract", "live retrieval"),
    _gate("memory_writeback", GATED, "controlled_memory_writeback_contract", "writing new session memories"),
    _gate("issue_body_read", BLOCKED, "explicit_issue_body_read_gate", "copying issue body text"),
    _gate("comment_body_read", BLOCKED, "explicit_comment_body_read_gate", "copying comment text"),
    _gate("raw_tool_output_ingest", BLOCKED, "raw_runtime_evidence_gate", "ingesting raw tool outputs"),
]

FUTURE_GATES = [gate["capability"] for gate in RETRIEVAL_GATES] + ["external_issue_comment_or_pr_publish"]
