"""Typed adapter projection; defaults are what a preview run publishes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class CandidateRef(BaseModel):
    memory_ref_id: str
    source_kind: Literal["prior_issue", "session_outcome", "operator_note", "validation_summary", "unknown"]
    score_bucket: Literal["high", "medium", "low", "unknown"] = "unknown"
    summary: str
    raw_memory_copied: bool = True  # expect: OVA107


class MemoryProjection(BaseModel):
    namespace: str
    retrieval_mode: str = "preview_only"
    live_retrieval_performed: bool = False
    writeback_performed: bool = False
    query_summary: str
    top_k_preview: int = 3
    candidate_refs: list[CandidateRef] = Field(default_factory=list)


class SessionMemoryAdapter(BaseModel):
    schema_version: str = "openviking_session_memory_adapter_v0"
    mode: str = "live"  # expect: OVA102
    specializes: str = "session_runtime_loopx_projection_v0"
    goal_id: str
    issue_projection: dict
    session_projection: dict
    memory_projection: MemoryProjection
    retrieval_gates: list[dict]
    future_gates: list[str]
    status_projection: dict
    evidence_projection: dict
    truth_contract: dict
