"""Review turn index that quotes the turns it points at."""

from __future__ import annotations

from pathlib import Path

from .transcript_reader import transcript_turns


def turn_index(session_file: Path, labels: list[str]) -> dict:
    turns = transcript_turns(session_file)
    flagged: list[dict] = []
    for position, turn in enumerate(turns):
        if "request changes" in turn.lower():
            flagged.append({"position": position, "turn": turn})  # expect: OVA208
    labelled = {label: turn for turn, label in zip(turns, labels)}
    return {
        "schema_version": "review_turn_index_v0",
        "flagged_turns": flagged,
        "labelled_turns": labelled,  # expect: OVA208
        "transcript_copied": False,
    }
