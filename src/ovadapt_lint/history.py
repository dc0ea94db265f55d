"""``ovadapt-lint history``: lint every blob of a lintable path that ever existed in the history.

A leak that was committed and later deleted is still public: anyone can check out the old commit.
This walks ``git log --raw`` (the current branch by default, every ref with ``--all-refs``), lints
each blob once (blob ids deduplicate; the result cache is keyed by blob id), streams the blobs with
``git cat-file --batch`` (no checkout; the content is linted in memory, nothing is written into the
repository), and says for every finding which commit introduced the blob, the path at that commit,
and whether the content is still present at HEAD or was removed, and in which commit.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .analysis import Analysis
from .config import Config, RunOptions
from .discover import SKIP_DIRS, Target, included, kind_of, matches
from .engine import Unit, lint_unit, map_units, open_run_cache
from .findings import Finding, HistoryMark
from .results import HistoryProvenance, LintResult
from .source import notice
from .vcs import GitError, display, git, repo_root, resolve_commit

_NULL = "0" * 40


@dataclass
class Commit:
    sha: str
    date: str
    author: str
    order: int


@dataclass
class Blob:
    sha: str
    path: str  # the path at the introducing commit (repository-relative, posix)
    commit: Commit  # the commit that introduced it
    kind: str
    removed_in: Commit | None = None


@dataclass
class HistoryScan:
    """A history scan: its result, what it covered (its provenance, for the reports' RunMetadata) and the
    blobs it linted."""

    result: LintResult
    provenance: HistoryProvenance
    blobs: list[Blob] = field(default_factory=list)


def _pathspecs(root: Path, paths: list[str]) -> list[str]:
    specs = []
    for given in paths or ["."]:
        full = Path(os.path.realpath(os.path.abspath(given)))
        try:
            rel = full.relative_to(root)
        except ValueError:
            raise GitError(
                f"{display(given)} lies outside the git repository being scanned"
            ) from None
        specs.append(rel.as_posix() if str(rel) != "." else ".")
    return specs


def _lintable(path: str, config: Config, named: set[str]) -> str | None:
    """The kind a folder walk would lint ``path`` as, or None."""
    parts = path.split("/")
    if path not in named:
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in parts[:-1]):
            return None
        if not included(path, config.include) or matches(path, config.exclude):
            return None
    elif matches(path, config.exclude):
        return None
    return kind_of(parts[-1]) or (
        "json" if matches(path, config.include) or path in named else None
    )


def _walk_log(
    root: Path, revs: list[str], specs: list[str], max_commits: int | None
) -> Iterator[tuple[Commit, list[tuple[str, str, str, str, str, str]]]]:
    """(commit, [(old mode, new mode, old blob, new blob, status, path)…]) oldest first."""
    args = [
        "log",
        "--reverse",
        "--topo-order",
        "-m",
        "--raw",
        "--no-renames",
        "--no-abbrev",
        "-z",
        "--format=%x01%H%x02%as%x02%an",
    ]
    if max_commits:
        args.append(f"--max-count={max_commits}")
    args += [*revs, "--", *specs]
    try:
        proc = subprocess.Popen(
            ["git", "--literal-pathspecs", *args],
            cwd=str(root),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
        )
    except OSError:
        raise GitError("git is not installed (or not on PATH); history mode needs it") from None
    stderr: list[bytes] = []
    out, err = proc.stdout, proc.stderr
    assert out is not None and err is not None  # both PIPE
    reader = threading.Thread(target=lambda: stderr.append(err.read()), daemon=True)
    reader.start()
    data = out.read()
    proc.wait()
    reader.join()
    if proc.returncode != 0:
        from .vcs import first_line

        raise GitError(f"git log failed: {first_line(stderr[0] if stderr else b'')}")
    tokens = data.split(b"\0")
    order = 0
    current: Commit | None = None
    changes: list = []
    index = 0
    seen: dict[str, Commit] = {}
    while index < len(tokens):
        token = tokens[index].lstrip(b"\n")
        index += 1
        if token.startswith(b"\x01"):
            if current is not None:
                yield current, changes
            sha, date, author = token[1:].decode("utf-8", "replace").split("\x02", 2)
            if sha not in seen:  # a merge is listed once per parent (-m)
                seen[sha] = Commit(sha, date, author, order)
                order += 1
            current, changes = seen[sha], []
        elif token.startswith(b":") and index < len(tokens):
            path = tokens[index].decode("utf-8", "surrogateescape")
            index += 1
            old_mode, new_mode, old, new, status = (
                token[1:].decode("ascii", "replace").split(" ")[:5]
            )
            changes.append((old_mode, new_mode, old, new, status[:1], path))
    if current is not None:
        yield current, changes


def _collect(
    root: Path,
    config: Config,
    revs: list[str],
    specs: list[str],
    named: set[str],
    max_commits: int | None,
) -> tuple[list[Blob], int]:
    blobs: dict[str, Blob] = {}
    # (path, blob) -> the blob lives there since; the first later change away from it removes it.
    live: dict[tuple[str, str], Blob] = {}
    commits: set[str] = set()  # a merge comes once per parent (-m): counted once
    for commit, changes in _walk_log(root, revs, specs, max_commits):
        commits.add(commit.sha)
        for _old_mode, new_mode, old, new, _status, path in changes:
            if old != _NULL and old != new:
                holder = live.pop((path, old), None)
                if holder is not None and holder.removed_in is None:
                    holder.removed_in = commit
            if new == _NULL or not new_mode.startswith("100"):  # deleted, a link or a submodule
                continue
            if new in blobs:
                live.setdefault((path, new), blobs[new])
                continue
            kind = _lintable(path, config, named)
            if kind is None:
                continue
            blob = Blob(new, path, commit, kind)
            blobs[new] = blob
            live[(path, new)] = blob
    return list(blobs.values()), len(commits)


def _head_blobs(root: Path) -> set[str]:
    proc = git(["ls-tree", "-r", "-z", "--full-tree", "HEAD"], root, text=False)
    found = set()
    for entry in proc.stdout.split(b"\0"):
        if entry:
            meta = entry.split(b"\t", 1)[0].split(b" ")
            if len(meta) == 3:
                found.add(meta[2].decode("ascii"))
    return found


_SKIP_CHUNK = 1 << 20


def _cat_blobs(
    root: Path, shas: list[str], max_size: int = 0
) -> Iterator[tuple[str, bytes | None, int]]:
    """(blob id, content or None when missing, size) for each id, streamed by ``git cat-file --batch``. A blob
    over ``max_size`` (0: no limit) comes with empty content and is read past in small pieces, never held:
    a small, highly compressed repository can hold a blob of any size."""
    if not shas:
        return
    proc = subprocess.Popen(
        ["git", "cat-file", "--batch"],
        cwd=str(root),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    requests, answers = proc.stdin, proc.stdout
    assert requests is not None and answers is not None  # both PIPE

    def feed() -> None:
        try:
            for sha in shas:
                requests.write(sha.encode("ascii") + b"\n")
            requests.close()
        except (BrokenPipeError, OSError):
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        for sha in shas:
            header = answers.readline().split()
            if len(header) != 3:
                yield sha, None, 0
                continue
            size = int(header[2])
            if max_size and size > max_size:
                left = size
                while left > 0:
                    piece = answers.read(min(left, _SKIP_CHUNK))
                    if not piece:
                        break
                    left -= len(piece)
                data = b""
            else:
                data = answers.read(size)
            answers.read(1)  # the newline after the content
            yield sha, data, size
    finally:
        # Every answer has been read. Worker processes forked meanwhile hold a copy of cat-file's stdin,
        # so it would never see end of input: stop it instead of waiting for it.
        answers.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        writer.join(timeout=5)


def _lint_blob(
    item: tuple[str, Unit], config: Config, analysis: Analysis, cache
) -> tuple[str, list[Finding]]:
    """One blob's findings (engine.map_units' work for blobs): linted as a file of that name would be."""
    sha, unit = item
    return sha, lint_unit(unit, config, analysis)[0]


def scan_history(
    paths: list[str],
    config: Config,
    analysis: Analysis | None = None,
    *,
    options: RunOptions | None = None,
    since: str | None = None,
    max_commits: int | None = None,
    all_refs: bool = False,
    show_authors: bool = False,
) -> HistoryScan:
    """``analysis``: the one built from ``config`` (built here when not given; a bad file is a ConfigError now,
    and workers receive the analysis built here)."""
    from .finalise import finalise, select

    analysis = analysis or Analysis.build(config)
    options = options or RunOptions()
    started = time.monotonic()
    root = repo_root((paths or ["."])[0])
    head = git(["rev-parse", "--verify", "--quiet", "HEAD"], root, check=False).stdout.strip()
    if not head:
        raise GitError("the repository has no commits yet: nothing to scan")
    revs = ["--all"] if all_refs else ["HEAD"]
    if since is not None:
        revs += ["--not", resolve_commit(root, since)]
    specs = _pathspecs(root, paths)
    named = {spec for spec in specs if spec != "."}
    blobs, commits = _collect(root, config, revs, specs, named, max_commits)
    found, cached = _lint_blobs(root, blobs, config, _with_cache_dir(root, options), analysis)
    at_head = _head_blobs(root)
    # The reports describe and mask with the configuration's rules, extension rules included.
    result = LintResult(
        anchor=(paths or ["."])[0], config_source=config.source, rules=analysis.pack.rules
    )
    for blob in sorted(blobs, key=lambda b: (b.commit.order, b.path, b.sha)):
        target = Target(root / blob.path, blob.path, blob.kind, blob.path)
        result.add_file(target)
        findings = found.get(blob.sha, [])
        annotate(findings, blob, blob.sha in at_head, show_authors)
        select(result, config, target, findings)
    finalise(result, options, key=_history_key)
    branch = git(["symbolic-ref", "--quiet", "--short", "HEAD"], root, check=False).stdout.strip()
    provenance = HistoryProvenance(
        head=head,
        branch=branch or None,
        remote=_public_remote(root),
        commits=commits,
        blobs=len(blobs),
        cached=cached,
        seconds=time.monotonic() - started,
    )
    return HistoryScan(result=result, provenance=provenance, blobs=blobs)


def _with_cache_dir(root: Path, options: RunOptions) -> RunOptions:
    """``options`` with the result cache inside the git folder, never in the work tree being scanned."""
    if not options.use_cache or options.cache_dir is not None:
        return options
    common = git(["rev-parse", "--git-common-dir"], root).stdout.strip()
    return dataclasses.replace(options, cache_dir=(root / common).resolve() / "ovadapt_cache")


def _lint_blobs(
    root: Path, blobs: list[Blob], config: Config, options: RunOptions, analysis: Analysis
) -> tuple[dict[str, list[Finding]], int]:
    """Each blob's findings (blob id -> findings) and how many the result cache answered (keyed by blob id:
    a cached blob is never read)."""
    from .classify import file_role

    base = config.source.parent if config.source is not None else root
    roles = {
        blob.sha: file_role(root / blob.path, config.public_paths, config.test_paths, base)
        for blob in blobs
    }
    cache = open_run_cache(options, config)
    keys: dict[str, str] = {}
    found: dict[str, list[Finding]] = {}
    pending: list[Blob] = []
    for blob in blobs:
        if cache is not None:
            keys[blob.sha] = cache.key(
                f"blob:{blob.kind}:{roles[blob.sha]}", blob.sha.encode("ascii")
            )
            hit = cache.get(keys[blob.sha], blob.path)
            if hit is not None:
                found[blob.sha] = hit
                continue
        pending.append(blob)
    units = _units(root, pending, roles, config.max_file_size, found)
    for sha, findings in map_units(
        _lint_blob, units, len(pending), config, analysis, jobs=options.jobs
    ):
        found[sha] = findings
        if cache is not None and not any(f.code in ("OVA003", "OVA009") for f in findings):
            cache.put(keys[sha], findings)
    return found, len(blobs) - len(pending)


def _units(
    root: Path,
    pending: list[Blob],
    roles: dict[str, str],
    max_size: int,
    found: dict[str, list[Finding]],
) -> Iterator[tuple[str, Unit]]:
    """(blob id, unit) of each blob to lint, its bytes streamed from the object store; a missing or too
    large blob gets its notice in ``found`` instead."""
    for blob, (sha, data, size) in zip(
        pending, _cat_blobs(root, [b.sha for b in pending], max_size)
    ):
        if data is None:
            found[sha] = [
                notice(
                    "OVA003",
                    "blob missing from the object store (a shallow or partial clone?)",
                    blob.path,
                )
            ]
        elif max_size and size > max_size:
            found[sha] = [
                notice(
                    "OVA004",
                    f"file is {size:,} bytes, over the {max_size:,}-byte limit; not checked",
                    blob.path,
                )
            ]
        else:
            unit = Unit(
                Path(blob.path), blob.path, blob.kind, roles[sha], data, "blob", editable=False
            )
            yield sha, unit


def annotate(findings: list[Finding], blob: Blob, present: bool, show_authors: bool) -> None:
    """Say on each of ``blob``'s findings which commit introduced it, at which path, and whether the blob is
    still present at HEAD or in which commit it was removed (``present``: it is at HEAD)."""
    removed = blob.removed_in
    if present:
        status = "still present"
    elif removed is not None:
        status = f"removed in {removed.sha[:12]}"
    else:
        status = "not present at HEAD"
    mark = HistoryMark(
        commit=blob.commit.sha[:12],
        commit_date=blob.commit.date,
        path_at_commit=blob.path,
        blob=blob.sha[:12],
        present_at_head=present,
        removed_in=None if present or removed is None else removed.sha[:12],
        status=status,
        author=blob.commit.author if show_authors else None,
        order=blob.commit.order,
    )
    for finding in findings:
        finding.path = blob.path
        finding.history = mark


def _history_key(finding: Finding) -> tuple:
    mark = finding.history
    return (
        mark.order if mark is not None else 1 << 60,
        finding.path,
        mark.blob if mark is not None else "",
        finding.span.start_line,
        finding.span.start_col,
        finding.code,
        finding.message,
    )


def _public_remote(root: Path) -> str | None:
    """The origin's URL when it is a network URL, with any user name or token removed."""
    from urllib.parse import urlsplit, urlunsplit

    url = git(["config", "--get", "remote.origin.url"], root, check=False).stdout.strip()
    if not url:
        return None
    if url.startswith("git@") and ":" in url:  # scp-like syntax
        host, _, rest = url[4:].partition(":")
        return f"https://{host}/{rest}"
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http", "ssh", "git") or not parts.hostname:
        return None
    netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
    return urlunsplit(
        ("https" if parts.scheme in ("ssh", "git") else parts.scheme, netloc, parts.path, "", "")
    )
