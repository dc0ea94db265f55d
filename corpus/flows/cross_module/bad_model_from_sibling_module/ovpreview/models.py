"""Typed pieces of the memory preview."""

from __future__ import annotations

from pydantic import BaseModel


class CandidateRef(BaseModel):
    memory_ref_id: str
    source_kind: str
    score_bucket: str
    summary: str
    raw_memory_copied: bool = False
