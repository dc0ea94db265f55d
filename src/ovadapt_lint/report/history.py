"""The text and concise layouts of ``ovadapt-lint history``: findings by commit and blob, then a summary
of what the scan covered. The JSON and SARIF reports of a scan are the usual ones, with its provenance
(report.json_report, report.sarif)."""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from ..results import HistoryProvenance, LintResult
from ..source import visible


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def write_history_text(
    result: LintResult, history: HistoryProvenance, out: TextIO, show_suppressed: bool = False
) -> None:
    current_commit = None
    current_blob = None
    for f in result.findings:
        mark = f.history
        if mark is None:  # a stale baseline entry
            out.write(f"{visible(f.path)}:{f.line}:{f.col}: {f.code} {_one_line(f.message)}\n")
            continue
        if mark.commit != current_commit:
            if current_commit is not None:
                out.write("\n")
            current_commit = mark.commit
            current_blob = None
            # an author name is input too
            author = f"  {visible(mark.author)}" if mark.author is not None else ""
            out.write(f"commit {mark.commit}  {mark.commit_date}{author}\n")
        if (f.path, mark.blob) != current_blob:
            current_blob = (f.path, mark.blob)
            out.write(f"  {visible(f.path)} (blob {mark.blob}, {mark.status})\n")
        out.write(f"    {visible(f.path)}:{f.line}:{f.col}: {f.code} {_one_line(f.message)}\n")
    if show_suppressed and result.suppressed:
        out.write(f"\nSuppressed ({len(result.suppressed)}):\n")
        for item in result.suppressed:
            f = item.finding
            commit = f.history.commit if f.history is not None else ""
            out.write(
                f"  {visible(f.path)}:{f.line}:{f.col}: {f.code} {_one_line(f.message)}  "
                f"[commit {commit}; {_one_line(item.reason)}]\n"
            )
    hidden = f" ({len(result.suppressed)} suppressed)" if result.suppressed else ""
    blobs = len({f.history.blob for f in result.findings if f.history is not None})
    removed = sum(
        1 for f in result.findings if f.history is not None and not f.history.present_at_head
    )
    scope = f"{plural(history.blobs, 'blob')} from {plural(history.commits, 'commit')}"
    if not result.findings:
        out.write(f"All checks passed: no findings in {scope}{hidden}.\n")
        return
    out.write(
        f"\nFound {plural(len(result.findings), 'finding')} in {blobs} of {scope}{hidden}; "
        f"{removed} in content no longer at HEAD (still public in the history).\n"
    )
    counts = Counter(f.code for f in result.findings)
    names = {f.code: f.name for f in result.findings}
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        out.write(f"{count:>6}  {code}  {visible(names[code])}\n")


def write_history_concise(result: LintResult, out: TextIO) -> None:
    for f in result.findings:
        mark = f.history
        tail = f" [commit {mark.commit}, {mark.status}]" if mark is not None else ""
        out.write(f"{visible(f.path)}:{f.line}:{f.col}: {f.code} {_one_line(f.message)}{tail}\n")


def _one_line(text: str) -> str:
    return visible(" ".join(text.splitlines()))
