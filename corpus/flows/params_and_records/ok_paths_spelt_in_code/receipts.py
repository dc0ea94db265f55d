"""Receipts that name files by what the repository calls them, not where a machine keeps them.

Near miss: paths spelt in the code (`Path("examples")`), a path's name, and a path parameter that is
only tested or opened are not machine paths in the published text."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path("examples")


def fixture_receipt(goal_id: str, state_file: Path) -> dict:
    return {
        "goal_id": goal_id,
        "raw_artifacts_copied": False,
        "fixture": str(EXAMPLES / f"{goal_id}.json"),
        "state_file_name": state_file.name,
        "state_file_present": state_file.exists(),
        "relative_fixture": Path("fixtures/goal.json").as_posix(),
    }
