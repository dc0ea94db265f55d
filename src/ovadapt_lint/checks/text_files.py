"""Plain-text files (Markdown under fixtures, with ``--include '*.md'``): text signatures on the whole file."""

from __future__ import annotations

from ..detect.signatures import scan_text
from ..findings import Finding, digest_value, make_finding
from ..source import SourceFile


def check_text(source: SourceFile) -> list[Finding]:
    """One finding per rule whose signature matches, at its first match."""
    text = source.data.decode("utf-8", "replace")
    findings = []
    for hit in scan_text(text):
        start = len(text[:hit.start].encode("utf-8"))
        end = start + len(text[hit.start:hit.end].encode("utf-8"))
        findings.append(make_finding(hit.code, f"file holds {hit.label} [{hit.signature}]", source.display,
                                     source.span(start, end), value_digest=digest_value((hit.signature, text[hit.start:hit.end]))))
    return findings
