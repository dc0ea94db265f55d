"""Raw-content rules (OVA3xx, and OVA601 private viking refs) on fixture values.

Two kinds of evidence here: compact slots that are not compact (OVA301) and
JSON structures that are raw records (session messages, tool parts,
memory-diff operations, float vectors). Text signatures in string values run
with the other string detectors in ``checks.strings``.
"""

from __future__ import annotations

import json
import re

from ..findings import Finding
from ..frontends.json_tree import JNode, JsonDocument, format_path, walk
from ..keyclass import Vocabulary, vocabulary
from . import json_finding, placeholder

_ROLES = frozenset({"user", "assistant", "system", "tool", "human"})
_MEMORY_TEXT_KEYS = ("before", "after", "deleted_content")
# An embedding: many numbers, mostly non-integers.
VECTOR_MIN_ITEMS = 16
VECTOR_FLOAT_SHARE = 0.75
_MSG_ID = re.compile(r"^msg_[0-9a-f]{32}$")


def check_compact_slots(doc: JsonDocument, vocab: Vocabulary | None = None) -> list[Finding]:
    vocab = vocab or vocabulary()
    keys, limit = vocab.compact_slots, vocab.compact_slot_max
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
            finding = json_finding(
                doc,
                "OVA301",
                node,
                path,
                f"{format_path(path)} is not compact: {shape}",
                node.value,
            )
            finding.fix = (node.start, node.end, json.dumps(placeholder("OVA301")))
            findings.append(finding)
    return findings


def _nonempty(node: JNode | None) -> bool:
    return node is not None and node.kind in ("string", "array", "object") and bool(node.value)


def _message_evidence(node: JNode) -> str | None:
    """Why an object is a session message or tool part, or None."""
    role = node.get("role")
    if role is not None and role.kind == "string" and role.value.lower() in _ROLES:
        parts = node.get("parts")
        if (
            parts is not None
            and parts.kind == "array"
            and any(item.kind == "object" and item.get("type") is not None for item in parts.value)
        ):
            ident = node.get("id")
            suffix = (
                " with a msg_ id"
                if ident is not None and ident.kind == "string" and _MSG_ID.match(ident.value)
                else ""
            )
            return f'a session message{suffix} (role "{role.value}" with typed parts)'
        if _nonempty(node.get("content")):
            return f'a chat message (role "{role.value}" with content)'
    kind = node.get("type")
    if kind is not None and kind.kind == "string" and kind.value == "tool":
        carried = [k for k in ("tool_input", "tool_output") if _nonempty(node.get(k))]
        if carried:
            return f"a tool part carrying {' and '.join(carried)}"
    return None


def memory_operation(node: JNode) -> bool:
    """A memory-diff operation: before/after/deleted text of a memory (a viking:// uri or a memory type)."""
    return _memory_evidence(node) is not None


def _memory_evidence(node: JNode) -> str | None:
    texts = [
        k
        for k in _MEMORY_TEXT_KEYS
        if (v := node.get(k)) is not None and v.kind == "string" and v.value.strip()
    ]
    if not texts:
        return None
    uri = node.get("uri")
    if node.get("memory_type") is not None or (
        uri is not None and uri.kind == "string" and uri.value.startswith("viking://")
    ):
        return f"a memory-diff operation carrying {', '.join(texts)}"
    return None


def _is_vector(node: JNode) -> bool:
    items = node.value
    if len(items) < VECTOR_MIN_ITEMS or any(item.kind != "number" for item in items):
        return False
    floats = sum(
        1 for item in items if isinstance(item.value, float) and not item.value.is_integer()
    )
    return floats >= VECTOR_FLOAT_SHARE * len(items)


def _structure(finding: Finding) -> Finding:
    finding.unfixable = (
        "a raw record or vector is removed by hand (replacing it would change the JSON types)"
    )
    return finding


def check_raw_structures(doc: JsonDocument) -> list[Finding]:
    findings = []
    for root, prefix in doc.roots:
        for node, path, _ in walk(root, prefix):
            if node.kind == "object":
                message = _message_evidence(node)
                if message:
                    findings.append(
                        _structure(
                            json_finding(
                                doc,
                                "OVA302",
                                node,
                                path,
                                f"{format_path(path)} is {message}",
                                ("message", format_path(path)),
                            )
                        )
                    )
                memory = _memory_evidence(node)
                if memory:
                    findings.append(
                        _structure(
                            json_finding(
                                doc,
                                "OVA305",
                                node,
                                path,
                                f"{format_path(path)} is {memory}",
                                ("memory", format_path(path)),
                            )
                        )
                    )
            elif node.kind == "array" and _is_vector(node):
                findings.append(
                    _structure(
                        json_finding(
                            doc,
                            "OVA312",
                            node,
                            path,
                            f"{format_path(path)} is an array of {len(node.value)} floats (an embedding vector)",
                            ("vector", len(node.value)),
                        )
                    )
                )
    return findings
