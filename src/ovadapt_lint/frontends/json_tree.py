"""JSON / JSON Lines front-end: a position-aware tree with duplicate keys kept.

tree-sitter-json gives byte spans for every key and value and recovers from
errors; the stdlib ``json`` module is the strictness oracle (tree-sitter-json
also accepts comments and several top-level values), and its error messages
and positions are the ones reported.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..discover import lenient_path
from ..findings import Finding, Span
from ..source import SourceFile, notice

# Compact projections are shallow; this bounds the analysers' work and stack.
MAX_DEPTH = 400

_CONTAINERS = ("object", "array")
_SCALARS = ("string", "number", "true", "false", "null")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")

PathPart = str | int


class JNode:
    """One JSON value. ``size`` (end - start) rather than ``end`` is stored: an int below 257 is shared by
    Python, so a short value costs no int object (issue 15: one per value of a 750k-key document)."""

    __slots__ = ("kind", "start", "size", "value")

    def __init__(self, kind: str, start: int, end: int, value: Any) -> None:
        self.kind = kind  # object | array | string | number | true | false | null
        self.start = start  # byte offsets into the source, end exclusive
        self.size = end - start
        self.value = value  # decoded scalar; list[Member] for objects; list[JNode] for arrays

    @property
    def end(self) -> int:
        return self.start + self.size

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JNode):
            return NotImplemented
        return (self.kind, self.start, self.size, self.value) == (
            other.kind,
            other.start,
            other.size,
            other.value,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        return (
            f"JNode(kind={self.kind!r}, start={self.start}, end={self.end}, value={self.value!r})"
        )

    def python(self) -> Any:
        """Plain Python value (last duplicate key wins, as in most parsers)."""
        if self.kind == "object":
            return {m.key: m.value.python() for m in self.value}
        if self.kind == "array":
            return [item.python() for item in self.value]
        return self.value

    def members(self, key: str) -> list[Member]:
        return [m for m in self.value if m.key == key] if self.kind == "object" else []

    def get(self, key: str) -> JNode | None:
        found = self.members(key)
        return found[-1].value if found else None


_VALUE_SLOT = vars(JNode)["value"]  # the slot itself, which JNumber's ``value`` property hides


class JNumber(JNode):
    """A number read from a file, decoded when asked: its value was an int object of 32 bytes per number
    of a large file (issue 15), and checks rarely read numbers. The value slot holds the file's bytes."""

    __slots__ = ()

    def __init__(self, start: int, end: int, data: bytes) -> None:
        self.kind = "number"
        self.start = start
        self.size = end - start
        _VALUE_SLOT.__set__(self, data)

    @property
    def value(self) -> Any:  # type: ignore[override]
        return _decode_number(_VALUE_SLOT.__get__(self)[self.start : self.start + self.size])

    def __reduce__(self) -> tuple:  # copy and pickle: the slot holds bytes, the property a number
        return JNumber, (self.start, self.end, _VALUE_SLOT.__get__(self))


