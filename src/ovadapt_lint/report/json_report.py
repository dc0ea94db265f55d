"""Machine-readable JSON output (schema ``ovadapt-lint/findings/v1``, documented in the README)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, TextIO

from ..results import NO_METADATA, LintResult, RunMetadata
from ..version import __version__


class Fingerprints:
    """Each finding's fingerprint (Finding.fingerprint_at), numbering findings that share rule, file and
    location in the order given (the report's sorted order), so no two results share one."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()

    def __call__(self, finding, path: str | None = None) -> str:
        identity = finding.identity(path)
        occurrence = self.seen[identity]
        self.seen[identity] += 1
        return finding.fingerprint_at(identity[1], occurrence)


def _item(finding, result: LintResult, fingerprints: Fingerprints | None = None) -> dict:
    item = finding.to_dict()
    if fingerprints is not None:
        item["fingerprint"] = fingerprints(finding)
    role = result.roles.get(finding.path)
    if role is not None:  # the role the file was judged in, and why (see --show-roles)
        item["role"], item["role_reason"] = role.role, role.why
    if (
        finding.trace
    ):  # a flow finding: its steps from the source to the published field (as in the text)
        item["trace"] = [
            {"path": s.path, "line": s.line, "column": s.column, "message": s.message}
            for s in finding.trace
        ]
    if finding.history is not None:
        item["properties"] = finding.history.properties()
    from ..pyfix.choose import fix_report

    fix = fix_report(finding, result.rules)
    if fix is not None:  # applicability (safe, unsafe) and, for a literal, its edit (issue 31)
        item["fix"] = fix
    return item


def write_json(
    result: LintResult,
    out: TextIO,
    show_suppressed: bool = False,
    meta: RunMetadata = NO_METADATA,
) -> None:
    """The JSON report of a finalised ``result``; a history scan's (``meta.history``) adds its summary."""
    fingerprints = Fingerprints()
    document: dict[str, Any] = {
        "schema": "ovadapt-lint/findings/v1",
        "tool": {"name": "ovadapt-lint", "version": __version__},
        "summary": {
            "files": len(result.files),
            "findings": len(result.findings),
            "by_code": dict(sorted(Counter(f.code for f in result.findings).items())),
            "suppressed": len(result.suppressed),
        },
        "findings": (_item(f, result, fingerprints) for f in result.findings),
    }
    if result.roles:
        from ..roles import role_counts

        document["summary"]["roles"] = role_counts(result.roles)
    if meta.review is not None:
        document["summary"]["unchanged_not_shown"] = meta.review.unchanged_not_shown
        document["summary"]["diff_base"] = meta.review.diff_base
        document["summary"]["merge_base"] = meta.review.merge_base
    if meta.history is not None:
        document["summary"]["blobs"] = meta.history.blobs
    if show_suppressed:
        document["suppressed"] = (
            {**_item(s.finding, result, fingerprints), "suppressed_by": s.reason}
            for s in result.suppressed
        )
    if meta.history is not None:
        document["history"] = meta.history.summary()
    dump_json(document, out)


def report(result: LintResult, meta: RunMetadata, options, out: TextIO) -> None:
    """The ``json`` format (report.registry); with --statistics, the counts per rule."""
    if options.statistics:
        from .text import write_statistics_json

        write_statistics_json(result, out)
    else:
        write_json(result, out, options.show_suppressed, meta)


def dump_json(document: dict[str, Any], out: TextIO, chunk: int = 1 << 16) -> None:
    """``document`` as indented JSON (``json.dumps(indent=2)``, byte for byte) and a newline, in writes of about
    ``chunk`` characters. A top-level value that is an iterator is a list encoded item by item: neither the
    items nor their text are ever all held at once (32k findings, issue 15)."""
    encoder = json.JSONEncoder(indent=2, ensure_ascii=False)
    streams = {key: iter(value) for key, value in document.items() if isinstance(value, Iterator)}
    firsts = {key: next(stream, _END) for key, stream in streams.items()}
    # The document with each stream as an empty list or a marker, cut at the markers: encoded strings never
    # hold a raw line break, so a marker alone on its line is one of ours.
    shell = encoder.encode(
        {
            key: value if key not in streams else [] if firsts[key] is _END else [_MARK]
            for key, value in document.items()
        }
    )
    pieces = shell.split(f"\n    {json.dumps(_MARK)}\n")
    writer = _Chunks(out, chunk)
    writer.add(pieces[0])
    for (key, stream), piece in zip(
        ((k, s) for k, s in streams.items() if firsts[k] is not _END), pieces[1:]
    ):
        item, separator = firsts[key], "\n    "
        while item is not _END:
            writer.add(separator + encoder.encode(item).replace("\n", "\n    "))
            item, separator = next(stream, _END), ",\n    "
        writer.add("\n" + piece)
    writer.add("\n")
    writer.flush()


_END = object()
_MARK = "\x00ovadapt-lint: streamed list\x00"


# Characters JSON may carry raw but a terminal or log viewer acts on: the Unicode line and paragraph separators
# (a line break in some viewers, the end of a JavaScript string) and the bidirectional controls (text that reads
# in another order than it is). Written as \u escapes: the same JSON value, shown as what it is.
_VIEWER_CONTROLS = re.compile("[\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def viewer_safe(text: str) -> str:
    """Encoded JSON text with the characters above as ``\\uXXXX`` escapes (valid wherever they occur: only
    inside strings, since JSON's own syntax is ASCII)."""
    if not _VIEWER_CONTROLS.search(text):
        return text
    return _VIEWER_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _Chunks:
    """Text written in pieces of about ``size`` characters: one write per token or item costs a call each."""

    def __init__(self, out: TextIO, size: int) -> None:
        self.out, self.size, self.length = out, size, 0
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)
        if self.length >= self.size:
            self.flush()

    def flush(self) -> None:
        self.out.write(viewer_safe("".join(self.parts)))
        self.parts, self.length = [], 0
