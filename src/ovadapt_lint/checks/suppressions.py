"""Inline suppressions in Python: ``# ovadapt: ignore[OVA201, OVA5]`` or a bare
``# ovadapt: ignore`` on the reported line, ``# ovadapt: ignore-file[...]`` (or
bare) anywhere for the whole file. Unknown codes are reported (OVA008).
Suppressed findings are marked, not dropped, so ``--show-suppressed`` can list them."""

from __future__ import annotations

import re

from ..findings import Finding, Span, make_finding
from ..frontends.python_text import PythonText

_DIRECTIVE = re.compile(r"#\s*ovadapt:\s*ignore(-file)?\b(?:\[([^\]]*)\])?", re.IGNORECASE)
FILE = 0  # the key for file-level directives

ALL = None  # a bare ignore: every code


def python_suppressions(module: PythonText) -> tuple[dict[int, set[str] | None], list[Finding]]:
    """(line -> codes or prefixes suppressed there, None for all; notices for unknown codes)."""
    from ..registry import all_rules

    known = all_rules()
    by_line: dict[int, set[str] | None] = {}
    notices: list[Finding] = []
    for comment in module.comments:
        match = _DIRECTIVE.search(comment.text)
        if match is None:
            continue
        line = FILE if match.group(1) else comment.line
        if match.group(2) is None:
            by_line[line] = ALL
            continue
        codes = {c.strip().upper() for c in match.group(2).split(",") if c.strip()}
        for code in sorted(codes):
            if not code.startswith("OVA") or not any(k.startswith(code) for k in known):
                span = Span(comment.line, comment.column, comment.line, comment.column + len(comment.text))
                notices.append(make_finding("OVA008", f"unknown rule code {code!r} in an ovadapt: ignore comment",
                                            module.source.display, span))
        if by_line.get(line, set()) is not ALL:
            by_line[line] = (by_line.get(line) or set()) | codes
    return by_line, notices


def _covers(codes: set[str] | None, code: str) -> bool:
    return codes is ALL or any(code.startswith(c) for c in codes)


def apply_suppressions(findings: list[Finding], by_line: dict[int, set[str] | None]) -> list[Finding]:
    """Mark findings an inline directive covers (``extra["suppressed"]``); notices are never suppressed."""
    for finding in findings:
        if finding.code.startswith("OVA0"):
            continue
        if finding.line in by_line and _covers(by_line[finding.line], finding.code):
            finding.extra["suppressed"] = f"# ovadapt: ignore on line {finding.line}"
        elif FILE in by_line and _covers(by_line[FILE], finding.code):
            finding.extra["suppressed"] = "# ovadapt: ignore-file"
    return findings
