"""Fix-attempt projection: a short, public account of one automated attempt."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass


@dataclass
class AttemptProjection:
    attempt_id: str
    outcome: str
    reason: str = ""
    last_step: str = ""
    issue_excerpt: str = ""
    raw_trajectory_copied: bool = False


def attempt_projection(attempt_id: str, issue: dict, attempt) -> AttemptProjection:
    projection = AttemptProjection(attempt_id=attempt_id, outcome="running")
    projection.issue_excerpt = textwrap.shorten(issue["body"], width=120, placeholder=" ...")  # expect: OVA208
    try:
        attempt.run()
        projection.outcome = "applied"
    except Exception as exc:  # noqa: BLE001
        projection.outcome = "failed"
        projection.reason = str(exc)[:200]  # expect: OVA208
    steps = attempt.trajectory
    projection.last_step = steps[-1]["content"].splitlines()[0][:80] if steps else ""  # expect: OVA208
    return projection