class Member:
    """A key and its value. The key's span is kept as two small distances from the value's start, and its
    node is made on demand (findings on keys are rare; a node per key was most of a large file's memory)."""

    __slots__ = ("key", "value", "_gap", "_key_size")

    def __init__(self, key: str, key_start: int, key_end: int, value: JNode) -> None:
        self.key = key
        self.value = value
        self._gap = value.start - key_start
        self._key_size = key_end - key_start

    @property
    def key_node(self) -> JNode:
        start = self.value.start - self._gap
        return JNode("string", start, start + self._key_size, self.key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Member):
            return NotImplemented
        return (self.key, self._gap, self._key_size, self.value) == (
            other.key,
            other._gap,
            other._key_size,
            other.value,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Member(key={self.key!r}, key_node={self.key_node!r}, value={self.value!r})"


@dataclass
class JsonDocument:
    source: SourceFile
    # (root value, path prefix): one root for .json, one per record for .jsonl
    roots: list[tuple[JNode, tuple[PathPart, ...]]] = field(default_factory=list)
    notices: list[Finding] = field(default_factory=list)
    # False when the file (or a record) failed to parse; contract rules skip broken roots.
    complete: bool = True
    # The last string's character offsets: findings in one long string ask for it again and again.
    _offsets: tuple[int, int, Sequence[int]] | None = field(default=None, repr=False, compare=False)

    def span(self, node: JNode) -> Span:
        return self.source.span(node.start, node.end)

    def string_bytes(self, node: JNode, start: int, end: int) -> tuple[int, int]:
        """Source byte offsets of characters ``start:end`` of a string node's decoded value."""
        offsets = self._string_offsets(node)
        if len(offsets) <= start:
            return node.start + 1, node.end - 1
        return offsets[start], offsets[end] if end < len(offsets) else node.end - 1

    def _string_offsets(self, node: JNode) -> Sequence[int]:
        if self._offsets is None or self._offsets[:2] != (node.start, node.end):
            self._offsets = (
                node.start,
                node.end,
                _raw_offsets(self.source.data, node.start, node.end),
            )
        return self._offsets[2]

    def string_span(self, node: JNode, start: int, end: int) -> Span:
        """The source span of characters ``start:end`` of a string node's decoded value."""
        offsets = self._string_offsets(node)
        if len(offsets) <= start:  # could not map (should not happen): the whole string
            return self.span(node)
        last = offsets[end] if end < len(offsets) else node.end - 1
        return self.source.span(offsets[start], last)


def _high_surrogate(hex4: str) -> bool:
    try:
        return 0xD800 <= int(hex4, 16) <= 0xDBFF
    except ValueError:
        return False


def _raw_offsets(data: bytes, start: int, end: int) -> Sequence[int]:
    """Byte offset in the source of each decoded character of the JSON string at start:end,
    plus one past the last (escapes such as \\n and \\u00e9 map to where they begin)."""
    body = data[start + 1 : end - 1]
    if body.isascii() and b"\\" not in body:
        # One byte per character: a range, not a per-character loop and list (issue 15: this loop
        # ran for every finding span, 2.5 s on 0.3 MB of minified JSON).
        return range(start + 1, end)
    return _escaped_offsets(body, start)


def _escaped_offsets(body: bytes, start: int) -> list[int]:
    raw = body.decode("utf-8", "replace")
    offsets = []
    position = start + 1
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            width = 2
            if raw[index + 1] == "u":
                width = 6
                if (
                    _high_surrogate(raw[index + 2 : index + 6])
                    and raw[index + 6 : index + 8] == "\\u"
                ):
                    width = 12  # a surrogate pair decodes to one character
            offsets.append(position)
            position += width
            index += width
            continue
        offsets.append(position)
        position += len(char.encode("utf-8"))
        index += 1
    offsets.append(position)
    return offsets


def format_path(parts: tuple[PathPart, ...] | list[PathPart]) -> str:
    out: list[str] = []
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENT.match(part):
            out.append(("." if out else "") + part)
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out) or "$"


@lru_cache(maxsize=1)
def _parser():
    import tree_sitter
    import tree_sitter_json

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_json.language()))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _strict_error(text: str) -> tuple[str, int | None] | None:
    """(message, character index or None) of the first strict-JSON error, or None. The index, not
    json's line and column: json counts lines at "\n" only, the report uses the file's line model."""
    try:
        # parse_int=len: huge integers are valid JSON; only Python's int conversion limits them.
        json.loads(text, parse_constant=_reject_constant, parse_int=len)
    except json.JSONDecodeError as exc:
        return exc.msg, exc.pos
    except ValueError as exc:  # NaN / Infinity
        return str(exc), None
    except RecursionError:
        return None  # too deep for the stdlib; the tree walk reports the depth
    return None


def _decode_string(data: bytes, start: int, end: int) -> str:
    raw = data[start + 1 : end - 1]
    if b"\\" not in raw:
        return raw.decode("utf-8", "replace")
    try:
        return json.loads(data[start:end])
    except ValueError:
        return raw.decode("utf-8", "replace")


