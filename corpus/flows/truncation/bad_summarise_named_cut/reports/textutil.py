"""Text utilities for reports."""

from __future__ import annotations


def summarize_output(text: str, max_lines: int = 5) -> str:
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    return "\n".join(lines[-max_lines:])


def compact_log(text: str) -> str:
    return text.replace("\r", "").strip()[-500:]
