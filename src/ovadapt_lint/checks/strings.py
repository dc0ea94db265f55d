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
from . import hit_finding, placeholder


def _finding(doc: JsonDocument, node: JNode, text: str, path: tuple[PathPart, ...], hit: Hit,
             where: str, is_key: bool = False, rules=None) -> Finding:
    # Raw content is about the whole value; the other detectors point at the match.
    whole = category_of(hit.code).whole_value
    span = doc.span(node) if whole else doc.string_span(node, hit.start, hit.end)
    finding = hit_finding(hit, text, where, doc.source.display, span, json_path=format_path(path), rules=rules)
    if is_key:
        finding.unfixable = "a key is not rewritten (it could collide with another key); rename it by hand"
    elif whole:
        # The whole value becomes the placeholder (json.dumps: a valid JSON string).
        finding.fix = (node.start, node.end, json.dumps(placeholder(hit.code)))
    else:
        start, end = doc.string_bytes(node, hit.start, hit.end)
        finding.fix = (start, end, placeholder(hit.code))  # no quotes or backslashes: safe inside the string
    return finding


def check_strings(doc: JsonDocument, scanner: StringScanner, *, secrets: bool = True,
                  content: bool = True, published: bool = True) -> list[Finding]:
    """``secrets``: credentials and deny-listed names; ``content``: raw content, paths, private URLs;
    ``published``: the document is published (context rules report every credential-shaped value)."""
    findings = []
    for root, prefix in doc.roots:
        for node, path, member in walk(root, prefix):
            if member is not None:
                key_hits = scanner.scan(member.key, raw_content=False, secrets=secrets, content=content,
                                        published=published)
                if key_hits:
                    # A secret in a key must not reach the JSON path either.
                    secret = any(h.secret for h in key_hits)
                    key_path = path[:-1] + ((mask(member.key),) if secret else (member.key,))
                    where = f"key {format_path(key_path)}"
                    findings += [_finding(doc, member.key_node, member.key, key_path, h, where, is_key=True,
                                          rules=scanner.pack.rules) for h in key_hits]
            if node.kind == "string" and len(node.value) >= 3:
                hits = scanner.scan(node.value, member.key if member is not None else None, secrets=secrets,
                                    content=content, published=published)
                findings += [_finding(doc, node, node.value, path, h, format_path(path), rules=scanner.pack.rules)
                             for h in hits]
    return findings
