"""Plain-text files (Markdown under fixtures, with ``--include '*.md'``): text signatures on the whole file."""

from __future__ import annotations

from ..detect.scanner import StringScanner
from ..detect.signatures import scan_text
from ..findings import Finding
from ..registry import category_of
from ..source import SourceFile, split_lines
from . import hit_finding


def check_text(
    source: SourceFile,
    text: str,
    scanner: StringScanner,
    content: bool = True,
    published: bool = True,
    secrets: bool = True,
) -> list[Finding]:
    """Raw-content rules once per file (at the first match); the other detectors per line.
    ``text``: the file's decoded text; ``content``: also raw content, paths and URLs (a published file)."""
    findings = []
    if content:
        for hit in scan_text(text, scanner.pack.text_signatures):
            if category_of(hit.code).whole_value:
                findings.append(_finding(source, text, 0, hit, scanner.pack.rules))
    offset = 0
    for line in split_lines(text):  # the line model every position uses
        for hit in scanner.scan(
            line, raw_content=False, secrets=secrets, content=content, published=published
        ):
            findings.append(_finding(source, line, offset, hit, scanner.pack.rules))
        offset += len(line.encode("utf-8"))
    return findings


def _finding(source: SourceFile, text: str, base: int, hit, rules) -> Finding:
    start = base + len(text[: hit.start].encode("utf-8"))
    end = start + len(text[hit.start : hit.end].encode("utf-8"))
    return hit_finding(hit, text, "file", source.display, source.span(start, end), rules=rules)
