"""Python projection builders: which dicts are published, and their fields, contract values and flows.

The publication model, per dict (not per function). A dict display, ``dict(...)``
call or a receiver built up by stores is a *projection* when
(a) it attests what it leaves out: a ``*_copied`` / ``*_recorded`` / ``*_captured`` /
    ``*_included`` / ``*_exported`` key set to literal ``False``, or a
    ``public_boundary`` / ``public_safe*`` key;
(b) its ``schema_version`` (resolved through module constants) names a shipped
    contract or contains ``projection`` or ``public``, or it has three or more keys
    of a contract section;
(c) it reaches a public sink: a configured validator, or ``json.dump(s)`` in a
    function that writes a ``*.public.json`` / ``*.public.jsonl`` path;
(d) it is nested in a projection, held by one, or returned by a module function
    whose result is stored into one.
Only projections are judged by the field, contract-value and flow rules, and
only the literals inside them (and the constants that feed them) are handed to
the raw-content, path and URL detectors. ``--scope all`` restores the broad,
name-based recognition (``build_*`` functions, ``schema_version``, ``json.dump``).
"""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass, field

import libcst as cst

from ..classify import is_attestation_key
from ..findings import Finding, Span, digest_value, make_finding
from ..frontends.json_tree import JNode
from ..frontends.python_cst import PythonModule
from ..keyclass import Vocabulary
from .contracts import Contract, load_contracts
from .python_taint import PythonVocabulary, Step, Summary, Taint, TaintTracker, dotted, pick, string_value
from .raw_fields import _CATEGORY_TEXT, _FLAG_KEY, CATEGORY_CODES, _carries_raw

FLOW_CODES = {"raw": "OVA208", "credential": "OVA410", "path": "OVA504"}
_NEAR_MISS = 0.9
_COMPACT_CALLS = frozenset({"bool", "len", "int", "float", "isinstance", "sum", "any", "all", "round", "hash"})
_ARITHMETIC = (cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power)
_DUMPS = frozenset({"json.dump", "json.dumps", "dump", "dumps", "orjson.dumps", "yaml.safe_dump", "yaml.dump"})


@dataclass
class _Sink:
    """A place where a value enters a projection under a key."""
    key: str | None
    key_node: cst.CSTNode
    value: cst.BaseExpression


@dataclass
class _Scope:
    name: str
    class_name: str | None
    projection_named: bool
    dict_names: dict[str, list[cst.Dict]] = field(default_factory=dict)


def _body_statements(node: cst.CSTNode) -> list[cst.CSTNode]:
    body = getattr(node, "body", None)
    if isinstance(body, cst.BaseSuite):
        body = body.body
    return list(body) if isinstance(body, (list, tuple)) else []


