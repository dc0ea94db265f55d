"""Python front-end: the module's ``ast`` tree, and every string literal, docstring,
f-string part, comment and identifier, with positions.

``ast.parse`` is about ten times faster than libcst with position metadata and
gives exact start and end positions, so both the string detectors and the
projection analysis (``checks.python_projections``) run on this one tree.
Comments are the ``#`` outside every string literal (and, between the parts of
an implicitly joined literal, the tokenizer's COMMENT tokens). Lines follow
``source.split_lines``, the tokenizer's own rule (``\r\n``, ``\r``, ``\n``).
"""

from __future__ import annotations

import ast
import os
import re
import tokenize
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate
from typing import Any

from ..findings import Finding, Span
from ..source import SourceFile, notice, split_lines, strip_line_end
from .ast_nodes import FIELDS, fields_of

# A span as its four numbers (start line, start column, end line, end column): a Span (a frozen dataclass)
# costs a dozen times a tuple to make, and a module's literals are many while few of them are ever reported.
Where = tuple[int, int, int, int]


class Literal:
    """A string literal, docstring or f-string part. ``where``: the whole literal in the source (1-based,
    code-point columns); ``span`` and ``raw`` (its source text) are made from it when asked: few literals
    are ever reported."""

    __slots__ = ("value", "what", "where", "_cut", "key", "_span")

    def __init__(
        self,
        value: str,
        what: str,
        where: Where,
        cut: Callable[[Where], str],
        key: str | None = None,
    ) -> None:
        self.value = value
        self.what = what  # "string literal" | "docstring" | "f-string text"
        self.where = where
        self._cut = cut  # the module's _Lines.cut
        # The name it is assigned to (`X = "…"`, `f(x="…")`, `{"x": "…"}`), for credential names.
        self.key = key
        self._span: Span | None = None

    @property
    def span(self) -> Span:
        if self._span is None:
            self._span = Span(*self.where)
        return self._span

    @property
    def raw(self) -> str:
        """Its source text."""
        return self._cut(self.where)


@dataclass
class Comment:
    text: str  # including the leading "#"
    line: int
    column: int  # 1-based


@dataclass
class PythonText:
    source: SourceFile
    tree: ast.Module
    literals: list[Literal] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    names: dict[str, Span] = field(default_factory=dict)  # identifier -> first position
    text: str = ""  # the decoded source
    lines: _Lines | None = None  # ast's byte columns to code-point columns, and source segments


def _python2(text: str) -> bool:
    return bool(
        re.search(r"(?m)^\s*(?:print\s+[\"'\w]|exec\s+[\"']|except\s+\w+\s*,\s*\w+\s*:)", text)
    )


# Trees parsed before their module's own turn (a sibling read for its constants: checks.python_contracts),
# by absolute path with the bytes parsed: the module's own parse takes it over, so a run parses it once.
_AHEAD: dict[str, tuple[bytes, ast.Module]] = {}
_AHEAD_MAX = 64
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=]", re.MULTILINE)


def _same_either_way(data: bytes) -> bool:
    """Whether parsing the bytes and parsing their UTF-8 text (``parse_text``) give the same tree: plain UTF-8,
    no BOM, no coding declaration, no carriage returns."""
    if b"\r" in data or data.startswith(b"\xef\xbb\xbf") or _COOKIE.search(data, 0, 400):
        return False
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def parse_ahead(path: str, data: bytes) -> ast.Module:
    """``ast.parse`` of a module read before its own turn; the tree is kept for it (``parse_text``)."""
    tree = ast.parse(data)
    if _same_either_way(data):
        while len(_AHEAD) >= _AHEAD_MAX:
            _AHEAD.pop(next(iter(_AHEAD)))
        _AHEAD[os.path.abspath(path)] = (data, tree)
    return tree


def _parse(source: SourceFile, text: str) -> ast.Module:
    ahead = _AHEAD.pop(os.path.abspath(source.path), None) if _AHEAD else None
    if ahead is not None and ahead[0] == source.data:
        return ahead[1]
    return ast.parse(text, filename=source.display)


def parse_text(source: SourceFile, names: bool = False) -> tuple[PythonText | None, list[Finding]]:
    """``names``: also collect identifiers (only the deny-list needs them)."""
    text = source.data.decode("utf-8", "replace")
    try:
        tree = _parse(source, text)
    except SyntaxError as exc:
        line, column = exc.lineno or 1, exc.offset or 1
        hint = " (Python 2 code?)" if _python2(text) else ""
        return None, [
            notice(
                "OVA001",
                f"Python syntax error{hint}: {exc.msg}; file not analysed",
                source.display,
                Span(line, column, line, column + 1),
            )
        ]
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        return None, [
            notice(
                "OVA001",
                f"Python file cannot be parsed ({type(exc).__name__}); file not analysed",
                source.display,
            )
        ]
    return _collect(source, tree, text, names), []


