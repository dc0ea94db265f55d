"""One mask per kind of material an error message names."""

from __future__ import annotations

import re

_SECRET = re.compile(r"(?i)(token|secret|password)\s*[=:]\s*\S+")
_URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")
_PATH = re.compile(r"(?:/|[A-Za-z]:\\)[^\s'\"]+")


def mask_secrets(text: str) -> str:
    return _SECRET.sub(r"\1=<redacted>", text)


def mask_urls(text: str) -> str:
    return _URL.sub("<url>", text)


def mask_paths(text: str) -> str:
    return _PATH.sub("<path>", text)