class _Collector(cst.CSTVisitor):
    """One function's (or the module's) dicts, names and calls, without nested scopes."""

    def __init__(self, root: cst.CSTNode, validators: frozenset[str] = frozenset()) -> None:
        self.root = root
        self.dicts: list[cst.Dict] = []
        self.dict_calls: list[cst.Call] = []
        self.parent: dict[int, tuple[cst.Dict | cst.Call, str | None]] = {}
        self.name_dicts: dict[str, list[cst.Dict]] = {}
        self.dumped_names: set[str] = set()
        self.dumped_dicts: list[cst.Dict] = []
        self.subscript_stores: list[tuple[str, cst.BaseExpression, cst.BaseExpression]] = []
        self.update_calls: list[tuple[str, cst.Call]] = []
        self.assigned: dict[str, list[cst.BaseExpression]] = {}  # every local binding's value, for published spans
        self.returns: list[cst.BaseExpression] = []
        self.validated: list[cst.BaseExpression] = []  # arguments of public validators
        self.writes_public = False  # a *.public.json path appears: what it dumps is published
        self.constructed: list[tuple[str, cst.Call]] = []  # Name(...) calls with keywords: maybe a projection type
        self._validators = validators

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.root

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Dict(self, node: cst.Dict) -> None:
        self.dicts.append(node)
        for element in node.elements:
            if isinstance(element, cst.DictElement) and isinstance(element.value, cst.Dict):
                self.parent[id(element.value)] = (node, string_value(element.key))
            elif isinstance(element, cst.DictElement) and isinstance(element.value, (cst.List, cst.Tuple)):
                for item in element.value.elements:
                    if isinstance(item.value, cst.Dict):
                        self.parent[id(item.value)] = (node, string_value(element.key))

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.returns.append(node.value)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if node.value.rstrip("'\"").endswith((".public.json", ".public.jsonl")):
            self.writes_public = True

    def visit_Call(self, node: cst.Call) -> None:
        name = dotted(node.func) or ""
        if name and name.rsplit(".", 1)[-1] in self._validators:
            self.validated += [a.value for a in node.args]
        if name and name.rsplit(".", 1)[-1][:1].isupper() and any(a.keyword is not None for a in node.args):
            self.constructed.append((name.rsplit(".", 1)[-1], node))
        if name == "dict" and any(a.keyword is not None for a in node.args):
            self.dict_calls.append(node)
        if name in _DUMPS and node.args:
            first = node.args[0].value
            if isinstance(first, cst.Name):
                self.dumped_names.add(first.value)
            elif isinstance(first, cst.Dict):
                self.dumped_dicts.append(first)
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("update", "setdefault"):
            receiver = dotted(node.func.value)
            if receiver is not None:
                self.update_calls.append((receiver, node))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._assigned(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._assigned(node.target, node.value)

    def _assigned(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.assigned.setdefault(target.value, []).append(value)
        if isinstance(target, cst.Name) and isinstance(value, cst.Dict):
            self.name_dicts.setdefault(target.value, []).append(value)
        if isinstance(target, cst.Subscript):
            receiver = dotted(target.value)
            if receiver is not None and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
                self.subscript_stores.append((receiver, target.slice[0].slice.value, value))
                if isinstance(value, cst.Dict):
                    self.parent[id(value)] = (None, string_value(target.slice[0].slice.value))  # type: ignore[assignment]


class ScopeAnalyzer(cst.CSTVisitor):
    """Finds the projections of a module (per dict, across its functions) and judges their fields and flows."""

    def __init__(self, module: PythonModule, vocab: PythonVocabulary, keys: Vocabulary) -> None:
        self.module = module
        self.vocab = vocab
        self.keys = keys
        self.findings: list[Finding] = []
        self.contracts = load_contracts()
        # (contract, section, keys) for sections whose keys identify them: three of them make a projection
        self.section_keys = [(c, sec, keys) for c in self.contracts for sec in c.sections
                             if len(keys := frozenset(k for s, k, _, _ in c.section_values if s == sec)) >= 3]
        self._classes: list[str] = []
        # Module-level bindings (FIXTURES = Path(__file__)...), the starting point of every function.
        self.module_env: dict[str, Taint] = {}
        self.constants: dict[str, list[cst.BaseExpression]] = {}
        self.scopes: list[tuple[cst.CSTNode, _Scope]] = []
        self.functions: dict[str, cst.FunctionDef] = {}
        self.published: list[Span] = []  # spans of published values (literals inside are judged as content)
        self._summaries: dict[str, Summary | None] = {}
        self.projection_types: set[str] = set()  # classes of this module whose instances are projections

    # --- scopes ------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        for statement in _flat_statements(node):
            for small in getattr(statement, "body", ()) if isinstance(statement, cst.SimpleStatementLine) else ():
                if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                    for target in targets:
                        if isinstance(target, cst.Name):
                            self.constants.setdefault(target.value, []).append(small.value)
        self.scopes.append((node, _Scope("<module>", None, False)))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node.name.value)
        self._check_model_fields(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        class_name = self._classes[-1] if self._classes else None
        named = self.vocab.audit and (self.vocab.projection_function(node.name.value) or (
            class_name is not None and self.vocab.projection_class(class_name)))
        self.scopes.append((node, _Scope(node.name.value, class_name, named)))
        self.functions.setdefault(node.name.value, node)

    def finish(self) -> None:
        """After the visit: recognise projections in every scope, follow results returned into them, judge."""
        tracker = self._tracker()
        for statement in _flat_statements(self.module.module):
            _update(tracker, statement)
        self.module_env = tracker.env
        collected = {}
        marked: dict[int, set[int]] = {}
        for root, scope in self.scopes:
            collected[id(root)] = _Collector(root, self.vocab.public_validators)
            root.visit(collected[id(root)])
            marked[id(root)] = self._projection_dicts(collected[id(root)], scope)
        self._returned_into(collected, marked)
        for root, scope in self.scopes:
            self._analyse(root, scope, collected[id(root)], marked[id(root)])

    def _returned_into(self, collected: dict[int, _Collector], marked: dict[int, set[int]]) -> None:
        """(d) A module function whose result is stored into a projection returns a projection."""
        changed = True
        while changed:
            changed = False
            for key, found in collected.items():
                for call in self._calls_into(found, marked[key]):
                    function = self.functions.get((dotted(call.func) or "").rsplit(".", 1)[-1])
                    if function is None or id(function) not in collected:
                        continue
                    callee = collected[id(function)]
                    returned = self._returned_dicts(callee)
                    if returned - marked[id(function)]:
                        marked[id(function)] |= returned
                        marked[id(function)] = self._close(callee, marked[id(function)])
                        changed = True

    def _calls_into(self, found: _Collector, marked: set[int]):
        for node in found.dicts:
            if id(node) in marked:
                for element in node.elements:
                    if isinstance(element, cst.DictElement) and isinstance(element.value, cst.Call):
                        yield element.value
        receivers = self._receivers(found, marked)
        for receiver, _, value in found.subscript_stores:
            if receiver in receivers and isinstance(value, cst.Call):
                yield value

    @staticmethod
    def _returned_dicts(found: _Collector) -> set[int]:
        out: set[int] = set()
        for value in found.returns:
            if isinstance(value, cst.Dict):
                out.add(id(value))
            elif isinstance(value, cst.Name):
                out |= {id(d) for d in found.name_dicts.get(value.value, [])}
        return out

    def _receivers(self, found: _Collector, marked: set[int]) -> set[str]:
        receivers = {name for name, dicts in found.name_dicts.items() if any(id(d) in marked for d in dicts)}
        receivers |= found_attested_receivers(found)
        if self.vocab.audit:
            receivers |= {r for r, _, _ in found.subscript_stores if r.split(".")[-1] in self.vocab.receivers}
            receivers |= {r for r, _ in found.update_calls if r.split(".")[-1] in self.vocab.receivers}
        return receivers

    # --- one scope ---------------------------------------------------------
    def _analyse(self, root: cst.CSTNode, scope: _Scope, collected: _Collector, projections: set[int]) -> None:
        receivers = self._receivers(collected, projections)
        adapters = self._adapter_dicts(collected, projections, scope)

        sinks: list[tuple[_Sink, cst.CSTNode, tuple[Contract, str | None] | None]] = []
        for node in collected.dicts:
            if id(node) in projections:
                self.published.append(self.module.span(node))
                for element in node.elements:
                    if isinstance(element, cst.DictElement):
                        sinks.append((_Sink(string_value(element.key), element.key, element.value), node,
                                      adapters.get(id(node))))
        for call in collected.dict_calls:
            if scope.projection_named or _attests_call(call):
                self.published.append(self.module.span(call))
                for arg in call.args:
                    if arg.keyword is not None:
                        sinks.append((_Sink(arg.keyword.value, arg.keyword, arg.value), call, None))
        for type_name, call in collected.constructed:
            if type_name in self.projection_types:  # an instance of a projection type: its fields are sinks
                self.published.append(self.module.span(call))
                for arg in call.args:
                    if arg.keyword is not None:
                        sinks.append((_Sink(arg.keyword.value, arg.keyword, arg.value), call, None))
        def receiver_adapter(receiver: str):
            """The adapter a receiver holds (a dict display assigned to it), else the function's section."""
            held = [adapters[id(d)] for d in collected.name_dicts.get(receiver, []) if id(d) in adapters]
            return held[0] if held else self._section_by_name(scope) if receiver in receivers else None

        for receiver, key, value in collected.subscript_stores:
            if receiver in receivers:
                self.published.append(self.module.span(value))
                sinks.append((_Sink(string_value(key), key, value), value, receiver_adapter(receiver)))
        for receiver, call in collected.update_calls:
            if receiver in receivers:
                args = call.args
                adapter = receiver_adapter(receiver)
                self.published.append(self.module.span(call))
                if call.func.attr.value == "setdefault" and len(args) >= 2:  # type: ignore[union-attr]
                    sinks.append((_Sink(string_value(args[0].value), args[0].value, args[1].value), call, adapter))
                for arg in args:
                    if arg.keyword is not None:
                        sinks.append((_Sink(arg.keyword.value, arg.keyword, arg.value), call, adapter))
        for sink, _, adapter in sinks:
            if sink.key is not None:
                self._check_field(sink)
                if adapter is not None:
                    self._check_contract_value(sink, *adapter)
        if sinks:
            self._feeders([sink.value for sink, _, _ in sinks], collected)
            self._flows(root, sinks)

    def _feeders(self, values: list[cst.BaseExpression], collected: _Collector) -> None:
        """The local bindings and module constants a published value is built from are published too."""
        seen: set[str] = set()
        stack = list(values)
        while stack:
            node = stack.pop()
            for name in _names_in(node):
                if name in seen:
                    continue
                seen.add(name)
                for value in collected.assigned.get(name, []) or self.constants.get(name, []):
                    self.published.append(self.module.span(value))
                    stack.append(value)

    def _attests(self, node: cst.Dict) -> bool:
        for element in node.elements:
            if not isinstance(element, cst.DictElement):
                continue
            key = string_value(element.key)
            if key is not None and is_attestation_key(key) and (
                    key.startswith("public_") or (isinstance(element.value, cst.Name) and element.value.value == "False")):
                return True
        return False

    def _version(self, node: cst.Dict) -> str | None:
        """The dict's schema_version, resolved through module constants."""
        for element in node.elements:
            if isinstance(element, cst.DictElement) and string_value(element.key) == "schema_version":
                value = element.value
                text = string_value(value)
                if text is None and isinstance(value, cst.Name):
                    text = next((string_value(v) for v in self.constants.get(value.value, []) if string_value(v)), None)
                return text
        return None

    def _recognised(self, node: cst.Dict) -> bool:
        """(a) attestation, or (b) a contract's or a projection's schema, or a contract section's keys."""
        if self._attests(node):
            return True
        version = self._version(node)
        if version is not None and (self._contract_for_version(version) is not None
                                    or "projection" in version.lower() or "public" in version.lower()):
            return True
        keys = {string_value(e.key) for e in node.elements if isinstance(e, cst.DictElement)}
        return any(len(keys & section) >= 3 for _, _, section in self.section_keys)

    def _projection_dicts(self, collected: _Collector, scope: _Scope) -> set[int]:
        marked: set[int] = set()
        attested = found_attested_receivers(collected)
        for node in collected.dicts:
            if self._recognised(node):
                marked.add(id(node))
            elif self.vocab.audit:
                keys = {string_value(e.key) for e in node.elements if isinstance(e, cst.DictElement)}
                keys.discard(None)
                if scope.projection_named or keys & self.vocab.marker_keys or any(self.vocab.is_flag_key(k) for k in keys):
                    marked.add(id(node))
        # (c) public sinks: a validator's argument; what is dumped where a *.public.json path is written
        sunk = [v for v in collected.validated]
        for value in sunk:
            if isinstance(value, cst.Dict):
                marked.add(id(value))
            elif isinstance(value, cst.Name):
                marked |= {id(d) for d in collected.name_dicts.get(value.value, [])}
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
                    for element in node.elements:
                        if isinstance(element, cst.DictElement) and isinstance(element.value, cst.Name):
                            for held in collected.name_dicts.get(element.value.value, []):
                                if id(held) not in marked:
                                    marked.add(id(held))
                                    changed = True
        return marked

    def _contract_for_version(self, version: str) -> Contract | None:
        for contract in self.contracts:
            if version == contract.schema_version or difflib.SequenceMatcher(
                    None, version, contract.schema_version).ratio() >= _NEAR_MISS:
                return contract
        return None

    def _section_by_name(self, scope: _Scope) -> tuple[Contract, str | None] | None:
        """A function named after a contract section (build_issue_projection) builds that section."""
        return next(((c, s) for c in self.contracts for s in c.sections if s in scope.name), None)

    def _adapter_dicts(self, collected: _Collector, projections: set[int],
                       scope: _Scope) -> dict[int, tuple[Contract, str | None]]:
        """Projection dicts that are recognisably an adapter or one of its sections: (contract, section)."""
        found: dict[int, tuple[Contract, str | None]] = {}
        by_name = self._section_by_name(scope)
        for node in collected.dicts:
            if id(node) not in projections:
                continue
            version = next((string_value(e.value) for e in node.elements if isinstance(e, cst.DictElement)
                            and string_value(e.key) == "schema_version"), None)
            contract = self._contract_for_version(version) if version else None
            where: tuple[Contract, str | None] | None = (contract, None) if contract is not None else None
            parent = collected.parent.get(id(node))
            if where is None and parent is not None and parent[0] is not None and id(parent[0]) in found:
                outer, section = found[id(parent[0])]
                where = (outer, section or parent[1])
            if where is None and by_name is not None:
                where = by_name
            if where is not None:
                found[id(node)] = where
        return found

    # --- field rules -------------------------------------------------------
    def _literal(self, node: cst.BaseExpression) -> JNode | None:
        text = string_value(node)
        if text is not None:
            return JNode("string", 0, 0, text)
        if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
            return JNode({"True": "true", "False": "false", "None": "null"}[node.value], 0, 0, None)
        if isinstance(node, (cst.Integer, cst.Float)):
            return JNode("number", 0, 0, 0)
        if isinstance(node, (cst.List, cst.Tuple)) and all(self._literal(e.value) is not None for e in node.elements):
            return JNode("array", 0, 0, [self._literal(e.value) for e in node.elements])
        return None

    def _compact_expression(self, node: cst.BaseExpression) -> bool:
        """A flag or a counter: cannot carry a body."""
        if isinstance(node, (cst.Comparison, cst.Integer, cst.Float)):
            return True
        if isinstance(node, cst.UnaryOperation):
            return isinstance(node.operator, cst.Not) or self._compact_expression(node.expression)
        if isinstance(node, cst.BooleanOperation):
            return self._compact_expression(node.left) and self._compact_expression(node.right)
        if isinstance(node, cst.IfExp):
            return self._compact_expression(node.body) and self._compact_expression(node.orelse)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ARITHMETIC):
            # A ratio or a difference is a number (a path join `base / "x"` has a string operand).
            return not any(isinstance(side, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
                           for side in (node.left, node.right))
        if isinstance(node, cst.Name):
            return node.value in ("True", "False", "None")
        if isinstance(node, cst.Call):
            name = dotted(node.func) or ""
            return name in _COMPACT_CALLS or name.startswith("hashlib.") or (
                isinstance(node.func, cst.Attribute) and node.func.attr.value in ("hexdigest", "count"))
        return False

    def _check_field(self, sink: _Sink) -> None:
        key = sink.key
        assert key is not None
        verdict = self.keys.classify(key)
        if verdict.category is None or _FLAG_KEY.search(key) or self._compact_expression(sink.value):
            return
        literal = self._literal(sink.value)
        if literal is not None:
            if not _carries_raw(verdict.category, verdict.weak, literal, self.keys.compact_string_max,
                                verdict.container_ok):
                return
        elif (verdict.weak and verdict.category != "credential") or verdict.category == "local-path":
            return  # an ambiguous or path key filled by code: judged by the flow rules instead
        text = _CATEGORY_TEXT[verdict.category]
        self._add(CATEGORY_CODES[verdict.category], sink.key_node,
                  f'projection field "{key}" may carry {text} ({verdict.reason})', (key,))

    def _check_contract_value(self, sink: _Sink, contract: Contract, section: str | None) -> None:
        rule = contract.allowed_values(section).get(sink.key or "")
        if rule is None:
            return
        allowed, code = rule
        value = sink.value
        if allowed == frozenset({False}):
            if not (isinstance(value, cst.Name) and value.value == "False"):
                shown = self.module.module.code_for_node(value)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                self._add(code, value, f'adapter flag "{sink.key}" must be the literal False, found {shown}',
                          (sink.key, shown))
            return
        text = string_value(value)
        if text is not None and text not in allowed:
            options = ", ".join(sorted(str(a) for a in allowed))
            self._add(code, value, f'adapter field "{sink.key}" is "{text}", not one of {options}', (sink.key, text))

    def _check_model_fields(self, node: cst.ClassDef) -> None:
        """Dataclass / TypedDict / NamedTuple / pydantic fields of a projection type: a model whose fields
        attest what it leaves out (``raw_memory_copied: bool = False``) or are a contract section's keys."""
        decorators = {dotted(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) for d in node.decorators}
        bases = {dotted(b.value) for b in node.bases}
        if not (decorators & self.vocab.model_decorators or bases & self.vocab.model_bases):
            return
        fields = [small for statement in _body_statements(node) if isinstance(statement, cst.SimpleStatementLine)
                  for small in statement.body if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)]
        names = {f.target.value for f in fields}  # type: ignore[union-attr]
        # `raw_memory_copied: bool = False`, or a bool field named like one (a declared boundary)
        attested = any(is_attestation_key(f.target.value) and (  # type: ignore[union-attr]
            (isinstance(f.value, cst.Name) and f.value.value == "False")
            or (f.value is None and self.module.module.code_for_node(f.annotation.annotation) == "bool"))
            for f in fields)
        sectioned = any(len(names & section) >= 3 for _, _, section in self.section_keys)
        named = self.vocab.audit and self.vocab.projection_class(node.name.value)
        if not (attested or sectioned or named):
            return
        self.projection_types.add(node.name.value)
        for small in fields:
            self._check_model_field(small)

    def _check_model_field(self, node: cst.AnnAssign) -> None:
        key = node.target.value  # type: ignore[union-attr]
        verdict = self.keys.classify(key)
        annotation = self.module.module.code_for_node(node.annotation.annotation)
        if verdict.category is None or _FLAG_KEY.search(key) or annotation in ("bool", "int", "float", "None"):
            return
        if verdict.weak and verdict.category != "credential":
            return
        text = _CATEGORY_TEXT[verdict.category]
        self._add(CATEGORY_CODES[verdict.category], node.target,
                  f'projection field "{key}: {annotation}" may carry {text} ({verdict.reason})', (key,))

    # --- flows ---------------------------------------------------------------
    def _tracker(self, root: cst.CSTNode | None = None) -> TaintTracker:
        positions = self.module.positions

        def where(node: cst.CSTNode) -> tuple[int, int]:
            start = positions[node].start
            return start.line, start.column + 1

        tracker = TaintTracker(self.vocab, self.keys, self.module.module.code_for_node, where,
                               summaries=None if self.vocab.audit else self._summary)
        if isinstance(root, cst.FunctionDef):
            params = root.params
            names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
            for star in (params.star_arg, params.star_kwarg):
                if isinstance(star, cst.Param):
                    names.add(star.name.value)
            tracker.env = {k: v for k, v in self.module_env.items() if k not in names}
        return tracker

    def _flows(self, root: cst.CSTNode, sinks: list) -> None:
        tracker = self._tracker(root)
        by_statement: dict[int, list[_Sink]] = {}
        statements = list(_flat_statements(root))
        index_of = {}
        for statement in statements:
            for node in _descendants(statement):
                index_of.setdefault(id(node), id(statement))
        for sink, _, _ in sinks:
            owner = index_of.get(id(sink.value))
            if owner is not None:
                by_statement.setdefault(owner, []).append(sink)
        reported: set[tuple[int, str]] = set()
        for statement in statements:
            for sink in by_statement.get(id(statement), []):
                if isinstance(sink.value, cst.Dict):
                    continue  # a nested projection: its own fields are the sinks
                taint = tracker.of(sink.value)
                if taint is not None and (id(sink.value), taint.kind) not in reported:
                    reported.add((id(sink.value), taint.kind))
                    self._flow_finding(sink, taint)
            _update(tracker, statement)

    def _summary(self, name: str) -> Summary | None:
        """What a module function's result carries (computed once per function; None while in progress)."""
        if name in self._summaries:
            return self._summaries[name]
        function = self.functions.get(name)
        if function is None:
            return None
        self._summaries[name] = None  # recursion guard
        params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
        offset = 1 if params[:1] in (["self"], ["cls"]) else 0
        intrinsic = self._returned_taint(function, {})
        carried, keywords = [], []
        for index, param in enumerate(params[offset:offset + 8]):
            marker = Taint("raw", "parameter", f"parameter {param}", _PARAM_STEP)
            returned = self._returned_taint(function, {param: marker})
            if returned is not None and returned.source is _PARAM_STEP:
                carried.append(index)
                keywords.append(param)
        summary = Summary(intrinsic, tuple(carried), tuple(keywords))
        self._summaries[name] = summary
        return summary

    def _returned_taint(self, function: cst.FunctionDef, seeded: dict[str, Taint]) -> Taint | None:
        tracker = self._tracker(function)
        tracker.env.update(seeded)
        found: list[Taint | None] = []
        for statement in _flat_statements(function):
            if isinstance(statement, cst.SimpleStatementLine):
                found += [tracker.of(small.value) for small in statement.body
                          if isinstance(small, cst.Return) and small.value is not None]
            _update(tracker, statement)
        params = [t for t in found if t is not None and t.source is _PARAM_STEP]
        return params[0] if params else pick(*found)

    def _flow_finding(self, sink: _Sink, taint: Taint) -> None:
        if sink.key is not None and _compact_key(self.keys, sink.key):
            return  # an id, count, hash or commit: the value is judged by its key
        target = f'projection field "{sink.key}"' if sink.key else "a projection value"
        via = ""
        if taint.via:
            via = " via " + ", ".join(f"'{s.text}' (line {s.line})" for s in taint.via)
        message = f"{taint.description} '{taint.source.text}' (line {taint.source.line}) reaches {target}{via}"
        line, column = self.module.positions[sink.value].start.line, self.module.positions[sink.value].start.column + 1
        steps = [taint.source, *taint.via]
        finding = self._add(FLOW_CODES[taint.kind], sink.value, message, (sink.key, taint.source.text))
        finding.extra["flow"] = [{"line": s.line, "column": s.column, "message": f"'{s.text}'"} for s in steps] + [
            {"line": line, "column": column, "message": target}]

    def _add(self, code: str, node: cst.CSTNode, message: str, ident: object) -> Finding:
        finding = make_finding(code, message, self.module.source.display, self.module.span(node),
                               value_digest=digest_value(ident))
        self.findings.append(finding)
        return finding


_PARAM_STEP = Step("<parameter>", 0, 0)
# A key ending in one of these holds a number, a digest or a commit id, whatever flowed into it.
_COMPACT_WORDS = frozenset({"hash", "sha", "sha1", "sha256", "digest", "commit", "count", "version", "returncode",
                            "code", "size", "bytes", "total", "index", "length", "len", "number", "num"})


def _compact_key(keys: Vocabulary, key: str) -> bool:
    words = re.split(r"[^a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", key).lower())
    return bool(words) and words[-1] in _COMPACT_WORDS