class _Lines:
    """UTF-8 byte columns (what ast reports) to code-point columns, per line."""

    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)
        # On an ASCII line bytes are code points: no slice-and-decode per literal (quadratic on one long line).
        self.all_ascii = text.isascii()  # most modules: no line needs its bytes
        self.ascii = [] if self.all_ascii else [line.isascii() for line in self.lines]
        self._encoded: dict[int, bytes] = {}  # line index -> its UTF-8 bytes, made when first asked
        # Asked twice per node span by every analysis: an ASCII module's answer needs no test of the line.
        self.column: Callable[[int, int], int] = _ascii_column if self.all_ascii else self._column

    @cached_property
    def ends(self) -> list[int]:
        """The text offset just past each line (split_lines' lines, which ast's line numbers count): an offset's
        line by bisection, a function's text by its lines."""
        return list(accumulate(map(len, self.lines)))

    def _column(self, line: int, byte_col: int) -> int:
        if not 1 <= line <= len(self.lines) or self.ascii[line - 1]:
            return byte_col + 1
        raw = self._encoded.get(line)
        if raw is None:
            raw = self._encoded[line] = self.lines[line - 1].encode("utf-8")
        return len(raw[:byte_col].decode("utf-8", "replace")) + 1

    def segment(self, span: Span) -> str:
        return self.cut((span.start_line, span.start_col, span.end_line, span.end_col))

    def cut(self, where: Where) -> str:
        """The source text at ``where`` (a span as its four numbers)."""
        start_line, start_col, end_line, end_col = where
        if start_line == end_line:
            return self.lines[start_line - 1][start_col - 1 : end_col - 1]
        parts = [self.lines[start_line - 1][start_col - 1 :]]
        parts += self.lines[start_line : end_line - 1]
        parts.append(self.lines[end_line - 1][: end_col - 1])
        return "".join(parts)


def _ascii_column(line: int, byte_col: int) -> int:
    return byte_col + 1


def _span(lines: _Lines, node: Any) -> Span:
    return Span(*_where(lines, node))


def _where(lines: _Lines, node: Any) -> Where:
    return (
        node.lineno,
        lines.column(node.lineno, node.col_offset),
        node.end_lineno or node.lineno,
        lines.column(node.end_lineno or node.lineno, node.end_col_offset or 0),
    )


