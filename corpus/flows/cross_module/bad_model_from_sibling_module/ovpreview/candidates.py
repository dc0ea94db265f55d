"""Turn memory search hits into candidate refs for the preview."""

from __future__ import annotations

from .models import CandidateRef as Ref


def _bucket(score: float) -> str:
    if score >= 0.8:
        return "high"
    if score >= 0.5:
        return "medium"
    return "low"


def candidate_refs(hits: list[dict]) -> list[Ref]:
    refs = []
    for index, hit in enumerate(hits):
        refs.append(
            Ref(
                memory_ref_id=f"mem_preview_{index:03d}",
                source_kind="prior_issue",
                score_bucket=_bucket(float(hit.get("score", 0.0))),
                summary=hit.get("abstract") or hit.get("overview", ""),  # expect: OVA208
            )
        )
    return refs
