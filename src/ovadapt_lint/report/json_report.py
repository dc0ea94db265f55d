"""Machine-readable JSON output (schema ``ovadapt-lint/findings/v1``, documented in the README)."""

from __future__ import annotations

import json
from collections import Counter
from typing import TextIO

from .. import __version__
from ..engine import LintResult
from ..redact import redact_text


def write_json(result: LintResult, out: TextIO) -> None:
    findings = []
    for finding in result.findings:
        item = finding.to_dict()
        item["message"] = redact_text(item["message"])
        findings.append(item)
    document = {
        "schema": "ovadapt-lint/findings/v1",
        "tool": {"name": "ovadapt-lint", "version": __version__},
        "summary": {
            "files": len(result.files),
            "findings": len(findings),
            "by_code": dict(sorted(Counter(f.code for f in result.findings).items())),
        },
        "findings": findings,
    }
    json.dump(document, out, indent=2, ensure_ascii=False)
    out.write("\n")
