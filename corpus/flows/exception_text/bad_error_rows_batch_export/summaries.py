"""Checks a todo must pass before it is put on the board."""

from __future__ import annotations


def require_one_line(body: str) -> None:
    if "\n" in body.strip():
        # The message quotes the body it refused: whoever shows this error shows the todo's text.
        raise ValueError(f"todo body must be one line: {body[:200]!r}")
