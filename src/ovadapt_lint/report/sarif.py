"""SARIF 2.1.0 output for GitHub code scanning.

URIs are relative to the source root (the git top level, else the config
file's folder, else the working directory; ``--sarif-srcroot`` picks another)
with ``uriBaseId: %SRCROOT%``, so they name the same repository file from any
working directory. A file outside the root keeps its results, named by a ``../``
URI relative to the root, and a notification says so. Absolute paths of the machine that ran the linter are written only
when ``--sarif-srcroot`` asks. Messages are redacted.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from .. import registry
from ..results import HistoryRun, LintResult
from ..ruledocs import rule_markdown, rule_text
from ..version import __version__
from .json_report import Fingerprints, dump_json

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/ovadapt/ovadapt-lint"
_LEVEL = {"error": "error", "warning": "warning", "note": "note"}
# GitHub code scanning's limit on results per run.
MAX_RESULTS = 25_000


def _descriptor(rule: registry.Rule) -> dict[str, Any]:
    tags = [rule.category]
    properties: dict[str, Any] = {"precision": rule.precision}
    # GitHub ranks alerts by security-severity (0-10), set per category in the rule pack.
    if rule.policy.security_severity:
        tags.append("security")
        properties["security-severity"] = rule.policy.security_severity
    properties["tags"] = tags
    descriptor = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.what},
        "help": {"text": rule_text(rule), "markdown": rule_markdown(rule)},
        "helpUri": f"{INFORMATION_URI}/blob/main/docs/rules.md#{rule.code.lower()}-{rule.name}",
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": properties,
    }
    if rule.code not in registry.all_rules():
        del descriptor[
            "helpUri"
        ]  # an extension rule: docs/rules.md documents the built-in rules only
    return descriptor


def _region(span) -> dict[str, int]:
    return {
        "startLine": span.start_line,
        "startColumn": span.start_col,
        "endLine": span.end_line,
        "endColumn": max(span.end_col, 1),
    }


def _add_flow(
    item: dict[str, Any],
    steps: list[dict[str, Any]],
    artifact: dict[str, Any],
    quote,
    artifact_of=None,
) -> None:
    """A flow finding's steps (the source, each assignment, call and return, the published field) as
    relatedLocations and a codeFlow; each step names its own file (flows cross modules)."""
    locations = []
    for number, step in enumerate(steps):
        where = (
            artifact_of(step["path"])
            if artifact_of is not None and step.get("path")
            else dict(artifact)
        )
        locations.append(
            {
                "id": number,
                "physicalLocation": {
                    "artifactLocation": where,
                    "region": {"startLine": step["line"], "startColumn": max(step["column"], 1)},
                },
                "message": {"text": quote(step["message"])},
            }
        )
    item["relatedLocations"] = locations
    last = len(locations) - 1
    item["codeFlows"] = [
        {
            "threadFlows": [
                {
                    "locations": [
                        {
                            "location": {k: v for k, v in loc.items() if k != "id"},
                            "executionOrder": number,
                            "importance": "essential" if number in (0, last) else "important",
                            **(
                                {"kinds": ["taint"]}
                                if number == 0
                                else {"kinds": ["danger"]}
                                if number == last
                                else {}
                            ),
                        }
                        for number, loc in enumerate(locations)
                    ]
                }
            ]
        }
    ]


def uri_reference(path: str) -> str:
    """A forward-slash relative path as an RFC 3986 URI reference: every byte outside the unreserved set
    percent-encoded (a space, `#`, `?`, `%`, a `:` that would read as a scheme, non-ASCII as UTF-8), a name
    that is not UTF-8 by its own bytes (a lone surrogate escape stands for one byte, never written as is)."""
    from urllib.parse import quote

    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def _result(
    f, uri: str, index: dict[str, int], result: LintResult, fingerprints: Fingerprints, uri_of=None
) -> tuple[dict[str, Any], dict[str, Any]]:
    message = result.quoted(f, f.message)
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": {"uri": uri_reference(uri), "uriBaseId": "%SRCROOT%"},
            "region": _region(f.span),
        }
    }
    # The fingerprint hashes the root-relative path, so an alert keeps its identity whatever folder ran the linter.
    fingerprint = fingerprints(f, uri)
    item: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index[f.code],
        "level": _LEVEL.get(f.severity, "error"),
        "message": {"text": message},
        "locations": [location],
        "partialFingerprints": {"ovadaptFingerprint/v1": fingerprint},
    }
    if f.json_path:
        item["properties"] = {"jsonPath": result.quoted(f, f.json_path)}
    if f.extra.get(
        "precision"
    ):  # this result's own precision (a checksum match, a public-by-design key)
        item.setdefault("properties", {})["precision"] = f.extra["precision"]
    if f.extra.get("history"):
        item.setdefault("properties", {}).update(f.extra["history"])
    _add_fixes(item, f, location, result.rules)
    if f.extra.get("flow"):
        _add_flow(
            item,
            f.extra["flow"],
            location["physicalLocation"]["artifactLocation"],
            lambda text: result.quoted(f, text),
            lambda path: {
                "uri": uri_reference((uri_of(path) if uri_of is not None else None) or uri),
                "uriBaseId": "%SRCROOT%",
            },
        )
    return item, location


def _add_fixes(item: dict[str, Any], f, location: dict[str, Any], rules) -> None:
    """SARIF ``fixes`` for a finding whose fix is a literal edit (issue 31): its placeholder over the bytes
    it replaces. A codemod's edit is computed only by --fix/--diff; its applicability is a property."""
    from ..pyfix.choose import fix_report

    fix = fix_report(f, rules)
    if fix is None:
        return
    item.setdefault("properties", {})["fixApplicability"] = fix["applicability"]
    if fix["edits"]:
        item["fixes"] = [
            {
                "description": {"text": fix["message"]},
                "artifactChanges": [
                    {
                        "artifactLocation": location["physicalLocation"]["artifactLocation"],
                        "replacements": [
                            {
                                "deletedRegion": {
                                    "byteOffset": edit["byte_offset"],
                                    "byteLength": edit["byte_length"],
                                },
                                "insertedContent": {"text": edit["content"]},
                            }
                            for edit in fix["edits"]
                        ],
                    }
                ],
            }
        ]


