"""Memory section of the adapter: what the preview looked at."""

from __future__ import annotations

LIVE = "live"


def candidate_ref(ref_id: str, kind: str, bucket: str, summary: str) -> dict:
    return {
        "memory_ref_id": ref_id,
        "source_kind": kind,
        "score_bucket": bucket,
        "summary": summary,
        "raw_memory_copied": False,
    }


def add_memory_section(adapter: dict, refs: list[dict]) -> None:
    memory: dict = {"namespace": "issue_fix_public_preview", "query_summary": "Prior issue-fix lessons."}
    memory["retrieval_mode"] = LIVE  # expect: OVA106
    memory["live_retrieval_performed"] = True  # expect: OVA106
    memory["writeback_performed"] = False
    memory["top_k_preview"] = 2
    memory["candidate_refs"] = refs
    adapter["memory_projection"] = memory
