"""The public probe ledger: one row per probe run."""

from __future__ import annotations

from .fields import attribute, field


def probe_ledger(records: list[dict], results: list) -> dict:
    ledger = {"schema_version": "probe_ledger_public_v1", "rows": []}
    for record in records:
        ledger["rows"].append(
            {
                "probe_id": field(record, "probe_id"),
                "blocker": field(record, "first_blocker"),  # expect: OVA208
            }
        )
    for result in results:
        ledger["rows"].append(
            {
                "probe_id": attribute(result, "probe_id"),
                "log": attribute(result, "stderr"),  # expect: OVA208
            }
        )
    return ledger