def found_attested_receivers(found: "_Collector") -> set[str]:
    """Receivers that attest by a store: ``out["raw_copied"] = False`` or ``out.update(raw_copied=False)``."""
    names = set()
    for receiver, key, value in found.subscript_stores:
        text = string_value(key)
        if text is not None and is_attestation_key(text) and (
                text.startswith("public_") or (isinstance(value, cst.Name) and value.value == "False")):
            names.add(receiver)
    for receiver, call in found.update_calls:
        if _attests_call(call):
            names.add(receiver)
    return names


def _attests_call(call: cst.Call) -> bool:
    return any(a.keyword is not None and is_attestation_key(a.keyword.value) and (
        a.keyword.value.startswith("public_") or (isinstance(a.value, cst.Name) and a.value.value == "False"))
        for a in call.args)


def _names_in(node: cst.CSTNode):
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            yield current.value
        elif not isinstance(current, (cst.Lambda, cst.FunctionDef)):
            stack.extend(current.children)


def _flat_statements(root: cst.CSTNode):
    """Statements of a scope in source order, entering compound statements but not nested scopes."""
    stack = list(reversed(_body_statements(root)))
    while stack:
        statement = stack.pop()
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        yield statement
        children: list[cst.CSTNode] = []
        for attr in ("body", "orelse", "finalbody"):
            part = getattr(statement, attr, None)
            if isinstance(part, cst.BaseSuite):
                children += list(part.body)
            elif isinstance(part, (cst.Else, cst.Finally)):
                children += list(part.body.body)
            elif isinstance(part, cst.If):
                children.append(part)
        for handler in getattr(statement, "handlers", ()):
            children += list(handler.body.body)
        if isinstance(statement, cst.SimpleStatementLine):
            children = []
        stack.extend(reversed(children))