def _rank(f, rules) -> tuple:
    """Kept first under the cap: tool notices (the run's ``rules``: an extension file may add one), then by
    level, then by the category's security-severity."""
    level = {"error": 0, "warning": 1, "note": 2}.get(f.severity, 0)
    severity = (
        registry.categories()[f.category].security_severity
        if f.category in registry.categories()
        else ""
    )
    return 0 if registry.is_notice(f.code, rules) else 1, level, -float(severity or "0")


def _by_rule(findings) -> str:
    counts = Counter(f.code for f in findings)
    return ", ".join(f"{code} {count}" for code, count in sorted(counts.items()))


def outside_uri(result: LintResult, display: str, root: Path) -> str | None:
    """A file outside the source root named relative to it (`../elsewhere/x.json`): the result is kept and
    resolves against %SRCROOT%, and no absolute path of this machine is written. None on another drive."""
    import os

    target = result.targets.get(display)
    full = os.path.abspath(str(target.path) if target is not None else display)
    real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
    try:
        return os.path.relpath(real, os.path.realpath(root)).replace(os.sep, "/")
    except ValueError:  # another drive on Windows
        return None


def _shown_path(display: str) -> str:
    """How a notification names a file outside the root: as displayed when relative, else by name only
    (an absolute path of this machine is never written)."""
    import os

    return display.replace("\\", "/") if not os.path.isabs(display) else os.path.basename(display)


