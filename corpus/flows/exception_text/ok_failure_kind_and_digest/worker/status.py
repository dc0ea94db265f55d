"""The worker's public status projection: what failed, by kind and fingerprint only."""

from __future__ import annotations

import logging
from typing import Any

from .failures import failure_fingerprint, failure_kind

log = logging.getLogger(__name__)
STATUS_SCHEMA = "worker_lane_status_projection_v1"


def build_lane_status(lane_id: str, run) -> dict[str, Any]:
    status: dict[str, Any] = {"schema_version": STATUS_SCHEMA, "lane_id": lane_id, "state": "running"}
    errors: list[BaseException] = []
    try:
        run.execute()
    except Exception as exc:  # noqa: BLE001 - the lane keeps going
        log.warning("lane %s failed: %s", lane_id, exc)
        errors.append(exc)
        status["state"] = "failed"
        status["error_kind"] = failure_kind(exc)
        status["error_fingerprint"] = failure_fingerprint(exc)
        status["error_is_timeout"] = "timed out" in str(exc)
    status["error_count"] = len(errors)
    return status
