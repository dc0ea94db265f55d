"""File discovery: walk the given paths, skip tool/VCS/venv folders, pick linted kinds."""

from __future__ import annotations

import fnmatch
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .errors import ConfigError

SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".bzr", "_darcs", ".venv", "venv", ".env", "env", "node_modules",
    "build", "dist", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox",
    ".nox", ".eggs", ".ovadapt_cache", "site-packages", ".ipynb_checkpoints", ".hypothesis",
})


@dataclass(frozen=True)
class Target:
    path: Path  # the path to open
    display: str  # the path to print: as given or relative, never made absolute
    kind: str  # json | jsonl | python | markdown
    uri: str  # a relative, forward-slash path for machine formats (SARIF), never absolute


def kind_of(name: str) -> str | None:
    lower = name.lower()
    if lower.endswith(".jsonl") or lower.endswith(".ndjson"):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    if lower.endswith(".py") or lower.endswith(".pyi"):
        return "python"
    if lower.endswith(".md"):
        return "markdown"
    return None


def _sniff_json(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return True  # let the reader report it
    return head[:1] in (b"{", b"[")


def matches(rel: str, patterns: list[str]) -> bool:
    """A relative posix path against globs: on its name, the whole path, or as a folder prefix."""
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, p.rstrip("/") + "/*") for p in patterns)


def _is_venv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def discover(paths: list[str], include: list[str], exclude: list[str]) -> Iterator[Target]:
    seen: set[str] = set()
    for given in paths:
        if not os.path.lexists(given):
            raise ConfigError(f"{given}: no such file or directory")
        if os.path.isfile(given):
            # Explicitly named files are linted whatever their name, unless excluded.
            display = display_path(given)
            if matches(display.replace(os.sep, "/"), exclude):
                continue
            kind = kind_of(given) or ("json" if _sniff_json(Path(given)) else None)
            if kind and display not in seen:
                seen.add(display)
                yield Target(Path(given), display, kind, _uri(display, given, os.path.dirname(given)))
            continue
        root_real = os.path.realpath(given)
        for folder, dirs, files in os.walk(given, followlinks=False):
            dirs[:] = sorted(
                d for d in dirs
                if d not in SKIP_DIRS and not d.endswith(".egg-info")
                and not _is_venv(os.path.join(folder, d))
                and not matches(display_path(os.path.join(folder, d)).replace(os.sep, "/"), exclude)
            )
            for name in sorted(files):
                full = os.path.join(folder, name)
                display = display_path(full)
                rel = display.replace(os.sep, "/")
                if not matches(rel, include) or matches(rel, exclude):
                    continue
                if os.path.islink(full):
                    # A link is followed only while it stays inside the linted tree.
                    target = os.path.realpath(full)
                    if not (target == root_real or target.startswith(root_real + os.sep)) or not os.path.isfile(target):
                        continue
                kind = kind_of(name) or "json"
                if display not in seen:
                    seen.add(display)
                    yield Target(Path(full), display, kind, _uri(display, full, os.path.dirname(os.path.normpath(given))))


def display_path(path: str) -> str:
    """Relative to the working directory when possible; absolute input outside it stays as given."""
    if not os.path.isabs(path):
        return os.path.normpath(path)
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if rel.startswith("..") else rel


def _uri(display: str, path: str, anchor: str) -> str:
    """``display`` when relative; otherwise the path relative to the folder holding the given argument."""
    if not os.path.isabs(display):
        return display.replace(os.sep, "/")
    return os.path.relpath(path, anchor or os.curdir).replace(os.sep, "/")


def git_toplevel(start: str) -> Path | None:
    """The top level of the git work tree holding ``start`` (a file or folder), or None (no git, not a
    repository). Asked of git itself, in a subprocess, so worktrees, submodules and GIT_DIR behave as in git."""
    folder = start if os.path.isdir(start) else (os.path.dirname(start) or os.curdir)
    try:
        proc = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True,
                              text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    top = proc.stdout.strip()
    if proc.returncode != 0 or not top:
        return None
    return Path(os.path.realpath(top))


def source_root(anchor: str, config_source: Path | None = None) -> Path:
    """The folder machine formats make paths relative to: the git top level of ``anchor`` (the first
    linted path), else the config file's folder, else the working directory."""
    top = git_toplevel(anchor if os.path.exists(anchor) else os.curdir)
    if top is not None:
        return top
    if config_source is not None:
        return Path(os.path.realpath(os.path.dirname(os.path.abspath(config_source))))
    return Path(os.path.realpath(os.curdir))


def root_relative(path: str, root: Path) -> str | None:
    """``path`` (relative to the working directory, or absolute) as a forward-slash path relative to
    ``root``; None when it lies outside ``root``. The folder is resolved, the file name is kept, so a
    link inside the tree is reported where it is."""
    full = os.path.abspath(path)
    folder = os.path.realpath(os.path.dirname(full))
    try:
        rel = os.path.relpath(os.path.join(folder, os.path.basename(full)), os.path.realpath(root))
    except ValueError:  # another drive on Windows
        return None
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")
