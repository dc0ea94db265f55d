"""GitHub Actions workflow commands (``::error file=...,title=CODE name::message``), then one summary line.

``file=`` is relative to the repository root (as in SARIF), so annotations land on the
right file from any working directory. GitHub turns at most 10 commands of each level
per step into annotations (50 per job); the log shows every one, and the summary
line, printed last, gives the totals.
"""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from ..results import LintResult, RunMetadata
from ..source import visible
from .sarif import outside_uri

_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}
# GitHub's limit on annotations per level per step.
ANNOTATIONS_PER_STEP = 10


def _data(text: str) -> str:
    """A workflow command's message. Line breaks are GitHub's escapes; every other control character (ESC
    would drive the log viewer, U+2028 would break a line in it) a visible escape (source.visible)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return visible(text)


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def write_github(result: LintResult, meta: RunMetadata, out: TextIO) -> None:
    """Annotations for a finalised ``result``, named relative to ``meta.source_root``."""
    root = meta.source_root
    if root is None:
        raise ValueError(
            "write_github needs the run's source root (finalise.run_metadata(root=True))"
        )
    files: dict[str, str] = {}
    for f in result.findings:
        if f.path not in files:
            # Outside the repository root: relative to it (`../elsewhere/x.json`), as SARIF names it, never by a
            # bare name another file may share, nor by an absolute path of this machine.
            files[f.path] = (
                result.root_uri(f.path, root)
                or outside_uri(result, f.path, root)
                or result.uri(f.path)
            )
        s = f.span
        out.write(
            f"::{_LEVEL.get(f.severity, 'error')} file={_prop(files[f.path])},line={s.start_line},col={s.start_col},"
            f"endLine={s.end_line},endColumn={s.end_col},title={_prop(f.code + ' ' + f.name)}::"
            f"{_data(f.code + ' ' + f.message)}\n"
        )
    if result.findings:
        levels = Counter(_LEVEL.get(f.severity, "error") for f in result.findings)
        parts = ", ".join(
            f"{n} {level}{'s' if n != 1 else ''}" for level, n in sorted(levels.items())
        )
        over = any(n > ANNOTATIONS_PER_STEP for n in levels.values())
        note = (
            f"; GitHub shows {ANNOTATIONS_PER_STEP} annotations of each level per step, the log above lists them all"
            if over
            else ""
        )
        out.write(
            f"ovadapt-lint: {len(result.findings)} finding(s) ({parts}) in {len(files)} of "
            f"{len(result.files)} file(s){note}{_review_note(meta)}\n"
        )
    elif meta.review is not None:
        out.write(f"ovadapt-lint: no findings on changed lines{_review_note(meta)}\n")


def _review_note(meta: RunMetadata) -> str:
    return f"; {meta.review.note}" if meta.review is not None else ""


def report(result: LintResult, meta: RunMetadata, options, out: TextIO) -> None:
    """The ``github`` format (report.registry)."""
    write_github(result, meta, out)
