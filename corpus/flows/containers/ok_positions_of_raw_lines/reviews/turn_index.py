"""Review turn index: where the turns that asked for changes sit, never what they say."""

from __future__ import annotations

from pathlib import Path

from .transcript_reader import transcript_turns


def turn_index(session_file: Path, labels: list[str]) -> dict:
    turns = transcript_turns(session_file)
    flagged: list[int] = []
    for position, turn in enumerate(turns):
        if "request changes" in turn.lower():
            flagged.append(position)
    last_flag = None
    for number, _turn in enumerate(turns, start=1):
        last_flag = number
    label_of_turn = {label: index for index, (_turn, label) in enumerate(zip(turns, labels))}
    return {
        "schema_version": "review_turn_index_v0",
        "flagged_turns": flagged,
        "turn_count": last_flag,
        "labels": label_of_turn,
        "transcript_copied": False,
    }
