"""Human output: findings grouped by file, a redacted code frame, a summary by code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from ..findings import Finding
from ..results import NO_METADATA, LintResult, RunMetadata
from ..source import visible

_STYLE = {"error": "bold red", "warning": "yellow", "note": "cyan"}
_FRAME_WIDTH = 160
# A frame line is shown one character for one: control characters (an ESC would drive the terminal) and
# the line and paragraph separators (a viewer would break the frame line) and the bidirectional controls
# (the line would read in another order) become visible symbols, so the caret stays under the finding. C0 controls -> their Control Pictures (ESC -> U+241B), the rest -> U+FFFD.
_VISIBLE = (
    {code: 0x2400 + code for code in range(0x20)}
    | {0x7F: 0x2421}
    | {
        code: 0xFFFD
        for code in (
            *range(0x80, 0xA0),
            0x2028,
            0x2029,
            *range(0x202A, 0x202F),
            *range(0x2066, 0x206A),
        )
    }
)


def _console(out: TextIO, color: bool):
    """Where the report's lines go: a rich Console in colour; without colour, a writer that prints a line as
    that Console would (control codes stripped, no wrapping) and leaves rich unimported (about a third of a
    short run's start-up, issue 29)."""
    if not color:
        return _PlainConsole(out)
    from rich.console import Console

    return _RichConsole(
        Console(
            file=out,
            highlight=False,
            soft_wrap=True,
            emoji=False,
            markup=False,
            no_color=not color,
            color_system="auto" if color else None,
        )
    )


# The characters rich drops from printed text (rich.control.STRIP_CONTROL_CODES: bell, backspace, vertical
# tab, form feed, carriage return); a test holds the two equal.
STRIP_CONTROL = dict.fromkeys((7, 8, 11, 12, 13))


class _PlainConsole:
    """Lines of plain text, as a rich Console without colour and with soft wrap prints them."""

    tab_size = 8

    def __init__(self, out: TextIO) -> None:
        self.file = out

    def line(self, text: str = "", style: str = "") -> None:
        self.file.write(text.translate(STRIP_CONTROL) + "\n")


class _RichConsole:
    """A rich Console printing styled lines."""

    def __init__(self, console) -> None:
        self.console = console
        self.file = console.file
        self.tab_size = console.tab_size

    def line(self, text: str = "", style: str = "") -> None:
        if not text:
            self.console.print()
            return
        from rich.text import Text

        self.console.print(Text(text, style=style))


def _line_masks(
    line_text: str, secrets: list[tuple[int, int]], patterns=None
) -> tuple[str, list[tuple[int, int]]]:
    """A frame line (tabs as one space each) and the merged spans to mask in it: the findings' secret
    spans on the line and every credential-looking token it holds (the redaction --diff applies)."""
    from ..redact import line_secret_spans, merge_spans

    text = line_text.expandtabs(1)
    return text, merge_spans(
        [(max(s, 0), min(e, len(text))) for s, e in secrets] + line_secret_spans(text, patterns)
    )


def _frame(
    line_text: str,
    col: int,
    end_col: int,
    secrets: Sequence[tuple[int, int]] = (),
    masks: tuple[str, list[tuple[int, int]]] | None = None,
) -> tuple[str, str]:
    """The (redacted, clipped) line and a caret marker under the finding's span. Each secret is
    masked once (an outer span wins over one inside it), and the caret spans the finding as shown."""
    import bisect

    from ..redact import mask  # here: a run with nothing to show imports no detector

    text, spans = masks if masks is not None else _line_masks(line_text, list(secrets))
    start = min(max(col - 1, 0), len(text))
    end = max(end_col - 1, start + 1)
    # Only a window around the finding is built (a minified file is one long line with many findings),
    # widened so no masked span is cut.
    low, high = max(0, start - 2 * _FRAME_WIDTH), min(len(text), end + 2 * _FRAME_WIDTH)
    first = bisect.bisect_right(spans, (low, float("inf"))) - 1
    if first >= 0 and spans[first][1] > low:
        low = spans[first][0]
    first = max(first, 0)
    pieces: list[str] = []
    position, new_start, new_end = low, None, None
    for s, e in spans[first:]:
        if s >= high:
            break
        if e <= low:
            continue
        if e > high:
            high = e
        replacement = mask(text[s:e])
        shown = sum(len(p) for p in pieces)
        if new_start is None and start < e:
            new_start = shown + max(start - position, 0) if start < s else shown + (s - position)
        if new_end is None and end <= e:
            new_end = (
                shown + (end - position) if end <= s else shown + (s - position) + len(replacement)
            )
        pieces += [text[position:s], replacement]
        position = e
    shown = sum(len(p) for p in pieces)
    if new_start is None:
        new_start = shown + (start - position)
    if new_end is None:
        new_end = shown + (end - position)
    text = (
        ("…" if low else "")
        + "".join(pieces)
        + text[position:high]
        + ("…" if high < len(text) else "")
    )
    start = new_start + (1 if low else 0)
    width = max(new_end - new_start, 1)
    if len(text) > _FRAME_WIDTH:  # clip long lines around the finding
        offset = max(0, min(start - 20, len(text) - _FRAME_WIDTH))
        text = (
            ("…" if offset else "")
            + text[offset : offset + _FRAME_WIDTH]
            + ("…" if offset + _FRAME_WIDTH < len(text) else "")
        )
        start = start - offset + (1 if offset else 0)
    width = min(width, max(len(text) - start, 1))
    return text.translate(_VISIBLE), " " * start + "^" * width


def _secret_lines(
    result: LintResult, frames: bool = True
) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """(path, line) -> secret spans (0-based, end exclusive) on that line, for every line a secret
    covers: a PEM block's BEGIN line, its body lines and its END line alike."""
    secrets: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for finding in list(result.findings) + [s.finding for s in result.suppressed]:
        if not finding.secret_span:
            continue
        span = finding.span
        for line in range(span.start_line, max(span.end_line, span.start_line) + 1):
            first = span.start_col - 1 if line == span.start_line else 0
            last = span.end_col - 1 if line == span.end_line else 10**9
            secrets.setdefault((finding.path, line), []).append((first, last))
    for path in {f.path for f in result.findings} | {s.finding.path for s in result.suppressed}:
        source = result.source(path) if frames else None
        if source is not None:
            for line, cols in _pem_block_lines(source).items():
                secrets.setdefault((path, line), []).append(cols)
    return secrets


PEM_MAX_LINES = 200  # a 16384-bit RSA key is about 180 lines of base64


def _pem_block_lines(source) -> dict[int, tuple[int, int]]:
    """line -> span of a PEM private-key block that runs over several lines: from BEGIN to the end of
    its line, every body line whole, the END line up to its marker."""
    from ..redact import PEM_BEGIN, PEM_END

    if b"PRIVATE KEY" not in source.data:
        return {}
    out: dict[int, tuple[int, int]] = {}
    inside = 0
    for line in range(1, source.line_count() + 1):
        text = source.line_text(line).expandtabs(1)
        if inside:
            end = PEM_END.search(text)
            out[line] = (0, end.end() if end else 10**9)
            inside = 0 if end or inside >= PEM_MAX_LINES else inside + 1
            continue
        begins = list(PEM_BEGIN.finditer(text))
        begin = begins[-1] if begins else None  # the last BEGIN on the line
        if begin is not None and PEM_END.search(text, begin.end()) is None:
            out[line] = (begin.start(), 10**9)
            inside = 1
    return out


class _Lines:
    """Lines of (text, style) parts, printed in batches: each ``Console.print`` call costs about 0.2 ms of
    setup (terminal size, environment), and building a rich Text about 20 us more, so three lines per
    finding cost more than linting a minified file. A line comes out as print renders it with soft wrap:
    control codes stripped, tabs expanded, no wrapping; without colour that is its plain text."""

    BATCH = 512

    def __init__(self, console, color: bool) -> None:
        self.console, self.color, self.count = console, color, 0
        self.pending: list[Any] = []  # rich Segments in colour, plain strings otherwise

    def print(self, *parts: str | tuple[str, str]) -> None:
        plain = (
            None
            if self.color
            else "".join(p if isinstance(p, str) else p[0] for p in parts).translate(STRIP_CONTROL)
        )
        if plain is None or "\t" in plain:
            from rich.text import Text

            line = Text.assemble(*parts)
            if "\t" in line.plain:
                line.expand_tabs(self.console.tab_size)
            if self.color:
                self.pending.extend(line.render(self.console.console, end="\n"))
            else:
                self.pending += (line.plain, "\n")
        else:
            self.pending += (plain, "\n")
        self.count += 1
        if self.count >= self.BATCH:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            if self.color:  # rendered segments only: plain strings are kept without colour
                from rich.segment import Segments

                self.console.console.print(Segments(self.pending), end="")
            else:
                self.console.file.write("".join(self.pending))
            self.pending, self.count = [], 0


def write_text(
    result: LintResult,
    out: TextIO,
    color: bool,
    show_frames: bool = True,
    show_suppressed: bool = False,
    meta: RunMetadata = NO_METADATA,
) -> None:
    """Findings of a finalised ``result`` grouped by file, each with its code frame, then the summary."""
    console = _Lines(_console(out, color), color)
    # (path, line) -> secret spans on that line, masked in every frame that shows the line
    secrets = _secret_lines(result, show_frames)
    patterns = result.secret_patterns()  # extension credential formats are masked too
    # (path, line) -> (line text, its frame masks): computed once per shown line, not once per finding
    # (a minified file is one long line with thousands of findings)
    lines: dict[tuple[str, int], tuple[str, tuple[str, list[tuple[int, int]]] | None]] = {}
    current = None
    for finding in result.findings:
        if finding.path != current:
            if current is not None:
                console.print()
            current = finding.path
            console.print((visible(finding.path), "bold underline"))
        location = f"{visible(finding.path)}:{finding.line}:{finding.col}:"
        console.print(
            (location, "bold"),
            " ",
            (finding.code, _STYLE.get(finding.severity, "")),
            " ",
            visible(finding.message),
        )
        source = result.source(finding.path) if show_frames else None
        if show_frames and source is not None:
            where = (finding.path, finding.line)
            if where not in lines:
                line_text = source.line_text(finding.line)
                lines[where] = (
                    line_text,
                    _line_masks(line_text, secrets.get(where, []), patterns)
                    if line_text.strip()
                    else None,
                )
            line_text, masks = lines[where]
            if masks is not None:
                end_col = (
                    finding.span.end_col
                    if finding.span.end_line == finding.line
                    else len(line_text) + 1
                )
                shown, marker = _frame(line_text, finding.col, end_col, masks=masks)
                gutter = f"{finding.line:>5} | "
                console.print((gutter, "dim"), shown)
                console.print((" " * (len(gutter) - 2) + "| ", "dim"), (marker, "bold red"))
        trace = finding.trace
        if trace:  # the trace from the source to the published field, a step a line
            for number, step in enumerate(trace):
                arrow = (
                    "source" if number == 0 else "  sink" if number == len(trace) - 1 else "      "
                )
                console.print(
                    (f"    {arrow} ", "dim"),
                    (f"{visible(step.path)}:{step.line}: ", "dim"),
                    visible(step.message),
                )
    if show_suppressed and result.suppressed:
        if current is not None:
            console.print()
        console.print((f"Suppressed ({len(result.suppressed)}):", "bold"))
        for item in result.suppressed:
            f = item.finding
            console.print(
                (
                    visible(f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}  [{item.reason}]"),
                    "dim",
                )
            )
    console.flush()
    _summary(console.console, result, meta)


def _summary(console, result: LintResult, meta: RunMetadata) -> None:
    findings = result.findings
    hidden = f" ({len(result.suppressed)} suppressed)" if result.suppressed else ""
    if meta.review is not None:
        hidden += (
            f"; reviewing the change since {meta.review.diff_base} (merge base "
            f"{meta.review.merge_base}): {meta.review.note}"
        )
    if not findings:
        console.line(
            f"All checks passed: no findings in {len(result.files)} file(s){hidden}.", "green"
        )
        _roles_line(console, result)
        return
    files = len({f.path for f in findings})
    severities = Counter(f.severity for f in findings)
    parts = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in sorted(severities.items()))
    console.line()
    console.line(
        f"Found {len(findings)} finding(s) ({parts}) in {files} of {len(result.files)} file(s){hidden}.",
        "bold",
    )
    _roles_line(console, result)
    write_statistics_lines(console, findings)


