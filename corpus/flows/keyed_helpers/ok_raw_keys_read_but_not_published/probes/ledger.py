"""The probe ledger: raw output is kept in the private log, the public ledger counts it."""

from __future__ import annotations

import logging

from .fields import field

LOG = logging.getLogger(__name__)


def probe_ledger(records: list[dict]) -> dict:
    rows = []
    for record in records:
        LOG.debug("probe output: %s", field(record, "stdout"))
        rows.append(
            {
                "probe_id": field(record, "probe_id"),
                "output_lines": len(field(record, "stdout").splitlines()),
                "blocked": bool(field(record, "first_blocker")),
            }
        )
    return {"schema_version": "probe_ledger_public_v1", "rows": rows}
