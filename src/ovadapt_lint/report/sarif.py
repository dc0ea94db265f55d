"""SARIF 2.1.0 output for GitHub code scanning.

Paths are relative with ``uriBaseId: %SRCROOT%``; absolute paths of the machine
that ran the linter are never written. Messages are redacted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from .. import __version__, registry
from ..engine import LintResult
from ..redact import mask_text

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/ovadapt/ovadapt-lint"
_LEVEL = {"error": "error", "warning": "warning", "note": "note"}
# GitHub code scanning's limit on results per run.
MAX_RESULTS = 25_000
# GitHub ranks alerts by security-severity (0-10).
_SECURITY_SEVERITY = {
    "contract": "5.0", "raw-field": "6.5", "raw-content": "7.5", "credential": "9.0",
    "local-path": "4.0", "private-url": "5.5", "deny-list": "6.0",
}
# Notices about files that could not be checked also go to toolExecutionNotifications.
_EXECUTION_CODES = ("OVA001", "OVA002", "OVA003", "OVA004", "OVA005", "OVA006", "OVA009")


def _descriptor(rule: registry.Rule) -> dict[str, Any]:
    tags = [rule.category]
    properties: dict[str, Any] = {"precision": rule.precision}
    if rule.category in _SECURITY_SEVERITY:
        tags.append("security")
        properties["security-severity"] = _SECURITY_SEVERITY[rule.category]
    properties["tags"] = tags
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.what},
        "help": {"text": rule.text(), "markdown": rule.markdown()},
        "helpUri": f"{INFORMATION_URI}/blob/main/docs/rules.md#{rule.code.lower()}-{rule.name}",
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": properties,
    }


def _region(span) -> dict[str, int]:
    return {"startLine": span.start_line, "startColumn": span.start_col,
            "endLine": span.end_line, "endColumn": max(span.end_col, 1)}


def _add_flow(item: dict[str, Any], steps: list[dict[str, Any]], artifact: dict[str, Any]) -> None:
    """A flow finding's steps (source, each variable, the projection field) as relatedLocations and a codeFlow."""
    locations = []
    for number, step in enumerate(steps):
        locations.append({
            "id": number,
            "physicalLocation": {"artifactLocation": dict(artifact),
                                 "region": {"startLine": step["line"], "startColumn": step["column"]}},
            "message": {"text": mask_text(step["message"])},
        })
    item["relatedLocations"] = locations
    item["codeFlows"] = [{"threadFlows": [{"locations": [
        {"location": {k: v for k, v in loc.items() if k != "id"}, "executionOrder": number}
        for number, loc in enumerate(locations)]}]}]


def _result(f, result: LintResult, index: dict[str, int]) -> tuple[dict[str, Any], dict[str, Any]]:
    message = mask_text(f.message)
    location = {"physicalLocation": {
        "artifactLocation": {"uri": result.uri(f.path), "uriBaseId": "%SRCROOT%"},
        "region": _region(f.span),
    }}
    item: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index[f.code],
        "level": _LEVEL.get(f.severity, "error"),
        "message": {"text": message},
        "locations": [location],
        "partialFingerprints": {"ovadaptFingerprint/v1": f.fingerprint},
    }
    if f.json_path:
        item["properties"] = {"jsonPath": mask_text(f.json_path)}
    if f.extra.get("flow"):
        _add_flow(item, f.extra["flow"], location["physicalLocation"]["artifactLocation"])
    return item, location


def _rank(f) -> tuple:
    """Most severe first: level, then the rule category's security-severity."""
    level = {"error": 0, "warning": 1, "note": 2}.get(f.severity, 0)
    return level, -float(_SECURITY_SEVERITY.get(f.category, "0"))


def build_sarif(result: LintResult, category: str | None = None, *, srcroot: str | None = None,
                show_suppressed: bool = False, max_results: int = MAX_RESULTS) -> dict[str, Any]:
    rules = list(registry.all_rules().values())
    index = {rule.code: i for i, rule in enumerate(rules)}
    results = []
    notifications = []
    findings = result.findings
    dropped = 0
    if len(findings) > max_results:  # GitHub rejects runs with more results: keep the most severe
        kept = sorted(range(len(findings)), key=lambda i: (_rank(findings[i]), i))[:max_results]
        dropped = len(findings) - max_results
        findings = [findings[i] for i in sorted(kept)]
    for f in findings:
        item, location = _result(f, result, index)
        results.append(item)
        if f.code in _EXECUTION_CODES:
            notifications.append({
                "level": _LEVEL.get(f.severity, "error"),
                "message": {"text": mask_text(f.message)},
                "locations": [location],
                "descriptor": {"id": f.code},
            })
    if show_suppressed:
        for hidden in result.suppressed[: max(0, max_results - len(results))]:
            item, _ = _result(hidden.finding, result, index)
            item["suppressions"] = [{"kind": "inSource" if hidden.in_source else "external",
                                     "justification": hidden.reason}]
            results.append(item)
    if dropped:
        notifications.append({
            "level": "warning",
            "message": {"text": f"{dropped} less severe result(s) were left out: GitHub code scanning accepts at most "
                                f"{max_results:,} results per run. Run the text or JSON format to see them all."},
        })
    run: dict[str, Any] = {
        "tool": {"driver": {
            "name": "ovadapt-lint",
            "version": __version__,
            "semanticVersion": __version__,
            "informationUri": INFORMATION_URI,
            "rules": [_descriptor(rule) for rule in rules],
        }},
        "automationDetails": {"id": (category.rstrip("/") + "/") if category else "ovadapt-lint/"},
        "columnKind": "unicodeCodePoints",
        "invocations": [{
            "executionSuccessful": True,
            "toolExecutionNotifications": notifications,
        }],
        "results": results,
    }
    if srcroot is not None:
        # Only on request: this is the one place an absolute path of this machine may appear.
        root = Path(srcroot).resolve().as_uri().rstrip("/") + "/"
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": root}}  # ovadapt: ignore[OVA504] (requested)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def write_sarif(result: LintResult, out: TextIO, category: str | None = None, *, srcroot: str | None = None,
                show_suppressed: bool = False) -> None:
    json.dump(build_sarif(result, category, srcroot=srcroot, show_suppressed=show_suppressed), out,
              indent=2, ensure_ascii=False)
    out.write("\n")
