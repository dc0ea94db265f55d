"""The public memory-preview section: which memories the next session may be pointed at."""

from __future__ import annotations

from .hits import Hit, to_hits


def memory_preview(rows: list[dict], namespace: str) -> dict:
    hits: list[Hit] = sorted(to_hits(rows), key=lambda h: h.score, reverse=True)[:3]
    preview = {"schema_version": "memory_preview_v1", "preview_kind": "memory_candidates", "namespace": namespace, "raw_memory_copied": False}
    preview["candidates"] = [{"rank": i + 1, "ref": hit.uri} for i, hit in enumerate(hits)]  # expect: OVA605
    preview["top_score"] = round(hits[0].score, 2) if hits else None
    return preview
