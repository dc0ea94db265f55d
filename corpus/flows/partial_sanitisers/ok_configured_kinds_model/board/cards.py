"""Cards for the public board, as a typed model."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from .masking import mask_paths, scrub


@dataclass
class BoardCard:
    card_id: str
    artifact: str
    detail: str
    raw_tool_outputs_copied: bool = False


def build_card(card_id: str, out_dir: Path, argv: list[str]) -> BoardCard:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    return BoardCard(
        card_id=card_id,
        artifact=mask_paths(str(out_dir / f"{card_id}.json")),
        detail=scrub(proc.stdout),
    )
