"""Typed records of the reward-memory contract (agent_reward_memory_projection_v1)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RewardCandidate:
    reward_ref_id: str
    feedback_kind: str = "maintainer_correction"
    confidence: str = "reviewed"
    summary: str = ""
    raw_content_captured: bool = False


@dataclass
class RewardMemoryProjection:
    corpus_id: str
    schema_version: str = "agent_reward_memory_projection_v1"
    mode: str = "live"
    specializes: str = "agent_reward_memory_projection_v0"
    writeback_performed: bool = True
    candidates: list[RewardCandidate] = field(default_factory=list)
