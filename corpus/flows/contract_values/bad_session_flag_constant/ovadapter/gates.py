"""Capabilities the adapter may not use without an authority it does not hold."""

RETRIEVAL_GATES = [
    {
        "capability": "live_openviking_retrieval",
        "state": "future_gated",
        "required_authority": "live_memory_adapter_contract",
        "blocks": "live retrieval against the memory store",
    },
    {
        "capability": "memory_writeback",
        "state": "future_gated",
        "required_authority": "controlled_memory_writeback_contract",
        "blocks": "writing new session memories",
    },
    {
        "capability": "issue_body_read",
        "state": "blocked_without_authority",
        "required_authority": "explicit_issue_body_read_gate",
        "blocks": "copying or summarising issue body text",
    },
    {
        "capability": "comment_body_read",
        "state": "blocked_without_authority",
        "required_authority": "explicit_comment_body_read_gate",
        "blocks": "copying or summarising comment text",
    },
    {
        "capability": "raw_tool_output_ingest",
        "state": "blocked_without_authority",
        "required_authority": "raw_runtime_evidence_gate",
        "blocks": "ingesting raw tool outputs or trajectories",
    },
]

FUTURE_GATES = [
    "live_openviking_retrieval",
    "memory_writeback",
    "issue_body_read",
    "comment_body_read",
    "raw_tool_output_ingest",
    "external_issue_comment_or_pr_publish",
]