def _roles_line(console, result: LintResult) -> None:
    """What the run judged: files by role, and what a file that is not public is judged for."""
    if not result.roles:
        return
    from ..roles import role_counts, summary_counts

    counts = role_counts(result.roles)
    if result.scope == "all":
        judged = "every rule ran on every file (--scope all)"
    elif counts["public"] == len(result.roles):
        judged = "every file is public and judged fully"
    else:
        judged = (
            "files that are not public are judged for credentials and internal names only (Python also for "
            "what flows into a projection); --show-roles says why each file has its role"
        )
    console.line(f"{len(result.roles)} file(s): {summary_counts(counts)}; {judged}.")


def write_statistics_lines(console, findings: list[Finding]) -> None:
    counts = Counter(f.code for f in findings)
    names = {f.code: f.name for f in findings}
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        console.line(
            f"{count:>6}  {code}  {visible(names[code])}"
        )  # an extension rule names itself


def write_statistics(result: LintResult, out: TextIO, color: bool) -> None:
    write_statistics_lines(_console(out, color), result.findings)


def write_concise(result: LintResult, out: TextIO, show_suppressed: bool = False) -> None:
    """One line per finding, ``path:line:col: CODE message``, no code frame and no summary
    (Ruff's ``concise``). Suppressed findings, when asked for, end with ``[suppressed: why]``."""
    for f in result.findings:
        out.write(f"{visible(f.path)}:{f.line}:{f.col}: {f.code} {_one_line(f.message)}\n")
    if show_suppressed:
        for item in result.suppressed:
            f = item.finding
            out.write(
                f"{visible(f.path)}:{f.line}:{f.col}: {f.code} {_one_line(f.message)} "
                f"[suppressed: {_one_line(item.reason)}]\n"
            )


