"""The one Finding type every check produces and every reporter consumes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


# Slots: a run holds one Finding and one Span per finding (32k on one minified file), a dict each without.
@dataclass(frozen=True, slots=True)
class Span:
    """1-based line/column span; columns count Unicode code points, end is exclusive."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int


@dataclass(frozen=True, slots=True)
class FlowStep:
    """One step of a flow finding's trace, from the source to the published field: where, and what it shows
    (masked like the message)."""

    path: str  # the file as reports name it (flows cross modules)
    line: int
    column: int
    message: str


@dataclass(frozen=True, slots=True)
class HistoryMark:
    """Where a finding of ``ovadapt-lint history`` comes from: the blob, the commit that introduced it, and
    whether it is still present at HEAD."""

    commit: str  # abbreviated
    commit_date: str
    path_at_commit: str
    blob: str  # abbreviated
    present_at_head: bool
    removed_in: str | None
    status: str  # "still present", "removed in <commit>", "not present at HEAD"
    author: str | None = None  # only when asked (--show-authors)
    order: int = 0  # the commit's place in the scan: findings are reported oldest first

    def properties(self) -> dict[str, Any]:
        """The mark as the JSON and SARIF reports name it (their ``properties``)."""
        out: dict[str, Any] = {
            "commit": self.commit,
            "commitDate": self.commit_date,
            "pathAtCommit": self.path_at_commit,
            "blob": self.blob,
            "presentAtHead": self.present_at_head,
            "removedIn": self.removed_in,
            "status": self.status,
        }
        if self.author is not None:
            out["author"] = self.author
        return out


@dataclass(slots=True)
class Finding:
    """One finding: a rule's code and message at a place in a file, with what reports and --fix need."""

    code: str
    message: str
    path: str  # as given on the command line / relative to the working directory
    span: Span
    severity: str = "error"  # error | warning | note
    category: str = ""
    name: str = ""
    json_path: str | None = None
    # What identifies the offending value without revealing it (used for fingerprints/baselines).
    value_digest: str | None = None
    # Until the filter stage (finalise.select): the inline directive that hides this finding, and, for a
    # field finding, per material value the codes of the content findings that report it (one leak, one
    # finding: checks.raw_fields.mark_covered).
    inline_suppression: str | None = None
    covered_by: tuple[tuple[str, ...], ...] = ()
    # A flow finding's steps from the source to the published field (flow.resolve), masked like the message.
    trace: tuple[FlowStep, ...] = ()
    # A finding of a history scan: the blob and commit it was found in (history.scan_history).
    history: HistoryMark | None = None
    # This finding's own precision when it differs from its rule's (a checksum match, a public-by-design key).
    precision: str | None = None
    # The span is a credential: reporters that quote source text mask it.
    secret_span: bool = False
    # An automatic fix: (start byte, end byte, replacement text) in the file as read (BOM removed).
    fix: tuple[int, int, str] | None = None
    # The SHA-256 of the bytes (BOM removed) the fix's offsets refer to, set by the engine: --fix (fix.py)
    # never writes onto a file changed since. A field, not an ``extra`` key: one dict less per finding.
    fix_digest: str | None = None
    # What reports show of the automatic fix (issue 31: JSON `fix`, SARIF `fixes`): (start byte, length,
    # replacement), set by the engine and kept by the cache, as a cached run must report what a fresh one does.
    edit: tuple[int, int, str] | None = None
    # Why a finding of a fixable kind has no fix (shown by --fix).
    unfixable: str | None = None
    # The message, JSON path and flow steps were masked with the file's rule pack as it was linted
    # (engine.mask_quoted): a report using that same pack need not scan them again (LintResult.quoted).
    quoted_masked: bool = field(default=False, compare=False, repr=False)

    @property
    def line(self) -> int:
        return self.span.start_line

    @property
    def col(self) -> int:
        return self.span.start_col

    @property
    def fingerprint(self) -> str:
        return self.fingerprint_at(self.path)

    def identity(self, path: str | None = None) -> tuple[str, str, str]:
        """What a fingerprint names: rule, file (forward slashes), logical location (JSON path, else line)."""
        where = self.json_path if self.json_path is not None else f"L{self.span.start_line}"
        return self.code, (path if path is not None else self.path).replace("\\", "/"), where

    def fingerprint_at(self, path: str, occurrence: int = 0) -> str:
        """Stable across line shifts and reformatting: rule, file, logical location, and which occurrence of
        that triple it is (report.fingerprints numbers them). Never the value: a report is public, and an
        unsalted hash of a value confirms a guessed password in a second of guessing."""
        code, path, where = self.identity(path)
        raw = "\x1f".join([code, path, where] + ([str(occurrence)] if occurrence else []))
        return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]

    def sort_key(self) -> tuple:
        return (self.path, self.span.start_line, self.span.start_col, self.code, self.message)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "category": self.category,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
            "start_line": self.span.start_line,
            "start_column": self.span.start_col,
            "end_line": self.span.end_line,
            "end_column": self.span.end_col,
            "json_path": self.json_path,
            "fingerprint": self.fingerprint,
        }


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def digest_value(value: object) -> str:
    """A short digest that identifies a value without storing it."""
    return hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def make_finding(
    code: str,
    message: str,
    path: str,
    span: Span,
    *,
    json_path: str | None = None,
    value_digest: str | None = None,
    severity: str | None = None,
    secret_span: bool = False,
    rules=None,
) -> Finding:
    """A Finding whose name, category and default severity come from its rule: in ``rules`` (the run's rule
    pack, code -> rule) or, for the built-in codes the readers and checks emit, the built-in rules."""
    from . import registry

    rule = (rules if rules is not None else registry.all_rules())[code]
    return Finding(
        code=code,
        message=message,
        path=path,
        span=span,
        severity=severity or rule.severity,
        category=rule.category,
        name=rule.name,
        json_path=json_path,
        value_digest=value_digest,
        secret_span=secret_span,
    )
