"""A dataclass that attests raw_memory_copied is a projection type: its instances' fields are judged."""
from dataclasses import dataclass
from typing import TYPE_CHECKING


@dataclass
class MemoryCandidateRef:
    memory_ref_id: str
    summary: str
    raw_memory_copied: bool = False
    if TYPE_CHECKING:
        score: float


def candidate(memory):
    return MemoryCandidateRef(memory_ref_id=memory["id"], summary=memory["content"][:200])
