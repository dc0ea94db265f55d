"""Masking of secrets in anything the linter prints or writes.

A finding may quote a value (a contract rule's "found" value, a code frame).
Before it is shown, every credential-looking token in it is replaced by a short
prefix and its length, e.g. ``sk-p…[48 chars]``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import rulepack

VISIBLE_PREFIX = 4


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    """All token patterns as one alternation, so a masked token is never matched again."""
    data = rulepack.load_toml("redaction.toml")
    parts = []
    for index, entry in enumerate(data["token"]):
        parts.append("(?:" + entry["regex"].replace("(?P<secret>", f"(?P<secret{index}>") + ")")
    return re.compile("|".join(parts))


def mask(secret: str) -> str:
    """The public form of a secret: its length and a prefix of at most VISIBLE_PREFIX
    characters and at most a quarter of the secret."""
    visible = min(VISIBLE_PREFIX, len(secret) // 4)
    return f"{secret[:visible]}…[{len(secret)} chars]"


def _replace(match: re.Match[str]) -> str:
    for name, value in match.groupdict().items():
        if value is not None:  # only the group named secretN is masked
            start, end = match.span(name)
            base = match.start()
            text = match.group(0)
            return text[: start - base] + mask(value) + text[end - base:]
    return mask(match.group(0))


def redact_text(text: str) -> str:
    """Replace every credential-looking token in ``text`` by its masked form."""
    return _pattern().sub(_replace, text)