def _one_line(text: str) -> str:
    """A message on one line, every control character shown as an escape (see source.visible)."""
    return visible(" ".join(text.splitlines()))


def statistics(findings: list[Finding]) -> list[dict]:
    """Count per rule, most frequent first (the order of the text statistics)."""
    counts = Counter(f.code for f in findings)
    names = {f.code: f.name for f in findings}
    return [
        {"code": code, "name": names[code], "count": count}
        for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def write_statistics_json(result: LintResult, out: TextIO) -> None:
    """``--statistics --format json``: schema ``ovadapt-lint/statistics/v1``."""
    import json

    from ..version import __version__

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


def report(result: LintResult, meta: RunMetadata, options, out: TextIO) -> None:
    """The ``text`` format (report.registry): with --statistics the counts per rule; a history scan's
    findings by commit and blob."""
    if meta.history is not None:
        from .history import write_history_text

        write_history_text(result, meta.history, out, options.show_suppressed)
    elif options.statistics:
        write_statistics(result, out, options.color)
    else:
        write_text(result, out, options.color, show_suppressed=options.show_suppressed, meta=meta)


def report_concise(result: LintResult, meta: RunMetadata, options, out: TextIO) -> None:
    """The ``concise`` format (report.registry): with --statistics the counts per rule, as text."""
    if meta.history is not None:
        from .history import write_history_concise

        write_history_concise(result, out)
    elif options.statistics:
        write_statistics(result, out, options.color)
    else:
        write_concise(result, out, show_suppressed=options.show_suppressed)
