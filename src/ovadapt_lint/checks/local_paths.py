"""OVA505: relative paths in published JSON values whose leading folders are local scratch: ignored by the
repository (its .gitignore, asked of git) or a well-known scratch folder (`.local/`, `tmp/`, `.venv/`, ...).
The message names the ignore rule or says the folder is a well-known one; never the path itself."""

from __future__ import annotations

from ..detect.ignored_paths import ignored, relative_paths, scratch_folder
from ..findings import Finding, digest_value, make_finding
from ..frontends.json_tree import JsonDocument, format_path, walk
from ..repository import repository_root
from . import placeholder

CODE = "OVA505"


def check_scratch_paths(doc: JsonDocument) -> list[Finding]:
    values = []  # (node, path, [(folder, start, end)]) of each string value holding a relative path
    for root, prefix in doc.roots:
        for node, path, _ in walk(root, prefix):
            if node.kind == "string" and "/" in node.value:
                found = relative_paths(node.value)
                if found:
                    values.append((node, path, found))
    if not values:
        return []
    repository = repository_root(doc.source.path)
    folders = sorted({folder for _, _, found in values for folder, _, _ in found})
    rules = ignored(repository, folders) if repository is not None else {}
    findings = []
    for node, path, found in values:
        for folder, start, end in found:
            if folder in rules:
                why = f"a git-ignored folder (ignored by {rules[folder]})"
            elif scratch_folder(folder):
                why = f"a well-known scratch folder ({folder.split('/', 1)[0]}/)"
            else:
                continue
            finding = make_finding(
                CODE,
                f"{format_path(path)} holds a relative path into {why}",
                doc.source.display,
                doc.string_span(node, start, end),
                json_path=format_path(path),
                value_digest=digest_value(("scratch-path", node.value[start:end])),
            )
            byte_start, byte_end = doc.string_bytes(node, start, end)
            finding.fix = (
                byte_start,
                byte_end,
                placeholder(CODE),
            )  # no quotes or backslashes: safe in the string
            findings.append(finding)
    return findings
