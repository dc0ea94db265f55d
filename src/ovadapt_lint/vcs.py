"""Git through a subprocess (no git library): review mode (``--diff-base REF``) and the helpers that
history scanning (``ovadapt-lint history``) shares with it.

Review mode lints the files that differ between REF's merge base and the working tree (added,
modified, renamed; untracked files unless ``--no-untracked``) and keeps only the findings on added or
changed lines, plus every finding of a file the change adds. The others are counted, never lost.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import registry
from .errors import ConfigError, GitError
from .findings import Finding

_GIT_TIMEOUT = 600


def git(
    args: list[str], cwd: Path | str, *, check: bool = True, text: bool = True
) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(
            ["git", "-c", "core.quotePath=false", *args],
            cwd=str(cwd),
            capture_output=True,
            text=text,
            timeout=_GIT_TIMEOUT,
            stdin=subprocess.DEVNULL,
            encoding="utf-8" if text else None,
            errors="surrogateescape" if text else None,
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed (or not on PATH); review and history modes need it"
        ) from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot run git: {type(exc).__name__}") from None
    if check and proc.returncode != 0:
        raise GitError(f"git {args[0]} failed: {first_line(proc.stderr)}")
    return proc


def first_line(stderr) -> str:
    """The first non-blank line of a command's error output (bytes or text), for a one-line message."""
    if isinstance(stderr, bytes):
        stderr = stderr.decode("utf-8", "replace")
    lines = [line for line in (stderr or "").splitlines() if line.strip()]
    return lines[0].strip() if lines else "no message"


def repo_root(start: str) -> Path:
    """The top level of the work tree holding ``start``; a clear error outside a git repository."""
    folder = start if os.path.isdir(start) else (os.path.dirname(start) or os.curdir)
    if not os.path.isdir(folder):
        raise GitError(f"{start}: no such file or directory")
    proc = git(["rev-parse", "--show-toplevel"], folder, check=False)
    top = proc.stdout.strip()
    if proc.returncode != 0 or not top:
        raise GitError(
            f"{display(start)} is not inside a git repository (review and history modes need one)"
        )
    return Path(os.path.realpath(top))


def display(path: str) -> str:
    """A path for an error message: never an absolute path of this machine."""
    return path if not os.path.isabs(path) else (os.path.basename(path.rstrip(os.sep)) or ".")


def resolve_commit(root: Path, ref: str) -> str:
    if not ref or ref.startswith("-"):
        raise GitError(f"unknown git revision {ref!r}")
    proc = git(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
        root,
        check=False,
    )
    if proc.returncode != 0 or not proc.stdout.strip():
        raise GitError(
            f"unknown git revision {ref!r} (not a branch, tag or commit of this repository; "
            f"in CI, fetch it first, e.g. `git fetch origin main` and use origin/main)"
        )
    return proc.stdout.strip()


def merge_base(root: Path, ref: str) -> str:
    commit = resolve_commit(root, ref)
    proc = git(["merge-base", commit, "HEAD"], root, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise GitError(
            f"{ref!r} has no merge base with HEAD (unrelated history, or a shallow clone: "
            f"fetch more history, e.g. `fetch-depth: 0`)"
        )
    return proc.stdout.strip()


def _unquote(name: str) -> str:
    """A path as git prints it in diff headers: C-quoted when it holds special characters."""
    if not (name.startswith('"') and name.endswith('"')):
        return name
    body = name[1:-1]
    out = bytearray()
    index = 0
    escapes = {"n": 10, "t": 9, '"': 34, "\\": 92, "a": 7, "b": 8, "f": 12, "r": 13, "v": 11}
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            nxt = body[index + 1]
            if nxt in "01234567" and index + 3 < len(body) + 1:
                out.append(int(body[index + 1 : index + 4], 8))
                index += 4
                continue
            out.append(escapes.get(nxt, ord(nxt)))
            index += 2
            continue
        out += char.encode("utf-8", "surrogateescape")
        index += 1
    return out.decode("utf-8", "surrogateescape")


@dataclass
class ReviewScope:
    """What a change touches, relative to the repository root (posix paths)."""

    root: Path
    base: str  # the merge base commit
    ref: str  # as given
    added: set[str] = field(
        default_factory=set
    )  # new files (and untracked ones): every finding counts
    changed: dict[str, set[int]] = field(
        default_factory=dict
    )  # modified / renamed files -> changed lines (new side)

    def files(self) -> list[str]:
        return sorted(self.added | set(self.changed))

    def keeps(self, rel: str | None, finding: Finding, source=None, rules=None) -> bool:
        """Whether ``finding`` (in the file ``rel``) is on what the change adds. A contract finding at an
        object (a missing key) counts when any line of the object changed. ``rules``: the run's rules
        (an extension file may add a notice); default the built-in ones."""
        if rel is None or rel in self.added:
            return True
        lines = self.changed.get(rel)
        if lines is None:
            return (
                True  # not a file of the change (a stale-baseline notice names the baseline file)
            )
        rule = (rules if rules is not None else registry.all_rules()).get(finding.code)
        if rule is not None and rule.policy.notice and not rule.review_by_line:
            return True  # a changed file that could not be checked has not been proven safe
        span = finding.span
        end = max(span.end_line, span.start_line)
        if finding.category == "contract" and source is not None:
            end = max(end, _container_end_line(source, span.start_line, span.start_col))
        if end - span.start_line > 10_000:
            return any(span.start_line <= line <= end for line in lines)
        return any(line in lines for line in range(span.start_line, end + 1))


def _container_end_line(source, line: int, col: int) -> int:
    """The last line of the JSON object or array that starts at (line, col); ``line`` when none does."""
    try:
        offset = source.offset(line, col)
    except Exception:
        return line
    data = source.data
    if offset >= len(data) or data[offset : offset + 1] not in (b"{", b"["):
        return line
    depth = 0
    in_string = False
    index = offset
    length = len(data)
    while index < length:
        byte = data[index]
        if in_string:
            if byte == 0x5C:  # backslash
                index += 2
                continue
            if byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x7B, 0x5B):
            depth += 1
        elif byte in (0x7D, 0x5D):
            depth -= 1
            if depth == 0:
                return source.position(index)[0]  # the line model of the finding lines
        index += 1
    return line


