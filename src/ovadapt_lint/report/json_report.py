"""Machine-readable JSON output (schema ``ovadapt-lint/findings/v1``, documented in the README)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from ..version import __version__
from ..results import LintResult
from ..redact import mask_text


def _item(finding, patterns=None) -> dict:
    """``patterns``: the run's credential patterns (LintResult.secret_patterns), extension formats included."""
    item = finding.to_dict()
    item["message"] = mask_text(item["message"], patterns)
    if item["json_path"] is not None:
        item["json_path"] = mask_text(item["json_path"], patterns)
    if finding.extra.get("history"):
        item["properties"] = dict(finding.extra["history"])
    return item


def write_json(result: LintResult, out: TextIO, show_suppressed: bool = False) -> None:
    patterns = result.secret_patterns()
    findings = [_item(f, patterns) for f in result.findings]
    document = {
        "schema": "ovadapt-lint/findings/v1",
        "tool": {"name": "ovadapt-lint", "version": __version__},
        "summary": {
            "files": len(result.files),
            "findings": len(findings),
            "by_code": dict(sorted(Counter(f.code for f in result.findings).items())),
            "suppressed": len(result.suppressed),
        },
        "findings": findings,
    }
    if result.review is not None:
        document["summary"]["unchanged_not_shown"] = result.review["unchanged_not_shown"]
        document["summary"]["diff_base"] = result.review["diff_base"]
        document["summary"]["merge_base"] = result.review["merge_base"]
    if show_suppressed:
        document["suppressed"] = [{**_item(s.finding, patterns), "suppressed_by": s.reason} for s in result.suppressed]
    dump_json(document, out)


def dump_json(document: Any, out: TextIO, chunk: int = 1 << 16) -> None:
    """``document`` as indented JSON and a newline, in writes of about ``chunk`` characters: json.dump
    writes each token separately (~416k calls for 32k findings, issue 15), json.dumps holds it all."""
    parts: list[str] = []
    size = 0
    for part in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(document):
        parts.append(part)
        size += len(part)
        if size >= chunk:
            out.write("".join(parts))
            parts, size = [], 0
    parts.append("\n")
    out.write("".join(parts))
