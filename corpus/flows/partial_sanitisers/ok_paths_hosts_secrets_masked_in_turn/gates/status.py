"""Gate status rows for the public status page."""

from __future__ import annotations

from .masks import mask_paths, mask_secrets, mask_urls


def gate_rows(gates: list) -> dict:
    rows = []
    for gate in gates:
        try:
            gate.check()
            rows.append({"gate_id": gate.gate_id, "state": "clear"})
        except OSError as exc:
            reason = mask_urls(mask_secrets(str(exc)))
            rows.append({"gate_id": gate.gate_id, "state": "blocked", "reason": mask_paths(reason)})
    return {"schema_version": "gate_status_projection_v1", "rows": rows}
