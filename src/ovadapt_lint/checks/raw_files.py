"""OVA314: files that are raw OpenViking (or OpenCode plugin) storage as a whole.

Such a file is reported once; the raw-field, raw-content and private-URL
findings inside it are folded into that one finding instead of flooding the
report with one finding per line. A file signature names keys, or a
``structure``: a shape of record recognised by code below (message records
with a role and typed parts, archive checkpoints, memory operations, recall
ledgers, memory indexes, plugin session state), not by exact id formats or
file names, so storage committed under any name is found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeGuard

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
    structure: str | None = None  # a record shape recognised by code (STRUCTURES)
    _wanted: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_wanted", frozenset(self.keys) | frozenset(self.any_keys))

    def matches_object(self, node: JNode, many: bool = False, shape: _Shape | None = None) -> bool:
        """``many``: the node is one of several records (a JSON Lines file, a root array); ``shape``: its
        _Shape, read once for every signature (its keys hold every key the signatures ask for)."""
        if self.structure is not None:
            return node.kind == "object" and STRUCTURES[self.structure](
                node, many, shape or _Shape(node)
            )
        if self.text is not None or node.kind != "object" or not (self.keys or self.any_keys):
            return False
        wanted = self._wanted
        if shape is not None:
            present = shape.keys & wanted
        else:
            present = {
                m.key for m in node.value if m.key in wanted
            }  # not a set of every key of a large object
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
        out.append(
            FileSignature(
                id=data["id"],
                label=data["label"],
                keys=tuple(data.get("keys", ())),
                any_keys=tuple(data.get("any_keys", ())),
                values=tuple((k, re.compile(v)) for k, v in data.get("values", {}).items()),
                text=re.compile(data["text"]) if "text" in data else None,
                structure=data.get("structure"),
            )
        )
    return tuple(out)


# --- record shapes ----------------------------------------------------------
_ROLES = frozenset({"user", "assistant", "system", "tool"})
# What a typed part carries: text, a tool's input or output, a context abstract.
_PART_BODIES = ("text", "tool_input", "tool_output", "abstract", "content", "input", "output")
# Storage records carry an identity or a time; an API example in documentation usually does not.
_STAMPS = (
    "id",
    "message_id",
    "messageId",
    "msg_id",
    "created_at",
    "createdAt",
    "timestamp",
    "time",
    "ts",
)
_WRAPPERS = ("message", "payload", "data", "args", "params", "body", "item", "entry")
_OPERATION_KEYS = ("op", "type", "action", "kind", "method", "event", "operation")
_ADD_MESSAGE = re.compile(r"(?i)add[_-]?message")
_MESSAGE_RANGE = frozenset(
    {
        "starting_message_id",
        "ending_message_id",
        "first_message_id",
        "last_message_id",
        "start_message_id",
        "end_message_id",
    }
)
_ARCHIVE_REFS = frozenset(
    {"archive_uri", "archive_id", "archive_index", "archive_name", "archive_path"}
)
_ARCHIVE_PATH = re.compile(r"(?:^|/)archive_\d{3,}(?:/|$)")
_ARCHIVE_BODY = frozenset(
    {
        "abstract",
        "overview",
        "message_count",
        "messages",
        "token_count",
        "total_tokens",
        "archived_at",
        "compressed_at",
    }
)
_INDEX_TEXT = ("abstract", "overview", "content", "body")
_PLUGIN_SESSION_KEYS = frozenset(
    {
        "ovSessionId",
        "ov_session_id",
        "openvikingSessionId",
        "pendingMessages",
        "pending_messages",
        "capturedMessages",
        "captured_messages",
        "messageRoles",
        "message_roles",
    }
)
_MEMORY_KEYS = frozenset({"before", "after", "deleted_content", "memory_type", "uri"})
# Every top-level key a shape below asks for: a record is read once for them (see _Shape).
_CONTAINERS = ("array", "object")
_TOP_KEYS = frozenset(
    {
        "role",
        *_STAMPS,
        *_WRAPPERS,
        *_OPERATION_KEYS,
        *_MESSAGE_RANGE,
        *_ARCHIVE_REFS,
        *_ARCHIVE_BODY,
        *_MEMORY_KEYS,
        "sessions",
    }
)


class _Shape:
    """What a pass over a record's members tells every signature: the keys among ``wanted`` (every key a
    signature asks for) and whether a member is an array or object. A record of 750k scalar keys is read
    twice, not once per signature and key (JNode.get is a pass of its own)."""

    __slots__ = ("node", "keys", "containers", "_turns")

    def __init__(self, node: JNode, wanted: frozenset[str] = _TOP_KEYS) -> None:
        members = node.value
        self.node = node
        self.keys = {key for m in members if (key := m.key) in wanted}
        self.containers = any(m.value.kind in _CONTAINERS for m in members)
        self._turns: bool | None = None

    @property
    def turns(self) -> bool:
        """A key counts turns (`turn`, `updated_turn`, `lastTurn`): asked only of a record that may be a ledger."""
        if self._turns is None:
            self._turns = any("turn" in m.key or "Turn" in m.key for m in self.node.value)
        return self._turns


def _text(node: JNode | None) -> str | None:
    return node.value if node is not None and node.kind == "string" else None


def _filled(node: JNode | None) -> TypeGuard[JNode]:
    return (
        node is not None
        and node.kind in ("string", "array", "object")
        and bool(node.value.strip() if node.kind == "string" else node.value)
    )


def _filled_string(node: JNode | None) -> bool:
    return _filled(node) and node.kind == "string"


def _stamped(node: JNode) -> bool:
    return any(node.get(k) is not None for k in _STAMPS)


def _message(node: JNode) -> bool:
    """A message: a chat role and typed parts, one of which carries text, tool input or output."""
    role = _text(node.get("role"))
    parts = node.get("parts")
    if role is None or role.lower() not in _ROLES or parts is None or parts.kind != "array":
        return False
    return any(
        part.kind == "object"
        and _text(part.get("type"))
        and any(_filled(part.get(k)) for k in _PART_BODIES)
        for part in parts.value
    )


def _message_record(node: JNode, shape: _Shape | None = None) -> bool:
    """A stored message (with an id or a time), or a queued operation that adds one (an `addMessage` entry
    with the message inside it, or with a role and its text)."""
    present = (shape or _Shape(node)).keys
    if "role" in present and _message(node) and _stamped(node):
        return True
    adds = any(
        _ADD_MESSAGE.search(_text(node.get(k)) or "") for k in _OPERATION_KEYS if k in present
    )
    for key in _WRAPPERS:
        inner = node.get(key) if key in present else None
        if (
            inner is not None
            and inner.kind == "object"
            and _message(inner)
            and (adds or _stamped(node) or _stamped(inner))
        ):
            return True
    role = _text(node.get("role")) if adds and "role" in present else None
    return (
        role is not None
        and role.lower() in _ROLES
        and (
            _filled(node.get("content")) or _filled(node.get("text")) or _filled(node.get("parts"))
        )
    )


def _collection_of_items(value: JNode, test) -> bool:
    """An array (or an object's values) whose items are mostly ``test``."""
    items = list(value.value) if value.kind == "array" else [m.value for m in value.value]
    hits = sum(1 for item in items if item.kind == "object" and test(item))
    return bool(hits) and hits * 2 > len(items)


def _collection_of(node: JNode, test) -> bool:
    """A member of ``node`` (an array, or an object's values) whose items are mostly ``test``."""
    return any(
        member.value.kind in ("array", "object") and _collection_of_items(member.value, test)
        for member in node.value
    )


def _compact_scalar(node: JNode) -> bool:
    """Metadata beside a diff's operations: a number, flag, null or one short line."""
    return (
        node.kind != "object"
        and node.kind != "array"
        and (node.kind != "string" or (len(node.value) <= 200 and "\n" not in node.value))
    )


def _message_records(node: JNode, many: bool, shape: _Shape) -> bool:
    """A message record, or an object holding a list of them (a conversation export, a queue)."""
    return _message_record(node, shape) or (
        shape.containers and _collection_of(node, _message_record)
    )


def _memory_operations(node: JNode, many: bool, shape: _Shape) -> bool:
    """Memory operations (before/after/deleted text of a memory uri or type): one per record of a file of
    several, or a diff made of them: lists of operations (directly or under one key, `{"adds": [...]}`,
    `{"operations": {"updates": [...]}}`) beside compact metadata only. A lone operation in a document is
    OVA305's (a fixture value), not a storage file."""
    from .raw_content import memory_operation

    if many and shape.keys & _MEMORY_KEYS and memory_operation(node):
        return True
    if not shape.containers:
        return False
    diffs = 0
    for member in node.value:
        value = member.value
        if value.kind in ("array", "object") and (
            _collection_of_items(value, memory_operation)
            or (value.kind == "object" and _collection_of(value, memory_operation))
        ):
            diffs += 1
        elif not _compact_scalar(value):
            return False
    return diffs > 0


def _archive_checkpoint(node: JNode, many: bool, shape: _Shape) -> bool:
    """A session archive's checkpoint: the range of messages it holds, or an archive ref with its abstract,
    overview or message count."""
    keys = shape.keys
    if len(keys & _MESSAGE_RANGE) >= 2:
        return True
    if len(keys & _ARCHIVE_BODY) < 2:
        return False
    return bool(keys & _ARCHIVE_REFS) or any(
        m.value.kind == "string" and _ARCHIVE_PATH.search(m.value.value) for m in node.value
    )


def _viking(node: JNode | None) -> bool:
    return (_text(node) or "").startswith("viking://")


def _recall_ledger(node: JNode, many: bool, shape: _Shape) -> bool:
    """A recall ledger: the memory uris served to a session, turn by turn (entries keyed by or carrying
    viking:// uris, with a turn counter), or one such entry per record."""
    if not (shape.containers or (many and "uri" in shape.keys)) or not shape.turns:
        return False
    if many and "uri" in shape.keys and _viking(node.get("uri")):
        return True
    for member in node.value:
        value = member.value
        if (
            value.kind == "object"
            and value.value
            and all(m.key.startswith("viking://") for m in value.value)
        ):
            return True
        if (
            value.kind == "array"
            and value.value
            and all(item.kind == "object" and _viking(item.get("uri")) for item in value.value)
        ):
            return True
    return False


def _index_entry(node: JNode) -> bool:
    uri = _text(node.get("uri")) or ""
    # Resources are the public-ish scope (DESIGN.md): an index of them is not private storage.
    return (
        uri.startswith("viking://")
        and not uri.startswith("viking://resources")
        and any(_filled_string(node.get(k)) for k in _INDEX_TEXT)
    )


def _memory_index(node: JNode, many: bool, shape: _Shape) -> bool:
    """A memory or directory index: private viking:// uris with their abstract, overview or content text,
    one per record of a file of several, or as a list in one document."""
    return (many and "uri" in shape.keys and _index_entry(node)) or (
        shape.containers and _collection_of(node, _index_entry)
    )


def _plugin_session_state(node: JNode, many: bool, shape: _Shape) -> bool:
    """An OpenCode memory plugin's session state: OpenCode sessions mapped to OpenViking sessions with the
    messages captured, their roles and the pending (not yet sent) message text."""
    sessions = node.get("sessions") if "sessions" in shape.keys else None
    if sessions is None or sessions.kind not in ("object", "array"):
        return False
    values = (
        [m.value for m in sessions.value] if sessions.kind == "object" else list(sessions.value)
    )
    return any(
        v.kind == "object" and any(m.key in _PLUGIN_SESSION_KEYS for m in v.value) for v in values
    )


STRUCTURES = {
    "message-records": _message_records,
    "archive-checkpoint": _archive_checkpoint,
    "memory-operations": _memory_operations,
    "recall-ledger": _recall_ledger,
    "memory-index": _memory_index,
    "plugin-session-state": _plugin_session_state,
}


@lru_cache(maxsize=1)
def _wanted_keys() -> frozenset[str]:
    """Every top-level key a file signature asks for."""
    return _TOP_KEYS.union(*(s._wanted for s in file_signatures()))


def _matches(records: list[JNode]) -> dict[str, list[JNode]]:
    """signature id -> the records it matches, reading each record's shape once for every signature."""
    signatures = file_signatures()
    many = len(records) > 1
    wanted = _wanted_keys()
    matched: dict[str, list[JNode]] = {s.id: [] for s in signatures}
    for record in records:
        if record.kind != "object":
            continue
        shape = _Shape(record, wanted)
        for signature in signatures:
            if signature.text is None and signature.matches_object(record, many, shape):
                matched[signature.id].append(record)
    return matched


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
    by_signature = _matches(records)
    for signature in file_signatures():
        matched = by_signature.get(signature.id, [])
        # Most records must match: one message-shaped record in a fixture is OVA302's job.
        if matched and len(matched) * 2 > len(records):
            count = f"{len(matched)} record(s)" if len(records) > 1 else "one record"
            return make_finding(
                CODE,
                f"file is raw OpenViking storage, not a projection: {signature.label}; {count} [{signature.id}]",
                doc.source.display,
                doc.span(matched[0]) if len(records) > 1 else Span(1, 1, 1, 2),
                value_digest=digest_value(signature.id),
            )
    return None


def recognise_text(text: str, display: str) -> Finding | None:
    for signature in file_signatures():
        if signature.text is not None and signature.text.search(text):
            return make_finding(
                CODE,
                f"file is raw OpenViking material, not a projection: {signature.label} [{signature.id}]",
                display,
                Span(1, 1, 1, 2),
                value_digest=digest_value(signature.id),
            )
    return None


def fold(findings: list[Finding], file_finding: Finding) -> list[Finding]:
    """Keep ``file_finding`` and the findings of other categories; say how many were folded."""
    # Credentials, local paths and deny-listed names stay separate: each needs its own fix.
    kept = [f for f in findings if not categories()[f.category].folds_into_raw_file]
    folded = len(findings) - len(kept)
    if folded:
        file_finding.message += f"; {folded} raw-material finding(s) inside folded into this one"
    return kept + [file_finding]
