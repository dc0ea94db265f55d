"""A compact LoopX-style builder: flags, counts and hashes only."""

import hashlib


def build_issue_projection(issue, raw_keys):
    body = issue.body
    return {
        "schema_version": "openviking_session_memory_adapter_v0",
        "issue_ref_id": issue.ref_id,
        "title_summary": issue.title[:120],
        "issue_body_copied": False,
        "comment_bodies_copied": False,
        "raw_material_detected": bool(raw_keys),
        "body_chars": len(body),
        "body_sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
        "comment_count": len(issue.comments),
        "has_stdout": issue.result.stdout is not None,
        "latest_comment_id": issue.comments[-1].comment_id if issue.comments else None,
    }
