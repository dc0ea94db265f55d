"""--fix: rewrite the values behind fixable findings, touching nothing else.

Each fixable finding carries a byte-range edit. Edits are applied right to left;
the result must still parse (JSON stays JSON, Python stays Python) or nothing
is written. Files are replaced atomically (a temporary file in the same folder,
then a rename), so an interrupted run never leaves half a fixture.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .findings import Finding
from .redact import apply_masks, line_secret_spans

BOM = b"\xef\xbb\xbf"
# What an edit may write: a placeholder, quoted or not, or `false` (an attestation restated as the boolean).
SAFE_REPLACEMENT = re.compile(r'^(?:"?\[redacted:[a-z-]{1,40}\]"?|false)$')


@dataclass
class FileFix:
    path: Path
    display: str
    before: bytes
    after: bytes
    fixed: list[Finding] = field(default_factory=list)
    error: str | None = None  # why nothing was written


def apply_edits(data: bytes, findings: list[Finding]) -> tuple[bytes, list[Finding]]:
    """Apply non-overlapping edits; where edits overlap the widest wins (a whole raw value
    over a path inside it). Applied right to left so offsets stay valid."""
    chosen: list[Finding] = []
    for finding in sorted((f for f in findings if f.fix), key=lambda f: f.fix[0] - f.fix[1]):
        start, end, replacement = finding.fix
        # Verified: an edit only ever writes a placeholder (or the boolean `false`), never other code.
        if not isinstance(replacement, str) or not SAFE_REPLACEMENT.match(replacement):
            continue
        if 0 <= start <= end <= len(data) and all(end <= c.fix[0] or start >= c.fix[1] for c in chosen):
            chosen.append(finding)
    out = data
    for finding in sorted(chosen, key=lambda f: f.fix[0], reverse=True):
        start, end, replacement = finding.fix
        out = out[:start] + replacement.encode("utf-8") + out[end:]
    return out, chosen


def _parses(kind: str, data: bytes) -> bool:
    text = data.decode("utf-8", "surrogateescape")
    try:
        if kind == "python":
            ast.parse(text)
        elif kind == "jsonl":
            for line in text.splitlines():
                if line.strip():
                    json.loads(line)
        else:
            json.loads(text)
    except (ValueError, SyntaxError, RecursionError):
        return False
    return True


def blocks_fix(findings: list[Finding]) -> bool:
    """A finding the rule pack marks ``blocks_fix`` (the file did not parse cleanly) stops --fix."""
    from .registry import get

    return any(get(f.code).blocks_fix_at(f.severity) for f in findings)


def plan(path: Path, display: str, kind: str, findings: list[Finding]) -> FileFix | None:
    """What --fix would do to one file, or None when nothing there is fixable."""
    fixable = [f for f in findings if f.fix]
    if not fixable:
        return None
    try:
        original = path.read_bytes()
    except OSError as exc:
        return FileFix(path, display, b"", b"", error=f"cannot read: {exc.strerror}")
    if blocks_fix(findings):
        return FileFix(path, display, original, original, error="the file did not parse cleanly; nothing written")
    bom = original.startswith(BOM)
    body = original[3:] if bom else original
    after, applied = apply_edits(body, fixable)
    after = (BOM if bom else b"") + after
    if not _parses(kind, after):
        return FileFix(path, display, original, original, error="the fixed file would not parse; nothing written")
    return FileFix(path, display, original, after, applied)


def write_atomically(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".ovadapt-tmp")
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


def diff(fix: FileFix) -> str:
    """A unified diff whose removed lines are masked: the secret never appears."""
    before = fix.before.decode("utf-8", "replace").splitlines(keepends=True)
    after = fix.after.decode("utf-8", "replace").splitlines(keepends=True)
    secrets = []
    body = fix.before[3:] if fix.before.startswith(BOM) else fix.before
    for finding in fix.fixed:
        if finding.secret_span:
            start, end, _ = finding.fix
            secrets.append(body[start:end].decode("utf-8", "replace"))
    lines = []
    for line in difflib.unified_diff(before, after, f"a/{fix.display}", f"b/{fix.display}"):
        if line.startswith("-") and not line.startswith("---"):
            # The redaction code frames use, plus every occurrence of a fixed secret: each masked once.
            spans = line_secret_spans(line)
            for secret in set(secrets):
                at = line.find(secret) if secret else -1
                while at != -1:
                    spans.append((at, at + len(secret)))
                    at = line.find(secret, at + len(secret))
            line = apply_masks(line, spans)
        lines.append(line if line.endswith("\n") else line + "\n")
    return "".join(lines)


def redact_text(text: str, kind: str = "json") -> str:
    """``text`` with every fixable leak replaced by its placeholder (what --fix would write).
    ``kind``: "json", "jsonl" or "python". Text that does not parse is returned unchanged."""
    from .config import Config
    from .engine import check_json_source, check_python_source
    from .source import SourceFile

    if kind not in ("json", "jsonl", "python"):
        raise ValueError(f"kind must be json, jsonl or python, not {kind!r}")
    config = Config()
    source = SourceFile(Path("<text>"), "<text>", text.encode("utf-8"))
    findings = check_python_source(source, config) if kind == "python" else check_json_source(source, kind, config)
    if blocks_fix(findings):
        return text
    after, _ = apply_edits(source.data, findings)
    return after.decode("utf-8") if _parses(kind, after) else text
