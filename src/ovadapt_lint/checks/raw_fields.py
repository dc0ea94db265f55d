"""Raw-field rules (OVA2xx) on fixture keys: the key classifier plus the value's shape.

A boolean, number or null cannot carry a body, so flags and counters are never
raw fields. Credential and strongly raw keys (stdout, transcript, traceback, ...)
are raw whenever they hold a non-empty string, array or object; ambiguous keys
(output, body, path, ...) only when the value does not look compact.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..detect import is_placeholder
from ..findings import Finding
from ..frontends.json_tree import JNode, JsonDocument, format_path, walk
from ..keyclass import Vocabulary, vocabulary
from . import json_finding

CATEGORY_CODES = {
    "credential": "OVA201",
    "transcript": "OVA202",
    "log": "OVA203",
    "local-path": "OVA204",
    "raw-output": "OVA205",
    "embedding": "OVA206",
}
_CATEGORY_TEXT = {
    "credential": "a credential",
    "transcript": "transcript or prompt text",
    "log": "log or trace output",
    "local-path": "a local path",
    "raw-output": "raw output or a raw body",
    "embedding": "an embedding vector",
}
_LOCAL_PATH = re.compile(r"^(?:~[/\\]|/(?:Users|home|root|tmp|var|private|mnt|srv|Volumes|opt|etc)/|[A-Za-z]:[\\/]|\\\\|file://)")
# Flags that declare raw material was copied: a true value is a raw-copy declaration.
_COPY_SUFFIXES = "copied|recorded|captured|ingested|included|embedded"
_COPY_FLAG = re.compile(rf"_(?:{_COPY_SUFFIXES})$")
# Flag-shaped keys hold booleans by convention; a wrong type there is a contract problem, not a body.
_FLAG_KEY = re.compile(rf"_(?:{_COPY_SUFFIXES}|allowed|performed|enabled|required|present|redacted|detected)$")
_RAWISH = frozenset({"raw", "body", "bodies", "transcript", "transcripts", "trajectory", "trajectories",
                     "credential", "credentials", "secret", "secrets", "path", "paths", "log", "logs", "output",
                     "outputs", "memory", "evidence", "payload", "payloads", "content", "prompt", "prompts"})


_AUTH_SCHEME = re.compile(r"^(?:bearer|basic|token|digest)\s+", re.IGNORECASE)


def _credential_token(text: str) -> bool:
    value = _AUTH_SCHEME.sub("", text.strip())
    return len(value) >= 4 and not any(c.isspace() for c in value) and not is_placeholder(value)


def _compact_string(text: str, limit: int) -> bool:
    return "\n" not in text.strip() and len(text) <= limit


def _describe(node: JNode) -> str:
    if node.kind == "string":
        lines = node.value.count("\n") + 1
        return f"a string of {len(node.value):,} characters" + (f" on {lines} lines" if lines > 1 else "")
    if node.kind == "array":
        return f"an array of {len(node.value)} item(s)"
    return f"an object with {len(node.value)} key(s)"


def _strings(node: JNode) -> list[str]:
    """The string itself, or the strings directly in an array."""
    if node.kind == "string":
        return [node.value]
    return [item.value for item in node.value if item.kind == "string"] if node.kind == "array" else []


def _carries_raw(category: str, weak: bool, node: JNode, limit: int, container_ok: bool = False) -> bool:
    if node.kind not in ("string", "array", "object") or not node.value:
        return False
    if container_ok and node.kind == "object":
        return False
    if category == "credential":
        # A credential value is one token (after an auth scheme); prose about credentials is not one.
        if node.kind == "object":
            return True
        return any(_credential_token(s) for s in _strings(node))
    if category == "embedding":
        if node.kind == "array":
            return sum(1 for item in node.value if item.kind == "number") >= 2
        return len(node.value) >= 64 and " " not in node.value
    if category == "local-path":
        if weak or node.kind != "object":
            return any(_LOCAL_PATH.match(s) for s in _strings(node))
        return True
    if not weak:
        return True
    if node.kind == "string":
        return not _compact_string(node.value, limit)
    if node.kind == "array":
        return any(item.kind == "object" or (item.kind == "string" and not _compact_string(item.value, limit))
                   for item in node.value)
    # An object under an ambiguous key (SARIF's `"message": {"text": "…"}`) is raw when it nests
    # records or holds text that is not compact.
    return any(m.value.kind in ("object", "array") or (m.value.kind == "string" and not _compact_string(m.value.value, limit))
               for m in node.value)


def check_raw_fields(doc: JsonDocument, adapters: Iterable[JNode] = (), vocab: Vocabulary | None = None) -> list[Finding]:
    """``adapters``: adapter objects, whose copy flags the contract rules already judge."""
    vocab = vocab or vocabulary()
    findings = []
    inside = {id(node) for adapter in adapters for node, _, _ in walk(adapter)}
    for root, prefix in doc.roots:
        for _node, path, member in walk(root, prefix):
            if member is None:
                continue
            verdict = vocab.classify(member.key)
            value = member.value
            if value.kind == "true" and _COPY_FLAG.search(member.key) and id(value) not in inside:
                words = set(member.key.lower().split("_"))
                if words & _RAWISH:
                    findings.append(json_finding(doc, "OVA207", member.key_node, path,
                                             f"{format_path(path)} is true: the fixture declares that it holds copied raw material",
                                             member.key))
                    continue
            if verdict.category is None or _FLAG_KEY.search(member.key):
                continue
            if not _carries_raw(verdict.category, verdict.weak, value, vocab.compact_string_max, verdict.container_ok):
                continue
            code = CATEGORY_CODES[verdict.category]
            findings.append(json_finding(
                doc, code, member.key_node, path,
                f"{format_path(path)} may carry {_CATEGORY_TEXT[verdict.category]} ({verdict.reason}): {_describe(value)}",
                (member.key, value.python() if value.kind == "string" else value.kind)))
    return findings