_PLAIN_INT = re.compile(rb"-?(?:0|[1-9][0-9]{0,17})")


def _decode_number(text: bytes) -> Any:
    if _PLAIN_INT.fullmatch(text):
        return int(text)  # the common case, without a json.loads call per number (issue 15)
    try:
        return json.loads(text)
    except ValueError:  # e.g. more digits than int() converts
        try:
            return float(text)
        except ValueError:
            return text.decode("ascii", "replace")


_KINDS = _CONTAINERS + _SCALARS  # a node's kind in a skeleton is its index here


def _named_children(ts_node: Any) -> Iterator[Any]:
    """``ts_node.named_children`` one at a time: the list of an object of 750k keys was 109 MB of Node objects."""
    cursor = ts_node.walk()
    if not cursor.goto_first_child():
        return
    while True:
        child = cursor.node
        if child.is_named:
            yield child
        if not cursor.goto_next_sibling():
            return


class _Skeleton:
    """What the tree of a tree-sitter value holds, in flat arrays (48 bytes a node): the caller drops tree-sitter's
    tree (~27x the file) before the nodes are made, so the two are never alive in full together (issue 15).
    Nodes are in the order they are made: a container's children follow it, in document order."""

    def __init__(self) -> None:
        self.kinds = bytearray()
        self.starts = array("q")
        self.ends = array("q")
        self.parents = array("q")  # the parent's number among containers, in order; -1 for the root
        self.key_starts = array("q")  # the member's key span when the parent is an object
        self.key_ends = array("q")
        self.too_deep: tuple[int, int] | None = None  # the span of the depth notice

    def add(self, ts_node: Any, base: int, parent: int, key: Any = None) -> bool:
        kind = ts_node.type
        if kind not in _KINDS:
            return False
        self.kinds.append(_KINDS.index(kind))
        self.starts.append(ts_node.start_byte + base)
        self.ends.append(ts_node.end_byte + base)
        self.parents.append(parent)
        self.key_starts.append(-1 if key is None else key.start_byte + base)
        self.key_ends.append(-1 if key is None else key.end_byte + base)
        return True


def _skeleton(ts_root: Any, base: int) -> _Skeleton:
    """Iterative (no recursion: documents may be nested very deeply)."""
    out = _Skeleton()
    if not out.add(ts_root, base, -1):
        return out
    containers = 1 if ts_root.type in _CONTAINERS else 0
    stack = [(ts_root, 0, 1)] if containers else []
    while stack:
        ts_node, number, depth = stack.pop()
        if depth > MAX_DEPTH:
            if out.too_deep is None:
                out.too_deep = (ts_node.start_byte + base, ts_node.end_byte + base)
            continue
        is_object = ts_node.type == "object"
        for child in _named_children(ts_node):
            key = None
            if is_object:
                if child.type != "pair":
                    continue
                key = child.child_by_field_name("key")
                child = child.child_by_field_name("value")
                if key is None or child is None or key.type != "string":
                    continue
            if out.add(child, base, number, key) and child.type in _CONTAINERS:
                stack.append((child, containers, depth + 1))
                containers += 1
    return out


def _build(skeleton: _Skeleton, data: bytes, doc: JsonDocument) -> JNode | None:
    """The nodes of a skeleton; strings and numbers are decoded from ``data``."""
    containers: list[JNode] = []
    root = None
    for index, code in enumerate(skeleton.kinds):
        kind, start, end = _KINDS[code], skeleton.starts[index], skeleton.ends[index]
        if code < 2:
            node = JNode(kind, start, end, [])
            containers.append(node)
        elif kind == "string":
            node = JNode(kind, start, end, _decode_string(data, start, end))
        elif kind == "number":
            node = JNumber(start, end, data)
        else:
            node = JNode(
                kind, start, end, True if kind == "true" else False if kind == "false" else None
            )
        parent = skeleton.parents[index]
        if parent < 0:
            root = node
        elif containers[parent].kind == "object":
            key_start, key_end = skeleton.key_starts[index], skeleton.key_ends[index]
            containers[parent].value.append(
                Member(_decode_string(data, key_start, key_end), key_start, key_end, node)
            )
        else:
            containers[parent].value.append(node)
    if skeleton.too_deep is not None:
        doc.notices.append(
            notice(
                "OVA006",
                f"nested deeper than {MAX_DEPTH} levels; deeper values were not analysed",
                doc.source.display,
                doc.source.span(*skeleton.too_deep),
            )
        )
    return root


