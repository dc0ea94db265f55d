"""--fix: rewrite the values behind fixable findings, touching nothing else.

apply_fixes is the one fix loop (plan, write, lint again, a few passes) that --fix, --diff and
redact_text share; the command line keeps only what to print.

Each fixable finding carries a byte-range edit, or (a Python flow finding) is fixed by a libcst codemod at
its sink (pyfix/: libcst is imported only then). Which fixes run follows each rule's applicability (Ruff's
convention): safe ones always, unsafe ones only with --unsafe-fixes (FixOptions). Edits are applied right to left;
the result must still parse (JSON stays JSON, Python stays Python) or nothing
is written. Files are replaced atomically (a temporary file in the same folder,
then a rename), so an interrupted run never leaves half a fixture. Edits are
written only onto the bytes they were computed from (compared by SHA-256 at
planning and again just before the rename); a symbolic link is fixed through
its target when that lies inside the linted tree and refused otherwise.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .findings import Finding, digest
from .pyfix.choose import SAFE_REPLACEMENT, FixOptions, allowed, is_codemod, sanitizer
from .redact import apply_masks, line_secret_spans
from .results import LintResult
from .source import open_regular, read_regular, split_lines, strip_line_end, visible

BOM = b"\xef\xbb\xbf"


@dataclass
class FileFix:
    path: Path
    display: str
    before: bytes
    after: bytes
    fixed: list[Finding] = field(default_factory=list)
    error: str | None = None  # why nothing was written
    # Where the bytes go: the file itself, or the target of a symbolic link inside the linted tree.
    write_path: Path | None = None
    notes: list[str] = field(
        default_factory=list
    )  # what the user should know once it is written (hard links)


def _inside(path: str, tree: Path) -> bool:
    root = os.path.realpath(tree)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _edit(finding: Finding) -> tuple[int, int, str]:
    """The fix of a finding that has one (callers keep only those)."""
    assert finding.fix is not None
    return finding.fix


def apply_edits(data: bytes, findings: list[Finding]) -> tuple[bytes, list[Finding]]:
    """Apply non-overlapping edits; where edits overlap the widest wins (a whole raw value
    over a path inside it). Applied right to left so offsets stay valid."""
    chosen: list[Finding] = []
    for finding in sorted((f for f in findings if f.fix), key=lambda f: _edit(f)[0] - _edit(f)[1]):
        start, end, replacement = _edit(finding)
        # Verified: an edit only ever writes a placeholder (or the boolean `false`), never other code.
        if not isinstance(replacement, str) or not SAFE_REPLACEMENT.match(replacement):
            continue
        if 0 <= start <= end <= len(data) and all(
            end <= _edit(c)[0] or start >= _edit(c)[1] for c in chosen
        ):
            chosen.append(finding)
    out = data
    for finding in sorted(chosen, key=lambda f: _edit(f)[0], reverse=True):
        start, end, replacement = _edit(finding)
        out = out[:start] + replacement.encode("utf-8") + out[end:]
    return out, chosen


def _parses(kind: str, data: bytes) -> bool:
    if kind == "python":
        try:
            ast.parse(
                data
            )  # bytes: Python reads the BOM and a coding declaration as it would run it
        except (ValueError, SyntaxError, RecursionError):
            return False
        return True
    text = (data[len(BOM) :] if data.startswith(BOM) else data).decode("utf-8", "surrogateescape")
    try:
        if kind == "jsonl":
            # JSON Lines records, as parse_jsonl reads them (U+2028 is text)
            for line in text.split("\n"):
                if line.strip():
                    json.loads(line)
        else:
            json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def blocks_fix(findings: list[Finding], rules=None) -> bool:
    """A finding the rule pack marks ``blocks_fix`` (the file did not parse cleanly: a reader's notice)
    stops --fix. ``rules``: the run's rules (extension rules included); default the built-in ones."""
    from .registry import all_rules

    rules = rules if rules is not None else all_rules()
    return any(f.code in rules and rules[f.code].blocks_fix_at(f.severity) for f in findings)


def plan(
    path: Path,
    display: str,
    kind: str,
    findings: list[Finding],
    tree: Path | None = None,
    rules=None,
    options: FixOptions | None = None,
) -> FileFix | None:
    """What --fix would do to one file, or None when nothing there is fixable. ``tree``: the linted
    tree; a symbolic link is fixed through its target only when the target lies inside it. ``rules``:
    the run's rules (see blocks_fix). ``options``: unsafe fixes too, the configured sanitisers."""
    options = options or FixOptions()
    fixable = [f for f in findings if allowed(f, options, rules)]
    if not fixable:
        return None
    write_path = path
    # Where the bytes would land, every link on the way resolved: a link to a folder (`dl -> ../outside`)
    # takes a write out of the tree as surely as a link to the file does.
    real = os.path.realpath(path)
    if real != os.path.abspath(path):
        if tree is None or not _inside(real, tree) or not os.path.isfile(real):
            what = (
                "is a symbolic link to"
                if os.path.islink(path)
                else "lies in a linked folder: it is"
            )
            return FileFix(
                path,
                display,
                b"",
                b"",
                error=f"{what} a file outside the linted tree; "
                "nothing written (fix the file it points to)",
            )
        write_path = Path(real)
    try:
        original = read_regular(write_path)
    except OSError as exc:
        return FileFix(path, display, b"", b"", error=f"cannot read: {exc.strerror}")
    linted = {f.fix_digest for f in fixable} - {None}
    if linted and linted != {digest(original[3:] if original.startswith(BOM) else original)}:
        return FileFix(
            path,
            display,
            original,
            original,
            error="changed since it was linted; nothing written (run again)",
        )
    return edit(path, display, kind, original, findings, rules, write_path, options)


def edit(
    path: Path,
    display: str,
    kind: str,
    original: bytes,
    findings: list[Finding],
    rules=None,
    write_path: Path | None = None,
    options: FixOptions | None = None,
) -> FileFix:
    """``original`` with the findings' edits and codemods applied (offsets count after a UTF-8 BOM, which
    stays), or why nothing may be written: the file did not parse cleanly, or the edited bytes would not
    parse. Only the fixes ``options`` allow are applied (safe ones; unsafe ones too with ``unsafe``)."""
    options = options or FixOptions()
    if blocks_fix(findings, rules):
        return FileFix(
            path,
            display,
            original,
            original,
            error="the file did not parse cleanly; nothing written",
        )
    bom = original.startswith(BOM)
    body = original[3:] if bom else original
    chosen = [f for f in findings if allowed(f, options, rules)]
    literal = [f for f in chosen if f.fix]
    flows = [f for f in chosen if f.fix is None and kind == "python" and is_codemod(f)]
    after, applied = apply_edits(body, literal)
    if flows:
        # One concrete syntax tree for the codemods and the literal edits chosen above.
        from .pyfix.codemods import rewrite

        try:
            outcome = rewrite(body, applied, flows, sanitizer(options))
        except (
            Exception
        ) as exc:  # a bug must not cost the run: the file is left as it is, and said so
            return FileFix(
                path,
                display,
                original,
                original,
                error=f"a Python fix failed ({type(exc).__name__}); nothing written",
            )
        if outcome.parsed:  # else the literal edits stand alone, as bytes
            after, applied = outcome.data, outcome.applied
        for finding in (*flows, *literal):
            if id(finding) in outcome.refused:
                finding.unfixable = outcome.refused[id(finding)]
    after = (BOM if bom else b"") + after
    if not _parses(kind, after):
        return FileFix(
            path,
            display,
            original,
            original,
            error="the fixed file would not parse; nothing written",
        )
    return FileFix(path, display, original, after, applied, write_path=write_path)


class StaleFile(Exception):
    """The file on disk is no longer the one the fix was planned against."""


def write_fix(fix: FileFix) -> list[str]:
    """Write a planned fix, only onto the bytes it was planned against; notes for the user (hard links).
    Raises StaleFile when the file changed since planning, OSError when it cannot be written."""
    path = fix.write_path or fix.path
    if os.path.realpath(path) != os.path.abspath(
        path
    ):  # a folder on the way became a link since planning
        raise StaleFile(
            "a folder on its path changed into a symbolic link since it was linted; nothing written"
        )
    with os.fdopen(
        open_regular(path), "rb"
    ) as handle:  # the same open file for the check and the link count
        current = handle.read()
        links = os.fstat(handle.fileno()).st_nlink
    if digest(current) != digest(fix.before):
        raise StaleFile("changed since it was linted; nothing written (run again)")
    write_atomically(path, fix.after)
    notes = []
    if fix.write_path is not None and os.path.islink(fix.path):
        notes.append("a symbolic link: its target inside the linted tree was fixed")
    if links > 1:
        # The rename gives this name a new file; the other names still hold the old bytes.
        notes.append(
            f"{links - 1} other hard link(s) to this file keep the old content; fix or remove them"
        )
    return notes


def write_atomically(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".ovadapt-tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        try:
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        except OSError:
            pass
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


# A fix can uncover another match in the same string: the loop lints again and fixes up to this many times.
FIX_PASSES = 3


@dataclass
class FixRun:
    result: LintResult  # what remains after the last pass (the result given, when nothing was linted again)
    passes: list[list[FileFix]] = field(
        default_factory=list
    )  # each pass's plans, written or refused


def plan_fixes(
    result: LintResult,
    skip: set[str] | frozenset[str] = frozenset(),
    plan_file: Callable[[str, list[Finding]], FileFix | None] | None = None,
    options: FixOptions | None = None,
) -> list[FileFix]:
    """One pass's plans, by display path: each file's findings (``skip``: files not to try) planned by
    ``plan_file(display, findings)``, by default from the file on disk (see plan)."""
    if plan_file is None:

        def plan_file(display: str, findings: list[Finding]) -> FileFix | None:
            target = result.targets.get(display)
            if target is None:
                return None
            return plan(
                target.path,
                display,
                target.kind,
                findings,
                tree=result.source_root(),
                rules=result.rules,
                options=options,
            )

    by_file: dict[str, list[Finding]] = {}
    for finding in result.findings:
        if finding.path not in skip:
            by_file.setdefault(finding.path, []).append(finding)
    plans = [plan_file(display, findings) for display, findings in sorted(by_file.items())]
    return [planned for planned in plans if planned is not None]


def apply_fixes(
    result: LintResult,
    relint: Callable[[], LintResult] | None = None,
    *,
    write: Callable[[FileFix], list[str]] | None = write_fix,
    passes: int = FIX_PASSES,
    plan_file: Callable[[str, list[Finding]], FileFix | None] | None = None,
    on_pass: Callable[[int, LintResult, list[FileFix]], None] | None = None,
    options: FixOptions | None = None,
) -> FixRun:
    """The fix loop: plan each file's edits from ``result``, write them, lint again with ``relint``, and
    go round while fixable findings remain, at most ``passes`` times. A file whose fix was refused or
    failed is not tried again. ``write(plan)``: writes one plan and returns notes for the user (default:
    onto the file, only onto the bytes planned against); None writes nothing. Without ``relint`` there is
    one pass. ``plan_file``: see plan_fixes. ``on_pass(number, linted, plans)``, after each pass's
    writes: what it planned from and did, so the caller can say so as it happens. ``options``: unsafe
    fixes too, the configured sanitisers (default: safe fixes only)."""
    options = options or FixOptions()
    run = FixRun(result)
    refused: set[str] = set()
    for number in range(1, passes + 1):
        if number > 1 and not any(
            allowed(f, options, run.result.rules) for f in run.result.findings
        ):
            break
        plans = plan_fixes(run.result, refused, plan_file, options)
        if write is not None:
            refused |= _write_plans(plans, write)
        run.passes.append(plans)
        if on_pass is not None:
            on_pass(number, run.result, plans)
        if relint is None:
            break
        run.result = relint()
    return run


def _write_plans(plans: list[FileFix], write: Callable[[FileFix], list[str]]) -> set[str]:
    """Write each plan that changes something, keeping its notes or why it failed; the files refused."""
    refused = set()
    for planned in plans:
        if planned.error is None and planned.after != planned.before:
            try:
                planned.notes = write(planned)
            except StaleFile as exc:
                planned.error = str(exc)
            except OSError as exc:
                planned.error = f"cannot write: {exc.strerror or exc}"
        if planned.error is not None:
            refused.add(planned.display)
    return refused


def diff(fix: FileFix, patterns=None) -> str:
    """A unified diff whose removed lines are masked: the secret never appears. ``patterns``: the run's
    credential patterns (extension formats included); default the built-in ones."""
    before = split_lines(fix.before.decode("utf-8", "replace"))
    after = split_lines(fix.after.decode("utf-8", "replace"))
    secrets = []
    body = fix.before[3:] if fix.before.startswith(BOM) else fix.before
    for finding in fix.fixed:
        if finding.secret_span and finding.fix:
            start, end, _ = _edit(finding)
            secrets.append(body[start:end].decode("utf-8", "replace"))
    lines = []
    name = visible(fix.display)
    for line in difflib.unified_diff(before, after, f"a/{name}", f"b/{name}"):
        if line.startswith("-") and not line.startswith("---"):
            # The redaction code frames use, plus every occurrence of a fixed secret: each masked once.
            spans = line_secret_spans(line, patterns)
            for secret in set(secrets):
                at = line.find(secret) if secret else -1
                while at != -1:
                    spans.append((at, at + len(secret)))
                    at = line.find(secret, at + len(secret))
            line = apply_masks(line, spans)
        # A preview for a terminal: a line's control characters (ESC, a bare CR) shown as escapes, as in frames.
        shown = strip_line_end(line)
        lines.append("\t".join(visible(part) for part in shown.split("\t")) + "\n")
    return "".join(lines)


def redact_text(text: str, kind: str = "json") -> str:
    """``text`` with every fixable leak replaced by its placeholder (what --fix would write, through the
    same loop). ``kind``: "json", "jsonl" or "python". Text that does not parse is returned unchanged."""
    from .config import Config

    if kind not in ("json", "jsonl", "python"):
        raise ValueError(f"kind must be json, jsonl or python, not {kind!r}")
    return _redact(text, kind, Config())


def redact_value(value: Any) -> Any:
    """``value`` (a string, or a JSON-like list or dict of them) with every leak the linter finds in it,
    wherever it would be published, replaced by its placeholder: credentials, local paths, private URLs,
    internal names, raw content (a traceback, a transcript turn: the whole string). The same shape comes
    back (tuples as lists; what JSON cannot hold as its ``str``). The default sanitiser of the Python
    flow fixes (rules/fixes.toml): ``"summary": redact_value(event["message"])``."""
    from .config import Config

    text = json.dumps({"value": value}, default=str, ensure_ascii=False)
    # Every value judged as published (`--scope all`): a builder publishes what it passes here.
    return json.loads(_redact(text, "json", Config(scope="all")))["value"]


def _redact(text: str, kind: str, config) -> str:
    from .analysis import Analysis
    from .engine import check_json_source, check_python_source
    from .source import SourceFile

    analysis = Analysis.build(config)  # once for every pass of the loop
    where = Path("<text>")
    current = text.encode("utf-8", "surrogatepass")

    def lint() -> LintResult:
        source = SourceFile(where, "<text>", current)
        findings = (
            check_python_source(source, config, "source", analysis)
            if kind == "python"
            else check_json_source(source, kind, config, "source", analysis)
        )
        return LintResult(findings=findings)

    def plan_text(display: str, findings: list[Finding]) -> FileFix | None:
        return (
            edit(where, display, kind, current, findings) if any(f.fix for f in findings) else None
        )

    def keep(planned: FileFix) -> list[str]:
        nonlocal current
        current = planned.after
        return []

    apply_fixes(lint(), lint, write=keep, plan_file=plan_text)
    return current.decode("utf-8", "surrogatepass")
