"""File discovery: walk the given paths, skip tool/VCS/venv folders, pick linted kinds."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import ConfigError

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        "_darcs",
        ".venv",
        "venv",
        ".env",
        "env",
        "node_modules",
        "build",
        "dist",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
        ".eggs",
        ".ovadapt_cache",
        "site-packages",
        ".ipynb_checkpoints",
        ".hypothesis",
    }
)


@dataclass(frozen=True)
class Target:
    """A file to lint: where it lies, how it is shown, its kind."""

    path: Path  # the path to open
    display: str  # the path to print: as given or relative, never made absolute
    kind: str  # json | jsonl | python | markdown
    uri: str  # a relative, forward-slash path for machine formats (SARIF), never absolute


def kind_of(name: str) -> str | None:
    lower = name.lower()
    if lower.endswith(".jsonl") or lower.endswith(".ndjson"):
        return "jsonl"
    if lower.endswith(".json") or lower.endswith(".ipynb"):  # a notebook is a JSON document
        return "json"
    if lower.endswith(".py") or lower.endswith(".pyi"):
        return "python"
    if lower.endswith(".md"):
        return "markdown"
    return None


# JSON with comments: `*.jsonc`, TypeScript's `tsconfig*.json`/`jsconfig*.json` and the editor's and dev
# container's settings (`.vscode/*.json`, `devcontainer.json`) allow `//`, `/* */` and trailing commas.
# Told by name, here beside the other kinds: a warm run asks it of every JSON file and reads none of them.
LENIENT_NAME = re.compile(r"(?i)^(?:.*\.jsonc|[tj]sconfig.*\.json|\.?devcontainer\.json)$")
LENIENT_FOLDERS = frozenset({".vscode", ".devcontainer"})


def lenient_path(path: Path) -> bool:
    """Whether the file at ``path`` is JSON with comments by its name or folder."""
    return bool(LENIENT_NAME.match(path.name)) or (
        path.suffix.lower() == ".json" and path.parent.name in LENIENT_FOLDERS
    )


def _sniff_json(path: Path) -> bool:
    from .source import read_regular

    try:
        head = read_regular(path, 512).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return True  # let the reader report it
    return head[:1] in (b"{", b"[")


@lru_cache(maxsize=128)
def _globs(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    """The globs and their folder-prefix forms (`p/*`) as one regex: discovery and roles ask them of
    every file, so they are compiled once (fnmatch's rules, fnmatch's case folding)."""
    if not patterns:
        return None
    parts = [fnmatch.translate(os.path.normcase(p)) for p in patterns]
    parts += [fnmatch.translate(os.path.normcase(p.rstrip("/") + "/*")) for p in patterns]
    return re.compile("|".join(f"(?:{part})" for part in parts))


def matches(rel: str, patterns: Sequence[str]) -> bool:
    """A relative posix path against globs: on its name, the whole path, or as a folder prefix."""
    regex = _globs(tuple(patterns))
    if regex is None:
        return False
    rel = os.path.normcase(rel)
    return bool(regex.match(rel.rsplit("/", 1)[-1]) or regex.match(rel))


def included(rel: str, patterns: Sequence[str]) -> bool:
    """``matches`` for include patterns, ignoring case: `DATA.JSON` and `Tool.PY` are what `*.json`
    and `*.py` mean on every file system."""
    return matches(rel, patterns) or matches(rel.lower(), [p.lower() for p in patterns])


def is_venv(path: str) -> bool:
    """A virtual environment: a ``pyvenv.cfg`` with a ``home =`` line (what CPython's site module reads).
    An empty or unrelated ``pyvenv.cfg`` does not hide a folder."""
    from .source import read_regular

    try:  # a FIFO named pyvenv.cfg must not block the walk
        head = read_regular(os.path.join(path, "pyvenv.cfg"), 65536)
    except OSError:
        return False
    return any(
        line.split(b"=", 1)[0].strip().lower() == b"home"
        for line in head.splitlines()
        if b"=" in line
    )


def skipped_dir(name: str, path: str) -> bool:
    """A folder the built-in skips leave out: VCS, tool caches, build output, virtual environments."""
    return name in SKIP_DIRS or name.endswith(".egg-info") or is_venv(path)


def _in_skipped_dir(given: str) -> bool:
    """An explicitly named file inside a skipped folder (below the working directory when it lies
    there, else anywhere on its path), as pre-commit names a staged `node_modules/...` file."""
    folder = os.path.dirname(os.path.normpath(given))
    rel = os.path.relpath(os.path.abspath(folder)) if folder else os.curdir
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        rel = os.path.abspath(folder)
    while rel and rel not in (os.curdir, os.sep) and os.path.dirname(rel) != rel:
        if skipped_dir(os.path.basename(rel), rel):
            return True
        rel = os.path.dirname(rel)
    return False


# Folder -> (include, exclude, config folder) for the files below it; the default uses one set for all.
Settings = Callable[[str], "tuple[Sequence[str], Sequence[str], Path | None]"]


def _excluded(path: str, exclude: Sequence[str], base: Path | None) -> bool:
    """Exclude globs match the path as displayed (relative to the working directory) or relative
    to the folder of the config file that set them."""
    if not exclude:
        return False  # asked of every file: nothing to match when no glob is set
    if matches(display_path(path).replace(os.sep, "/"), exclude):
        return True
    if base is None:
        return False
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    return not rel.startswith(os.pardir) and matches(rel.replace(os.sep, "/"), exclude)


def discover(
    paths: list[str],
    include: Sequence[str],
    exclude: Sequence[str],
    settings: Settings | None = None,
    force_include: bool = False,
    skipped: list[str] | None = None,
) -> Iterator[Target]:
    """The files to lint. ``settings``: per-folder include/exclude (hierarchical configuration);
    ``force_include``: lint explicitly named files even in skipped or excluded places; ``skipped``
    collects the explicitly named files left out."""
    seen: set[str] = set()
    settings = settings or (lambda folder: (include, exclude, None))
    for given in paths:
        if not os.path.lexists(given):
            raise ConfigError(f"{given}: no such file or directory")
        if os.path.exists(given) and not os.path.isdir(given) and not os.path.isfile(given):
            # A FIFO, socket or device: reading it could block the run forever. Left out, as a skipped file.
            if skipped is not None:
                skipped.append(display_path(given))
            continue
        if os.path.isfile(given):
            # Explicitly named files are linted whatever their name, unless excluded or in a skipped folder.
            display = display_path(given)
            _, file_exclude, base = settings(os.path.dirname(given) or os.curdir)
            if not force_include and (
                _excluded(given, file_exclude, base) or _in_skipped_dir(given)
            ):
                if skipped is not None:
                    skipped.append(display)
                continue
            kind = kind_of(given) or ("json" if _sniff_json(Path(given)) else None)
            if kind and display not in seen:
                seen.add(display)
                yield Target(
                    Path(given), display, kind, _uri(display, given, os.path.dirname(given))
                )
            continue
        root_real = os.path.realpath(given)
        # What machine formats' paths are relative to.
        anchor = os.path.dirname(os.path.normpath(given))
        for folder, dirs, files in os.walk(given, followlinks=False):
            folder_include, folder_exclude, base = settings(folder)
            dirs[:] = sorted(
                d
                for d in dirs
                if not skipped_dir(d, os.path.join(folder, d))
                and not _excluded(os.path.join(folder, d), folder_exclude, base)
            )
            # The folder's Path, made once: its files' paths are its children (cheaper than parsing each).
            folder_path = None
            for name in sorted(files):
                full = os.path.join(folder, name)
                display = display_path(full)
                rel = display.replace(os.sep, "/")
                if not included(rel, folder_include) or _excluded(full, folder_exclude, base):
                    continue
                if os.path.islink(full):
                    # A link is followed only while it stays inside the linted tree.
                    target = os.path.realpath(full)
                    if not (
                        target == root_real or target.startswith(root_real + os.sep)
                    ) or not os.path.isfile(target):
                        continue
                elif not os.path.isfile(full):
                    continue  # a FIFO, socket or device named like a fixture: reading it could block forever
                kind = kind_of(name) or "json"
                if display not in seen:
                    seen.add(display)
                    if folder_path is None:
                        folder_path = Path(folder)
                    yield Target(folder_path / name, display, kind, _uri(display, full, anchor))


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
    import subprocess

    folder = start if os.path.isdir(start) else (os.path.dirname(start) or os.curdir)
    try:
        proc = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
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
    if (
        rel == os.curdir
        or rel == os.pardir
        or rel.startswith(os.pardir + os.sep)
        or os.path.isabs(rel)
    ):
        return None
    return rel.replace(os.sep, "/")
