"""Receipts of pushed cards, written into the public example fixture."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .commands import push_argv
from .settings import load_settings

RECEIPTS = Path("examples/fixtures/board-push-receipts.public.jsonl")


def push_cards(card_ids: list[str]) -> None:
    settings = load_settings()
    receipts = []
    for card_id in card_ids:
        argv = push_argv(settings, card_id)
        done = subprocess.run(argv, check=False)
        receipts.append({"card_id": card_id, "ran": " ".join(argv), "exit_code": done.returncode})  # expect: OVA410
    with RECEIPTS.open("a", encoding="utf-8") as fh:
        for receipt in receipts:
            fh.write(json.dumps(receipt, sort_keys=True) + "\n")