def _descendants(node: cst.CSTNode):
    """A statement's own nodes: indented blocks and nested scopes belong to other statements."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current is not node and isinstance(current, (cst.IndentedBlock, cst.FunctionDef, cst.ClassDef)):
            continue
        stack.extend(current.children)


def _update(tracker: TaintTracker, statement: cst.CSTNode) -> None:
    """Apply a statement's bindings to the taint environment."""
    smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement]
    for small in smalls:
        if isinstance(small, cst.Assign):
            taint = tracker.of(small.value)
            for target in small.targets:
                tracker.bind_target(target.target, taint, small, small.value)
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            tracker.bind_target(small.target, tracker.of(small.value), small)
        elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            current = tracker.env.get(small.target.value)
            tracker.assign(small.target.value, pick(current, tracker.of(small.value)), small)
    if isinstance(statement, cst.For):
        tracker.bind_target(statement.target, tracker.of(statement.iter), statement)
    elif isinstance(statement, cst.With):
        for item in statement.items:
            if item.asname is not None:
                tracker.bind_target(item.asname.name, tracker.of(item.item), statement)


def might_hold_projections(tree: ast.Module, vocab: PythonVocabulary) -> bool:
    """A cheap, conservative pre-check on the ``ast`` tree: can this module contain projection
    context at all? Only such modules pay for the libcst parse and the flow analysis."""
    dict_names: set[str] = set()
    dumped: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and vocab.projection_function(node.name):
            return True
        if isinstance(node, ast.ClassDef) and vocab.projection_class(node.name):
            return True
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
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
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("dump", "dumps"):
            if node.args and isinstance(node.args[0], (ast.Dict, ast.Name)):
                if isinstance(node.args[0], ast.Dict):
                    return True
                dumped.add(node.args[0].id)
    return bool(dumped & dict_names)


