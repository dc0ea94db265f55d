"""Map a failure to the public vocabulary: a kind and a fingerprint, never its text."""

from __future__ import annotations

import hashlib
import subprocess


def failure_kind(exc: BaseException) -> str:
    if isinstance(exc, subprocess.TimeoutExpired):
        return "timeout"
    if isinstance(exc, FileNotFoundError):
        return "missing_input"
    if isinstance(exc, PermissionError):
        return "permission_denied"
    return "internal_error"


def failure_fingerprint(exc: BaseException) -> str:
    return hashlib.sha256(repr(exc).encode("utf-8")).hexdigest()[:16]
