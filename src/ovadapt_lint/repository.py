"""The git repository a path lies in: its root, and a digest of its root `.gitignore` (the cache's keys cover
it: OVA505 asks the repository's ignore rules). Apart from the detectors so that a run the cache answers does
not import them to key its results."""

from __future__ import annotations

import os
from pathlib import Path


def repository_root(path: Path) -> Path | None:
    """The nearest folder at or above ``path``'s folder that holds `.git` (a folder or a worktree's file)."""
    here = Path(os.path.abspath(path)).parent
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def ignore_digest(start: Path) -> str | None:
    """A digest of the root `.gitignore` of the repository holding ``start`` (a folder), for cache keys."""
    import hashlib

    root = repository_root(start / "_")
    if root is None:
        return None
    try:
        return hashlib.sha256((root / ".gitignore").read_bytes()).hexdigest()
    except OSError:
        return None
