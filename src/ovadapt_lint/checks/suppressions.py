"""Inline suppressions in Python: ``# ovadapt: ignore[OVA201, OVA5]`` or a bare
``# ovadapt: ignore`` on the reported line. Unknown codes are reported (OVA008)."""

from __future__ import annotations

import re

import libcst as cst

from ..findings import Finding, make_finding
from ..frontends.python_cst import PythonModule

_DIRECTIVE = re.compile(r"#\s*ovadapt:\s*ignore\b(?:\[([^\]]*)\])?", re.IGNORECASE)

ALL = None  # a bare ignore: every code


class _Comments(cst.CSTVisitor):
    def __init__(self) -> None:
        self.comments: list[cst.Comment] = []

    def visit_Comment(self, node: cst.Comment) -> None:
        if "ovadapt" in node.value.lower():
            self.comments.append(node)


def python_suppressions(module: PythonModule) -> tuple[dict[int, set[str] | None], list[Finding]]:
    """(line -> codes or prefixes suppressed there, None for all; notices for unknown codes)."""
    from ..registry import all_rules

    known = all_rules()
    visitor = _Comments()
    module.module.visit(visitor)
    by_line: dict[int, set[str] | None] = {}
    notices: list[Finding] = []
    for comment in visitor.comments:
        match = _DIRECTIVE.search(comment.value)
        if match is None:
            continue
        line = module.line(comment)
        if match.group(1) is None:
            by_line[line] = ALL
            continue
        codes = {c.strip().upper() for c in match.group(1).split(",") if c.strip()}
        for code in sorted(codes):
            if not code.startswith("OVA") or not any(k.startswith(code) for k in known):
                notices.append(make_finding("OVA008", f"unknown rule code {code!r} in an ovadapt: ignore comment",
                                            module.source.display, module.span(comment)))
        if by_line.get(line, set()) is not ALL:
            by_line[line] = (by_line.get(line) or set()) | codes
    return by_line, notices


def apply_suppressions(findings: list[Finding], by_line: dict[int, set[str] | None]) -> list[Finding]:
    kept = []
    for finding in findings:
        if finding.line in by_line and not finding.code.startswith("OVA0"):
            codes = by_line[finding.line]
            if codes is ALL or any(finding.code.startswith(c) for c in codes):
                continue
        kept.append(finding)
    return kept
