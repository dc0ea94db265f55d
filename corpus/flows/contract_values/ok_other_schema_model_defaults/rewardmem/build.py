"""Build the reward-memory projection from reviewed corrections."""

from __future__ import annotations

from .models import RewardCandidate, RewardMemoryProjection


def build_projection(corpus_id: str, corrections: list[dict]) -> RewardMemoryProjection:
    projection = RewardMemoryProjection(corpus_id=corpus_id)
    for index, correction in enumerate(corrections):
        projection.candidates.append(
            RewardCandidate(reward_ref_id=f"reward_mem_{index:03d}", summary=correction["content_summary"])
        )
    return projection