def _receiver(node: ast.expr, vocab: PythonVocabulary) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    return name in vocab.receivers


@dataclass
class Published:
    """The spans of a module's published values: the literals inside are judged as content."""
    spans: list[Span] = field(default_factory=list)


# What a module must mention before the projection analysis is worth a libcst parse (a literal
# prefilter, like Semgrep's): the recognition itself is ScopeAnalyzer._recognised.
_PREFILTER = re.compile(r"_(?:copied|recorded|captured|included|exported)\b|public_boundary|public_safe|schema_version|"
                        r"\.public\.jsonl?\b")


def may_publish(text: str, vocab: PythonVocabulary, section_words: frozenset[str]) -> bool:
    if _PREFILTER.search(text):
        return True
    if any(name in text for name in vocab.public_validators):
        return True
    return sum(1 for word in section_words if word in text) >= 3


def analyse_projections(module, source, config) -> tuple[Published, list[Finding], list[Finding]]:
    """(published spans, findings, notices) for a Python module already parsed by ``ast``."""
    from ..frontends.python_cst import parse_python

    vocab = config.python_vocabulary()
    text = source.data.decode("utf-8", "replace")
    if vocab.audit:
        if not might_hold_projections(module.tree, vocab):
            return Published(), [], []
    elif not may_publish(text, vocab, _section_words()):
        return Published(), [], []
    cst_module, notices = parse_python(source)
    if cst_module is None:
        return Published(), [], notices
    analyzer = ScopeAnalyzer(cst_module, vocab, config.key_vocabulary())
    cst_module.module.visit(analyzer)
    analyzer.finish()
    return Published(analyzer.published), analyzer.findings, notices


def _section_words() -> frozenset[str]:
    return frozenset(k for c in load_contracts() for _, k, _, _ in c.section_values)
