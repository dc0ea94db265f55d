"""Raw-content rules (OVA3xx) on fixture string values."""

from __future__ import annotations

from functools import lru_cache

from .. import rulepack
from ..findings import Finding
from ..frontends.json_tree import JsonDocument, format_path, walk
from . import json_finding


@lru_cache(maxsize=1)
def _compact_slots() -> tuple[frozenset[str], int]:
    data = rulepack.load_toml("vocabulary", "keys.toml")["compact_slots"]
    return frozenset(data["keys"]), int(data["max_length"])


def check_compact_slots(doc: JsonDocument) -> list[Finding]:
    keys, limit = _compact_slots()
    findings = []
    for root, prefix in doc.roots:
        for node, path, member in walk(root, prefix):
            if member is None or member.key not in keys or node.kind != "string":
                continue
            text = node.value.strip()
            lines = text.count("\n") + 1
            if lines == 1 and len(text) <= limit:
                continue
            shape = f"{lines} lines" if lines > 1 else f"{len(text):,} characters (limit {limit})"
            findings.append(json_finding(doc, "OVA301", node, path,
                                         f"{format_path(path)} is not compact: {shape}", node.value))
    return findings