def _convert(ts_root: Any, data: bytes, base: int, doc: JsonDocument) -> JNode | None:
    return _build(_skeleton(ts_root, base), data, doc)


class _NotStrict(Exception):
    """The text is not what the strictness oracle accepted (it gives up on very deep documents): let
    tree-sitter, which recovers from errors, build the tree."""


# The stdlib's own lexers: JSON's whitespace, strings and numbers (typeshed does not declare them).
_WS = json.decoder.WHITESPACE.match  # type: ignore[attr-defined]
_NUMBER = json.scanner.NUMBER_RE.match  # type: ignore[attr-defined]
_LITERALS = (("true", True), ("false", False), ("null", None))
_BLANK = " \t\n\r"  # JSON's whitespace; "" (the end) is in it too, and _WS then matches nothing
scanstring = json.decoder.scanstring  # type: ignore[attr-defined]


def _strict_tree(
    text: str,
    data: bytes,
    doc: JsonDocument,
    base: int = 0,
    size: int | None = None,
    keys: dict[str, str] | None = None,
) -> JNode:
    """The tree of a document ``json.loads`` accepted, built in one pass with the stdlib's lexers.
    tree-sitter's tree of a large file is ~30x its size and lives beside ours (issue 15); its error
    recovery is only needed for invalid files. The tree is the one ``_convert`` builds, depth limit included.
    ``text`` is decoded from ``size`` bytes of ``data`` at ``base`` (a JSON Lines record); spans are of ``data``.
    ``keys`` shares one string per key name between records (json.loads does so within a document)."""
    ascii_text = len(text) == (
        len(data) if size is None else size
    )  # then a character index is a byte offset
    cursor = [0, base]  # (character, byte) of the last conversion: positions only grow

    def at(index: int) -> int:
        if ascii_text:
            return base + index
        char, byte = cursor
        byte += len(text[char:index].encode("utf-8", "surrogateescape"))
        cursor[0], cursor[1] = index, byte
        return byte

    def scalar(index: int) -> tuple[JNode, int]:
        char = text[index : index + 1]
        start = at(index)
        if char == '"':
            value, end = scanstring(text, index + 1, True)
            byte_end = base + end if ascii_text else at(end)
            if end - index - 2 != len(value) or not value.isascii():
                value = _decode_string(
                    data, start, byte_end
                )  # escapes or UTF-8: decoded as _make does
            return JNode("string", start, byte_end, value), end
        match = _NUMBER(text, index)
        if match is not None and match.end() > index:
            end = match.end()
            byte_end = base + end if ascii_text else at(end)
            return JNumber(start, byte_end, data), end
        for word, value in _LITERALS:
            if text.startswith(word, index):
                return JNode(word, start, at(index + len(word)), value), index + len(word)
        raise _NotStrict(index)

    stack: list[tuple[JNode, int, bool]] = []  # open containers: (node, depth, is object)
    too_deep: JNode | None = (
        None  # _convert reports the last container past the limit, in document order
    )
    index = _WS(text, 0).end()
    depth = 1
    first = True  # the innermost open container has no child yet
    root: JNode | None = None
    key = ""
    key_start = key_end = 0
    is_object = False
    while True:
        # A value at ``index``, at ``depth``: a container opens, a scalar is read.
        char = text[index : index + 1]
        if char == "{" or char == "[":
            child = JNode("object" if char == "{" else "array", at(index), 0, [])
            index += 1
            opened = True
        else:
            child, index = scalar(index)
            opened = False
        if root is None:
            root = child
        elif depth <= MAX_DEPTH + 1:  # deeper values are read, not kept
            if opened and depth == MAX_DEPTH + 1:
                too_deep = child
            stack[-1][0].value.append(
                Member(key, key_start, key_end, child) if is_object else child
            )
        if opened:
            stack.append((child, depth, char == "{"))
            first = True
        else:
            first = False
        # Close what ends here, then find the next value (and its key) of the innermost open container.
        while stack:
            node, depth, is_object = stack[-1]
            if text[index : index + 1] in _BLANK:
                index = _WS(text, index).end()
            char = text[index : index + 1]
            if char != ("}" if is_object else "]"):
                break
            stack.pop()
            index += 1
            node.size = (base + index if ascii_text else at(index)) - node.start
            first = False
        if not stack:
            break
        if not first:
            if char != ",":
                raise _NotStrict(index)
            index += 1
            if text[index : index + 1] in _BLANK:
                index = _WS(text, index).end()
            char = text[index : index + 1]
        if is_object:
            if char != '"':
                raise _NotStrict(index)
            key_start = at(index)
            key, index = scanstring(text, index + 1, True)
            key_end = base + index if ascii_text else at(index)
            if key_end - key_start - 2 != len(key) or not key.isascii():
                key = _decode_string(data, key_start, key_end)
            if keys is not None:
                key = keys.setdefault(key, key)
            if text[index : index + 1] in _BLANK:
                index = _WS(text, index).end()
            if text[index : index + 1] != ":":
                raise _NotStrict(index)
            index += 1
            if text[index : index + 1] in _BLANK:
                index = _WS(text, index).end()
        depth += 1
    if _WS(text, index).end() != len(text):
        raise _NotStrict(index)
    if too_deep is not None:
        doc.notices.append(
            notice(
                "OVA006",
                f"nested deeper than {MAX_DEPTH} levels; deeper values were not analysed",
                doc.source.display,
                doc.span(too_deep),
            )
        )
    return root


