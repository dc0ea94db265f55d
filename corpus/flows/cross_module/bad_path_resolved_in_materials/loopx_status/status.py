"""Material section of the goal's public status projection."""

from __future__ import annotations

from pathlib import Path

from . import materials as mat


def material_section(repo: Path, goal_id: str) -> dict:
    latest = mat.latest_material(repo, goal_id)
    return {
        "schema_version": "goal_material_projection_v1",
        "goal_id": goal_id,
        "material_name": latest.name,
        "material_file": latest.as_posix(),  # expect: OVA504
        "material_present": latest.exists(),
    }
