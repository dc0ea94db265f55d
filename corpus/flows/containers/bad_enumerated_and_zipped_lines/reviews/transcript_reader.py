"""Reads a review session's transcript, which stays private."""

from __future__ import annotations

from pathlib import Path


def transcript_turns(session_file: Path) -> list[str]:
    return session_file.read_text(encoding="utf-8").split("\n\n")
