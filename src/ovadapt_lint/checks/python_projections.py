"""Python projection builders, recognised: which dicts are published, where values enter them, and the
contract objects a module builds. This is the classify stage's recognition (``classify_python`` makes a
``Publication`` of it); it reports nothing: the checks of fields (``python_fields``), contract values
(``python_contracts``) and flows (``python_flows``) read the ``Publication``.

The publication model, per dict (not per function). A dict display, ``dict(...)``
call or a receiver built up by stores is a *projection* when
(a) it attests what it leaves out: a ``*_copied`` / ``*_recorded`` / ``*_captured`` /
    ``*_included`` / ``*_exported`` key set to literal ``False`` in a document (it names its
    ``schema_version``; with ``published = "outputs"`` any dict), or a ``public_boundary`` /
    ``public_safe*`` key;
(b) its ``schema_version`` (resolved through module constants) names a shipped
    contract or contains ``projection`` or ``public``, or it has three or more keys
    of a contract section;
(c) it reaches a public sink: a configured validator, or ``json.dump(s)`` in a
    function that writes a ``*.public.json`` / ``*.public.jsonl`` path;
(d) it is nested in a projection, held by one, or returned by a module function
    whose result is stored into one.
Only projections are judged by the field, contract-value and flow checks, and
only the literals inside them (and the constants that feed them) are handed to
the raw-content, path and URL detectors. ``--scope all`` restores the broad,
name-based recognition (``build_*`` functions, ``schema_version``, ``json.dump``).

The analysis runs on the stdlib ``ast`` tree the Python front-end already
parsed (exact start and end positions; an order of magnitude faster than a
concrete syntax tree with position metadata).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..classify import ATTESTATION_SUFFIXES, is_attestation_key
from ..findings import Span
from ..flow.models import OUTPUT
from ..frontends.ast_nodes import (
    BLOCK_CLASSES,
    block_statements,
    children,
    flat_statements,
    preorder,
    walk,
)
from ..frontends.python_text import PythonText
from .contracts import Contract
from .python_vocabulary import PythonVocabulary, call_args, dotted, is_false, string_value

if TYPE_CHECKING:
    from .python_contracts import ContractObjects

_DUMPS = frozenset(
    {"json.dump", "json.dumps", "dump", "dumps", "orjson.dumps", "yaml.safe_dump", "yaml.dump"}
)
_DUMP_LASTS = frozenset(name.rsplit(".", 1)[-1] for name in _DUMPS)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass
class _Sink:
    """A place where a value enters a projection under a key."""

    key: str | None
    key_node: ast.AST
    value: ast.expr


@dataclass(frozen=True)
class ProjectionField:
    """A keyed value of a projection, or a field of a model class, for the field rules: ``governed`` when a
    contract rule judges the value (the contract's to judge, not the field rule's)."""

    key: str
    key_node: ast.AST
    value: ast.expr
    governed: bool


def node_bounds(lines: Any, node: ast.AST) -> tuple[int, int, int, int]:
    """A node's (line, column, end line, end column) in the module's line model (every node this is asked of
    has a position): the flow facts keep it as a tuple, findings as a Span."""
    where: Any = node
    line, end_line = where.lineno, where.end_lineno or where.lineno
    return (
        line,
        lines.column(line, where.col_offset),
        end_line,
        lines.column(end_line, where.end_col_offset or 0),
    )


def node_span(lines: Any, node: ast.AST) -> Span:
    """A node's span in the module's line model."""
    return Span(*node_bounds(lines, node))


@dataclass
class _Scope:
    name: str
    class_name: str | None
    projection_named: bool


def _dict_items(node: ast.Dict):
    """(key, value) pairs of a dict display, without ``**spread`` entries."""
    return [(k, v) for k, v in zip(node.keys, node.values) if k is not None]


class _Collector:
    """One function's (or the module's) dicts, names and calls, without nested scopes."""

    def __init__(self, root: ast.AST, validators: frozenset[str] = frozenset()) -> None:
        self.root = root
        self.dicts: list[ast.Dict] = []
        self.dict_calls: list[ast.Call] = []
        self.parent: dict[int, tuple[ast.Dict | None, str | None]] = {}
        self.name_dicts: dict[str, list[ast.Dict]] = {}
        self.dumped_names: set[str] = set()
        self.dumped_dicts: list[ast.Dict] = []
        self.subscript_stores: list[tuple[str, ast.expr, ast.expr]] = []
        self.update_calls: list[tuple[str, ast.Call]] = []
        self.assigned: dict[
            str, list[ast.expr]
        ] = {}  # every local binding's value, for published spans
        self.returns: list[ast.expr] = []
        self.validated: list[ast.expr] = []  # arguments of public validators
        self.writes_public = False  # a *.public.json path appears: what it dumps is published
        self.constructed: list[
            tuple[str, ast.Call]
        ] = []  # Name(...) calls with keywords: maybe a projection type
        self._validators = validators

    def collect(self) -> _Collector:
        """Every node of the body in source order (pre-order), not entering nested scopes. Only the body:
        decorators and defaults are evaluated in the enclosing scope."""
        handlers = _COLLECT
        # A nested scope is collected on its own.
        for node in preorder(getattr(self.root, "body", []), _NESTED_SCOPES):
            handler = handlers.get(node.__class__)
            if handler is not None:
                handler(self, node)
        return self

    def visit_Dict(self, node: ast.Dict) -> None:
        self.dicts.append(node)
        for key, value in _dict_items(node):
            if isinstance(value, ast.Dict):
                self.parent[id(value)] = (node, string_value(key))
            elif isinstance(value, (ast.List, ast.Tuple)):
                for item in value.elts:
                    if isinstance(item, ast.Dict):
                        self.parent[id(item)] = (node, string_value(key))

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.returns.append(node.value)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and node.value.endswith((".public.json", ".public.jsonl")):
            self.writes_public = True

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        kind = func.__class__
        # The callee's last name first: its whole dotted name only for the few calls that can matter.
        if kind is ast.Name:
            last = func.id  # type: ignore[attr-defined]
        elif kind is ast.Attribute:
            last = func.attr  # type: ignore[attr-defined]
        else:
            return  # no dotted name: not a validator, constructor, dict or dump, nor a receiver's method
        if (
            last in self._validators
            or (node.keywords and (last == "dict" or last[:1].isupper()))
            or (node.args and last in _DUMP_LASTS)
        ):
            name = dotted(func) or ""
            if name and last in self._validators:
                self.validated += call_args(node)
            if name and last[:1].isupper() and any(k.arg is not None for k in node.keywords):
                self.constructed.append((last, node))
            if name == "dict" and any(k.arg is not None for k in node.keywords):
                self.dict_calls.append(node)
            if name in _DUMPS and node.args:
                first = node.args[0]
                if isinstance(first, ast.Name):
                    self.dumped_names.add(first.id)
                elif isinstance(first, ast.Dict):
                    self.dumped_dicts.append(first)
        if kind is ast.Attribute and last in ("update", "setdefault"):
            receiver = dotted(func.value)  # type: ignore[attr-defined]
            if receiver is not None:
                self.update_calls.append((receiver, node))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._assigned(target, node.value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assigned(node.target, node.value)

    def _assigned(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.assigned.setdefault(target.id, []).append(value)
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
            self.name_dicts.setdefault(target.id, []).append(value)
        if isinstance(target, ast.Subscript):
            receiver = dotted(target.value)
            if receiver is not None and not isinstance(target.slice, (ast.Slice, ast.Tuple)):
                self.subscript_stores.append((receiver, target.slice, value))
                if isinstance(value, ast.Dict):
                    self.parent[id(value)] = (None, string_value(target.slice))


_NESTED_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda})
_COLLECT: dict[type, Callable[[_Collector, Any], None]] = {
    ast.Dict: _Collector.visit_Dict,
    ast.Return: _Collector.visit_Return,
    ast.Constant: _Collector.visit_Constant,
    ast.Call: _Collector.visit_Call,
    ast.Assign: _Collector.visit_Assign,
    ast.AnnAssign: _Collector.visit_AnnAssign,
}


class ScopeAnalyzer:
    """Finds the projections of a module (per dict, across its functions): what they publish, where values enter
    them (flow sinks, fields), and the contract objects the module builds. Judges nothing."""

    def __init__(
        self,
        module: PythonText,
        vocab: PythonVocabulary,
        pack,
        named: tuple[str, bool] | None = None,
        imports: dict[str, str] | None = None,
    ) -> None:
        # ``named``: the module's (dotted name, is a package), and ``imports`` its imports under that name, when
        # the caller worked them out already
        self.module = module
        self._named, self._imports = named, imports
        assert module.lines is not None  # the front-end always sets it
        self.lines = module.lines
        self.vocab = vocab
        self.fields: list[ProjectionField] = []  # in the order the field rules judge them
        self.contracts = pack.contracts
        self.section_keys = section_keys(self.contracts)
        self.constants: dict[str, list[ast.expr]] = {}
        self.scopes: list[tuple[ast.AST, _Scope]] = []
        self.functions: dict[str, ast.AST] = {}
        self.published: list[
            Span
        ] = []  # spans of published values (literals inside are judged as content)
        # classes of this module whose instances are projections -> why
        self.projection_types: dict[str, str] = {}
        self.flow_sinks: dict[
            int, list
        ] = {}  # id(scope root) -> [(key, value node, why it is published)]
        self.projection_values: dict[int, str] = {}  # id(projection dict display or call) -> why
        self._versions: dict[str, Contract | None] = {}
        self._marked: tuple[list[int], list[tuple[int, str]]] | None = None  # _marks' answer

    # --- positions -----------------------------------------------------------
    def span(self, node: ast.AST) -> Span:
        return node_span(self.lines, node)

    def code(self, node: ast.AST) -> str:
        return self.lines.segment(self.span(node))

    # --- scopes ------------------------------------------------------------
    def run(self) -> None:
        tree = self.module.tree
        for statement in flat_statements(tree.body):
            if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                for target in targets:
                    if isinstance(target, ast.Name):
                        self.constants.setdefault(target.id, []).append(statement.value)
        self.scopes.append((tree, _Scope("<module>", None, False)))
        # The sibling modules read for constants and helpers: the module's findings depend on them, so a cached
        # result stands only while they are unchanged (flow facts, ModuleFacts.depends).
        self.contract_objects = self._evaluate_contracts()
        self.contract_judged = self.contract_objects.judged
        self._visit(tree, [])
        # Most modules the literal prefilter lets through (``schema_version`` is common) can mark no dict at all:
        # their scopes are not collected.
        if self.vocab.audit or self._may_mark():
            self.finish()

    def _may_mark(self) -> bool:
        """Whether any dict, call or store can be a projection (outside ``--scope all``). Each way in
        ``_projection_dicts`` and ``_analyse`` needs one of these: a projection type, or one of ``_marks``: a
        line that can mark a dict by itself, or three keys of a contract section among the module's literals."""
        if self.projection_types:
            return True
        hits, keyed = self._marks()
        keys = {value for _, value in keyed}
        return bool(hits) or any(len(keys & names) >= 3 for _, _, names in self.section_keys)

    def _marks(self) -> tuple[list[int], list[tuple[int, str]]]:
        """(the lines that can mark a dict by themselves, sorted: a validator's or an attesting keyword's name in
        the text; a string literal that attests or names a projection's schema; any string constant, a docstring
        or an f-string's part too, that ends in a public file name), and (line, key) of each string literal that
        is a contract section's key, in line order. Worked out once: ``_may_mark`` and ``_scope_filter`` ask."""
        if self._marked is None:
            text = self.module.text
            ends = self.lines.ends  # an offset's line, by bisection
            hits = [bisect_right(ends, start) + 1 for start in _attesting_names(text)]
            for name in self.vocab.public_validators:
                start = text.find(name)
                while start >= 0:
                    hits.append(bisect_right(ends, start) + 1)
                    start = text.find(name, start + 1)
            words = frozenset().union(*(names for _, _, names in self.section_keys))
            keyed: list[tuple[int, str]] = []
            values = {lit.value for lit in self.module.literals if lit.what == "string literal"}
            # Each distinct value asked once (a module repeats its keys).
            attesting = {value for value in values if is_attestation_key(value)}
            if self._names_a_schema(values):
                attesting.add("schema_version")
            for literal in self.module.literals:
                value, line = literal.value, literal.where[0]  # no Span made per literal
                if value.endswith((".public.json", ".public.jsonl")):
                    hits.append(line)
                elif literal.what == "string literal":
                    if value in attesting:
                        hits.append(line)
                    elif value in words:
                        keyed.append((line, value))
            hits.sort()
            self._marked = (hits, keyed)
        return self._marked

    def _names_a_schema(self, values: set[str]) -> bool:
        """Whether a dict can name a projection's schema: a ``schema_version`` key, and a version
        ``recognise_version`` takes among the module's literals (its own, or a constant's: ``_version``), asked
        without remembering each literal. ``values``: the module's string literals."""
        from .python_contracts import near_lengths, near_version

        if "schema_version" not in values:
            return False
        # The pattern over every value first (in C), then each known version, asked only of the values whose
        # length can be near it (most are far shorter or longer).
        if any(map(_NAMED_PUBLIC.search, values)):
            return True
        for known in (c.schema_version for c in self.contracts):
            lengths = near_lengths(known)
            if any(near_version(value, known) for value in values if len(value) in lengths):
                return True
        return False

    def _scope_filter(self) -> Callable[[ast.AST], bool]:
        """Which scopes can mark a dict by themselves, by the lines of a function (``_marks``): the module's own
        scope always; a function that another one returns into a projection is collected when that is found
        (``_returned_into``)."""
        hits, keyed = self._marks()
        keyed_lines = [line for line, _ in keyed]

        def wanted(root: ast.AST) -> bool:
            if not isinstance(root, _FUNCTIONS):
                return True
            first, last = root.lineno, root.end_lineno or root.lineno
            at = bisect_left(hits, first)
            if at < len(hits) and hits[at] <= last:
                return True
            inside = {
                value
                for _, value in keyed[
                    bisect_left(keyed_lines, first) : bisect_right(keyed_lines, last)
                ]
            }
            return any(len(inside & names) >= 3 for _, _, names in self.section_keys)

        return wanted

    def _visit(self, node: ast.AST, classes: list[str]) -> None:
        """Source order over statements only (a class or function is always a statement): classes are
        checked as models, functions become scopes."""
        for child in block_statements(node):
            if isinstance(child, ast.ClassDef):
                self._check_model_fields(child)
                self._visit(child, classes + [child.name])
                continue
            if isinstance(child, _FUNCTIONS):
                class_name = classes[-1] if classes else None
                named = self.vocab.audit and (
                    self.vocab.projection_function(child.name)
                    or (class_name is not None and self.vocab.projection_class(class_name))
                )
                self.scopes.append((child, _Scope(child.name, class_name, named)))
                self.functions.setdefault(child.name, child)
            if child.__class__ in BLOCK_CLASSES:  # a simple statement holds no other
                self._visit(child, classes)

    def finish(self) -> None:
        """After the walk: recognise projections in every scope, follow results returned into them, judge."""
        collected: dict[int, _Collector] = {}
        marked: dict[int, set[int]] = {}
        # A scope that can mark nothing by itself is not collected (nothing in it is published) unless a
        # projection is returned from it; with projection types, any call may construct one.
        wanted = None if self.vocab.audit or self.projection_types else self._scope_filter()
        for root, scope in self.scopes:
            if wanted is None or wanted(root):
                self._collect(root, scope, collected, marked)
        self._returned_into(collected, marked)
        for root, scope in self.scopes:
            if id(root) in collected:
                self._analyse(root, scope, collected[id(root)], marked[id(root)])

    def _collect(
        self,
        root: ast.AST,
        scope: _Scope,
        collected: dict[int, _Collector],
        marked: dict[int, set[int]],
    ) -> None:
        collected[id(root)] = _Collector(root, self.vocab.public_validators).collect()
        marked[id(root)] = self._projection_dicts(collected[id(root)], scope)

    def _returned_into(self, collected: dict[int, _Collector], marked: dict[int, set[int]]) -> None:
        """(d) A module function whose result is stored into a projection returns a projection (a fixed point:
        the order scopes are taken in does not matter)."""
        scopes = {id(root): scope for root, scope in self.scopes}
        changed = True
        while changed:
            changed = False
            for key, found in list(collected.items()):
                for call in self._calls_into(found, marked[key]):
                    function = self.functions.get((dotted(call.func) or "").rsplit(".", 1)[-1])
                    if function is None:
                        continue
                    if id(function) not in collected:
                        self._collect(function, scopes[id(function)], collected, marked)
                    callee = collected[id(function)]
                    returned = self._returned_dicts(callee)
                    if returned - marked[id(function)]:
                        marked[id(function)] |= returned
                        marked[id(function)] = self._close(callee, marked[id(function)])
                        changed = True

    def _calls_into(self, found: _Collector, marked: set[int]):
        for node in found.dicts:
            if id(node) in marked:
                for _, value in _dict_items(node):
                    if isinstance(value, ast.Call):
                        yield value
        receivers = self._receivers(found, marked)
        for receiver, _, value in found.subscript_stores:
            if receiver in receivers and isinstance(value, ast.Call):
                yield value

    @staticmethod
    def _returned_dicts(found: _Collector) -> set[int]:
        out: set[int] = set()
        for value in found.returns:
            if isinstance(value, ast.Dict):
                out.add(id(value))
            elif isinstance(value, ast.Name):
                out |= {id(d) for d in found.name_dicts.get(value.id, [])}
        return out

    def _receivers(self, found: _Collector, marked: set[int]) -> set[str]:
        receivers = {
            name for name, dicts in found.name_dicts.items() if any(id(d) in marked for d in dicts)
        }
        receivers |= found_attested_receivers(found, self._loose)
        if self.vocab.audit:
            receivers |= {
                r for r, _, _ in found.subscript_stores if r.split(".")[-1] in self.vocab.receivers
            }
            receivers |= {
                r for r, _ in found.update_calls if r.split(".")[-1] in self.vocab.receivers
            }
        return receivers

    # --- one scope ---------------------------------------------------------
    def _analyse(
        self, root: ast.AST, scope: _Scope, collected: _Collector, projections: set[int]
    ) -> None:
        receivers = self._receivers(collected, projections)

        sinks: list[tuple[_Sink, ast.AST, None]] = []
        reasons: dict[int, str] = {}  # id(sink value) -> why it is published
        for node in collected.dicts:
            if id(node) in projections:
                self.published.append(self.span(node))
                why = self._why(node, collected, projections)
                self.projection_values[id(node)] = why
                for key, value in _dict_items(node):
                    sinks.append((_Sink(string_value(key), key, value), node, None))
                    reasons[id(value)] = why
        for call in collected.dict_calls:
            if scope.projection_named or _attests_call(call, self._loose):
                self.published.append(self.span(call))
                self.projection_values[id(call)] = (
                    "a projection (dict(...) attesting what it leaves out)"
                )
                for keyword in call.keywords:
                    if keyword.arg is not None:
                        sinks.append((_Sink(keyword.arg, keyword, keyword.value), call, None))
                        reasons[id(keyword.value)] = (
                            "a projection (dict(...) attesting what it leaves out)"
                        )
        for type_name, call in collected.constructed:
            if (
                type_name in self.projection_types
            ):  # an instance of a projection type: its fields are sinks
                self.published.append(self.span(call))
                self.projection_values[id(call)] = self.projection_types[type_name]
                for keyword in call.keywords:
                    if keyword.arg is not None:
                        sinks.append((_Sink(keyword.arg, keyword, keyword.value), call, None))
                        reasons[id(keyword.value)] = self.projection_types[type_name]

        # Receivers published only because they store a copy flag and no schema (`published = "outputs"`).
        loose_only = _attested_receivers(collected)[1] if self._loose else set()

        def held(receiver: str) -> str:
            # Why the receiver is published, when a dict it holds says so (a projection, or an output).
            for bound in collected.name_dicts.get(receiver, []):
                why = self.projection_values.get(id(bound))
                if why is not None:
                    return f"{why}, by a store into it"
            if receiver in loose_only:  # one bound to a projection dict was named by it above
                flag = _stored_flag(collected, receiver)
                setting = 'published = "outputs"' if self.vocab.outputs else "--scope all"
                return f'{OUTPUT} ({setting}; a store into a dict that repeats "{flag}")'
            return "a projection (a store into a dict that is one)"

        for receiver, key, value in collected.subscript_stores:
            if receiver in receivers:
                self.published.append(self.span(value))
                sinks.append((_Sink(string_value(key), key, value), value, None))
                reasons[id(value)] = held(receiver)
        for receiver, call in collected.update_calls:
            if receiver in receivers:
                adapter = None
                self.published.append(self.span(call))
                if call.func.attr == "setdefault" and len(call.args) >= 2:  # type: ignore[attr-defined]
                    sinks.append(
                        (
                            _Sink(string_value(call.args[0]), call.args[0], call.args[1]),
                            call,
                            adapter,
                        )
                    )
                    reasons[id(call.args[1])] = held(receiver)
                for keyword in call.keywords:
                    if keyword.arg is not None:
                        sinks.append((_Sink(keyword.arg, keyword, keyword.value), call, adapter))
                        reasons[id(keyword.value)] = held(receiver)
        for sink, _, _ in sinks:
            if sink.key is not None:
                # An adapter's own flags are the contract's to judge (OVA104, ...: python_contracts), not OVA207's.
                self.fields.append(
                    ProjectionField(
                        sink.key, sink.key_node, sink.value, id(sink.value) in self.contract_judged
                    )
                )
        if sinks:
            self._feeders([sink.value for sink, _, _ in sinks], collected)
            # The flow analysis (flow.build) follows what reaches each field; a nested projection's own
            # fields are the sinks.
            self.flow_sinks.setdefault(id(root), []).extend(
                (sink.key, sink.value, reasons.get(id(sink.value), held))
                for sink, _, _ in sinks
                if not isinstance(sink.value, ast.Dict)
            )

    def _why(self, node: ast.Dict, collected: _Collector, projections: set[int]) -> str:
        """Why a dict is published, for the flow findings' messages."""
        attesting = self._attesting_key(node)
        if attesting is not None:
            named = [string_value(k) or "" for k, _ in _dict_items(node)]
            if "schema_version" in named or any(k.startswith("public_") for k in named):
                return f'a projection (it attests "{attesting}")'
            # A status dict that only repeats flags is published as the command's output, not as a document.
            setting = 'published = "outputs"' if self.vocab.outputs else "--scope all"
            return f'{OUTPUT} ({setting}; it repeats "{attesting}")'
        version = self._version(node)
        if version is not None:
            return f'a projection (schema_version "{version}")'
        keys = {string_value(k) for k, _ in _dict_items(node)}
        for _, section, names in self.section_keys:
            if len(keys & names) >= 3:
                return f'a projection (keys of the contract section "{section}")'
        parent = collected.parent.get(id(node))
        if parent is not None and parent[0] is not None and id(parent[0]) in projections:
            return self._why(parent[0], collected, projections)
        if self.vocab.audit:
            return "a projection (--scope all: recognised by name)"
        return "a projection (written to a public file, checked by a public validator, or returned into one)"

    def _feeders(self, values: list[ast.expr], collected: _Collector) -> None:
        """The local bindings and module constants a published value is built from are published too."""
        seen: set[str] = set()
        walked: set[int] = (
            set()
        )  # a nested projection's values are sinks too: walk each subtree once
        stack = list(values)
        while stack:
            node = stack.pop()
            for name in _names_in(node, walked):
                if name in seen:
                    continue
                seen.add(name)
                for value in collected.assigned.get(name, []) or self.constants.get(name, []):
                    self.published.append(self.span(value))
                    stack.append(value)

    @property
    def _loose(self) -> bool:
        """Flags attest without a schema: with ``published = "outputs"`` and under ``--scope all``."""
        return self.vocab.outputs or self.vocab.audit

    def _attesting_key(self, node: ast.Dict) -> str | None:
        """The first key by which the dict attests, if it does: a ``public_boundary`` / ``public_safe*`` key, as
        in JSON; or a boundary flag set to a boolean literal (``True`` declares a copy: itself a finding) in a
        dict that is a document (it names its ``schema_version``). A status dict that repeats the flags of a
        record it wrote somewhere else (``{"ok": True, "raw_artifacts_copied": False}``) is a report of an
        operation: published only with ``published = "outputs"``."""
        first = None
        public = flagged = False
        for key, value in _dict_items(node):
            text = string_value(key)
            if text is None or not is_attestation_key(text):
                continue
            if text.startswith("public_"):
                public = True
            elif _is_bool(value):
                flagged = True
            else:
                continue
            first = first or text
        if public or (
            flagged
            and (
                self._loose
                or any(string_value(k) == "schema_version" for k, _ in _dict_items(node))
            )
        ):
            return first
        return None

    def _version(self, node: ast.Dict) -> str | None:
        """The dict's schema_version, resolved through module constants."""
        for key, value in _dict_items(node):
            if string_value(key) == "schema_version":
                text = string_value(value)
                if text is None and isinstance(value, ast.Name):
                    text = next(
                        (
                            string_value(v)
                            for v in self.constants.get(value.id, [])
                            if string_value(v)
                        ),
                        None,
                    )
                return text
        return None

    def recognise_version(self, version: str) -> str | None:
        """Why a dict with this schema_version is a projection, or None."""
        if self._contract_for_version(version) is not None or _NAMED_PUBLIC.search(version):
            return f'a projection (schema_version "{version}")'
        return None

    def _recognised(self, node: ast.Dict) -> bool:
        """(a) attestation, or (b) a contract's or a projection's schema, or a contract section's keys."""
        if self._attesting_key(node) is not None:
            return True
        version = self._version(node)
        # A shipped contract's version, or one that says it is public. A schema merely named "projection"
        # is not published by its name (an internal route object is one): by being written to a public
        # file, matching a committed public fixture, or attesting what it leaves out.
        if version is not None and (
            self._contract_for_version(version) is not None
            or _NAMED_PUBLIC.search(version)
            or ("projection" in version.lower() and self.vocab.audit)
        ):
            return True
        keys = {string_value(k) for k, _ in _dict_items(node)}
        return any(len(keys & section) >= 3 for _, _, section in self.section_keys)

    def _projection_dicts(self, collected: _Collector, scope: _Scope) -> set[int]:
        marked: set[int] = set()
        attested = found_attested_receivers(collected, self._loose)
        for node in collected.dicts:
            if self._recognised(node):
                marked.add(id(node))
            elif self.vocab.audit:
                keys = {string_value(k) for k, _ in _dict_items(node)}
                keys.discard(None)
                if (
                    scope.projection_named
                    or keys & self.vocab.marker_keys
                    or any(self.vocab.is_flag_key(k) for k in keys if k is not None)
                ):
                    marked.add(id(node))
        # (c) public sinks: a validator's argument; what is dumped where a *.public.json path is written
        for value in collected.validated:
            if isinstance(value, ast.Dict):
                marked.add(id(value))
            elif isinstance(value, ast.Name):
                marked |= {id(d) for d in collected.name_dicts.get(value.id, [])}
        if collected.writes_public or self.vocab.audit:
            for name in collected.dumped_names:
                marked |= {id(d) for d in collected.name_dicts.get(name, [])}
            marked |= {id(d) for d in collected.dumped_dicts}
        for name in attested:
            marked |= {id(d) for d in collected.name_dicts.get(name, [])}
        if self.vocab.audit:
            for name in set(collected.name_dicts) & self.vocab.receivers:
                marked |= {id(d) for d in collected.name_dicts.get(name, [])}
        return self._close(collected, marked)

    @staticmethod
    def _close(collected: _Collector, marked: set[int]) -> set[int]:
        """Nesting, and dicts assigned to names that a projection holds, until nothing changes."""
        changed = True
        while changed:
            changed = False
            for node in collected.dicts:
                parent = collected.parent.get(id(node))
                inside = parent is not None and parent[0] is not None and id(parent[0]) in marked
                if id(node) not in marked and inside:
                    marked.add(id(node))
                    changed = True
                if id(node) in marked:
                    for _, value in _dict_items(node):
                        if isinstance(value, ast.Name):
                            for held in collected.name_dicts.get(value.id, []):
                                if id(held) not in marked:
                                    marked.add(id(held))
                                    changed = True
        return marked

    def _contract_for_version(self, version: str) -> Contract | None:
        if version not in self._versions:  # one module repeats its versions
            from .python_contracts import near_version  # difflib's ratio, remembered for the run

            self._versions[version] = next(
                (c for c in self.contracts if near_version(version, c.schema_version)), None
            )
        return self._versions[version]

    def _evaluate_contracts(self) -> ContractObjects:
        """The adapter objects the module builds, in every style (python_contracts), recognised but not judged."""
        from ..flow.modnames import module_name
        from .python_contracts import evaluate_module

        path = self.module.source.path
        imports = self._imports
        if self._named is not None:
            name, is_package = self._named
        else:
            imports = None  # worked out under another name, if at all
            try:
                name, is_package = module_name(path)
            except (OSError, ValueError):
                name, is_package = path.stem, False
        return evaluate_module(
            self.module.tree,
            self.module.text,
            name,
            is_package,
            path,
            self.contracts,
            self.vocab.model_decorators,
            self.vocab.model_bases,
            imports,
            self.lines.ends,
        )

    def _check_model_fields(self, node: ast.ClassDef) -> None:
        """Dataclass / TypedDict / NamedTuple / pydantic fields of a projection type: a model whose fields
        attest what it leaves out (``raw_memory_copied: bool = False``) or are a contract section's keys."""
        decorators = {dotted(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list}
        bases = {dotted(b) for b in node.bases}
        if not (decorators & self.vocab.model_decorators or bases & self.vocab.model_bases):
            return
        fields = [
            s for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]
        names = {f.target.id for f in fields}  # type: ignore[union-attr]
        for f in (
            fields
        ):  # a copy flag whose default is True, where no contract rule judged it (python_contracts)
            if f.value is not None and id(f.value) not in self.contract_judged:
                self.fields.append(ProjectionField(f.target.id, f.target, f.value, False))  # type: ignore[union-attr]
        # `raw_memory_copied: bool = False`, or a bool field named like one (a declared boundary)
        attested = any(
            is_attestation_key(f.target.id)  # type: ignore[union-attr]
            and (is_false(f.value) or (f.value is None and self.code(f.annotation) == "bool"))
            for f in fields
        )
        sectioned = any(len(names & section) >= 3 for _, _, section in self.section_keys)
        named = self.vocab.audit and self.vocab.projection_class(node.name)
        if not (attested or sectioned or named):
            return
        why = (
            "it declares what it leaves out"
            if attested
            else "its fields are a contract section's keys"
            if sectioned
            else "--scope all: recognised by name"
        )
        self.projection_types[node.name] = f"an instance of projection type {node.name} ({why})"


# A key ending in one of these holds a number, a digest or a commit id, whatever flowed into it.
# A schema that names itself a projection of something (`worker_status_projection_v1`) or public; not one
# that merely mentions the word (`runtime_projection_route_v0`, an internal route object).
_NAMED_PUBLIC = re.compile(r"(?:^|_)projection_v\d+$|public", re.IGNORECASE)

# An attesting keyword (``dict(raw_copied=False)``, ``out.update(public_safe=True)``) or key, by its name: one
# of ATTESTATION_SUFFIXES where a word ends, or one of these anywhere (``_attesting_names``).
_ATTESTING_WORDS = ("public_boundary", "public_safe")


def _attesting_names(text: str):
    """Where an attesting name occurs in ``text`` (a line with one can mark a dict). Each is searched with
    ``str.find``: a regular expression of the alternatives tries every position of the text."""
    size = len(text)
    for word in ATTESTATION_SUFFIXES:
        start = text.find(word)
        while start >= 0:
            end = start + len(word)
            if end == size or not (text[end].isalnum() or text[end] == "_"):  # a word ends there
                yield start
            start = text.find(word, end)
    for word in _ATTESTING_WORDS:
        start = text.find(word)
        while start >= 0:
            yield start
            start = text.find(word, start + len(word))


@lru_cache(maxsize=16)
def section_keys(
    contracts: tuple[Contract, ...],
) -> tuple[tuple[Contract, str, frozenset[str]], ...]:
    """(contract, section, keys) for sections whose keys identify them: three of them make a projection. Worked
    out once per rule pack, not per module."""
    return tuple(
        (c, sec, names)
        for c in contracts
        for sec in c.sections
        if len(names := frozenset(k for s, k, _, _ in c.section_values if s == sec)) >= 3
    )


def found_attested_receivers(found: _Collector, loose: bool) -> set[str]:
    """Receivers that attest by a store: ``out["public_safe"] = True``, or ``out["raw_copied"] = False`` /
    ``out.update(raw_copied=False)`` into a receiver that is a document (it is given a ``schema_version``);
    ``loose`` (``published = "outputs"``): any receiver that stores a flag."""
    strict, flags_only = _attested_receivers(found)
    return strict | flags_only if loose else strict


def _attested_receivers(found: _Collector) -> tuple[set[str], set[str]]:
    """(receivers that attest as documents, receivers that only store a copy flag: found_attested_receivers)."""
    names = set()
    flagged = set()
    versioned = {r for r, key, _ in found.subscript_stores if string_value(key) == "schema_version"}
    for receiver, key, value in found.subscript_stores:
        text = string_value(key)
        if text is not None and is_attestation_key(text):
            if text.startswith("public_"):
                names.add(receiver)
            elif is_false(value):
                flagged.add(receiver)
    for receiver, call in found.update_calls:
        if _attests_call(call, loose=True):
            flagged.add(receiver)
        if any(k.arg == "schema_version" for k in call.keywords):
            versioned.add(receiver)
    strict = names | (flagged & versioned)
    return strict, flagged - strict


def _stored_flag(found: _Collector, receiver: str) -> str:
    """The copy flag a receiver is given by a store or an update (``out["raw_copied"] = False``)."""
    for stored, key, _ in found.subscript_stores:
        text = string_value(key)
        if stored == receiver and text is not None and is_attestation_key(text):
            return text
    for stored, call in found.update_calls:
        if stored == receiver:
            for keyword in call.keywords:
                if keyword.arg is not None and is_attestation_key(keyword.arg):
                    return keyword.arg
    return "a copy flag"


def _is_bool(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, bool)


def _attests_call(call: ast.Call, loose: bool) -> bool:
    """``dict(...)`` / ``x.update(...)`` keywords that attest: a ``public_*`` key, or a flag set to False
    beside a ``schema_version`` (``loose``: any flag set to False)."""
    keys = {k.arg for k in call.keywords if k.arg is not None}
    return any(
        k.arg is not None
        and is_attestation_key(k.arg)
        and (
            k.arg.startswith("public_")
            or (is_false(k.value) and (loose or "schema_version" in keys))
        )
        for k in call.keywords
    )


def _names_in(node: ast.AST, walked: set[int]):
    """The variables an expression reads (not the bodies of lambdas), skipping subtrees in ``walked``."""
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in walked:
            continue
        walked.add(id(current))
        if isinstance(current, ast.Name):
            yield current.id
        elif not isinstance(current, _SCOPES):
            stack.extend(children(current))


def might_hold_projections(tree: ast.Module, vocab: PythonVocabulary) -> bool:
    """A cheap, conservative pre-check on the ``ast`` tree: can this module contain projection
    context at all? Used by ``--scope all``, whose recognition is name-based."""
    dict_names: set[str] = set()
    dumped: set[str] = set()
    for node in walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and vocab.projection_function(
            node.name
        ):
            return True
        if isinstance(node, ast.ClassDef) and vocab.projection_class(node.name):
            return True
        if isinstance(node, ast.Dict):
            keys = {
                k.value
                for k in node.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            }
            if keys & vocab.marker_keys or any(vocab.is_flag_key(k) for k in keys):
                return True
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and _receiver(target.value, vocab):
                    return True
                if isinstance(target, ast.Name) and isinstance(node.value, ast.Dict):
                    if target.id in vocab.receivers:
                        return True
                    dict_names.add(target.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("update", "setdefault") and _receiver(node.func.value, vocab):
                return True
            if node.func.attr in ("dump", "dumps") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Dict):
                    return True
                if isinstance(first, ast.Name):
                    dumped.add(first.id)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("dump", "dumps")
        ):
            if node.args and isinstance(node.args[0], (ast.Dict, ast.Name)):
                if isinstance(node.args[0], ast.Dict):
                    return True
                dumped.add(node.args[0].id)
    return bool(dumped & dict_names)


def _receiver(node: ast.expr, vocab: PythonVocabulary) -> bool:
    name = (
        node.attr
        if isinstance(node, ast.Attribute)
        else node.id
        if isinstance(node, ast.Name)
        else None
    )
    return name in vocab.receivers


# What a module must mention before the projection analysis is worth running (a literal
# prefilter, like Semgrep's): the recognition itself is ScopeAnalyzer._recognised.
_PREFILTER = re.compile(
    r"_(?:copied|recorded|captured|included|exported)\b|public_boundary|public_safe|schema_version|"
    r"\.public\.jsonl?\b"
)


def may_publish(
    text: str, vocab: PythonVocabulary, section_words: frozenset[str], contracts: tuple = ()
) -> bool:
    if _PREFILTER.search(text):
        return True
    if any(name in text for name in vocab.public_validators):
        return True
    if sum(1 for word in section_words if word in text) >= 3:
        return True
    from .python_contracts import may_build  # a module of gate records or first-screen helpers only

    return may_build(text, contracts)
