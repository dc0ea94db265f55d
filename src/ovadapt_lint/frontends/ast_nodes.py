"""Faster walks over ``ast`` trees than ``ast.walk`` and ``ast.NodeVisitor``.

The standard helpers go through the ``iter_fields``/``iter_child_nodes`` generators, test every
field, and visit the ``Load``/``Store`` contexts and operator objects, about a quarter of all nodes;
a large projection module has hundreds of thousands of nodes and is walked more than once, so the
walk is a measurable share of a run (about a quarter before this module).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

_AST = ast.AST

# Fields that never hold a node worth visiting, in any node type: names and flags (str, int, bool),
# expression contexts and operators. `names` holds strings (global, nonlocal) or import aliases.
_SKIPPED = frozenset(
    {
        "ctx",
        "id",
        "attr",
        "arg",
        "name",
        "names",
        "asname",
        "module",
        "level",
        "kind",
        "type_comment",
        "is_async",
        "simple",
        "conversion",
        "op",
        "ops",
        "kwd_attrs",
        "tag",
    }
)
# The node fields worth visiting, per node class (fields_of fills it): walks inlined elsewhere read it.
FIELDS: dict[type[ast.AST], tuple[str, ...]] = {ast.Constant: ()}
_REVERSED: dict[type[ast.AST], tuple[str, ...]] = {}  # the same, last first (preorder)
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
# Node classes that may hold blocks of statements: the statement walks skip every other node at once.
BLOCK_CLASSES = frozenset(
    kind
    for kind in vars(ast).values()
    if isinstance(kind, type)
    and issubclass(kind, ast.AST)
    and _BLOCK_FIELDS.intersection(kind._fields)
)

# Per block-holding node class: its fields that hold statements, and those that hold clauses with a body (except
# handlers, match cases); looked up once per node instead of trying every name on it.
_BLOCKS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {
    kind: (
        tuple(a for a in ("body", "orelse", "finalbody") if a in kind._fields),
        tuple(a for a in ("handlers", "cases") if a in kind._fields),
    )
    for kind in BLOCK_CLASSES
}
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def block_statements(node: ast.AST) -> list[ast.stmt]:
    """The statements ``node`` holds directly: its body, else and finally blocks, then its handlers' and match
    cases' bodies (the contract evaluation's order); none for a simple statement."""
    fields = _BLOCKS.get(node.__class__)
    if fields is None:
        return []
    blocks, clauses = fields
    out: list[ast.stmt] = []
    for attr in blocks:
        part = getattr(node, attr, None)
        if isinstance(part, list):
            out += part
    for attr in clauses:
        for clause in getattr(node, attr, ()):
            out += clause.body
    return out


def flat_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A block's statements, each before those it holds (``block_statements``' order), entering compound
    statements but not nested functions and classes (which are left out)."""
    stack = list(reversed(body))
    while stack:
        statement = stack.pop()
        if isinstance(statement, _DEFINITIONS):
            continue
        yield statement
        if statement.__class__ in BLOCK_CLASSES:  # a simple statement holds no other
            stack.extend(reversed(block_statements(statement)))


def fields_of(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = FIELDS.get(kind)
    if fields is None:
        fields = FIELDS[kind] = tuple(f for f in kind._fields if f not in _SKIPPED)
    return fields


def children(node: ast.AST) -> list[ast.AST]:
    """The node's child nodes in field order, without contexts, operators and aliases."""
    out: list[ast.AST] = []
    fields = FIELDS.get(node.__class__)
    for name in fields_of(node.__class__) if fields is None else fields:
        value = getattr(node, name, None)
        if value is None:
            continue
        if value.__class__ is list:
            out.extend(item for item in value if item is not None)
        elif isinstance(value, _AST):  # not `MatchSingleton.value` (True, False, None)
            out.append(value)
    return out


def walk(tree: ast.AST) -> Iterator[ast.AST]:
    """Breadth-first, as ``ast.walk`` (a scope comes before its statements); ``children`` inlined, as this
    loop sees every node of every module."""
    todo = deque([tree])
    pop, push = todo.popleft, todo.append
    known = FIELDS
    while todo:
        node = pop()
        yield node
        fields = known.get(node.__class__)
        for name in fields_of(node.__class__) if fields is None else fields:
            value = getattr(node, name, None)
            if value is None:
                continue
            if value.__class__ is list:
                for item in value:
                    if item is not None:
                        push(item)
            elif isinstance(value, _AST):
                push(value)


def preorder(body: list, skip: frozenset) -> Iterator[ast.AST]:
    """The nodes of ``body`` in source order (depth-first, pre-order), neither yielding nor entering a node
    whose class is in ``skip``."""
    stack = body[::-1]
    pop, push = stack.pop, stack.append
    known = _REVERSED
    while stack:
        node = pop()
        kind = node.__class__
        if kind in skip:
            continue
        yield node
        # Children pushed last to first, so the first comes off the stack next (no list per node).
        fields = known.get(kind)
        if fields is None:
            fields = known[kind] = fields_of(kind)[::-1]
        for name in fields:
            value = getattr(node, name, None)
            if value is None:
                continue
            if value.__class__ is list:
                for item in reversed(value):
                    if item is not None:
                        push(item)
            elif isinstance(value, _AST):
                push(value)