def _top_values(tree: Any) -> list[Any]:
    return [c for c in tree.root_node.named_children if c.type in _CONTAINERS + _SCALARS]


_LENIENT_TOKEN = re.compile(
    rb'("(?:\\.|[^"\\\n])*")|(//[^\n]*|/\*[\s\S]*?(?:\*/|$))|,(?=(?:\s|//[^\n]*|/\*[\s\S]*?\*/)*[}\]])'
)


def _blank(match: re.Match) -> bytes:
    """A comment or trailing comma as spaces (newlines kept): byte offsets and lines stay those of the file."""
    if match.group(1):
        return match.group(1)
    return re.sub(rb"[^\n]", b" ", match.group(0))


def lenient(source: SourceFile) -> bool:
    return lenient_path(source.path if source.path.name else Path(source.display))


def parse_json(source: SourceFile) -> JsonDocument:
    doc = JsonDocument(source)
    data = source.data
    if lenient(source):
        data = _LENIENT_TOKEN.sub(_blank, data)
    if not data.strip():
        doc.complete = False
        doc.notices.append(notice("OVA007", "file is empty: no JSON document", source.display))
        return doc
    text = data.decode("utf-8", "surrogateescape")
    error = _strict_error(text)
    if error is None:
        try:
            doc.roots.append((_strict_tree(text, data, doc), ()))
            return doc
        except (_NotStrict, ValueError, RecursionError):
            doc.notices = []
    del text
    if (
        error is not None
    ):  # before tree-sitter's tree exists: source.text is another copy of the file
        doc.complete = False
        message, index = error
        span, where = _error_span(source, source.text, 0, index)
        doc.notices.append(
            notice(
                "OVA001",
                f"invalid JSON: {message}{where}; contract rules skipped",
                source.display,
                span,
            )
        )
    tree = _parser().parse(data)
    values = _top_values(tree)
    count = len(values)
    skeletons: list[_Skeleton | None] = [
        _skeleton(value, 0) for value in (values[:1] if error is None else values)
    ]
    del tree, values  # the nodes are made once tree-sitter's tree is gone
    for index in range(len(skeletons)):
        skeleton, skeletons[index] = skeletons[index], None
        assert skeleton is not None  # each is taken once
        node = _build(skeleton, data, doc)
        if node is not None:
            doc.roots.append((node, () if count == 1 else (index,)))
    return doc


