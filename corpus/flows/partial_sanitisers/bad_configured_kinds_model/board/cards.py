"""Cards for the public board, as a typed model."""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass

from .masking import mask_tokens

_HOME = re.compile(r"(?:/home|/Users)/\S+")


def check_no_home_paths(text: str) -> None:
    if _HOME.search(text):
        raise ValueError("text names a home folder")


@dataclass
class BoardCard:
    card_id: str
    headline: str
    detail: str
    raw_tool_outputs_copied: bool = False


def failure_card(card_id: str, job) -> BoardCard:
    try:
        job.run()
    except Exception:
        text = traceback.format_exc()
        check_no_home_paths(text)
        return BoardCard(
            card_id=card_id,
            headline="job failed",
            detail=mask_tokens(text),  # expect: OVA208
        )
    return BoardCard(card_id=card_id, headline="job passed", detail=mask_tokens(job.summary))
