"""Every Python string literal, f-string part, comment, docstring and identifier
through the shared string detectors (raw content, credentials, paths, URLs,
deny-list). Comments and docstrings are prose: a credential word needs a
value-shaped value there, and comment-body signatures do not apply."""

from __future__ import annotations

import bisect

from ..detect import Hit
from ..detect.scanner import StringScanner
from ..findings import Finding, Span
from ..frontends.python_text import PythonText
from ..registry import category_of
from ..source import SourceFile, advance
from . import hit_finding, placeholder


def _locate(span: Span, raw: str, fragment: str) -> Span | None:
    """The fragment's own position when it appears verbatim in the literal's source, else None."""
    index = raw.find(fragment) if fragment else -1
    if index < 0:
        return None
    line, column = advance(span.start_line, span.start_col, raw[:index])
    end_line, end_column = advance(line, column, fragment)
    return Span(line, column, end_line, end_column)


def _findings(hits: list[Hit], value: str, what: str, span: Span, raw: str, source: SourceFile,
              rules=None) -> list[Finding]:
    out = []
    for hit in hits:
        # Raw content is about the whole literal; the other detectors point at the match.
        if category_of(hit.code).whole_value:
            finding = hit_finding(hit, value, what, source.display, span, rules=rules)
            if what in ("string literal", "docstring"):
                finding.fix = (source.offset(span.start_line, span.start_col), source.offset(span.end_line, span.end_col),
                               '"' + placeholder(hit.code) + '"')
            else:
                finding.unfixable = "raw content in an f-string or comment is rewritten by hand"
        else:
            where = _locate(span, raw, value[hit.start:hit.end])
            finding = hit_finding(hit, value, what, source.display, where or span, rules=rules)
            if where is not None and what != "an identifier":
                finding.fix = (source.offset(where.start_line, where.start_col), source.offset(where.end_line, where.end_col),
                               placeholder(hit.code))
            else:
                finding.unfixable = ("an identifier is renamed by hand" if what == "an identifier"
                                     else "the value is written with escapes; rewrite it by hand")
        out.append(finding)
    return out


class _Intervals:
    """Published spans merged into sorted, disjoint intervals: containment by binary search."""

    def __init__(self, spans: list[Span]) -> None:
        merged: list[list[tuple[int, int]]] = []
        for start, end in sorted(((s.start_line, s.start_col), (s.end_line, s.end_col)) for s in spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [start for start, _ in merged]
        self.ends = [end for _, end in merged]

    def contains(self, span: Span) -> bool:
        index = bisect.bisect_right(self.starts, (span.start_line, span.start_col)) - 1
        return index >= 0 and (span.end_line, span.end_col) <= self.ends[index]


def check_python_strings(module: PythonText, scanner: StringScanner, *, secrets: bool = True, content: bool = True,
                         published: list[Span] | None = None) -> list[Finding]:
    """``secrets``: credentials and deny-listed names in every literal, comment and identifier.
    ``content``: raw content, paths and private URLs, in the literals inside ``published`` spans
    (the values that reach a projection), or everywhere when ``published`` is None (``--scope all``).
    Outside the published spans, context credential rules report generated-looking values only."""
    source = module.source
    findings: list[Finding] = []
    intervals = _Intervals(published) if published is not None else None
    for literal in module.literals:
        if len(literal.value) < 3:
            continue
        inside = intervals is None or intervals.contains(literal.span)
        judged = content and inside
        if not (secrets or judged):
            continue
        prose = literal.what == "docstring"
        hits = scanner.scan(literal.value, literal.key, prose=prose, secrets=secrets, content=judged, published=inside)
        findings += _findings(hits, literal.value, literal.what, literal.span, literal.raw, source, scanner.pack.rules)
    comments_judged = content and published is None
    if secrets or comments_judged:
        for comment in module.comments:
            span = Span(comment.line, comment.column, comment.line, comment.column + len(comment.text))
            hits = scanner.scan(comment.text, prose=True, secrets=secrets, content=comments_judged,
                                published=published is None)
            findings += _findings(hits, comment.text, "comment", span, comment.text, source, scanner.pack.rules)
    if scanner.deny_list and secrets:
        # Identifiers only carry internal names; each name is reported once per file.
        for name, span in module.names.items():
            findings += _findings(scanner.deny_list.scan(name), name, "an identifier", span, name, source, scanner.pack.rules)
    return findings
