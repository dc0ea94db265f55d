"""Every JSON key and string value through the string detectors (OVA3xx signatures,
OVA4xx credentials, OVA5xx paths, OVA6xx private URLs, OVA7xx deny-list)."""

from __future__ import annotations

import json

from ..detect import Hit
from ..detect.scanner import StringScanner
from ..findings import Finding
from ..frontends.json_tree import JNode, JsonDocument, PathPart, format_path, walk
from ..redact import mask
from ..registry import category_of
from . import fix_end, hit_finding, placeholder


def _finding(
    doc: JsonDocument,
    node: JNode,
    text: str,
    path: tuple[PathPart, ...],
    hit: Hit,
    where: str,
    is_key: bool = False,
    rules=None,
) -> Finding:
    # Raw content is about the whole value; the other detectors point at the match.
    whole = category_of(hit.code).whole_value
    span = doc.span(node) if whole else doc.string_span(node, hit.start, hit.end)
    finding = hit_finding(
        hit, text, where, doc.source.display, span, json_path=format_path(path), rules=rules
    )
    if is_key:
        finding.unfixable = (
            "a key is not rewritten (it could collide with another key); rename it by hand"
        )
    elif whole:
        # The whole value becomes the placeholder (json.dumps: a valid JSON string).
        finding.fix = (node.start, node.end, json.dumps(placeholder(hit.code)))
    else:
        start, end = doc.string_bytes(node, hit.start, fix_end(hit, text))
        finding.fix = (
            start,
            end,
            placeholder(hit.code),
        )  # no quotes or backslashes: safe inside the string
    return finding


def _key_findings(
    doc: JsonDocument,
    scanner: StringScanner,
    member,
    path: tuple[PathPart, ...],
    key_hits: list[Hit],
) -> list[Finding]:
    # A secret in a key must not reach the JSON path either.
    secret = any(h.secret for h in key_hits)
    key_path = path[:-1] + ((mask(member.key),) if secret else (member.key,))
    where = f"key {format_path(key_path)}"
    key_node = member.key_node
    return [
        _finding(
            doc, key_node, member.key, key_path, h, where, is_key=True, rules=scanner.pack.rules
        )
        for h in key_hits
    ]


def _value_findings(
    doc: JsonDocument,
    scanner: StringScanner,
    node: JNode,
    path: tuple[PathPart, ...],
    hits: list[Hit],
) -> list[Finding]:
    return [
        _finding(doc, node, node.value, path, h, format_path(path), rules=scanner.pack.rules)
        for h in hits
    ]


def check_strings(
    doc: JsonDocument,
    scanner: StringScanner,
    *,
    secrets: bool = True,
    content: bool = True,
    published: bool = True,
) -> list[Finding]:
    """``secrets``: credentials and deny-listed names; ``content``: raw content, paths, private URLs;
    ``published``: the document is published (context rules report every credential-shaped value)."""
    findings = []
    for root, prefix in doc.roots:
        for node, path, member in walk(root, prefix):
            if member is not None:
                key_hits = scanner.scan(
                    member.key,
                    raw_content=False,
                    secrets=secrets,
                    content=content,
                    published=published,
                )
                if key_hits:
                    findings += _key_findings(doc, scanner, member, path, key_hits)
            if node.kind == "string" and len(node.value) >= 3:
                hits = scanner.scan(
                    node.value,
                    member.key if member is not None else None,
                    secrets=secrets,
                    content=content,
                    published=published,
                )
                if hits:
                    findings += _value_findings(doc, scanner, node, path, hits)
    return findings


def check_string_families(
    doc: JsonDocument, scanner: StringScanner
) -> tuple[list[Finding], list[Finding]]:
    """``check_strings(secrets only)`` and ``check_strings(content only)`` of a published document, in one
    walk with one credential pass per string."""
    secret_findings: list[Finding] = []
    content_findings: list[Finding] = []
    for root, prefix in doc.roots:
        for node, path, member in walk(root, prefix):
            if member is not None:
                secret_hits, content_hits = scanner.scan_families(member.key, raw_content=False)
                if secret_hits:
                    secret_findings += _key_findings(doc, scanner, member, path, secret_hits)
                if content_hits:
                    content_findings += _key_findings(doc, scanner, member, path, content_hits)
            if node.kind == "string" and len(node.value) >= 3:
                secret_hits, content_hits = scanner.scan_families(
                    node.value, member.key if member is not None else None
                )
                if secret_hits:
                    secret_findings += _value_findings(doc, scanner, node, path, secret_hits)
                if content_hits:
                    content_findings += _value_findings(doc, scanner, node, path, content_hits)
    return secret_findings, content_findings
