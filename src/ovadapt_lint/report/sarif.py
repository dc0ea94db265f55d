"""SARIF 2.1.0 output for GitHub code scanning.

URIs are relative to the source root (the git top level, else the config
file's folder, else the working directory; ``--sarif-srcroot`` picks another)
with ``uriBaseId: %SRCROOT%``, so they name the same repository file from any
working directory. A file outside the root keeps its results, named by a ``../``
URI relative to the root, and a notification says so. Absolute paths of the machine that ran the linter are written only
when ``--sarif-srcroot`` asks. Messages are redacted (masked as the run was finalised); the root and the
version-control provenance come with the run's metadata (finalise.run_metadata): this module only formats.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from .. import registry
from ..findings import Finding, FlowStep
from ..results import LintResult, RunMetadata
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
    steps: tuple[FlowStep, ...],
    artifact: dict[str, Any],
    artifact_of=None,
) -> None:
    """A flow finding's steps (the source, each assignment, call and return, the published field) as
    relatedLocations and a codeFlow; each step names its own file (flows cross modules)."""
    locations = []
    for number, step in enumerate(steps):
        where = artifact_of(step.path) if artifact_of is not None and step.path else dict(artifact)
        locations.append(
            {
                "id": number,
                "physicalLocation": {
                    "artifactLocation": where,
                    "region": {"startLine": step.line, "startColumn": max(step.column, 1)},
                },
                "message": {"text": step.message},
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
    f: Finding,
    uri: str,
    index: dict[str, int],
    fingerprints: Fingerprints,
    rules: dict[str, Any],
    uri_of=None,
) -> tuple[dict[str, Any], dict[str, Any]]:
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
        "message": {"text": f.message},
        "locations": [location],
        "partialFingerprints": {"ovadaptFingerprint/v1": fingerprint},
    }
    if f.json_path:
        item["properties"] = {"jsonPath": f.json_path}
    if f.precision:  # this result's own precision (a checksum match, a public-by-design key)
        item.setdefault("properties", {})["precision"] = f.precision
    if f.history is not None:
        item.setdefault("properties", {}).update(f.history.properties())
    _add_fixes(item, f, location, rules)
    if f.trace:
        _add_flow(
            item,
            f.trace,
            location["physicalLocation"]["artifactLocation"],
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
    meta: RunMetadata,
    category: str | None = None,
    *,
    srcroot: str | None = None,
    show_suppressed: bool = False,
    max_results: int = MAX_RESULTS,
) -> dict[str, Any]:
    """The SARIF log of a finalised ``result``; ``meta`` gives the source root (unless ``srcroot`` names one)
    and, for a history scan, the version-control provenance."""
    rules = list(result.rules.values())  # the run's rule pack: built-in and extension rules
    index = {rule.code: i for i, rule in enumerate(rules)}
    repository_root = meta.source_root
    if srcroot is None and repository_root is None:
        raise ValueError(
            "build_sarif needs the run's source root (finalise.run_metadata(root=True))"
        )
    root = Path(srcroot).resolve() if srcroot is not None else repository_root
    assert root is not None
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
                    "message": {"text": f.message},
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
        item, _ = _result(f, placed_uri(f.path), index, fingerprints, result.rules, uri_of)
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
            item, _ = _result(hidden.finding, uri, index, fingerprints, result.rules, uri_of)
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
    # The roles are looked up relative to the repository root, even under --sarif-srcroot (as before issue 29).
    artifacts = _artifacts(result, results, repository_root or root)
    if artifacts:
        run["artifacts"] = artifacts
    if meta.review is not None:
        run["properties"] = {
            "diffBase": meta.review.diff_base,
            "mergeBase": meta.review.merge_base,
            "unchangedLinesNotShown": meta.review.unchanged_not_shown,
            "summary": meta.review.note,
        }
    if srcroot is not None:
        # Only on request: this is the one place an absolute path of this machine may appear.
        run["originalUriBaseIds"] = {
            "%SRCROOT%": {"uri": root.as_uri().rstrip("/") + "/"}
        }  # ovadapt: ignore[OVA504] (requested)
    if meta.history is not None:
        history = meta.history
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
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _artifacts(
    result: LintResult, results: list[dict[str, Any]], root: Path
) -> list[dict[str, Any]]:
    """Each file with a result, with the role it was judged in (public: every rule; source and test:
    credentials and internal names only) as a property: SARIF's own artifact roles have no such value."""
    if not result.roles:
        return []
    by_uri = {
        result.root_uri(display, root): result.roles[display]
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
    meta: RunMetadata,
    out: TextIO,
    category: str | None = None,
    *,
    srcroot: str | None = None,
    show_suppressed: bool = False,
) -> None:
    dump_json(
        build_sarif(result, meta, category, srcroot=srcroot, show_suppressed=show_suppressed), out
    )


def report(result: LintResult, meta: RunMetadata, options, out: TextIO) -> None:
    """The ``sarif`` format (report.registry)."""
    write_sarif(
        result,
        meta,
        out,
        options.sarif_category,
        srcroot=options.sarif_srcroot,
        show_suppressed=options.show_suppressed,
    )
