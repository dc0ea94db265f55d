"""Masking of secrets in anything the linter prints or writes.

A finding may quote text (a contract rule's "found" value, a code frame).
Before it is shown, every credential the detectors find in it, and every long
opaque token (``rules/redaction.toml``: a safety net for what no detector
knows), is replaced by a short prefix and its length, e.g. ``sk-p…[48 chars]``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import rulepack

VISIBLE_PREFIX = 4


@lru_cache(maxsize=1)
def _safety_net() -> re.Pattern[str]:
    data = rulepack.load_toml("redaction.toml")
    return re.compile("|".join(f"(?:{entry['regex']})" for entry in data["token"]))


def mask(secret: str) -> str:
    """The public form of a secret: its length and a prefix of at most VISIBLE_PREFIX
    characters and at most a quarter of the secret."""
    visible = min(VISIBLE_PREFIX, len(secret) // 4)
    return f"{secret[:visible]}…[{len(secret)} chars]"


def mask_text(text: str) -> str:
    """Replace every credential-looking token in ``text`` by its masked form."""
    from .detect.credentials import scan_secrets

    spans = [(h.start, h.end) for h in scan_secrets(text) if h.secret and h.end > h.start]
    spans += [m.span() for m in _safety_net().finditer(text)]
    out = text
    last_start = len(text) + 1
    # Right to left, skipping overlaps, so earlier offsets stay valid.
    for start, end in sorted(set(spans), key=lambda s: (s[0], -s[1]), reverse=True):
        if end > last_start:
            continue
        out = out[:start] + mask(text[start:end]) + out[end:]
        last_start = start
    return out
