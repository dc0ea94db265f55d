"""Human-readable failure text for the worker's own logs."""

from __future__ import annotations


def describe_failure(exc: BaseException) -> str:
    name = type(exc).__name__
    return f"{name}: {exc}"
