"""The runtime's first screen, committed as the public status example."""

from __future__ import annotations

import json
from pathlib import Path

from .ledger import health_probe, ledger_records


def first_screen(state_dir: Path) -> dict:
    probe = health_probe()
    records = ledger_records(state_dir)
    last = records[-1] if records else {}
    screen = {
        "event_count": len(records),
        "last_event_id": last.get("event_id"),
        "current_stage": last["stage"] if last else None,  # expect: OVA208
        "blocked_by": probe.get("first_blocker"),  # expect: OVA208
        "healthy": bool(probe.get("ok")),
    }
    screen["issue"] = {k: v for k, v in last.get("issue", {}).items()}  # expect: OVA208
    return screen


def write_example(state_dir: Path) -> None:
    target = Path("examples/runtime-first-screen.public.json")
    target.write_text(json.dumps(first_screen(state_dir), indent=2) + "\n", encoding="utf-8")
