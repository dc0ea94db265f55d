"""Checks for the run report: credentials refused, home folders refused, ids allowed only as tokens."""

from __future__ import annotations

import re

_CREDENTIAL = re.compile(r"(?i)\b(?:bearer\s+\S+|(?:api[_-]?key|token|password)\s*[:=]\s*\S+)")
_HOME_PATH = re.compile(r"(?:~|/home|/Users)/\S*")
_RUN_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def compact_text(value: object, limit: int = 200) -> str | None:
    text = " ".join(str(value or "").split())
    if not text or _CREDENTIAL.search(text):
        return None
    return text[:limit]


def no_home_path(text: str) -> str:
    if _HOME_PATH.search(text):
        raise ValueError("a home folder may not be published")
    return text


def run_token(value: str) -> str:
    if not _RUN_ID.fullmatch(value):
        raise ValueError("not a run id")
    return value
