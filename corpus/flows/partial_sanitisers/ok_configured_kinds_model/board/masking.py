"""Masking the board's vendor library provides (its body is not part of this repository's review)."""

from __future__ import annotations


def mask_paths(text: str) -> str:
    return text


def scrub(text: str) -> str:
    return text