def build_sarif(
    result: LintResult,
    category: str | None = None,
    *,
    srcroot: str | None = None,
    show_suppressed: bool = False,
    max_results: int = MAX_RESULTS,
) -> dict[str, Any]:
    rules = list(result.rules.values())  # the run's rule pack: built-in and extension rules
    index = {rule.code: i for i, rule in enumerate(rules)}
    root = Path(srcroot).resolve() if srcroot is not None else result.source_root()
    uris: dict[str, str | None] = {}

    def uri_of(display: str) -> str | None:
        if display not in uris:
            uris[display] = result.root_uri(display, root)
        return uris[display]

    results = []
    fingerprints = Fingerprints()
    notifications = []
    outside: dict[str, list] = {}
    findings = []
    for f in result.findings:
        if uri_of(f.path) is None:
            outside.setdefault(f.path, []).append(f)
        findings.append(f)
    unplaced = (
        set()
    )  # outside the root and not even relative to it (another drive): named by file name
    for display in outside:
        uris[display] = outside_uri(result, display, root)
        if uris[display] is None:
            import os

            uris[display] = os.path.basename(display).replace("\\", "/")
            unplaced.add(display)

    def placed_uri(display: str) -> str:
        """The uri of a finding's file: each has one, those outside the root were named just above."""
        uri = uri_of(display)
        assert uri is not None
        return uri

    # Files that could not be checked are execution notifications whether or not the cap keeps their result.
    for f in findings:
        if f.code in result.rules and result.rules[f.code].execution:
            notifications.append(
                {
                    "level": _LEVEL.get(f.severity, "error"),
                    "message": {"text": result.quoted(f, f.message)},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {
                                    "uri": uri_reference(placed_uri(f.path)),
                                    **({} if f.path in unplaced else {"uriBaseId": "%SRCROOT%"}),
                                },
                                "region": _region(f.span),
                            }
                        }
                    ],
                    "descriptor": {"id": f.code},
                }
            )
    left_out = []
    if (
        len(findings) > max_results
    ):  # GitHub rejects runs with more results: keep notices, then the most severe
        order = sorted(range(len(findings)), key=lambda i: (_rank(findings[i], result.rules), i))
        kept = sorted(order[:max_results])
        left_out = [findings[i] for i in order[max_results:]]
        findings = [findings[i] for i in kept]
    for f in findings:
        item, _ = _result(f, placed_uri(f.path), index, result, fingerprints, uri_of)
        if f.path in unplaced:
            del item["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
        results.append(item)
    if show_suppressed:
        for hidden in result.suppressed:
            if len(results) >= max_results:
                break
            uri = uri_of(hidden.finding.path)
            if uri is None:
                uri = uris[hidden.finding.path] = outside_uri(result, hidden.finding.path, root)
                if uri is None:
                    continue
            item, _ = _result(hidden.finding, uri, index, result, fingerprints, uri_of)
            item["suppressions"] = [
                {
                    "kind": "inSource" if hidden.in_source else "external",
                    "justification": hidden.reason,
                }
            ]
            results.append(item)
    if left_out:
        notifications.append(
            {
                "level": "warning",
                "message": {
                    "text": f"{len(left_out)} less severe result(s) were left out (by rule: {_by_rule(left_out)}): "
                    f"GitHub code scanning accepts at most {max_results:,} results per run; tool notices (OVA0xx) "
                    f"are kept first. Run the text or JSON format to see them all."
                },
            }
        )
    where = "--sarif-srcroot" if srcroot is not None else "the repository root (git top level)"
    for display, kept_out in sorted(outside.items()):
        named = "by its file name only" if display in unplaced else "relative to the root (../)"
        notifications.append(
            {
                "level": "warning",
                "message": {
                    "text": f"{_shown_path(display)} lies outside the source root ({where}); its "
                    f"{len(kept_out)} result(s) (by rule: {_by_rule(kept_out)}) name it {named}, so code "
                    f"scanning cannot show them on a repository file. Lint files inside the repository, "
                    f"or pass --sarif-srcroot DIR."
                },
            }
        )
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "ovadapt-lint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_descriptor(rule) for rule in rules],
            }
        },
        "automationDetails": {"id": (category.rstrip("/") + "/") if category else "ovadapt-lint/"},
        "columnKind": "unicodeCodePoints",
        "invocations": [
            {
                "executionSuccessful": True,
                "toolExecutionNotifications": notifications,
            }
        ],
        "results": results,
    }
    artifacts = _artifacts(result, results)
    if artifacts:
        run["artifacts"] = artifacts
    if result.review is not None:
        from ..vcs import unchanged_note

        run["properties"] = {
            "diffBase": result.review["diff_base"],
            "mergeBase": result.review["merge_base"],
            "unchangedLinesNotShown": result.review["unchanged_not_shown"],
            "summary": unchanged_note(result.review),
        }
    if srcroot is not None:
        # Only on request: this is the one place an absolute path of this machine may appear.
        run["originalUriBaseIds"] = {
            "%SRCROOT%": {"uri": root.as_uri().rstrip("/") + "/"}
        }  # ovadapt: ignore[OVA504] (requested)
    if result.history is not None:
        _add_history(run, result.history)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _add_history(run: dict[str, Any], history: HistoryRun) -> None:
    """A history scan's provenance: the commit scanned, and the scan's numbers as a run property."""
    provenance: dict[str, Any] = {
        # repositoryUri is required: the origin's public URL (credentials removed), else a name that is no path.
        "repositoryUri": history.remote or "urn:ovadapt-lint:local-repository",
        "revisionId": history.head,
        "mappedTo": {"uriBaseId": "%SRCROOT%"},
    }
    if history.branch:
        provenance["branch"] = history.branch
    run["versionControlProvenance"] = [provenance]
    run.setdefault("properties", {})["history"] = history.summary()


def _artifacts(result: LintResult, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each file with a result, with the role it was judged in (public: every rule; source and test:
    credentials and internal names only) as a property: SARIF's own artifact roles have no such value."""
    if not result.roles:
        return []
    by_uri = {
        result.root_uri(display): result.roles[display]
        for display in dict.fromkeys(f.path for f in result.findings)
        if display in result.roles
    }
    artifacts = []
    for uri in dict.fromkeys(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in results
        if r.get("locations")
    ):
        role = by_uri.get(uri)
        if role is not None:
            artifacts.append(
                {
                    "location": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                    "roles": ["analysisTarget"],
                    "properties": {"role": role.role, "roleReason": role.why},
                }
            )
    return artifacts


def write_sarif(
    result: LintResult,
    out: TextIO,
    category: str | None = None,
    *,
    srcroot: str | None = None,
    show_suppressed: bool = False,
) -> None:
    dump_json(build_sarif(result, category, srcroot=srcroot, show_suppressed=show_suppressed), out)
