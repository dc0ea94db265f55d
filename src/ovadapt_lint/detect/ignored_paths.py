"""Relative paths into folders a repository ignores: `.local/tmp/run-7/result.json` in a published value
points into scratch that was never committed (OVA505).

Which folders are ignored is asked of git itself (`git check-ignore --no-index -v`), the reference
implementation of .gitignore matching, so the answer names the rule (`.gitignore:3:.local/`). The user's
global excludes file is switched off: the answer must not depend on the machine. Without git or outside a
repository nothing is reported here (the well-known scratch folders are a text signature of OVA505).
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

from .. import rulepack

# A relative path: folders then a name, not inside a URL, an absolute or home path, or a longer word.
_RELATIVE = re.compile(
    r"(?<![\w./~:\\@%$-])(?:\./)?([A-Za-z0-9_.][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)+)/?"
)
MAX_DEPTH = 4  # folders deeper than this are judged at this depth
# (repository root, .gitignore's mtime, folder) -> the rule that ignores it, "" when none. Bounded: a run asks
# each folder once per process, not once per value.
_ANSWERS: dict[tuple[str, int, str], str] = {}
_MAX_ANSWERS = 4096


@lru_cache(maxsize=1)
def scratch_folders() -> frozenset[str]:
    """The well-known scratch folders (rules/vocabulary/paths.toml)."""
    return frozenset(rulepack.load_toml("vocabulary", "paths.toml")["scratch_folders"])


def scratch_folder(folder: str) -> bool:
    """``folder`` (`a/b/`) starts with a well-known scratch folder."""
    return folder.split("/", 1)[0] in scratch_folders()


def relative_paths(text: str) -> list[tuple[str, int, int]]:
    """(folder, start, end) of each relative path in ``text``: its folder (`a/b/`, at most MAX_DEPTH deep) and
    where the path lies. A path is judged by its own folder, the deepest: git answers for it through the rules
    on its parents (`.local/` ignores `.local/tmp/`), and a negated rule (`!logs/public/`) is seen there."""
    out = []
    for match in _RELATIVE.finditer(text):
        parts = match.group(1).split("/")[:-1][:MAX_DEPTH]
        if parts and not any(p in (".", "..") for p in parts):
            out.append(("/".join(parts) + "/", match.start(), match.end()))
    return out


def leading_folders(text: str) -> list[str]:
    """The folders of the relative paths in ``text`` (relative_paths), in order, without repeats."""
    return list(dict.fromkeys(folder for folder, _, _ in relative_paths(text)))


def ignored(root: Path, folders: list[str]) -> dict[str, str]:
    """folder -> the rule that ignores it (`source:line:pattern`), for the ``folders`` git ignores in ``root``."""
    try:
        stamp = (root / ".gitignore").stat().st_mtime_ns
    except OSError:
        stamp = 0
    key = str(root)
    asked = [f for f in folders if (key, stamp, f) not in _ANSWERS]
    if asked:
        answers = _ask_git(root, asked)
        if len(_ANSWERS) + len(asked) > _MAX_ANSWERS:
            _ANSWERS.clear()
        for folder in asked:
            _ANSWERS[(key, stamp, folder)] = answers.get(folder, "")
    return {f: _ANSWERS.get((key, stamp, f), "") for f in folders if _ANSWERS.get((key, stamp, f))}


def _ask_git(root: Path, folders: list[str]) -> dict[str, str]:
    try:
        proc = subprocess.run(
            [
                "git",
                "-c",
                f"core.excludesFile={os.devnull}",
                "-C",
                str(root),
                "check-ignore",
                "--no-index",
                "-v",
                "-z",
                "--stdin",
            ],
            input=b"".join(f.encode("utf-8") + b"\0" for f in folders),
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    if proc.returncode not in (0, 1):
        return {}
    fields = proc.stdout.decode("utf-8", "replace").split("\0")
    out = {}
    for index in range(0, len(fields) - 3, 4):
        source, line, pattern, folder = fields[index : index + 4]
        if pattern and not pattern.startswith(
            "!"
        ):  # a negated pattern that matches means "not ignored"
            out[folder] = f"{_shown_source(source, root)}:{line}:{pattern}"
    return out


def _shown_source(source: str, root: Path) -> str:
    """The ignore file as a repository-relative path: never an absolute path of this machine."""
    if os.path.isabs(source):
        try:
            return Path(source).relative_to(root).as_posix()
        except ValueError:
            return Path(source).name
    return source.replace(os.sep, "/")
