"""Announce ledger entries: a few fields of each, picked by name."""

from __future__ import annotations

from .channel import announce


def announce_entries(entries: list[dict]) -> None:
    for entry in entries:
        picked = {}
        wanted = ["entry_id", "version", "notes"]
        for name in wanted:
            if entry.get(name) is not None:
                picked[name] = entry.get(name)  # expect: OVA208
        announce(picked)