def _collect(source: SourceFile, tree: ast.Module, text: str, want_names: bool) -> PythonText:
    lines = _Lines(text)
    result = PythonText(source, tree, text=text, lines=lines)
    # One breadth-first walk (``ast_nodes.walk``, inlined: this loop sees every node of every module): a scope
    # is always seen before its first statement, so docstrings and f-string parts are known before their
    # Constant nodes come up.
    docstrings: set[int] = set()
    fstring_parts: set[int] = set()
    covered: list[Where] = []  # where every string literal is
    keys: dict[int, str] = {}  # id(Constant) -> the name it is assigned to
    literals = result.literals
    names = result.names
    segment = lines.cut
    column = (
        None if lines.all_ascii else lines.column
    )  # ASCII: a byte column is the code-point column
    constant, joined, strings = ast.Constant, ast.JoinedStr, _STRINGS
    noted = _NOTED
    todo: deque[ast.AST] = deque([tree])
    pop, push = todo.popleft, todo.append
    known, node_class = FIELDS, ast.AST
    # A third of all nodes are names, with nothing in them: queued only when identifiers are collected.
    unqueued = None if want_names else ast.Name
    # A statement with no quote on its lines holds no string (a third of all nodes): skipped unless
    # identifiers are collected. ``quoted[n]``: how many of the first n lines hold a quote.
    quoted = None if want_names else _quoted_lines(lines.lines)
    blocks = _BLOCKS
    node: Any  # dispatched on its exact class below, which mypy cannot narrow by
    while todo:
        node = pop()
        kind = node.__class__
        # What a node notes about its children (their names, docstrings, f-string parts) comes first: its
        # string constants are read as its children are listed, never queued (a quarter of the walk's nodes).
        if kind in noted:
            if kind in _ASSIGNING:  # dispatch by type: this loop sees every node of the module
                _assigned_names(node, keys)
            elif kind in _SCOPES and node.body:
                first = node.body[0]
                if (
                    isinstance(first, ast.Expr)
                    and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)
                ):
                    docstrings.add(id(first.value))
            elif kind is joined:
                where = _where(lines, node)
                covered.append(where)
                for part in node.values:
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        fstring_parts.add(id(part))
                        literals.append(Literal(part.value, "f-string text", where, segment))
        fields = known.get(kind)
        for name in fields_of(kind) if fields is None else fields:
            child = getattr(node, name, None)
            if child is None:
                continue
            if child.__class__ is list:
                if quoted is not None and name in blocks:  # statements: each has a position
                    for item in child:
                        start = _first_line(item) if item.__class__ in _DEFINITIONS else item.lineno
                        end = item.end_lineno
                        if end >= len(quoted) or quoted[end] != quoted[start - 1]:
                            push(item)
                    continue
                for item in child:
                    if item is None or item.__class__ is unqueued:
                        continue
                    if item.__class__ is constant:
                        if item.value.__class__ in strings and id(item) not in fstring_parts:
                            _literal(item, column, docstrings, keys, covered, literals, segment)
                    else:
                        push(item)
            elif child.__class__ is constant:
                if child.value.__class__ in strings and id(child) not in fstring_parts:
                    _literal(child, column, docstrings, keys, covered, literals, segment)
            elif child.__class__ is not unqueued and isinstance(child, node_class):
                push(child)  # not `MatchSingleton.value` (True, False, None)
        if not want_names:
            continue
        if kind is ast.Name:
            if node.id not in names:
                names[node.id] = _span(lines, node)
        elif kind in _DEFINITIONS:
            names.setdefault(node.name, Span(node.lineno, 1, node.lineno, 1))
        elif kind is ast.arg:
            if node.arg not in names:
                names[node.arg] = _span(lines, node)
        elif kind is ast.Attribute:
            if node.attr not in names:
                names[node.attr] = _span(lines, node)
    result.comments = _comments(lines, covered)
    literals.sort(key=lambda lit: (lit.where[0], lit.where[1]))
    return result


_BLOCKS = frozenset({"body", "orelse", "finalbody"})  # the fields that hold statements (in a list)


def _first_line(definition: Any) -> int:
    """A function's or class's first line: its decorators come before ``def``/``class``."""
    decorators = definition.decorator_list
    return decorators[0].lineno if decorators else definition.lineno


def _quoted_lines(lines: list[str]) -> list[int]:
    """How many of the first n lines hold a quote (index n): every string literal, docstring and f-string has
    one on its lines, so a statement whose lines hold none has nothing to collect."""
    return [0, *accumulate("'" in line or '"' in line for line in lines)]


_ASSIGNING = frozenset({ast.Assign, ast.AnnAssign, ast.Call, ast.Dict})
_SCOPES = frozenset({ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef})
_NOTED = _ASSIGNING | _SCOPES | {ast.JoinedStr}
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_STRINGS = frozenset({str, bytes})


def _literal(
    node: Any,
    column: Callable[[int, int], int] | None,
    docstrings: set[int],
    keys: dict[int, str],
    covered: list[Where],
    literals: list[Literal],
    cut: Callable[[Where], str],
) -> None:
    """A string or bytes constant (not an f-string's part) as a Literal, its parent's notes already taken."""
    line, end_line = node.lineno, node.end_lineno or node.lineno
    where: Where
    if column is None:
        where = (line, node.col_offset + 1, end_line, (node.end_col_offset or 0) + 1)
    else:
        where = (
            line,
            column(line, node.col_offset),
            end_line,
            column(end_line, node.end_col_offset or 0),
        )
    value = node.value
    if value.__class__ is not str:
        value = value.decode("utf-8", "replace")
    what = "docstring" if id(node) in docstrings else "string literal"
    covered.append(where)
    literals.append(Literal(value, what, where, cut, keys.get(id(node))))


def _name_of(target: ast.AST) -> str | None:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        return target.value
    return None


