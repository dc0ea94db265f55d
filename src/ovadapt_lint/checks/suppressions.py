"""Inline suppressions in Python: ``# ovadapt: ignore[OVA201, OVA5]`` or a bare
``# ovadapt: ignore`` on the reported line, ``# ovadapt: ignore-file[...]`` (or
bare) anywhere for the whole file, and flake8/Ruff's ``# noqa: OVA501`` (codes
required: a bare ``# noqa`` would hide every rule, credentials included).
Unknown OVA codes are reported (OVA008).
Suppressed findings are marked, not dropped, so ``--show-suppressed`` can list them."""

from __future__ import annotations

import re

from ..findings import Finding, Span, make_finding
from ..frontends.python_text import PythonText
from ..registry import is_notice

_DIRECTIVE = re.compile(r"#\s*ovadapt:\s*ignore(-file)?\b(?:\[([^\]]*)\])?", re.IGNORECASE)
# A noqa comment (`noqa` + colon + codes such as OVA501 or E501): other tools' codes are theirs.
_NOQA = re.compile(r"#\s*noqa\s*:\s*([A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*)", re.IGNORECASE)
FILE = 0  # the key for file-level directives

ALL = None  # a bare ignore: every code


def python_suppressions(
    module: PythonText, known
) -> tuple[dict[int, set[str] | None], dict[int, set[str]], list[Finding]]:
    """(line -> codes or prefixes an ``ovadapt: ignore`` suppresses there, None for all; line -> codes a
    ``# noqa:`` names there; notices for unknown codes). ``known``: the rule pack's rules."""
    by_line: dict[int, set[str] | None] = {}
    noqa: dict[int, set[str]] = {}
    notices: list[Finding] = []

    def unknown(codes: set[str], comment, where: str) -> None:
        for code in sorted(codes):
            if not code.startswith("OVA") or not any(k.startswith(code) for k in known):
                span = Span(
                    comment.line, comment.column, comment.line, comment.column + len(comment.text)
                )
                notices.append(
                    make_finding(
                        "OVA008",
                        f"unknown rule code {code!r} in {where}",
                        module.source.display,
                        span,
                    )
                )

    for comment in module.comments:
        match = _DIRECTIVE.search(comment.text)
        if match is not None:
            line = FILE if match.group(1) else comment.line
            if match.group(2) is None:
                by_line[line] = ALL
            else:
                codes = {c.strip().upper() for c in match.group(2).split(",") if c.strip()}
                unknown(codes, comment, "an ovadapt: ignore comment")
                if by_line.get(line, set()) is not ALL:
                    by_line[line] = (by_line.get(line) or set()) | codes
        match = _NOQA.search(comment.text)
        if match is not None:
            codes = {
                c.upper()
                for c in re.split(r"[\s,]+", match.group(1))
                if c.upper().startswith("OVA")
            }
            unknown(codes, comment, "a # noqa comment")
            if codes:
                noqa.setdefault(comment.line, set()).update(codes)
    return by_line, noqa, notices


def _covers(codes: set[str] | None, code: str) -> bool:
    return codes is ALL or any(code.startswith(c) for c in codes)


def apply_suppressions(
    findings: list[Finding],
    by_line: dict[int, set[str] | None],
    noqa: dict[int, set[str]] | None = None,
    rules=None,
) -> list[Finding]:
    """Mark findings an inline directive covers (``Finding.inline_suppression``); notices are never suppressed.
    ``rules``: the rule pack's rules (an extension file may add a notice); default the built-in ones."""
    noqa = noqa or {}
    for finding in findings:
        if is_notice(finding.code, rules):
            continue
        if finding.line in by_line and _covers(by_line[finding.line], finding.code):
            finding.inline_suppression = f"# ovadapt: ignore on line {finding.line}"
        elif FILE in by_line and _covers(by_line[FILE], finding.code):
            finding.inline_suppression = "# ovadapt: ignore-file"
        elif finding.line in noqa and _covers(noqa[finding.line], finding.code):
            finding.inline_suppression = f"# noqa on line {finding.line}"
    return findings
