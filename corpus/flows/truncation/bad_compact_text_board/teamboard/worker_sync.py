"""Mirror a worker's run on the team board."""

from __future__ import annotations

from .cards import upsert_card
from .text import _compact_text


def mirror_run(session, run_key: str, result) -> None:
    fields = {
        "Run": run_key,
        "State": "passed" if result.returncode == 0 else "failed",
        "Evidence": _compact_text(result.stdout),  # expect: OVA208
    }
    if result.returncode:
        fields["Last Error"] = _compact_text(result.stderr, limit=600)  # expect: OVA208
    upsert_card(session, "worker_runs", run_key, fields)
