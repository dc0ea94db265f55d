"""OVA314: files that are raw OpenViking storage as a whole.

Such a file is reported once; the raw-field, raw-content and private-URL
findings inside it are folded into that one finding instead of flooding the
report with one finding per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..findings import Finding, Span, digest_value, make_finding
from ..frontends.json_tree import JNode, JsonDocument
from ..registry import categories

CODE = "OVA314"


@dataclass(frozen=True)
class FileSignature:
    id: str
    label: str
    keys: tuple[str, ...] = ()  # all present on the root object / each record
    any_keys: tuple[str, ...] = ()  # at least one present, when given
    values: tuple[tuple[str, re.Pattern[str]], ...] = ()  # string values that must match
    text: re.Pattern[str] | None = None  # for text (Markdown) files
    _wanted: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_wanted", frozenset(self.keys) | frozenset(self.any_keys))

    def matches_object(self, node: JNode) -> bool:
        if self.text is not None or node.kind != "object" or not (self.keys or self.any_keys):
            return False
        wanted = self._wanted
        present = {m.key for m in node.value if m.key in wanted}  # not a set of every key of a large object
        if not all(k in present for k in self.keys):
            return False
        if self.any_keys and not any(k in present for k in self.any_keys):
            return False
        for key, pattern in self.values:
            value = node.get(key)
            if value is None or value.kind != "string" or not pattern.search(value.value):
                return False
        return True


@lru_cache(maxsize=1)
def file_signatures() -> tuple[FileSignature, ...]:
    from ..registry import get

    out = []
    for data in get(CODE).file:
        out.append(FileSignature(
            id=data["id"], label=data["label"], keys=tuple(data.get("keys", ())),
            any_keys=tuple(data.get("any_keys", ())),
            values=tuple((k, re.compile(v)) for k, v in data.get("values", {}).items()),
            text=re.compile(data["text"]) if "text" in data else None,
        ))
    return tuple(out)


def _records(doc: JsonDocument) -> list[JNode]:
    """The objects a storage file is made of: the root, each JSONL record, or a root array's items."""
    roots = [root for root, _ in doc.roots]
    if len(roots) == 1 and roots[0].kind == "array":
        return [item for item in roots[0].value]
    return roots


def recognise_json(doc: JsonDocument) -> Finding | None:
    records = _records(doc)
    if not records:
        return None
    for signature in file_signatures():
        matched = [r for r in records if signature.matches_object(r)]
        # Most records must match: one message-shaped record in a fixture is OVA302's job.
        if matched and len(matched) * 2 > len(records):
            count = f"{len(matched)} record(s)" if len(records) > 1 else "one record"
            return make_finding(
                CODE, f"file is raw OpenViking storage, not a projection: {signature.label}; {count} [{signature.id}]",
                doc.source.display, doc.span(matched[0]) if len(records) > 1 else Span(1, 1, 1, 2),
                value_digest=digest_value(signature.id))
    return None


def recognise_text(text: str, display: str) -> Finding | None:
    for signature in file_signatures():
        if signature.text is not None and signature.text.search(text):
            return make_finding(CODE, f"file is raw OpenViking material, not a projection: {signature.label} [{signature.id}]",
                                display, Span(1, 1, 1, 2), value_digest=digest_value(signature.id))
    return None


def fold(findings: list[Finding], file_finding: Finding) -> list[Finding]:
    """Keep ``file_finding`` and the findings of other categories; say how many were folded."""
    # Credentials, local paths and deny-listed names stay separate: each needs its own fix.
    kept = [f for f in findings if not categories()[f.category].folds_into_raw_file]
    folded = len(findings) - len(kept)
    if folded:
        file_finding.message += f"; {folded} raw-material finding(s) inside folded into this one"
    return kept + [file_finding]
