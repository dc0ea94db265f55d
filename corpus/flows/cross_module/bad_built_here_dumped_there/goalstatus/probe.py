"""Ask the runtime what it is doing."""

from __future__ import annotations

import subprocess


def runtime_probe(goal_id: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["loopx-runtime", "probe", "--goal", goal_id],
        capture_output=True,
        text=True,
        check=False,
    )
