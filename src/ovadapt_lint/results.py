"""The result of a run, apart from the pipeline that produced it: what the reporters print.

The engine fills a LintResult; the reporters (report/) read it and never reach back into the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import registry
from .discover import Target
from .findings import Finding
from .source import SourceFile


@dataclass(frozen=True)
class Review:
    """Review mode (--diff-base): the base, and the findings on unchanged lines left out of the report."""

    diff_base: str
    merge_base: str  # abbreviated
    unchanged_not_shown: int

    @property
    def note(self) -> str:
        """ "N findings on unchanged lines not shown", as every summary says it."""
        count = self.unchanged_not_shown
        return f"{count} finding{'' if count == 1 else 's'} on unchanged lines not shown"


@dataclass(frozen=True)
class HistoryProvenance:
    """What ``ovadapt-lint history`` scanned, for the reports (RunMetadata.history): the commit it ends at, its
    branch, the origin's public URL (credentials removed; None for a local or unknown one) and the numbers of
    the scan. Each finding says where it came from (Finding.history)."""

    head: str
    branch: str | None
    remote: str | None
    commits: int
    blobs: int
    cached: int  # blobs answered by the result cache
    seconds: float

    @property
    def blobs_per_second(self) -> float:
        return self.blobs / self.seconds if self.seconds > 0 else float(self.blobs)

    def summary(self) -> dict[str, Any]:
        """The ``history`` object of the JSON report and of the SARIF run's properties."""
        return {
            "head": self.head[:12],
            "branch": self.branch,
            "commits": self.commits,
            "blobs": self.blobs,
            "blobs_from_cache": self.cached,
            "seconds": round(self.seconds, 3),
            "blobs_per_second": round(self.blobs_per_second, 1),
        }


@dataclass(frozen=True)
class RunMetadata:
    """What a reporter is told about the run besides its result, gathered before any reporter is called
    (finalise.run_metadata): reporters only format, they never ask git or the file system for it."""

    # The repository root machine formats name files relative to (the git top level of the first linted
    # path, else the config file's folder, else the working directory); None when the format needs none.
    source_root: Path | None = None
    review: Review | None = None
    history: HistoryProvenance | None = None


@dataclass
class Suppressed:
    """A finding left out of the report, and what hid it."""

    finding: Finding
    reason: str  # what hid it: an inline directive, a per-file-ignores pattern, a baseline
    in_source: bool  # an inline directive (SARIF suppression kind "inSource"), else "external"


@dataclass
class LintResult:
    """What a run found and linted, as the reporters read it (engine.run fills it, finalise orders it)."""

    findings: list[Finding] = field(default_factory=list)
    suppressed: list[Suppressed] = field(default_factory=list)
    files: list[Target] = field(default_factory=list)
    # display path -> the linted text of each file with findings to show, for code frames (finalise.attach_sources)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    # display path -> relative URI for machine formats
    uris: dict[str, str] = field(default_factory=dict)
    targets: dict[str, Target] = field(default_factory=dict)
    # The first linted path and the config file: where the source root is looked for (see source_root).
    anchor: str = "."
    config_source: Path | None = None
    # Explicitly named files left out (in a skipped folder, or excluded): for the "no files" warning.
    skipped: list[str] = field(default_factory=list)
    # Review mode (--diff-base): the base and how many findings on unchanged lines were not shown.
    review: Review | None = None
    # The rules the reports describe (SARIF descriptors): the first path's rule pack, extension rules included.
    rules: dict[str, Any] = field(default_factory=registry.all_rules)
    # display path -> classify.Role (role and why) of every linted file, when the caller asked (roles.file_roles);
    # and the scope its non-public files were judged in ("published": credentials and internal names only).
    roles: dict[str, Any] = field(default_factory=dict)
    # display path -> classify.Role from the file's name and place, as the run decided it (roles.file_roles
    # reads it instead of matching every file's globs again).
    path_roles: dict[str, Any] = field(default_factory=dict)
    # display path -> the classify.Role a JSON document has by content (None: its path role stands).
    content_roles: dict[str, Any] = field(default_factory=dict)
    scope: str = "published"
    _root: Path | None = field(default=None, repr=False)
    _secrets: Any = field(default=None, repr=False)

    def add_file(self, target: Target) -> None:
        self.files.append(target)
        self.uris[target.display] = target.uri
        self.targets[target.display] = target

    def source(self, display: str) -> SourceFile | None:
        """The file's text for code frames, as it was linted; None when the run kept none (no finding to show)."""
        return self.sources.get(display)

    def secret_patterns(self):
        """The run's credential patterns, extension formats included, for masking what reports quote;
        None for the built-in pack (redact keeps those built)."""
        if self.rules is registry.all_rules():
            return None
        if self._secrets is None:
            from .detect.credentials import SecretPatterns

            self._secrets = SecretPatterns.from_rules(self.rules)
        return self._secrets

    def quoted(self, finding: Finding, text: str) -> str:
        """``text`` that ``finding`` quotes (its message, JSON path, a flow step) masked with the run's credential
        formats (finalise.mask_quoted, before any report). Text the file's lint already masked with the built-in pack is not scanned again: the run's
        formats are those same ones unless an extension pack adds some (secret_patterns is then not None)."""
        patterns = self.secret_patterns()
        if patterns is None and finding.quoted_masked:
            return text
        from .redact import mask_text

        return mask_text(text, patterns)

    def uri(self, display: str) -> str:
        """The relative URI machine formats use for a displayed path."""
        return self.uris.get(display, display)

    def source_root(self) -> Path:
        """The repository root SARIF and GitHub annotations are relative to: the git top level of the
        first linted path, else the config file's folder, else the working directory (asked once)."""
        if self._root is None:
            from .discover import source_root

            self._root = source_root(self.anchor, self.config_source)
        return self._root

    def root_uri(self, display: str, root: Path) -> str | None:
        """A displayed path relative to ``root`` (the run's source root, RunMetadata.source_root) with forward
        slashes; None when the file lies outside it."""
        from .discover import root_relative

        target = self.targets.get(display)
        return root_relative(str(target.path) if target is not None else display, root)


# A run with nothing to say besides its result (no review, no history, no root): the text and JSON default.
NO_METADATA = RunMetadata()
