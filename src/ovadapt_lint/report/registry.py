"""The output formats, one table: each format's name, what --help says of it, the reporter that writes it
and what that reporter needs. Every reporter takes the same four values, ``(result, meta, options, out)``:
the finalised result (its quoted text already masked, finalise.mask_quoted), the run's metadata gathered
before reporting (finalise.run_metadata: the source root, a review's base, a history scan's provenance),
the report options, and the stream; it only formats.

This module imports no reporter: the command line reads the table to build its parser, and each reporter
is imported when its format is written (start-up, issue 29).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TextIO

if TYPE_CHECKING:
    from ..results import LintResult, RunMetadata


class ReportOptions(NamedTuple):
    """What the command line asks of a report besides its format."""

    show_suppressed: bool = False
    statistics: bool = False  # counts per rule only
    color: bool = False  # text: the stream is a terminal that takes colour
    sarif_category: str | None = None
    sarif_srcroot: str | None = None


class Reporter(NamedTuple):
    name: str
    help: str  # the format's line in --help
    module: str  # the report module that writes it, imported on use
    function: str  # its reporter: (result, meta, options, out) -> None
    needs_root: bool = (
        False  # names files relative to the source root (the metadata asks git for it)
    )
    statistics: bool = False  # takes --statistics
    history: bool = False  # writes an `ovadapt-lint history` scan too

    def write(
        self, result: LintResult, meta: RunMetadata, options: ReportOptions, out: TextIO
    ) -> None:
        from importlib import import_module

        getattr(import_module(f"{__package__}.{self.module}"), self.function)(
            result, meta, options, out
        )


REPORTERS: dict[str, Reporter] = {
    r.name: r
    for r in (
        Reporter(
            "text",
            "text (grouped by file, with code frames and a summary)",
            "text",
            "report",
            statistics=True,
            history=True,
        ),
        Reporter(
            "concise",
            "concise (one `path:line:col: CODE message` line per finding)",
            "text",
            "report_concise",
            statistics=True,
            history=True,
        ),
        Reporter("json", "json", "json_report", "report", statistics=True, history=True),
        Reporter(
            "sarif",
            "sarif (GitHub code scanning)",
            "sarif",
            "report",
            needs_root=True,
            history=True,
        ),
        Reporter(
            "github", "github (workflow-command annotations)", "github", "report", needs_root=True
        ),
    )
}