def review_scope(start: str, ref: str, untracked: bool = True) -> ReviewScope:
    root = repo_root(start)
    base = merge_base(root, ref)
    scope = ReviewScope(root=root, base=base, ref=ref)
    # Statuses first (NUL-separated, so any file name is exact), then the hunks of each file.
    proc = git(
        ["diff", "--name-status", "-z", "-M", "--no-ext-diff", "--diff-filter=AMRT", base, "--"],
        root,
    )
    parts = proc.stdout.split("\0")
    index = 0
    modified: set[str] = set()
    while index < len(parts) and parts[index]:
        status = parts[index]
        if status.startswith(("R", "C")):
            new = parts[index + 2]
            index += 3
            modified.add(new)
        else:
            name = parts[index + 1]
            index += 2
            (scope.added if status.startswith("A") else modified).add(name)
    if modified:
        proc = git(
            [
                "diff",
                "--unified=0",
                "--no-color",
                "--no-ext-diff",
                "-M",
                "--diff-filter=MRT",
                base,
                "--",
            ],
            root,
        )
        current: str | None = None
        for line in proc.stdout.splitlines():
            if line.startswith("+++ "):
                name = line[4:]
                name = _unquote(name)
                current = name[2:] if name.startswith("b/") else None
                if current is not None:
                    scope.changed.setdefault(current, set())
            elif line.startswith("@@") and current is not None:
                new_side = line.split("+", 1)[1].split(" ", 1)[0]
                start_text, _, count_text = new_side.partition(",")
                start_line, count = int(start_text), int(count_text) if count_text else 1
                scope.changed[current].update(range(start_line, start_line + count))
        for name in modified:
            scope.changed.setdefault(name, set())  # a pure rename or mode change: no changed line
    if untracked:
        proc = git(["ls-files", "--others", "--exclude-standard", "-z"], root)
        scope.added.update(name for name in proc.stdout.split("\0") if name)
    for name in list(scope.added):
        scope.changed.pop(name, None)
    return scope


def review_paths(
    scope: ReviewScope, paths: list[str], include: list[str], exclude: list[str]
) -> list[str]:
    """The changed files inside the given paths that a folder walk would lint (as paths to pass to run())."""
    from .discover import SKIP_DIRS, included, matches

    for given in paths or ["."]:
        if not os.path.lexists(given):
            raise ConfigError(f"{given}: no such file or directory")
    roots = [Path(os.path.realpath(p)) for p in (paths or ["."])]
    selected: list[str] = []
    for rel in scope.files():
        full = scope.root / rel
        if not full.is_file():
            continue  # deleted in the working tree since
        parts = rel.split("/")
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in parts[:-1]):
            continue
        real = Path(os.path.realpath(full.parent)) / full.name
        if not any(real == r or r in real.parents for r in roots):
            continue
        named = any(real == r for r in roots)
        if not named and (not included(rel, include) or matches(rel, exclude)):
            continue
        selected.append(
            os.path.relpath(full) if not os.path.relpath(full).startswith("..") else str(full)
        )
    return selected


def filter_result(result, scope: ReviewScope) -> int:
    """Keep the findings on what the change adds; the number of the others (results.Review says it)."""
    from .discover import root_relative

    kept: list[Finding] = []
    hidden = 0
    relative: dict[str, str | None] = {}
    for finding in result.findings:
        if finding.path not in relative:
            target = result.targets.get(finding.path)
            relative[finding.path] = (
                root_relative(str(target.path), scope.root) if target is not None else None
            )
        source = result.source(finding.path) if finding.category == "contract" else None
        if scope.keeps(relative[finding.path], finding, source, result.rules):
            kept.append(finding)
        else:
            hidden += 1
    result.findings = kept
    return hidden