def _error_span(source: SourceFile, text: str, base: int, index: int | None) -> tuple[Span, str]:
    """The span of a parse error at character ``index`` of ``text`` (which starts at byte ``base``),
    and its " (line L, column C)" for the message; no position when the error has none."""
    if index is None:
        return Span(1, 1, 1, 2), ""
    line, col = source.position(base + len(text[:index].encode("utf-8", "surrogateescape")))
    return Span(line, col, line, col + 1), f" (line {line}, column {col})"


def parse_jsonl(source: SourceFile) -> JsonDocument:
    doc = JsonDocument(source)
    data = source.data
    offset = 0
    record = 0
    keys: dict[str, str] = {}  # records repeat their keys: one string each (issue 15)
    while offset <= len(
        data
    ):  # the lines of data.split(b"\n"), without a second copy of the file (issue 15)
        newline = data.find(b"\n", offset)
        if newline < 0:
            newline = len(data)
        line_start = offset
        raw_line = data[offset:newline]
        offset = newline + 1
        if not raw_line.strip():
            continue  # blank lines are skipped by JSON Lines readers
        text = raw_line.decode(
            "utf-8", "surrogateescape"
        )  # as parse_json: one character per invalid byte
        error = _strict_error(text)
        if error is None:
            # A record json.loads accepts is read by the stdlib's lexers, as a valid .json file is: tree-sitter's
            # tree and _convert's nodes were 28x a large file's size.
            kept = len(doc.notices)
            try:
                doc.roots.append(
                    (_strict_tree(text, data, doc, line_start, len(raw_line), keys), (record,))
                )
                record += 1
                continue
            except (_NotStrict, ValueError, RecursionError):
                del doc.notices[kept:]
        elif (
            not text.isascii()
        ):  # the message's position is that of the text decoded with replacements
            error = _strict_error(raw_line.decode("utf-8", "replace"))
        if error is not None:  # only this record is skipped; the others are checked
            message, index = error
            line_no, _ = source.position(line_start)
            span, _ = _error_span(
                source, raw_line.decode("utf-8", "replace"), line_start, index or 0
            )
            doc.notices.append(
                notice(
                    "OVA001",
                    f"invalid JSON Lines record on line {line_no}: {message}; record skipped by contract rules",
                    source.display,
                    span,
                )
            )
        else:  # valid, but too deep for the stdlib's reader: tree-sitter's tree
            values = _top_values(_parser().parse(raw_line))
            node = _convert(values[0], data, line_start, doc) if values else None
            if node is not None:
                doc.roots.append((node, (record,)))
        record += 1
    return doc


def walk(
    node: JNode, prefix: tuple[PathPart, ...] = ()
) -> Iterator[tuple[JNode, tuple[PathPart, ...], Member | None]]:
    """Pre-order (node, path, member-or-None) over a tree, iteratively. The stack holds one iterator per
    open container, not every pending child (an object of 750k keys was 750k stacked paths, issue 15)."""
    yield node, prefix, None
    stack: list[tuple[Iterator[Any], tuple[PathPart, ...], bool]] = []
    if node.kind == "object":
        stack.append((iter(node.value), prefix, True))
    elif node.kind == "array":
        stack.append((enumerate(node.value), prefix, False))
    while stack:
        items, path, is_object = stack[-1]
        entry = next(items, None)
        if entry is None:
            stack.pop()
            continue
        if is_object:
            member, child, child_path = entry, entry.value, path + (entry.key,)
        else:
            member, child, child_path = None, entry[1], path + (entry[0],)
        yield child, child_path, member
        if child.kind == "object":
            stack.append((iter(child.value), child_path, True))
        elif child.kind == "array":
            stack.append((enumerate(child.value), child_path, False))
