"""Probe a lane's worker for its current blocker."""

from __future__ import annotations

import json
import subprocess


def probe_lane(lane_id: str) -> dict:
    done = subprocess.run(["loopx-lane", "probe", lane_id, "--json"], capture_output=True, text=True)
    return json.loads(done.stdout or "{}")
