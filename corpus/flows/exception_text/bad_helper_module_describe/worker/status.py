"""The worker's public status projection, refreshed after every lane run."""

from __future__ import annotations

from typing import Any

from .errors import describe_failure

STATUS_SCHEMA = "worker_lane_status_projection_v1"


def build_lane_status(lane_id: str, run) -> dict[str, Any]:
    status: dict[str, Any] = {
        "schema_version": STATUS_SCHEMA,
        "lane_id": lane_id,
        "state": "running",
    }
    try:
        run.execute()
    except Exception as exc:  # noqa: BLE001 - the lane keeps going
        status["state"] = "failed"
        status["last_error"] = describe_failure(exc)  # expect: OVA208
    else:
        status["state"] = "succeeded"
    return status


def build_gate_status(lane_id: str, gate) -> dict[str, Any]:
    try:
        gate.check()
    except PermissionError as error:
        return {
            "schema_version": STATUS_SCHEMA,
            "lane_id": lane_id,
            "state": "blocked",
            "reason": str(error),  # expect: OVA208
        }
    return {"schema_version": STATUS_SCHEMA, "lane_id": lane_id, "state": "clear"}
