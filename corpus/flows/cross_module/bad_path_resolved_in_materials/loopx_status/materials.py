"""Where a goal's material lives on this machine."""

from __future__ import annotations

from pathlib import Path


def material_root(repo: Path) -> Path:
    return (repo / ".loopx" / "material").resolve()


def latest_material(repo: Path, goal_id: str) -> Path:
    candidates = sorted(material_root(repo).glob(f"{goal_id}-*.md"))
    return candidates[-1] if candidates else material_root(repo) / f"{goal_id}.md"
