"""Run one lane; keep the failure details in the private state folder, publish only the outcome."""

from __future__ import annotations

import json
import traceback
from pathlib import Path

PUBLIC_STATUS = Path("examples/fixtures/lane-outcome.public.json")
OUTCOMES = ("succeeded", "failed", "skipped")


def _record_debug(state_dir: Path, lane_id: str, exc: BaseException) -> None:
    debug = {"lane_id": lane_id, "error": str(exc), "traceback": traceback.format_exc()}
    (state_dir / "debug").mkdir(parents=True, exist_ok=True)
    with (state_dir / "debug" / f"{lane_id}.json").open("w", encoding="utf-8") as fh:
        json.dump(debug, fh, indent=2)


def run_lane(state_dir: Path, lane_id: str, task) -> str:
    try:
        task()
    except Exception as exc:  # noqa: BLE001
        _record_debug(state_dir, lane_id, exc)
        return "failed"
    return "succeeded"


def publish_outcome(lane_id: str, outcome: str) -> None:
    public = {"lane_id": lane_id, "outcome": outcome if outcome in OUTCOMES else "unknown"}
    PUBLIC_STATUS.write_text(json.dumps(public, indent=2, sort_keys=True) + "\n", encoding="utf-8")
