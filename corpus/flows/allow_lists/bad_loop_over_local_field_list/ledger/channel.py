"""Release channel client."""

from __future__ import annotations


def announce(entry: dict) -> None:
    print(sorted(entry))
