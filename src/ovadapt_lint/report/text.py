"""Human output: findings grouped by file, a redacted code frame, a summary by code."""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from ..engine import LintResult
from ..findings import Finding
from ..redact import mask, mask_text

_STYLE = {"error": "bold red", "warning": "yellow", "note": "cyan"}
_FRAME_WIDTH = 160


def _console(out: TextIO, color: bool):
    from rich.console import Console

    return Console(file=out, highlight=False, soft_wrap=True, emoji=False, markup=False,
                   no_color=not color, color_system="auto" if color else None)


def _mask_spans(text: str, start: int, spans: list[tuple[int, int]]) -> tuple[str, int, bool]:
    """Mask secret spans (0-based, end exclusive) in ``text``; return it, the shifted start, and whether it changed."""
    for s, e in sorted(set(spans), reverse=True):
        if s >= len(text) or e <= s:
            continue
        replacement = mask(text[s:e])
        text = text[:s] + replacement + text[e:]
        if s < start:
            start = max(s, start + len(replacement) - (e - s))
    return text, start, bool(spans)


def _frame(line_text: str, col: int, end_col: int, secrets: list[tuple[int, int]] = ()) -> tuple[str, str]:
    """The (redacted, clipped) line and a caret marker under the span."""
    text = line_text.expandtabs(1)
    start = max(col - 1, 0)
    width = max(end_col - col, 1)
    text, start, masked = _mask_spans(text, start, list(secrets))
    if masked:
        width = 1
    offset = 0
    if len(text) > _FRAME_WIDTH:  # clip long lines around the finding
        offset = max(0, min(start - 20, len(text) - _FRAME_WIDTH))
        text = ("…" if offset else "") + text[offset: offset + _FRAME_WIDTH] + "…"
        start = start - offset + (1 if offset else 0)
    shown = mask_text(text)
    if shown != text:  # redaction moved things: mark the start only
        width = 1
    width = min(width, max(len(shown) - start, 1), 60)
    return shown, " " * start + "^" * width


def write_text(result: LintResult, out: TextIO, color: bool, show_frames: bool = True,
               show_suppressed: bool = False) -> None:
    from rich.text import Text

    console = _console(out, color)
    # (path, line) -> secret spans on that line, masked in every frame that shows the line
    secrets: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for finding in result.findings:
        if finding.secret_span:
            span = finding.span
            end = span.end_col - 1 if span.end_line == span.start_line else 10**9
            secrets.setdefault((finding.path, span.start_line), []).append((span.start_col - 1, end))
    current = None
    for finding in result.findings:
        if finding.path != current:
            if current is not None:
                console.print()
            current = finding.path
            console.print(Text(finding.path, style="bold underline"))
        location = f"{finding.path}:{finding.line}:{finding.col}:"
        console.print(Text.assemble(
            (location, "bold"), " ", (finding.code, _STYLE.get(finding.severity, "")), " ",
            mask_text(finding.message)))
        source = result.source(finding.path) if show_frames else None
        if show_frames and source is not None:
            line_text = source.line_text(finding.line)
            if line_text.strip():
                end_col = finding.span.end_col if finding.span.end_line == finding.line else len(line_text) + 1
                shown, marker = _frame(line_text, finding.col, end_col, secrets.get((finding.path, finding.line), []))
                gutter = f"{finding.line:>5} | "
                console.print(Text.assemble((gutter, "dim"), shown))
                console.print(Text.assemble((" " * (len(gutter) - 2) + "| ", "dim"), (marker, "bold red")))
    if show_suppressed and result.suppressed:
        if current is not None:
            console.print()
        console.print(Text(f"Suppressed ({len(result.suppressed)}):", style="bold"))
        for item in result.suppressed:
            f = item.finding
            console.print(Text(f"{f.path}:{f.line}:{f.col}: {f.code} {mask_text(f.message)}  [{item.reason}]",
                               style="dim"))
    _summary(console, result)


def _summary(console, result: LintResult) -> None:
    from rich.text import Text

    findings = result.findings
    hidden = f" ({len(result.suppressed)} suppressed)" if result.suppressed else ""
    if not findings:
        console.print(Text(f"All checks passed: no findings in {len(result.files)} file(s){hidden}.", style="green"))
        return
    files = len({f.path for f in findings})
    severities = Counter(f.severity for f in findings)
    parts = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in sorted(severities.items()))
    console.print()
    console.print(Text(f"Found {len(findings)} finding(s) ({parts}) in {files} of {len(result.files)} file(s){hidden}.",
                       style="bold"))
    write_statistics_lines(console, findings)


def write_statistics_lines(console, findings: list[Finding]) -> None:
    from rich.text import Text

    counts = Counter(f.code for f in findings)
    names = {f.code: f.name for f in findings}
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        console.print(Text(f"{count:>6}  {code}  {names[code]}"))


def write_statistics(result: LintResult, out: TextIO, color: bool) -> None:
    write_statistics_lines(_console(out, color), result.findings)


def write_concise(result: LintResult, out: TextIO, show_suppressed: bool = False) -> None:
    """One line per finding, ``path:line:col: CODE message``, no code frame and no summary
    (Ruff's ``concise``). Suppressed findings, when asked for, end with ``[suppressed: why]``."""
    for f in result.findings:
        out.write(f"{f.path}:{f.line}:{f.col}: {f.code} {_one_line(mask_text(f.message))}\n")
    if show_suppressed:
        for item in result.suppressed:
            f = item.finding
            out.write(f"{f.path}:{f.line}:{f.col}: {f.code} {_one_line(mask_text(f.message))} "
                      f"[suppressed: {_one_line(item.reason)}]\n")


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())


def statistics(findings: list[Finding]) -> list[dict]:
    """Count per rule, most frequent first (the order of the text statistics)."""
    counts = Counter(f.code for f in findings)
    names = {f.code: f.name for f in findings}
    return [{"code": code, "name": names[code], "count": count}
            for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def write_statistics_json(result: LintResult, out: TextIO) -> None:
    """``--statistics --format json``: schema ``ovadapt-lint/statistics/v1``."""
    import json

    from .. import __version__

    document = {
        "schema": "ovadapt-lint/statistics/v1",
        "tool": {"name": "ovadapt-lint", "version": __version__},
        "files": len(result.files),
        "findings": len(result.findings),
        "suppressed": len(result.suppressed),
        "statistics": statistics(result.findings),
    }
    json.dump(document, out, indent=2, ensure_ascii=False)
    out.write("\n")