def _assigned_names(node: ast.AST, keys: dict[int, str]) -> None:
    """Record the name each directly assigned string constant is stored under (seen before the constant:
    the walk is breadth-first). Every call and dict of a module comes here: only string values are looked at."""
    kind = (
        node.__class__
    )  # exactly one of _ASSIGNING (the walk dispatches by class); calls come most
    if kind is ast.Call:
        for kw in node.keywords:  # type: ignore[attr-defined]
            value = kw.value
            if (
                value.__class__ is ast.Constant
                and value.value.__class__ is str
                and kw.arg
                and kw.arg != "default"
            ):
                keys[id(value)] = kw.arg
        args = node.args  # type: ignore[attr-defined]
        if args and args[0].__class__ is ast.Constant:  # a look-up by a literal name, maybe
            default = _lookup_default(node)  # type: ignore[arg-type]
            if default is not None:
                _keep(*default, keys)
    elif kind is ast.Assign:
        if len(node.targets) == 1:  # type: ignore[attr-defined]
            _keep(node.targets[0], node.value, keys)  # type: ignore[attr-defined]
    elif kind is ast.AnnAssign:
        _keep(node.target, node.value, keys)  # type: ignore[attr-defined]
    elif kind is ast.Dict:
        for target, value in zip(node.keys, node.values):  # type: ignore[attr-defined]
            if value.__class__ is ast.Constant and target is not None:
                _keep(target, value, keys)


def _keep(target: ast.AST, value: ast.AST | None, keys: dict[int, str]) -> None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        name = _name_of(target)
        if name:
            keys[id(value)] = name


def _lookup_default(call: ast.Call) -> tuple[ast.AST, ast.AST] | None:
    """The default of a look-up is stored under the name looked up: `os.getenv("API_TOKEN", "…")`,
    `os.environ.get("X", default="…")`, `config.get("password", "…")` (issue 26)."""
    func = call.func
    callee = (
        func.attr
        if isinstance(func, ast.Attribute)
        else func.id
        if isinstance(func, ast.Name)
        else ""
    )
    if not (callee in ("get", "setdefault", "pop") or "env" in callee.lower()) or not call.args:
        return None
    first = call.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    default = (
        call.args[1]
        if len(call.args) > 1
        else next((kw.value for kw in call.keywords if kw.arg == "default"), None)
    )
    return (ast.Name(first.value), default) if default is not None else None


def _comments(lines: _Lines, covered: list[Where]) -> list[Comment]:
    """Comments, as the tokenizer sees them: the first ``#`` on a line outside every string literal
    (the literals' spans follow the tokenizer's lines, so a ``#`` inside a string, one holding U+2029
    included, is never a comment and can neither suppress a finding nor be judged as one). Inside a
    literal that spans lines, implicitly joined strings may hold comments between their parts: those
    few literals alone go through ``tokenize``, which would double the time of a run if it read every
    file."""
    # Only lines holding a "#" can hold a comment: the literals' spans are noted for those lines alone.
    hashed = {number for number, text in enumerate(lines.lines, 1) if "#" in text}
    blocked: dict[int, list[tuple[int, float]]] = {}
    for start_line, start_col, end_line, end_col in covered if hashed else ():
        for line in range(start_line, end_line + 1):
            if line in hashed:
                start = start_col if line == start_line else 1
                end = end_col if line == end_line else float("inf")
                blocked.setdefault(line, []).append((start, end))
    comments = []
    for number in sorted(hashed):
        text = lines.lines[number - 1]
        position = text.find("#")
        # Merged, sorted string spans; the '#' positions only grow, so one pointer walks them (linear, not
        # literals × '#'s on a line of many "#" strings).
        merged: list[list[float]] = []
        for start, end in sorted(blocked.get(number, ())):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        index = 0
        while position != -1:
            column = position + 1
            while index < len(merged) and merged[index][1] <= column:
                index += 1
            if index == len(merged) or column < merged[index][0]:
                comments.append(Comment(strip_line_end(text[position:]), number, column))
                break
            position = text.find("#", position + 1)
    for where in covered if hashed else ():
        if where[2] > where[0]:
            raw = lines.cut(where)
            if "#" in raw:
                comments += _joined_comments(where, raw)
    comments.sort(key=lambda c: (c.line, c.column))
    return comments


def _joined_comments(where: Where, raw: str) -> list[Comment]:
    """COMMENT tokens between the parts of one literal's source (``"a"  # note`` / ``"b"``)."""
    found: list[Comment] = []
    # Each line is handed over ending in "\n": the pure-Python tokenizer knows "\r\n" and "\n" only.
    feed = iter([strip_line_end(line) + "\n" for line in split_lines("(" + raw + ")")])
    try:
        for token in tokenize.generate_tokens(lambda: next(feed, "")):
            if token.type == tokenize.COMMENT:
                row, col = token.start
                line = where[0] + row - 1
                column = (
                    where[1] + col - 1 if row == 1 else col + 1
                )  # the "(" stands before the literal
                found.append(Comment(token.string, line, column))
    except (tokenize.TokenError, SyntaxError, ValueError):
        pass  # ast accepted the file; what the tokenizer gave before it stopped stands
    return found
