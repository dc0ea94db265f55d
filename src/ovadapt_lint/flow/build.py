"""One module's flow facts, from its ``ast`` tree: a forward pass over each function's statements
(branches joined, loops once) that gives every expression its taint as symbolic atoms (see ``facts``).

Sources, sanitizers, propagators and sinks come from ``models.FlowModels``. Calls to functions this
module cannot see into become call atoms, resolved later against the callee's facts (``resolve``);
library calls not modelled carry nothing (the quiet default). Where a value is published is told by
the projection analysis (``projection_sinks``: the fields of recognised projections) and found here
for writers of public files, configured validators and, with ``published = "outputs"``, every
machine-readable output.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..frontends.ast_nodes import BLOCK_CLASSES, walk
from .facts import (
    EMPTY,
    TAKEN,
    CallSite,
    ClassFacts,
    FunctionFacts,
    ModuleFacts,
    Sink,
    Taint,
    elements,
    identity,
    placed,
    read,
    store,
    taint_of,
    taken,
    union,
    with_step,
)
from .models import OUTPUT, FlowModels

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)
# The callee of a call site that stands for a sanitiser stopping only some kinds ("<stops>credential,local-path"):
# what it is given carries on, less those kinds, once resolved (its parameters' material is known only then).
STOPS = "<stops>"
# Field reads that select an id, a count, a digest or a flag out of a record carry none of its text.
_COMPACT_WORDS = frozenset(
    {
        "id",
        "ids",
        "ref",
        "refs",
        "count",
        "counts",
        "at",
        "hash",
        "sha",
        "sha1",
        "sha256",
        "digest",
        "oid",
        "commit",
        "version",
        "returncode",
        "code",
        "size",
        "bytes",
        "total",
        "index",
        "length",
        "len",
        "number",
        "num",
        "kind",
        "type",
        "status",
        "state",
        "enabled",
        "ok",
        "allowed",
        "copied",
        "performed",
        "exists",
        "mode",
        "tokens",
        "seconds",
        "ms",
        "timestamp",
        "pid",
        "port",
        "name",
        "names",
        "key",
        "keys",
        "slug",
        "label",
        "labels",
    }
)


@functools.lru_cache(maxsize=4096)  # asked of every field read: field names repeat
def compact_name(name: str) -> bool:
    """An id, count, digest, flag or enum-like field by its last word (``issue_id``, ``stdout_sha256``)."""
    word = name.replace("-", "_").rsplit("_", 1)[-1].lower()
    if not word and "_" in name:
        word = name.strip("_").rsplit("_", 1)[-1].lower()
    return word in _COMPACT_WORDS or name.startswith(("is_", "has_", "n_", "num_"))


def _envelope_reason(key: str | None) -> str:
    held = f'"{key}", which is published' if key is not None else "a published output"
    return f'{OUTPUT} (published = "outputs"; it holds {held})'


def _named_choices(node: ast.AST | None) -> list[str]:
    """The names an expression chooses between: `render_full`, `render_a if brief else render_b`; [] when it is
    anything else."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.IfExp):
        body, orelse = _named_choices(node.body), _named_choices(node.orelse)
        return body + orelse if body and orelse else []
    return []


def dotted(node: ast.AST | None) -> str | None:
    if node.__class__ is ast.Name:  # most callees and receivers: no list to build
        return node.id  # type: ignore[union-attr]
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _squeezed(text: str) -> str:
    """``text`` as a trace step shows it: whitespace runs made one space, cut to 60 characters."""
    if len(text) > 240:
        # A long call's text: its first 60 squeezed characters come from a prefix (squeezing a prefix gives a
        # prefix of the squeezed whole), when the prefix has that many.
        head = " ".join(text[:240].split())
        if len(head) > 60:
            return head[:57] + "..."
    shown = " ".join(text.split())
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _string(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class ModuleBuilder:
    """Builds a module's facts. ``span``/``code``: the front-end's positions and source text;
    ``projection_sinks``: id(function or module node) -> [(key, value node, reason)];
    ``projection_types``: class name -> why its instances are published."""

    def __init__(
        self,
        tree: ast.Module,
        name: str,
        display: str,
        imports: dict[str, str],
        models: FlowModels,
        span: Callable[[ast.AST], tuple],
        code: Callable[[ast.AST], str],
        projection_sinks: dict[int, list],
        projection_types: dict[str, str],
    ) -> None:
        self.tree = tree
        self.models = models
        self.facts = ModuleFacts(name, display, imports)
        self.name = name
        self.display = display
        self.imports = imports
        self._span = span
        self._code = code
        self.projection_sinks = projection_sinks
        self.projection_types = projection_types
        # qualify's answers, emptied once `defined` is complete.
        self._qualified: dict[str, str | None] = {}
        self._plans: dict[tuple, tuple] = {}  # call_plan's answers
        self.projection_values: dict[
            int, str
        ] = {}  # id(dict display or call) -> why it is a projection
        self.constants: dict[str, str] = {}  # module-level NAME = "literal"
        self.key_tuples: dict[str, tuple[str, ...]] = {}  # module-level NAMES = ("a", "b")
        self.recognise: Callable[[str], str | None] = lambda version: (
            None
        )  # a schema_version -> why published
        self.defined: set[str] = set()  # module-level functions and classes
        self.module_env: dict[str, Taint] = {}
        self.public_names: set[str] = set()  # module constants that name public files
        self.resource_names: set[str] = (
            set()
        )  # module constants that name files shipped with the code
        self.validators: set[str] = set()  # module functions that raise on disallowed content
        # What a validator stops, from the patterns it refuses (models.stopped_by); None: every kind.
        self.validator_kinds: dict[str, frozenset[str] | None] = {}
        self.assigned: dict[str, ast.AST] = {}  # module-level NAME = value
        # Module-level functions that only choose a function (`return render_brief` / `return render_full`):
        # a call's result held in a variable is called as each of them (FunctionBuilder.chosen).
        self.selectors: dict[str, tuple[str, ...]] = {}
        # id(module-level function) -> its statements (_statements), listed once for its refusals and builder
        self._listed: dict[int, list[Any]] = {}
        # Whether the module's paths of the caller's machine are followed (`Path` parameters and values): off
        # with the models' `path_join_params`, or for a module whose text never says "Path" (every _PATH_TYPES
        # name does), so that no annotation or call can name one.
        self.path_types = models.path_join_params

    # --- positions ---------------------------------------------------------
    def span(self, node: ast.AST) -> tuple:
        line, col, end_line, end_col = self._span(node)
        return (self.display, line, col, end_line, end_col)

    def step(self, node: ast.AST, text: str | None = None) -> tuple:
        line, col, _, _ = self._span(node)
        if text is not None and len(text) <= 60 and text.isidentifier():
            return (self.display, line, col, text)  # a name bound or returned: nothing to squeeze
        return (self.display, line, col, _squeezed(text if text is not None else self._code(node)))

    def qualify(self, name: str | None) -> str | None:
        """``name`` through the imports and the module's own definitions; None when it is neither."""
        if not name:
            return None
        # Asked about 6 times per distinct name (a call's name is qualified for its result and its raises).
        known = self._qualified.get(name, self)
        if known is not self:
            return known  # type: ignore[return-value]
        found = self._qualified[name] = self._qualify(name)
        return found

    def _qualify(self, name: str) -> str | None:
        first, _, rest = name.partition(".")
        if first in self.imports:
            base = self.imports[first]
        elif first in self.defined:
            base = f"{self.name}.{first}"
        else:
            return None
        return f"{base}.{rest}" if rest else base

    def call_plan(self, raw_name: str | None, method: str | None) -> tuple:
        """What every call of ``raw_name`` (``method``: its last name, for a method call) is, by its name alone:
        (its library name, plain, its models.CallKind, what it raises as or None when quietly). Plain: none of
        the special calls (the kind's, and validators of this module), so only its arguments, sinks and call site
        are worked out (FunctionBuilder.called). Asked of every call, answered once per name: the module's
        definitions and imports are complete by then."""
        key = (raw_name, method)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._call_plan(raw_name, method)
        return plan

    def _call_plan(self, raw_name: str | None, method: str | None) -> tuple:
        models = self.models
        name = self.library_name(raw_name) or ""
        kind = models.call_kind(name, raw_name, method)
        raises = self.qualify(raw_name)
        if raises is None:
            raises = f"?.{method}" if method is not None else (raw_name or "?")
        # a validator of this module: FunctionBuilder.called asks whether a local name hides it
        plain = kind.plain and raw_name not in self.validators
        return name, plain, kind, None if models.quiet_call(raises) else raises

    def library_name(self, name: str | None) -> str | None:
        """The qualified name for matching models: imports resolved, builtins as written."""
        if not name:
            return None
        return self.qualify(name) or name

    # --- the module ----------------------------------------------------------
    def literal_keys(self, node: ast.AST) -> tuple[str, ...]:
        """The strings of a literal tuple, list or set, or of a module constant holding one."""
        if isinstance(node, ast.Name):
            return self.key_tuples.get(node.id, ())
        if (
            isinstance(node, ast.Call)
            and dotted(node.func) in ("frozenset", "set", "tuple", "list")
            and len(node.args) == 1
            and not node.keywords
        ):
            node = node.args[0]  # `frozenset({"a", "b"})`
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            texts = tuple(_string(e) for e in node.elts)
            return texts if texts and all(t is not None for t in texts) else ()  # type: ignore[return-value]
        return ()

    def constant(self, node: ast.AST) -> str | None:
        """A string literal, or a module constant holding one."""
        text = _string(node)
        if text is None and isinstance(node, ast.Name):
            text = self.constants.get(node.id)
        return text

    def build(self) -> ModuleFacts:
        body = self.tree.body
        for node in body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                text = _string(node.value)
                self.assigned[node.targets[0].id] = node.value
                if text is not None:
                    self.constants[node.targets[0].id] = text
                keys = self.literal_keys(node.value)
                if keys:
                    self.key_tuples[node.targets[0].id] = keys
        for node in body:
            if isinstance(node, _SCOPES):
                self.defined.add(node.name)
        self._qualified.clear()
        functions = {n.name: n for n in body if isinstance(n, _FUNCTIONS)}
        memo: dict[str, bool] = {}

        def predicate(
            name: str | None,
        ) -> bool:  # asked only of functions called in a refusing `if`
            if name not in functions:
                return False
            if name not in memo:
                memo[name] = _tests_patterns(functions[name])
            return memo[name]

        for node in functions.values():
            # Listed once, for the refusals and for the function's builder (_scope).
            statements = self._listed[id(node)] = list(_statements(node.body))
            refusals = _refusals(node, predicate, statements)
            if refusals:
                self.validators.add(node.name)
                self.validator_kinds[node.name] = self.refused_kinds(node, refusals, functions)
        for node in functions.values():
            # Worked out here, from the statements just listed: asking per bound call costs more (measured).
            chosen = self.selector(self._listed[id(node)])
            if chosen:
                self.selectors[node.name] = chosen
        module = FunctionBuilder(self, self.tree, f"{self.name}.<module>", [], None, {})
        module.run()
        self.module_env = module.env
        self.public_names = module.public
        self.resource_names = module.resources
        self.facts.globals = {k: v for k, v in module.env.items() if v}
        if module.facts.sinks or module.facts.calls:
            self.facts.functions[module.facts.qualname] = module.facts
        self._scope(body, self.name, None, {})
        return self.facts

    def selector(self, statements: list[Any]) -> tuple[str, ...]:
        """The functions a function (its ``statements``) returns, qualified, when each of its returns names one
        (directly or in a conditional expression); () when it is no such selector."""
        chosen = [
            self.named_functions(_named_choices(n.value))
            for n in statements
            if isinstance(n, ast.Return)
        ]
        return (
            tuple(dict.fromkeys(q for names in chosen for q in names))
            if chosen and all(chosen)
            else ()
        )

    def named_functions(self, names: list[str]) -> tuple[str, ...]:
        """``names`` qualified when each names a definition of the module or an import; () otherwise."""
        found = []
        for name in names:
            qualified = self.qualify(name) if name in self.defined or name in self.imports else None
            if qualified is None:
                return ()
            found.append(qualified)
        return tuple(found)

    def _scope(
        self,
        body: list[ast.stmt],
        prefix: str,
        class_name: str | None,
        local_defs: dict[str, str],
        statements: list[Any] | None = None,
    ) -> None:
        """The functions and classes of a body (``statements``: its statements, when already listed)."""
        for node in statements if statements is not None else _statements(body):
            if isinstance(node, ast.ClassDef):
                qualname = f"{prefix}.{node.name}"
                self._class(node, qualname)
                self._scope(node.body, qualname, qualname, local_defs)
            elif isinstance(node, _FUNCTIONS):
                qualname = f"{prefix}.{node.name}"
                args = node.args
                params = [a.arg for a in (*args.posonlyargs, *args.args)]
                inside = self._listed.pop(id(node), None)
                if inside is None:  # listed once: nested definitions, sink owners
                    inside = list(_statements(node.body))
                nested = [n for n in inside if isinstance(n, _SCOPES)]
                inner = {**local_defs, **{n.name: f"{qualname}.<locals>.{n.name}" for n in nested}}
                builder = FunctionBuilder(self, node, qualname, params, class_name, inner, inside)
                builder.facts.handler = bool(node.decorator_list) and any(
                    (dotted(d.func if isinstance(d, ast.Call) else d) or "").rsplit(".", 1)[-1]
                    in self.models.handler_decorators
                    for d in node.decorator_list
                )
                builder.run()
                if node.name in self.validators and class_name is None:
                    # Refuses disallowed content: what it returns is checked, for the kinds its patterns look for.
                    kinds = self.validator_kinds.get(node.name)
                    builder.facts.returns = (
                        builder.stopping(builder.facts.returns, kinds, node, f"{node.name}()")
                        if kinds
                        else {}
                    )
                self.facts.functions[qualname] = builder.facts
                if nested:
                    self._scope(node.body, f"{qualname}.<locals>", None, inner, nested)

    def pattern_text(
        self, nodes: list[ast.AST], functions: Mapping[str, ast.AST] | None = None
    ) -> str:
        """The text of what a refusal or a redaction looks for: the code of ``nodes``, and of the module constants
        and (``functions``) predicates they name, two levels down; read by ``models.stopped_by``."""
        parts: list[str] = []
        seen: set[str] = set()
        todo = list(nodes)
        for _ in range(3):
            named: list[ast.AST] = []
            for node in todo:
                parts.append(self._code(node))
                for inner in walk(node):
                    name = inner.id if isinstance(inner, ast.Name) else None
                    if name is None or name in seen:
                        continue
                    seen.add(name)
                    if name in self.assigned:
                        parts.append(name)
                        named.append(self.assigned[name])
                    elif functions is not None and name in functions:
                        function = functions[name]
                        parts.append(name)
                        # its docstring says what it is for, not what it looks for
                        body = function.body  # type: ignore[attr-defined]
                        docstring = bool(body) and _string(getattr(body[0], "value", None))
                        named += body[1:] if docstring else body
            todo = named
        return "\n".join(parts)

    def refused_kinds(
        self, node: ast.AST, refusals: list[tuple[ast.AST, bool]], functions: Mapping[str, ast.AST]
    ) -> frozenset[str] | None:
        """The kinds a validator stops: every kind if one of its tests refuses what does *not* match a pattern
        (an allow-list: `if not TOKEN.fullmatch(x): raise`), else the kinds its refused patterns look for."""
        if any(allowing for _, allowing in refusals):
            return None
        text = self.pattern_text([test for test, _ in refusals], functions)
        return self.models.stopped_by(f"{getattr(node, 'name', '')}\n{text}")

    def _class(self, node: ast.ClassDef, qualname: str) -> None:
        fields, spans = [], {}
        for statement in node.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                fields.append(statement.target.id)
                spans[statement.target.id] = self.span(statement.value or statement.target)
        self.facts.classes[qualname] = ClassFacts(
            qualname, fields, self.projection_types.get(node.name), spans
        )


def _statements(body: list[ast.stmt]):
    """Statements of a body, entering compound statements (not nested scopes)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if node.__class__ not in BLOCK_CLASSES or isinstance(node, _SCOPES):
            continue
        inner: list[ast.stmt] = list(
            getattr(node, "body", None) or ()
        )  # in source order: the owner search needs it
        for handler in getattr(node, "handlers", ()):
            inner += handler.body
        for case in getattr(node, "cases", ()):
            inner += case.body
        inner += getattr(node, "orelse", None) or []
        inner += getattr(node, "finalbody", None) or []
        stack.extend(reversed(inner))


_TRAILING_FLAG = re.compile(r"(--?[A-Za-z][\w-]*)[= ]$")
_PATTERN_TESTS = frozenset({"search", "match", "fullmatch", "findall", "finditer"})


def _tests_patterns(function: ast.AST) -> bool:
    """Its body matches a pattern or looks for marks in something (a predicate such as ``_private_value(x)``:
    ``PATTERN.search(text)``, ``any(hint in text for hint in HINTS)``)."""
    return any(
        (isinstance(n, ast.Call) and (dotted(n.func) or "").rsplit(".", 1)[-1] in _PATTERN_TESTS)
        or (isinstance(n, ast.Compare) and any(isinstance(op, ast.In) for op in n.ops))
        for n in walk(function)
    )


def _refusals(
    function: ast.AST,
    predicate: Callable[[str | None], bool] = lambda name: False,
    statements: list[Any] | None = None,
) -> list[tuple[ast.AST, bool]]:
    """Checks its argument for disallowed content and refuses it: ``if <pattern test>: raise`` or
    ``return None`` (a constant), the test a pattern match or a module predicate that matches patterns
    (``if _private_value(value): return None``). What it lets through was checked; truncation alone is not.
    Each refusing test, and whether it refuses what does not match (``if not TOKEN.fullmatch(x)``)."""
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args)}  # type: ignore[attr-defined]
    if not params:
        return []
    found: list[tuple[ast.AST, bool]] = []
    for node in statements if statements is not None else _statements(function.body):  # type: ignore[attr-defined]
        if not isinstance(node, ast.If) or not any(
            isinstance(s, ast.Raise)
            or (
                isinstance(s, ast.Return) and (s.value is None or isinstance(s.value, ast.Constant))
            )
            for s in node.body
        ):
            continue
        tests = [
            inner
            for inner in walk(node.test)
            if isinstance(inner, ast.Call)
            and (
                (dotted(inner.func) or "").rsplit(".", 1)[-1] in _PATTERN_TESTS
                or predicate(dotted(inner.func))
            )
        ]
        if tests:
            negated = {
                id(x)
                for n in walk(node.test)
                if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not)
                for x in walk(n.operand)
            }
            found.append((node.test, any(id(t) in negated for t in tests)))
    return found


class FunctionBuilder:
    def __init__(
        self,
        module: ModuleBuilder,
        node: ast.AST,
        qualname: str,
        params: list[str],
        class_name: str | None,
        local_defs: dict[str, str],
        statements: list[ast.stmt] | None = None,
    ) -> None:
        self.m = module
        self.models = module.models
        self.node = node
        self.facts = FunctionFacts(qualname, params)
        self.class_name = class_name
        self.local_defs = local_defs
        self.env: dict[str, Taint] = {}
        self.public: set[str] = set(module.public_names)
        self.resources: set[str] = set(
            module.resource_names
        )  # paths next to the code (`Path(__file__)...`)
        self.containers: set[str] = (
            set()
        )  # names bound to a dict/list/set display: their reads are their stores
        self.projections: dict[
            str, str
        ] = {}  # names bound to a projection: what is stored into them is published
        self.instances: dict[
            str, str
        ] = {}  # names bound to an instance of a class of the linted code
        self.keysets: dict[str, tuple[str, ...]] = {}  # loop variables over literal keys
        # Local names bound to a function of the linted code, or to one a selector returns: called as each.
        self.callables: dict[str, tuple[str, ...]] = {}
        self.alternates: dict[int, list[int]] = {}  # id(call of such a name) -> its call sites
        self.local_keys: dict[str, tuple[str, ...]] = {}  # local names bound to literal keys
        self.comp_keys: set[str] = set()  # keysets of comprehension clauses
        self.candidates: dict[
            int, tuple
        ] = {}  # id(dict display with 3+ literal keys) -> (keys, fields)
        self.returned: set[int] = set()  # dict displays returned as they are
        self.returned_names: set[str] = set()
        self.bound_dicts: dict[str, set[int]] = {}  # name -> the dict displays bound to it
        self.call_ids: dict[Any, int] = {}
        self.params = set(params)
        # Names that hold a filesystem path of the caller's machine: parameters annotated `Path`, and values
        # made with `Path(<not a literal>)` (what `paths` says); their text is a machine path.
        self.paths: set[str] = _path_parameters(node) if module.path_types else set()
        self.is_module = isinstance(node, ast.Module)
        sinks = module.projection_sinks.get(id(node), [])
        self.sink_values: dict[int, str] = {id(value): reason for _, value, reason in sinks}
        self.sink_owner: dict[int, list] = {}
        if sinks:
            if statements is None:
                statements = list(_statements(getattr(node, "body", [])))
            for key, value, reason in sinks:
                owner = _owner(statements, value)
                if owner is not None:
                    self.sink_owner.setdefault(id(owner), []).append((key, value, reason))

    # --- environment ---------------------------------------------------------
    def run(self) -> None:
        if not self.is_module:
            for index, name in enumerate(self.facts.params):
                if index == 0 and self.class_name and name in ("self", "cls"):
                    continue  # the receiver: its attributes are the object's state, not an input
                self.env[name] = taint_of(("p", index, (), (), None))
            args = self.node.args  # type: ignore[attr-defined]
            if (
                args.vararg is not None
            ):  # `*keys`: the caller's extra positional arguments (resolve._argument)
                self.env[args.vararg.arg] = taint_of(("p", "*" + args.vararg.arg, (), (), None))
            for extra in (args.kwarg, *args.kwonlyargs):
                if extra is not None:
                    self.env[extra.arg] = taint_of(("p", extra.arg, (), (), None))
        self.block(getattr(self.node, "body", []))
        # A dict with a fixture's keys builds that fixture when the function returns it; one handed to another
        # call (`builder.add_node(node)`) is an input of what that call builds, which may rewrite it.
        self.facts.candidates = [
            fields
            for key, fields in self.candidates.items()
            if key in self.returned
            or any(key in self.bound_dicts.get(n, ()) for n in self.returned_names)
        ]

    def lookup(self, name: str) -> Taint:
        if name in self.env:
            return self.env[name]
        if not self.is_module and name in self.m.module_env:
            # A module-level value: named as a global, so its calls resolve against the module's own facts.
            return (
                taint_of(("g", f"{self.m.name}.{name}", (), (), None))
                if self.m.module_env[name]
                else EMPTY
            )
        target = self.m.imports.get(name)
        if target is not None:
            return taint_of(("g", target, (), (), None))
        return EMPTY

    def bind(self, target: ast.AST, taint: Taint, value: ast.AST | None = None) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = (
                with_step(taint, self.m.step(target, target.id)) if taint else EMPTY
            )
            if value is not None:
                name = target.id
                if isinstance(value, ast.Dict):
                    self.bound_dicts.setdefault(name, set()).add(id(value))
                literal = self.literal_keys(value)
                if literal:
                    self.local_keys[name] = literal
                else:
                    self.local_keys.pop(name, None)
                # the callee's name, asked below three times
                func = dotted(value.func) if value.__class__ is ast.Call else None  # type: ignore[attr-defined]
                if isinstance(
                    value, (ast.Dict, ast.List, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
                ) or func in ("dict", "list", "set"):
                    self.containers.add(name)
                else:
                    self.containers.discard(name)
                if self.is_public(value):
                    self.public.add(name)
                if self.is_resource(value):
                    self.resources.add(name)
                if self.m.path_types and self.is_path(value):
                    self.paths.add(name)
                else:
                    self.paths.discard(name)
                why = self.m.projection_values.get(id(value))
                if why is not None:
                    self.projections[name] = why
                else:
                    self.projections.pop(name, None)
                callee = self.m.qualify(func)
                if callee is not None:
                    self.instances[name] = callee
                else:
                    self.instances.pop(name, None)
                chosen = self.chosen(value, func)
                if chosen:
                    self.callables[name] = chosen
                else:
                    self.callables.pop(name, None)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if (
                isinstance(value, (ast.Tuple, ast.List))
                and len(value.elts) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in (*value.elts, *target.elts))
            ):
                for element, item in zip(target.elts, value.elts):
                    self.bind(element, self.expr(item), item)
                return
            part = elements(taint)
            starred = any(isinstance(e, ast.Starred) for e in target.elts)
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Starred):
                    self.bind(element.value, part)
                else:  # a tuple returned by a function is unpacked by position
                    self.bind(element, part if starred else read(taint, f"#{index}"))
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            if isinstance(target, ast.Subscript) and value is not None:
                self.envelope_store(target, value)
            self.store_into(target, taint, value)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, taint)

    def bind_each(self, target: ast.AST, iterable: ast.AST, taint: Taint) -> None:
        """What a loop or comprehension binds for each element of ``iterable`` (``taint``: its value). In
        `for k, v in d.items()` ``v`` is the value under any key of ``d``: read as position #1 of an element, a
        value stored under a key ("message") was taken for another key and dropped. ``k`` is position #0, as before."""
        each = elements(taint)
        if _items_pair(target, iterable):
            key, value = target.elts  # type: ignore[attr-defined]
            self.bind(key, read(each, "#0"))
            self.bind(value, each)
            return
        self.bind(target, each)

    def store_into(self, target: ast.AST, taint: Taint, value: ast.AST | None) -> None:
        """``root["a"]["b"] = v`` / ``root.setdefault("a", {})[k] = v`` / ``self.x = v``: root takes v's material
        under its keys."""
        if not taint:
            return
        keys: list[str] = []
        node = target
        while True:
            if isinstance(node, ast.Subscript):
                keys.append(_string(node.slice) or "*")
                node = node.value
            elif isinstance(node, ast.Attribute):
                keys.append(node.attr)
                node = node.value
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("setdefault", "get")
                and node.args
            ):
                keys.append(_string(node.args[0]) or "*")
                node = node.func.value
            else:
                break
        if not isinstance(node, ast.Name) or not keys:
            return
        slot_node = value if value is not None else target
        inner = target.slice if isinstance(target, ast.Subscript) else None
        choices = self.keys_of(inner) if inner is not None and keys[0] == "*" else ()
        read_from = _read_by(value, inner) if choices and len(keys) == 1 else None
        for key in choices or (
            keys[0],
        ):  # `out[key] = v` for key in a literal tuple: stored under each
            if read_from is not None:  # `out[key] = rec.get(key)`: each key holds its own field
                taint = self.field(key, read_from, value)  # type: ignore[arg-type]
                if not taint:
                    continue
            chosen = [key, *keys[1:]]
            self.stored_into(node.id, chosen, slot_node, taint)
            stored = store(taint, key, self.m.span(slot_node) + (key,))
            for outer in keys[1:]:
                stored = store(stored, outer, None)
            self.env[node.id] = union(self.env.get(node.id, EMPTY) or self.lookup(node.id), stored)

    def stored_into(self, root: str, keys: list[str], value: ast.AST, taint: Taint) -> None:
        """A store into a projection is published there; into an instance of a class of the linted code, it is
        published when the class turns out to be a projection type (judged as a constructor's keyword)."""
        why = self.projections.get(root)
        if why is not None:
            self.sink(why, keys[0] if keys[0] != "*" else None, value, taint)
        made_by = self.instances.get(root)
        if made_by is not None and keys[-1] != "*":
            # Published if the class is a projection type, or the function returns a projection (resolve).
            span = self.m.span(value)
            key = keys[-1]
            self.facts.calls.append(
                CallSite(
                    made_by, self.m.step(value), [], {key: taint}, [], {key: span}, stores=True
                )
            )

    def merge(self, *envs: dict[str, Taint]) -> dict[str, Taint]:
        out = dict(envs[0])
        for env in envs[1:]:
            for name, taint in env.items():
                current = out.get(name)
                if (
                    current is not taint
                ):  # branches share most bindings: only the ones that differ are joined
                    out[name] = union(current, taint) if current is not None else taint
        return out

    # --- statements ----------------------------------------------------------
    def block(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if self.sink_owner:  # most functions have no projection's field to judge
            for key, value, reason in self.sink_owner.get(id(node), ()):
                self.sink(reason, key, value, self.expr(value))
        kind = type(node)
        if kind is ast.Assign:
            taint = self.expr(node.value)  # type: ignore[attr-defined]
            for target in node.targets:  # type: ignore[attr-defined]
                self.bind(target, taint, node.value)  # type: ignore[attr-defined]
        elif kind is ast.AnnAssign:
            if node.value is not None:  # type: ignore[attr-defined]
                self.bind(node.target, self.expr(node.value), node.value)  # type: ignore[attr-defined]
        elif kind is ast.AugAssign:
            taint = self.expr(node.value)  # type: ignore[attr-defined]
            target = node.target  # type: ignore[attr-defined]
            if isinstance(target, ast.Name):
                self.env[target.id] = union(
                    self.lookup(target.id), with_step(taint, self.m.step(target, target.id))
                )
            else:
                self.store_into(target, taint, node.value)  # type: ignore[attr-defined]
        elif kind is ast.Expr:
            self.expr(node.value)  # type: ignore[attr-defined]
        elif kind is ast.Return:
            if node.value is not None:  # type: ignore[attr-defined]
                returned = node.value  # type: ignore[attr-defined]
                if isinstance(returned, ast.Dict):
                    self.returned.add(id(returned))
                elif isinstance(returned, ast.Name):
                    self.returned_names.add(returned.id)
                why = self.m.projection_values.get(id(returned)) or (
                    self.projections.get(returned.id) if isinstance(returned, ast.Name) else None
                )
                if why is not None:
                    self.facts.projection = why
                taint = self.expr(node.value)  # type: ignore[attr-defined]
                if taint:
                    step = self.m.step(returned, "return")
                    self.facts.returns = union(self.facts.returns, with_step(taint, step))
        elif kind is ast.If:
            self.effects(node.test)  # type: ignore[attr-defined]
            guarded = _scalar_guarded(node.test)  # type: ignore[attr-defined]
            self.branches([node.body, node.orelse], guarded)  # type: ignore[attr-defined]
        elif kind in (ast.For, ast.AsyncFor):
            taint = self.expr(node.iter)  # type: ignore[attr-defined]
            before = dict(self.env)
            self.bind_each(node.target, node.iter, taint)  # type: ignore[attr-defined]
            if isinstance(node.target, ast.Name):  # type: ignore[attr-defined]
                literal = self.literal_keys(node.iter)  # type: ignore[attr-defined]
                if literal:
                    self.keysets[node.target.id] = literal  # type: ignore[attr-defined]
                else:
                    self.keysets.pop(node.target.id, None)  # type: ignore[attr-defined]
            self.block(node.body)  # type: ignore[attr-defined]
            self.env = self.merge(before, self.env)
            self.block(node.orelse)  # type: ignore[attr-defined]
        elif kind is ast.While:
            self.effects(node.test)  # type: ignore[attr-defined]
            before = dict(self.env)
            self.block(node.body)  # type: ignore[attr-defined]
            self.env = self.merge(before, self.env)
            self.block(node.orelse)  # type: ignore[attr-defined]
        elif kind in (ast.With, ast.AsyncWith):
            for item in node.items:  # type: ignore[attr-defined]
                taint = self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, taint, item.context_expr)
            self.block(node.body)  # type: ignore[attr-defined]
        elif kind is ast.Try or kind.__name__ == "TryStar":
            self.attempt(node)
        elif kind.__name__ == "Match":
            self.effects(node.subject)  # type: ignore[attr-defined]
            self.branches([case.body for case in node.cases] + [[]])  # type: ignore[attr-defined]
        elif kind is ast.Raise:
            self.raising(node)  # type: ignore[arg-type]

    def branches(self, bodies: list[list[ast.stmt]], guarded: frozenset[str] = frozenset()) -> None:
        """``guarded``: names the first branch's test proved to be numbers or flags (nothing to carry there)."""
        before = self.env
        ends = []
        for index, body in enumerate(bodies):
            if index and not body:
                # an `if` without `else`: the bindings before it, as they are (merge copies them)
                ends.append(before)
                continue
            self.env = dict(before)
            if index == 0:
                for name in guarded:
                    if name in self.env:
                        self.env[name] = EMPTY
            self.block(body)
            ends.append(self.env)
        self.env = self.merge(*ends)

    def attempt(self, node) -> None:
        before = dict(self.env)
        throws = self.facts.throws
        start = len(throws)
        self.block(node.body)
        end = len(throws)
        after_body = self.env
        ends = []
        caught: list[str] = []
        again = False
        for handler in node.handlers:
            self.env = self.merge(before, after_body)
            types = self.handled(handler.type)
            caught += types
            again = again or _raises_again(handler)
            if handler.name:
                # Its text is what the body can raise as one of `types` (resolve: Program.caught).
                self.facts.catches.append((types, start, end))
                step = self.m.step(handler, handler.name)
                self.env[handler.name] = taint_of(
                    ("x", len(self.facts.catches) - 1, (), (step,), None)
                )
            self.block(handler.body)
            ends.append(self.env)
        if not again and caught:
            # What the handlers catch (and do not raise again) never reaches this function's callers.
            for index in range(start, end):
                kind, ref, taint, _ = throws[index]
                if (
                    kind == "r"
                    and self.models.covers(ref, tuple(caught))
                    or self.models.covers(None, tuple(caught))
                ):
                    throws[index] = (kind, ref, taint, True)
        self.env = after_body
        self.block(node.orelse)
        self.env = self.merge(self.env, *ends)
        self.block(node.finalbody)

    def handled(self, node: ast.AST | None) -> tuple[str, ...]:
        """The classes an `except` clause names; a bare `except`, or one the builder cannot name, catches all."""
        if node is None:
            return ("BaseException",)
        names = node.elts if isinstance(node, ast.Tuple) else [node]
        out = tuple(self.exception_class(n) or "" for n in names)
        return ("BaseException",) if "" in out else out

    # --- sinks -----------------------------------------------------------------
    def sink(self, reason: str, key: str | None, value: ast.AST, taint: Taint) -> None:
        if not taint:
            return
        span = self.m.span(value)
        if key is not None:
            taint = placed(taint, span + (key,))
        self.facts.sinks.append(Sink(reason, key, span, taint))

    def is_public(self, node: ast.AST | None) -> bool:
        """Names a published file: a `*.public.json` or `fixtures/` literal on the way (a path join, an open)."""
        if node is None:
            return False
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and self.models.is_public_path_text(node.value)
        if isinstance(node, ast.Name):
            return node.id in self.public
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "x"
                for v in node.values
            )
            return self.models.is_public_path_text(text)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            parts = _path_parts(node)
            if parts is not None:
                return self.models.is_public_path_text("/".join(parts)) or any(
                    self.is_public(p) for p in _path_nodes(node)
                )
            return self.is_public(node.left) or self.is_public(node.right)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(
                self.is_public(e) for e in node.elts
            )  # candidates to write: `FIXTURES = (a, b)`
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            return self.is_public(node.generators[0].iter)
        if isinstance(node, ast.Call):
            func = node.func
            last = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if last == "next" and node.args:
                return self.is_public(node.args[0])
            if last in (
                "open",
                "Path",
                "PurePath",
                "join",
                "joinpath",
                "with_suffix",
                "with_name",
                "resolve",
                "absolute",
                "expanduser",
                "fspath",
                "str",
            ):
                receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
                return any(self.is_public(a) for a in (receiver, *node.args))
        return False

    def is_resource(self, node: ast.AST | None) -> bool:
        """A path next to the code (built from ``__file__``): the package's own data, not the user's. Only
        path-building shapes are followed (joins, calls, attributes), not every subexpression: it is asked of
        every assignment."""
        while node is not None:
            if isinstance(node, ast.Name):
                return node.id == "__file__" or node.id in self.resources
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                if self.is_resource(node.right):
                    return True
                node = node.left
            elif isinstance(node, ast.Call):
                if node.args and self.is_resource(node.args[0]):
                    return True
                node = node.func.value if isinstance(node.func, ast.Attribute) else None
            elif isinstance(node, (ast.Attribute, ast.Subscript)):
                node = node.value
            else:
                return False
        return False

    # --- expressions -----------------------------------------------------------
    def source(self, kind: str, node: ast.AST, text: str | None = None) -> Taint:
        return taint_of(("s", kind, (), (self.m.step(node, text),), None))

    def expr(self, node: ast.AST | None) -> Taint:
        if node is None:
            return EMPTY
        handler = _EXPR.get(type(node))
        return handler(self, node) if handler is not None else EMPTY

    def effects(self, node: Any) -> None:
        """``node`` evaluated for what it does, its value dropped (a test, a killer's argument): only calls,
        subscripts, displays, comprehensions and `:=` do anything (sites, raises, stores, sinks), so the names,
        constants, attribute reads and operators around them are not evaluated (their taint would be built for
        nothing); what is evaluated is in the order ``expr`` takes it."""
        kind = node.__class__
        if kind is ast.Name or kind is ast.Constant or node is None:
            return
        if kind is ast.Attribute:
            self.effects(node.value)
        elif kind is ast.BoolOp:
            for value in node.values:
                self.effects(value)
        elif kind is ast.UnaryOp:
            self.effects(node.operand)
        elif kind is ast.Compare:
            self.e_compare(node)
        elif kind is ast.BinOp:
            self.effects(node.left)
            self.effects(node.right)
        elif kind is ast.IfExp:
            self.effects(node.test)
            self.effects(node.body)
            self.effects(node.orelse)
        elif kind is ast.Tuple or kind is ast.List or kind is ast.Set:
            for element in node.elts:
                self.effects(element.value if element.__class__ is ast.Starred else element)
        elif kind is ast.JoinedStr:
            for part in node.values:
                if part.__class__ is ast.FormattedValue:
                    self.effects(part.value)
        else:
            self.expr(node)

    def e_name(self, node: ast.Name) -> Taint:
        bound = self.env.get(node.id)
        if bound is not None:
            return bound  # a local name (most reads), which hides a source name or a function of the module
        kind = self.models.source_names.get(node.id)
        if kind is not None:
            return self.source(kind, node)
        if node.id in self.m.defined and node.id not in self.m.module_env:
            return taint_of(
                ("g", f"{self.m.name}.{node.id}", (), (), None)
            )  # a function of this module, as a value
        return self.lookup(node.id)

    def e_attribute(self, node: ast.Attribute) -> Taint:
        name = dotted(node)
        if name is not None:
            qualified = self.m.library_name(name)
            kind = self.models.source_names.get(qualified or name)
            if kind is not None:
                return self.source(kind, node)
            if qualified == "os.environ":
                return EMPTY
        return self.field(node.attr, node.value, node, attribute=True)

    def field(self, key: str, base: ast.AST, node: ast.AST, attribute: bool = False) -> Taint:
        """Reading ``key`` of ``base`` (an attribute, a constant subscript, ``.get("key")``)."""
        if (attribute and key in self.models.kill_attributes) or compact_name(key):
            self.effects(
                base
            )  # its calls still run (and may raise): `subprocess.run(...).returncode`
            return EMPTY
        return self.field_of(key, base, node, self.expr(base))

    def field_of(
        self, key: str, base: ast.AST, node: ast.AST, record: Taint, text: str | None = None
    ) -> Taint:
        """Field ``key`` of ``base``, whose value is ``record``: its own material, and the key's source kind."""
        if compact_name(key):
            return EMPTY
        inner = read(record, key)
        kind = self.models.fields.get(key)
        if kind is not None and not (isinstance(base, ast.Name) and base.id in self.containers):
            return union(self.source(kind, node, text), inner)
        return inner

    def e_subscript(self, node: ast.Subscript) -> Taint:
        key = _string(node.slice)
        base = node.value
        if key is not None:
            if self.m.library_name(dotted(base)) == "os.environ":
                return self.environ(key, node)
            return self.field(key, base, node)
        if isinstance(node.slice, ast.Slice):
            self.expr(node.slice)
            return self.expr(base)  # a slice is the text it was cut from
        keys = self.keys_of(node.slice)
        if keys:
            return self.keyed_fields(node.slice, [self.field(k, base, node) for k in keys])
        key_taint = self.expr(node.slice)
        if key_taint and isinstance(node.ctx, ast.Load):
            # A missing computed key raises a KeyError whose text is the key.
            self.facts.throws.append(("r", "KeyError", key_taint, False))
            # a computed key: the key's own material is not the value's; a key handed in names a field
            record = self.expr(base)
            return union(elements(record), self.keyed(key_taint, node, base, record))
        return elements(self.expr(base))

    def literal_keys(self, node: ast.AST) -> tuple[str, ...]:
        """The strings of a literal collection, of a local name bound to one, or of a module constant."""
        if isinstance(node, ast.Name) and node.id in self.env:
            return self.local_keys.get(node.id, ())
        return self.m.literal_keys(node)

    def keys_of(self, node: ast.AST) -> tuple[str, ...]:
        """The literal keys a loop variable runs over (`for key in ("status", "priority")`), else ()."""
        return self.keysets.get(node.id, ()) if isinstance(node, ast.Name) else ()

    def environ(self, name: str, node: ast.AST) -> Taint:
        upper = name.upper()
        if self.models.env_path.match(upper):
            return self.source("local-path", node)
        if self.models.env_credential.match(upper):
            return self.source("credential", node)
        return EMPTY

    def stopping(
        self, taint: Taint, kinds: frozenset[str], node: ast.AST, what: str | None = None
    ) -> Taint:
        """``taint`` through a sanitiser that stops only ``kinds``: its sources of those kinds end here; what it
        carries from parameters and calls is filtered where that is resolved (a ``STOPS`` call site)."""
        if not taint:
            return EMPTY
        calls = self.facts.calls
        if len(taint) == 1:
            tag, ref, path, _, _ = next(iter(taint.values()))
            if tag == "c" and not path and calls[ref].callee.startswith(STOPS):
                # Sanitisers in turn (`_PATH.sub(..., _SECRET.sub(..., text))`): one filter, of all their kinds.
                inner = calls[ref]
                kinds = kinds | frozenset(inner.callee[len(STOPS) :].split(","))
                taint = inner.args[0]
        kinds = self.models.closed(kinds)
        kept = {k: a for k, a in taint.items() if a[0] != "s" or a[1] not in kinds}
        if not kept:
            return EMPTY
        # Every atom goes through the filter, so a later sanitiser on the way adds its kinds to it.
        index = len(calls)
        # The trace says what it stopped (and so what it let through).
        label = what if what is not None else self.m._code(node)
        stopped = ", ".join(sorted(kinds)) if len(kinds) < 4 else f"{len(kinds)} kinds"
        calls.append(
            CallSite(
                STOPS + ",".join(sorted(kinds)),
                self.m.step(node, f"{' '.join(label.split())[:30]} stops only {stopped}"),
                [kept],
                {},
                [self.m.span(node)],
                {},
            )
        )
        return taint_of(("c", index, (), (), None))

    def keyed(self, key: Taint, node: ast.AST, base: ast.AST, record: Taint) -> Taint:
        """A field read whose key comes from a parameter (``record.get(key)`` for ``key`` in ``*keys``): the field
        the caller names with a literal key (``_first_text(row, "note")``) is a source of that field's kind. Only of
        a record handed in or read (not a table spelt in the code, nor a container built here)."""
        if not key or not record or (isinstance(base, ast.Name) and base.id in self.containers):
            return EMPTY
        step = (self.m.step(node),)
        return taint_of(*(("k", a[1], (), step, None) for a in key.values() if a[0] == "p"))

    def e_call(self, node: ast.Call) -> Taint:
        func = node.func
        raw_name = dotted(func)  # named once, for what it returns and what it raises
        method = func.attr if func.__class__ is ast.Attribute else None  # type: ignore[attr-defined]
        plan = self.m.call_plan(raw_name, method)
        taint = self.called(node, raw_name, method, plan)
        self.may_raise(node, plan[3])
        return taint

    def may_raise(self, node: ast.Call, raises: str | None) -> None:
        """What the call can raise, for the handlers around it: a call of the linted code (followed when its
        callers' handlers are resolved), or a library call not known to raise only constant text (``raises``:
        its name, from ModuleBuilder.call_plan)."""
        index = self.call_ids.get(id(node))
        if index is not None:
            self.facts.throws.append(("c", index, None, False))
            return
        if id(node) in self.alternates:
            for index in self.alternates[id(node)]:
                self.facts.throws.append(("c", index, None, False))
            return
        if raises is not None:
            self.facts.throws.append(("l", raises, None, False))

    def exception_class(self, node: ast.AST | None) -> str | None:
        """The qualified name of an exception class as written (builtins as they are); None if not a name."""
        name = dotted(node)
        return self.m.library_name(name) if name is not None else None

    def raising(self, node: ast.Raise) -> None:
        exc = node.exc
        if exc is None:
            return  # raising again what a handler caught: its try body's raises stand (see attempt)
        if isinstance(exc, ast.Call):
            args, kwargs = self.arguments(exc)
            self.call_site(exc, dotted(exc.func), args, kwargs)  # a helper that makes the exception
            self.facts.throws.append(
                ("r", self.exception_class(exc.func), union(*args, *kwargs.values()), False)
            )
            return
        taint = self.expr(exc)
        if isinstance(exc, ast.Name) and exc.id in self.env:
            self.facts.throws.append(("r", None, taint, False))  # a caught exception raised again
        else:
            self.facts.throws.append(("r", self.exception_class(exc), EMPTY, False))

    def called(
        self, node: ast.Call, raw_name: str | None, method: str | None, plan: tuple
    ) -> Taint:
        """The call's value; the special calls by what ``plan``'s CallKind (models.call_kind) says it may be."""
        name, plain, kind, _ = plan
        receiver = node.func.value if method is not None else None  # type: ignore[attr-defined]
        if plain:
            # Most calls (builtins, methods of objects not named): none of the special cases below applies.
            args, kwargs = self.arguments(node)
            if kind.sinks:
                self.call_sinks(node, name, method, receiver, args, kwargs)
            if method is not None and receiver is not None:
                return self.method_call(node, name, method, receiver, args, kwargs, raw_name)
            return self.call_site(node, raw_name, args, kwargs)
        models = self.models
        if kind.env:
            key = _string(node.args[0]) if node.args else None
            default = self.expr(node.args[1]) if len(node.args) > 1 else EMPTY
            return union(self.environ(key, node) if key else EMPTY, default)
        positional = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
        if kind.substitution:
            replacement = (
                positional[1]
                if name.startswith("re.") and len(positional) > 1
                else (positional[0] if positional else None)
            )
            text = _string(replacement)
            if text is not None and models.placeholders.search(text):
                # A substitution with a placeholder is redaction: of the kinds its pattern looks for.
                pattern = positional[0] if name.startswith("re.") and positional else receiver
                kinds = (
                    models.stopped_by(self.m.pattern_text([pattern]))
                    if pattern is not None
                    else None
                )
                if kinds is None:
                    return EMPTY
                args, kwargs = self.arguments(node)
                return self.stopping(union(*args, *kwargs.values()), kinds, node)
        validator = raw_name in self.m.validators and raw_name not in self.env
        stops = self.m.validator_kinds.get(raw_name) if validator else kind.partial  # type: ignore[arg-type]
        if stops is not None:
            if (
                raw_name in self.m.validators
            ):  # its summary stops those kinds (ModuleBuilder._scope)
                taint = self.call_site(node, raw_name, *self.arguments(node))
            else:
                args, kwargs = self.arguments(node)
                taint = self.stopping(union(*args, *kwargs.values()), stops, node)
            for arg in positional:  # what it accepted is clean of those kinds from here on
                if isinstance(arg, ast.Name):
                    self.env[arg.id] = self.stopping(self.lookup(arg.id), stops, arg)
            return taint
        if kind.kills or (validator and name):
            for arg in positional:
                self.effects(arg)
            for keyword in node.keywords:
                self.effects(keyword.value)
            if raw_name in self.m.validators or kind.sanitises:
                for arg in positional:  # a validator cleans what it accepted, from here on
                    if isinstance(arg, ast.Name):
                        self.env[arg.id] = EMPTY
            return EMPTY
        if kind.kill_method:
            self.effects(receiver)  # type: ignore[arg-type]
            return EMPTY
        args, kwargs = self.arguments(node)
        self.call_sinks(node, name, method, receiver, args, kwargs)
        if kind.source is not None:
            return self.source(kind.source, node)
        if (
            kind.opens
            and node.args
            and not (self.is_public(node.args[0]) or self.is_resource(node.args[0]))
        ):
            return self.source("file-content", node)  # a private file: what is read from it
        if kind.propagates:
            taint = self.propagated(node, name, args, kwargs)
            if name in _PATH_TEXT_CALLS and node.args:
                taint = self.path_text(node.args[0], taint)
            elif name == "getattr" and len(args) > 1:
                taint = union(taint, self.keyed(args[1], node, node.args[0], args[0]))
            if (
                name == "os.path.join"
                and node.args
                and self.models.path_join_params
                and self._joined_onto_parameter(node.args[0])
            ):
                taint = union(taint, self.source("local-path", node))
            return taint
        if method is not None and receiver is not None:
            return self.method_call(node, name, method, receiver, args, kwargs, raw_name)
        return self.call_site(node, raw_name, args, kwargs)

    def arguments(self, node: ast.Call) -> tuple[list[Taint], dict[str, Taint]]:
        args = [self.expr(a.value if isinstance(a, ast.Starred) else a) for a in node.args]
        kwargs: dict[str, Taint] = {}
        for keyword in node.keywords:
            taint = self.expr(keyword.value)
            key = keyword.arg or "**"
            kwargs[key] = union(kwargs[key], taint) if key in kwargs else taint
        return args, kwargs

    def method_call(
        self,
        node: ast.Call,
        name: str,
        method: str,
        receiver: ast.AST,
        args: list[Taint],
        kwargs: dict[str, Taint],
        raw_name: str | None,
    ) -> Taint:
        models = self.models
        kind = models.source_methods.get(method)
        if kind is not None:
            base = self.expr(receiver)
            if kind == "file-content" and (self.is_public(receiver) or self.is_resource(receiver)):
                # reading a published fixture back, or a file shipped with the code (a contract, a template),
                # is not raw material (nor its path)
                return EMPTY
            if kind == "local-path":
                return union(self.source(kind, node), base)
            if (
                kind == "file-content"
                and isinstance(receiver, ast.Attribute)
                and models.fields.get(receiver.attr) == "process-output"
            ):
                kind = (
                    "process-output"  # `proc.stdout.read()`: a process's output stream, not a file
                )
            return self.source(kind, node)
        if method in models.open_methods and not (
            self.is_public(receiver) or self.is_resource(receiver)
        ):
            return self.source("file-content", node)
        if method in models.container_methods:
            return self.container(node, method, receiver, args, kwargs)
        if (
            method == "get"
            and node.args
            and (_string(node.args[0]) is not None or self.keys_of(node.args[0]))
        ):
            default = args[1] if len(args) > 1 else kwargs.get("default", EMPTY)
            keys = (
                (_string(node.args[0]),)
                if _string(node.args[0]) is not None
                else self.keys_of(node.args[0])
            )
            fields = [self.field(k, receiver, node) for k in keys]  # type: ignore[arg-type]
            return union(self.keyed_fields(node.args[0], fields), default)
        if method in models.whole_record_methods:
            return self.expr(receiver)
        if method in models.propagate_methods:
            record = self.expr(receiver)
            taint = union(record, *args, *kwargs.values())
            if method == "get" and args:
                taint = union(taint, self.keyed(args[0], node, receiver, record))
            return self.path_text(receiver, taint) if method == "as_posix" else taint
        # dotted(receiver): the callee's name less its method
        base_name = raw_name.rpartition(".")[0] if raw_name is not None else None
        if base_name in ("self", "cls") and self.class_name is not None:
            return self.site(
                node,
                f"{self.class_name}.{method}",
                [self.expr(receiver), *args],
                kwargs,
                bound=True,
            )
        qualified = self.m.qualify(base_name) if base_name else None
        if qualified is not None and base_name not in self.env:
            return self.site(node, f"{qualified}.{method}", args, kwargs)
        if args or kwargs:
            self.site(node, f"?.{method}", [self.expr(receiver), *args], kwargs, bound=True)
        return EMPTY  # an unknown method returns something else (a count, a flag, a new object)

    def container(
        self,
        node: ast.Call,
        method: str,
        receiver: ast.AST,
        args: list[Taint],
        kwargs: dict[str, Taint],
    ) -> Taint:
        if method == "setdefault":
            key = _string(node.args[0]) if node.args else None
            if key is not None and len(args) > 1:
                self.store_into(
                    ast.Subscript(value=receiver, slice=node.args[0]),  # type: ignore[arg-type]
                    args[1],
                    node.args[1],
                )
            return union(
                read(self.expr(receiver), key) if key else elements(self.expr(receiver)),
                args[1] if len(args) > 1 else EMPTY,
            )
        if method == "update":
            why = self.projection_display(node.args[0]) if node.args else None
            if why is not None and isinstance(receiver, ast.Name):
                # `result.update({... "raw_artifacts_copied": False})`: the receiver is that projection now,
                # with all it already holds (a dict another function built and returned).
                self.sink(why, None, receiver, self.expr(receiver))
                self.projections[receiver.id] = why
            for taint in args:
                if taint:
                    self.grow(receiver, taint)
            for keyword in node.keywords:
                if keyword.arg is not None and kwargs.get(keyword.arg):
                    self.store_into(
                        ast.Subscript(value=receiver, slice=ast.Constant(keyword.arg)),  # type: ignore[arg-type]
                        kwargs[keyword.arg],
                        keyword.value,
                    )
                elif keyword.arg is None and kwargs.get("**"):
                    self.grow(receiver, kwargs["**"])
            return EMPTY
        values = args[1:] if method == "insert" else args
        value_nodes = node.args[1:] if method == "insert" else node.args
        for value_node, taint in zip(value_nodes, values):
            if taint:
                slotted = placed(taint, self.m.span(value_node) + (None,))
                # An element is one level down (iterating takes it out); `extend` adds a sequence's elements.
                self.grow(receiver, store(slotted, "*", None) if method != "extend" else slotted)
        return EMPTY

    def projection_display(self, node: ast.AST) -> str | None:
        """Why a dict display is a recognised projection (its fields are the projection analysis' sinks)."""
        if not isinstance(node, ast.Dict):
            return None
        return next(
            (self.sink_values[id(v)] for v in node.values if id(v) in self.sink_values), None
        )

    def grow(self, receiver: ast.AST, taint: Taint) -> None:
        """A container takes on more material (append, extend, update): a weak update of its root name."""
        node = receiver
        keys: list[str] = []
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            keys.append(
                _string(node.slice) or "*" if isinstance(node, ast.Subscript) else node.attr
            )
            node = node.value
        if not isinstance(node, ast.Name):
            return
        if node.id in self.projections:
            self.sink(
                self.projections[node.id],
                keys[-1] if keys and keys[-1] != "*" else None,
                receiver,
                taint,
            )
        for key in keys:
            taint = store(taint, key, None)
        self.env[node.id] = union(self.env.get(node.id, EMPTY) or self.lookup(node.id), taint)

    def propagated(
        self, node: ast.Call, name: str, args: list[Taint], kwargs: dict[str, Taint]
    ) -> Taint:
        if name == "dict":
            version = next(
                (self.m.constant(k.value) for k in node.keywords if k.arg == "schema_version"), None
            )
            why = self.m.recognise(version) if version is not None else None
            stored = []
            for keyword in node.keywords:
                if keyword.arg is None or not kwargs.get(keyword.arg):
                    continue
                taint = kwargs[keyword.arg]
                stored.append(
                    store(taint, keyword.arg, self.m.span(keyword.value) + (keyword.arg,))
                )
                if why is not None:
                    self.sink(why, keyword.arg, keyword.value, taint)
            if why is not None:
                self.m.projection_values[id(node)] = why
            return union(*args, kwargs.get("**", EMPTY), *stored)
        models = self.models
        if name in models.counted_calls and args:  # `for i, x in enumerate(xs)`: `i` is a count
            return store(store(elements(args[0]), "#1", None), "*", None)
        if name in models.zipped_calls:  # `for a, b in zip(xs, ys)`: `a` from xs only
            return union(
                *(store(store(elements(t), f"#{i}", None), "*", None) for i, t in enumerate(args))
            )
        return union(*args, *kwargs.values())

    def chosen(self, value: ast.AST, raw: str | None) -> tuple[str, ...]:
        """The functions of the linted code a value may be: a selector's result (`pick(...)`, whose returns
        each name a function; ``raw``: the name it calls), or a function named directly (`f`, `f if x else g`)."""
        if isinstance(value, ast.Call):
            return self.m.selectors.get(raw, ()) if raw is not None and raw not in self.env else ()
        names = _named_choices(value)
        if not names or any(n in self.env for n in names):
            return ()
        return tuple(dict.fromkeys(self.m.named_functions(names)))

    def call_site(
        self, node: ast.Call, raw_name: str | None, args: list[Taint], kwargs: dict[str, Taint]
    ) -> Taint:
        if raw_name is None:
            self.expr(node.func)
            return EMPTY
        if raw_name in self.local_defs and raw_name not in self.env:
            return self.site(node, self.local_defs[raw_name], args, kwargs)
        if raw_name in self.callables:
            # A variable holding one of the functions a selector returns: the call may be any of them.
            callees = self.callables[raw_name]
            found = [self.site(node, c, args, kwargs, key=(id(node), c)) for c in callees]
            self.alternates[id(node)] = [self.call_ids[(id(node), c)] for c in callees]
            return union(*found)
        qualified = self.m.qualify(raw_name)
        if qualified is None or raw_name.split(".", 1)[0] in self.env:
            return EMPTY  # a builtin, or a callable held in a variable: not followed
        return self.site(node, qualified, args, kwargs)

    def site(
        self,
        node: ast.Call,
        callee: str,
        args: list[Taint],
        kwargs: dict[str, Taint],
        bound: bool = False,
        key: Any = None,
    ) -> Taint:
        key = id(node) if key is None else key  # a call of a chosen function: one site per choice
        index = self.call_ids.get(key)
        if index is None:
            index = self.call_ids[key] = len(self.facts.calls)
            spans = [self.m.span(a) for a in node.args]
            if bound:
                spans.insert(0, self.m.span(node.func))
            kw_spans = {k.arg: self.m.span(k.value) for k in node.keywords if k.arg is not None}
            args, kwargs = self.field_names(node, callee, args, kwargs, bound)
            self.facts.calls.append(
                CallSite(callee, self.m.step(node), args, kwargs, spans, kw_spans, bound)
            )
        return taint_of(("c", index, (), (), None))

    def field_names(
        self,
        node: ast.Call,
        callee: str,
        args: list[Taint],
        kwargs: dict[str, Taint],
        bound: bool,
    ) -> tuple[list[Taint], dict[str, Taint]]:
        """A literal argument that names a raw field (``"note"``) carries that name (an ``f`` atom): where the
        callee reads a record with it as the key, the read is a source of the field's kind (resolve)."""
        last = callee.rsplit(".", 1)[-1]
        fields = self.models.fields

        def named(value: ast.AST) -> Taint:
            texts = self.m.literal_keys(value.value) if isinstance(value, ast.Starred) else ()
            text = _string(value)
            if text is None and not texts:
                return EMPTY
            found = [t for t in (*texts, *((text,) if text is not None else ())) if t in fields]
            return taint_of(
                *(
                    ("f", fields[t], (), (self.m.step(value, f'{last}(…, "{t}")'),), None)
                    for t in found
                )
            )

        shift = 1 if bound else 0
        for index, value in enumerate(node.args):
            if value.__class__ not in _NAMING:
                continue  # most arguments: no literal to name a field
            extra = named(value)
            if extra and index + shift < len(args):
                args = [*args]
                args[index + shift] = union(args[index + shift], extra)
        for keyword in node.keywords:
            name = keyword.arg
            if name is None or keyword.value.__class__ not in _NAMING:
                continue
            extra = named(keyword.value)
            if extra:
                kwargs = {**kwargs, name: union(kwargs.get(name, EMPTY), extra)}
        return args, kwargs

    def call_sinks(
        self,
        node: ast.Call,
        name: str,
        method: str | None,
        receiver: ast.AST | None,
        args: list[Taint],
        kwargs: dict[str, Taint],
    ) -> None:
        """Writers of public files, configured validators and (``published = "outputs"``) every output."""
        models = self.models
        if not args:
            return
        outputs = models.published == "outputs"
        printed = 'printed: a machine-readable output (published = "outputs")'
        if name in models.dumps:
            target = (
                node.args[1]
                if len(node.args) > 1
                else next((k.value for k in node.keywords if k.arg == "fp"), None)
            )
            if self.is_public(target):
                self.sink("a public file written here", None, node.args[0], args[0])
            elif outputs and self.m.library_name(dotted(target)) in ("sys.stdout", "sys.stderr"):
                self.sink(printed, None, node.args[0], args[0])
        elif method in models.write_methods and receiver is not None and self.is_public(receiver):
            self.sink("a public file written here", None, node.args[0], args[0])
        elif outputs and (
            name in models.outputs
            or (method is not None and f"{dotted(receiver)}.{method}" in models.outputs)
        ):
            # What reaches standard output; a dumps that feeds a hash, a socket or a private file is not output.
            for arg_node, taint in zip(node.args, args):
                self.sink(printed, None, arg_node, taint)
        if not models.validators:
            return  # none configured (most runs)
        last = name.rsplit(".", 1)[-1] if name else method
        if last in models.validators:
            for arg_node, taint in zip(node.args, args):
                self.sink(f"checked by {last}() before it is published", None, arg_node, taint)

    def e_binop(self, node: ast.BinOp) -> Taint:
        left, right = self.expr(node.left), self.expr(node.right)
        taint = union(left, right)
        if (
            isinstance(node.op, ast.Div)
            and self.models.path_join_params
            and self._joined_onto_parameter(node.left)
        ):
            return union(taint, self.source("local-path", node))
        return taint

    def _joined_onto_parameter(self, node: ast.AST) -> bool:
        """``out_dir / name`` with ``out_dir`` a parameter (a folder of the caller's machine)."""
        while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            node = node.left
        return (
            isinstance(node, ast.Name)
            and node.id in self.params
            and node.id not in ("self", "cls")
            and self.env.get(node.id) is not None
            and any(a[0] == "p" for a in self.env[node.id].values())
        )

    def is_path(self, node: ast.AST | None) -> bool:
        """A filesystem path of the caller's machine: a `Path` parameter, `Path(<not a literal>)`, a join onto
        either; not a path spelt in the code (`Path("examples")`) nor one next to it (`Path(__file__)`)."""
        if isinstance(node, ast.Name):
            return node.id in self.paths and node.id not in self.resources
        if isinstance(node, ast.Call):
            name = self.m.library_name(dotted(node.func))
            return (
                name in _PATH_TYPES
                and bool(node.args)
                and not isinstance(node.args[0], ast.Constant)
                and not self.is_resource(node)
                and not self.is_public(node)
            )
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self.is_path(node.left)
        if isinstance(node, ast.IfExp):
            return self.is_path(node.body) or self.is_path(node.orelse)
        if isinstance(node, ast.BoolOp):
            return any(self.is_path(v) for v in node.values)
        return False

    def path_text(self, node: ast.AST, taint: Taint) -> Taint:
        """The text of a machine path (`str(root)`, `f"{root}"`, `root.as_posix()`) is a local-path source."""
        if self.m.path_types and self.is_path(node):
            return union(taint, self.source("local-path", node))
        return taint

    def e_boolop(self, node: ast.BoolOp) -> Taint:
        return union(*(self.expr(v) for v in node.values))

    def e_compare(self, node: ast.Compare) -> Taint:
        # Evaluated only for what its operands' calls do (raise, publish): a name's value does nothing here.
        for operand in (node.left, *node.comparators):
            self.effects(operand)
        return EMPTY

    def e_unary(self, node: ast.UnaryOp) -> Taint:
        if node.op.__class__ is ast.Not:
            self.effects(node.operand)
            return EMPTY
        return self.expr(node.operand)

    def e_ifexp(self, node: ast.IfExp) -> Taint:
        self.effects(node.test)
        body = self.expr(node.body)
        test = node.test
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.In)
            and dotted(test.left) is not None
            and dotted(test.left) == dotted(node.body)
        ):
            body = EMPTY  # `x if x in ALLOWED else "other"`: an enum value, not the text
        elif dotted(node.body) is not None and dotted(node.body) in _scalar_guarded(test):
            body = EMPTY  # `x if isinstance(x, int) else None`: a number
        return union(body, self.expr(node.orelse))

    def e_joined(self, node: ast.JoinedStr) -> Taint:
        taint = union(
            *(self.e_formatted(v) for v in node.values if isinstance(v, ast.FormattedValue))
        )
        for part, value in zip(node.values, node.values[1:]):
            text = _string(part)
            if text is None or not isinstance(value, ast.FormattedValue):
                continue
            flag = _TRAILING_FLAG.search(text)
            if flag is not None and self.models.credential_flags.match(flag.group(1).lower()):
                taint = union(
                    taint,
                    self.source(
                        "credential", value, f"{flag.group(1)} {self.m._code(value.value)}"
                    ),
                )
        return taint

    def e_sequence(self, node) -> Taint:
        taints = [self.expr(e) for e in node.elts]
        # An element is one level down (a tuple's by its position, so `a, b = f()` tells them apart); `*xs` adds
        # the elements of xs, already there.
        exact = isinstance(node, ast.Tuple) and not any(
            isinstance(e, ast.Starred) for e in node.elts
        )
        taint = union(
            *(
                t if isinstance(e, ast.Starred) else store(t, f"#{i}" if exact else "*", None)
                for i, (e, t) in enumerate(zip(node.elts, taints))
            )
        )
        flags = self.models.credential_flags
        for flag, value in zip(node.elts, node.elts[1:]):
            text = _string(flag)
            if text is not None and flags.match(text.lower()) and _string(value) is None:
                taint = union(
                    taint, self.source("credential", value, f"{text} {self.m._code(value)}")
                )
        return taint

    def e_dict(self, node: ast.Dict) -> Taint:
        out = []
        why = None
        if None in node.keys:
            # `{**base, "x": v}` with `base` a projection: the merged dict is one too.
            why = next(
                (
                    self.projections[v.id]
                    for k, v in zip(node.keys, node.values)
                    if k is None and isinstance(v, ast.Name) and v.id in self.projections
                ),
                None,
            )
        # Values first: a nested output, once evaluated, makes this dict its envelope (`outputs` only).
        taints = [self.expr(value) for value in node.values]
        outputs = self.models.published == "outputs"
        # Outputs put in whole, asked only where they matter: for an envelope, or a projection's own fields.
        held = (
            [k is not None and self.held_output(v) for k, v in zip(node.keys, node.values)]
            if why is not None or outputs
            else [False] * len(node.keys)
        )
        if why is None and outputs:
            why = next(
                (_envelope_reason(_string(k)) for k, output in zip(node.keys, held) if output),
                None,
            )
        if why is not None:
            self.m.projection_values[id(node)] = why
        fields = []
        for key, value, taint, output in zip(node.keys, node.values, taints, held):
            # A projection or an output put in whole: its own fields are the sinks.
            if why is not None and not (
                output or (isinstance(value, ast.Name) and value.id in self.projections)
            ):
                self.sink(why, _string(key), value, taint)
            if key is None:
                out.append(taint)
                continue
            self.effects(key)
            text = _string(key)
            if taint:
                out.append(store(taint, text or "*", self.m.span(value) + (text,)))
                if text is not None:
                    span = self.m.span(value)
                    fields.append(Sink("", text, span, placed(taint, span + (text,))))
        if fields and why is None and id(node) not in self.m.projection_values:
            keys = tuple(k for k in (_string(k) for k in node.keys) if k is not None)
            if len(keys) >= 3:
                self.candidates[id(node)] = (keys, fields)
        return union(*out)

    def held_output(self, value: ast.AST) -> bool:
        """A machine-readable output as it is put into a dict: a display or call recognised as one, a name
        bound to one, or a list, tuple or comprehension of them (``published = "outputs"``)."""
        if isinstance(value, (ast.List, ast.Tuple)):
            return bool(value.elts) and all(self.held_output(e) for e in value.elts)
        if isinstance(value, (ast.ListComp, ast.GeneratorExp)):
            return self.held_output(value.elt)
        if isinstance(value, ast.Name):
            why = self.projections.get(value.id)
        else:
            why = self.m.projection_values.get(id(value))
        return why is not None and why.startswith(OUTPUT)

    def envelope_store(self, target: ast.Subscript, value: ast.AST) -> None:
        """``payload["material"] = output``: ``payload`` is an output's envelope from here on (``published =
        "outputs"``), and what it already holds is published with it."""
        root = target.value
        if (
            self.models.published != "outputs"
            or not isinstance(root, ast.Name)
            or root.id in self.projections
            or not self.held_output(value)
        ):
            return
        why = self.projections[root.id] = _envelope_reason(_string(target.slice))
        self.sink(why, None, root, self.env.get(root.id, EMPTY))

    def e_comprehension(self, node) -> Taint:
        saved = dict(self.env)
        saved_keys, saved_comp = dict(self.keysets), set(self.comp_keys)
        try:
            iterated: list[Taint] = []
            allowed: tuple[str, ...] = ()
            for clause in node.generators:
                iterated.append(self.expr(clause.iter))
                self.bind_each(clause.target, clause.iter, iterated[-1])
                allowed = self.allow_listed(clause)
                for condition in clause.ifs:
                    self.effects(condition)
            # `d.items()` / `d.values()` carry `d` (models: whole_record_methods): what `d` itself is
            record = iterated[0]
            if isinstance(node, ast.DictComp):
                self.effects(node.key)  # keys name fields; only values carry material
                value = self.expr(node.value)
                if _identity_copy(node) and allowed and len(node.generators) == 1:
                    # `{k: v for k, v in d.items() if k in ALLOWED}`: those fields, each under its key
                    base = node.generators[0].iter.func.value  # type: ignore[attr-defined]
                    label = " ".join(self.m._code(base).split())[:40]
                    return _keyed_copy(
                        [
                            (k, self.field_of(k, base, node, record, f"{label}[{k!r}]"))
                            for k in allowed
                        ]
                    )
                read_from = _read_by(node.value, node.key)
                if allowed and read_from is not None and len(node.generators) == 1:
                    # `{k: rec.get(k) for k in FIELDS}`: each field under its own key, not under any key
                    whole = self.expr(read_from)
                    return _keyed_copy(
                        [(k, self.field_of(k, read_from, node.value, whole)) for k in allowed]
                    )
                if _identity_copy(node):
                    # `{k: v for k, v in d.items() if v is not None}`: the same fields under the same keys;
                    # every field of a record handed in comes along
                    if self._handed_in(node.generators[0].iter.func.value, record):  # type: ignore[attr-defined]
                        record = union(record, self.source("record", node.generators[0].iter))
                    return record
                return store(value, "*", None)
            value = self.expr(node.elt)
            if _values_copy(node) and self._handed_in(
                node.generators[0].iter.func.value,  # type: ignore[attr-defined]
                record,
            ):
                # `[v for v in record.values()]`: every field's value of a record handed in
                value = union(value, self.source("record", node.generators[0].iter))
            return store(value, "*", None)  # the elements of a new sequence
        finally:
            self.env = saved
            self.keysets, self.comp_keys = saved_keys, saved_comp

    def allow_listed(self, clause: ast.comprehension) -> tuple[str, ...]:
        """A clause over literal keys (`for k in ("a", "b")`, `for k in ALLOWED`), or whose key is tested against
        them (`for k, v in d.items() if k in ALLOWED`): its key runs over those keys only (a `keysets` entry), and
        they are returned. A deny-list (`if k not in SECRET`) leaves every key."""
        target = clause.target
        if isinstance(target, ast.Tuple) and len(target.elts) == 2:
            target = target.elts[0]  # `k, v in d.items()`
        if not isinstance(target, ast.Name):
            return ()
        keys = self.literal_keys(clause.iter) if target is clause.target else ()
        tests = [
            t
            for c in clause.ifs
            for t in (c.values if isinstance(c, ast.BoolOp) and isinstance(c.op, ast.And) else [c])
        ]
        for test in tests:
            if (
                not keys
                and isinstance(test, ast.Compare)
                and dotted(test.left) == target.id
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.In)
            ):
                keys = self.literal_keys(test.comparators[0])
        if keys:
            self.keysets[target.id] = keys
            self.comp_keys.add(target.id)
        return keys

    def keyed_fields(self, key: ast.AST, fields: list[Taint]) -> Taint:
        """The fields a read by a key that runs over literal keys gives. In a comprehension, whose element
        does not say which key it read, many of them are collapsed (``_collapsed``)."""
        if isinstance(key, ast.Name) and key.id in self.comp_keys:
            return _collapsed(fields)
        return union(*fields)

    def _handed_in(self, record: ast.AST, taint: Taint) -> bool:
        """A record the function was given or got from a call (not a container it built itself)."""
        if isinstance(record, ast.Name) and record.id in self.containers:
            return False
        return any(a[0] in ("p", "c", "g") for a in taint.values())

    def e_value(self, node) -> Taint:
        return self.expr(node.value)

    def e_named(self, node: ast.NamedExpr) -> Taint:
        taint = self.expr(node.value)
        self.bind(node.target, taint, node.value)
        return taint

    def e_formatted(self, node: ast.FormattedValue) -> Taint:
        return self.path_text(node.value, self.expr(node.value))


_EXPR: dict[type, Callable[[FunctionBuilder, Any], Taint]] = {
    ast.Name: FunctionBuilder.e_name,
    ast.Attribute: FunctionBuilder.e_attribute,
    ast.Subscript: FunctionBuilder.e_subscript,
    ast.Call: FunctionBuilder.e_call,
    ast.BinOp: FunctionBuilder.e_binop,
    ast.BoolOp: FunctionBuilder.e_boolop,
    ast.Compare: FunctionBuilder.e_compare,
    ast.UnaryOp: FunctionBuilder.e_unary,
    ast.IfExp: FunctionBuilder.e_ifexp,
    ast.JoinedStr: FunctionBuilder.e_joined,
    ast.List: FunctionBuilder.e_sequence,
    ast.Tuple: FunctionBuilder.e_sequence,
    ast.Set: FunctionBuilder.e_sequence,
    ast.Dict: FunctionBuilder.e_dict,
    ast.ListComp: FunctionBuilder.e_comprehension,
    ast.SetComp: FunctionBuilder.e_comprehension,
    ast.GeneratorExp: FunctionBuilder.e_comprehension,
    ast.DictComp: FunctionBuilder.e_comprehension,
    ast.Await: FunctionBuilder.e_value,
    ast.Starred: FunctionBuilder.e_value,
    ast.Yield: FunctionBuilder.e_value,
    ast.YieldFrom: FunctionBuilder.e_value,
    ast.NamedExpr: FunctionBuilder.e_named,
    ast.FormattedValue: FunctionBuilder.e_formatted,
}


_SCALARS = frozenset({"int", "float", "bool", "complex"})
# The arguments that can name a field: a string literal, or `*KEYS` (FunctionBuilder.field_names).
_NAMING = frozenset({ast.Constant, ast.Starred})


# Each says "Path": a module whose text does not is not searched for them (ModuleBuilder.path_types).
_PATH_TYPES = frozenset({"Path", "pathlib.Path", "PosixPath", "pathlib.PosixPath", "WindowsPath"})
_PATH_TEXT_CALLS = frozenset({"str", "os.fspath", "os.fsdecode"})


def _path_parameters(node: ast.AST) -> set[str]:
    """Parameters annotated `Path` (also `Path | None`, `Optional[Path]`)."""
    args = getattr(node, "args", None)
    if not isinstance(args, ast.arguments):
        return set()
    out = set()
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        annotation = arg.annotation
        if annotation is None:
            continue
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            names = set(re.findall(r"[\w.]+", annotation.value))  # a string annotation
        elif annotation.__class__ is ast.Name:
            names = {annotation.id}  # most annotations: no walk
        else:
            names = {dotted(n) for n in walk(annotation)}
        if names & _PATH_TYPES:
            out.add(arg.arg)
    return out


def _values_copy(node) -> bool:
    """`[v for v in d.values()]`: every value of `d`, as it is."""
    if len(node.generators) != 1:
        return False
    clause = node.generators[0]
    source = clause.iter
    return (
        isinstance(clause.target, ast.Name)
        and dotted(node.elt) == clause.target.id
        and isinstance(source, ast.Call)
        and isinstance(source.func, ast.Attribute)
        and source.func.attr == "values"
    )


def _items_pair(target: ast.AST, iterable: ast.AST) -> bool:
    """`k, v` over `d.items()`."""
    return (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and not any(isinstance(e, ast.Starred) for e in target.elts)
        and isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Attribute)
        and iterable.func.attr == "items"
        and not iterable.args
        and not iterable.keywords
    )


def _identity_copy(node: ast.DictComp) -> bool:
    """`{k: v for k, v in d.items()}` (filters allowed): a copy of `d`, field for field."""
    if len(node.generators) != 1:
        return False
    clause = node.generators[0]
    source, target = clause.iter, clause.target
    return (
        isinstance(source, ast.Call)
        and isinstance(source.func, ast.Attribute)
        and source.func.attr == "items"
        and not source.args
        and isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and all(isinstance(e, ast.Name) for e in target.elts)
        and dotted(node.key) == target.elts[0].id  # type: ignore[attr-defined]
        and dotted(node.value) == target.elts[1].id  # type: ignore[attr-defined]
    )


MAX_FIELD_ATOMS = 8


def _collapsed(fields: list[Taint]) -> Taint:
    """Fields read from one value by many literal keys (`{k: rec.get(k) for k in FIELDS}`): past MAX_FIELD_ATOMS
    atoms, those that took one field each (a parameter's, a call's) become one that took any field, so they do
    not crowd the value's other material out of its bound (facts.MAX_ATOMS). Every source is kept, with its kind."""
    if sum(len(t) for t in fields) <= MAX_FIELD_ATOMS:
        return union(*fields)
    out: Taint = {}
    for taint in fields:
        for atom in taint.values():
            tag, ref, path, trace, slot = atom
            if tag != "s" and path and taken(path[-1]):
                atom = (tag, ref, path[:-1] + (TAKEN + "*",), trace, slot)
            out.setdefault(identity(atom), atom)
    return out


def _keyed_copy(fields: list[tuple[str, Taint]]) -> Taint:
    """A dict made of a record's fields under their own keys. Past MAX_FIELD_ATOMS atoms, the symbolic ones
    are collapsed under any key (``_collapsed``); sources stay under their keys."""
    if sum(len(t) for _, t in fields) <= MAX_FIELD_ATOMS:
        return union(*(store(t, k, None) for k, t in fields))
    sources = [store({i: a for i, a in t.items() if a[0] == "s"}, k, None) for k, t in fields]
    symbolic = _collapsed([{i: a for i, a in t.items() if a[0] != "s"} for _, t in fields])
    return union(*sources, store(symbolic, "*", None))


def _read_by(value: ast.AST | None, key: ast.AST | None) -> ast.AST | None:
    """The record ``value`` reads with the name ``key`` (`rec[key]`, `rec.get(key)`), else None."""
    if not isinstance(key, ast.Name) or value is None:
        return None
    if isinstance(value, ast.Subscript) and dotted(value.slice) == key.id:
        return value.value
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "get"
        and len(value.args) == 1
        and dotted(value.args[0]) == key.id
    ):
        return value.func.value
    return None


def _raises_again(handler: ast.ExceptHandler) -> bool:
    """A handler that raises (again, or anew) lets its callers see an exception."""
    stack: list[ast.AST] = list(handler.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Raise):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _scalar_guarded(test: ast.AST) -> frozenset[str]:
    """Names a test proves to be numbers or flags when it holds: ``isinstance(x, int)`` (alone or in an ``and``)."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    found = set()
    for part in parts:
        if isinstance(part, ast.Call) and dotted(part.func) == "isinstance" and len(part.args) == 2:
            kinds = part.args[1]
            names = (
                [dotted(e) for e in kinds.elts] if isinstance(kinds, ast.Tuple) else [dotted(kinds)]
            )
            target = dotted(part.args[0])
            if target is not None and names and all(n in _SCALARS for n in names):
                found.add(target)
    return frozenset(found)


def _path_parts(node: ast.AST) -> list[str] | None:
    """The literal parts of a ``a / "b" / "c"`` chain, a placeholder for the others."""
    parts: list[str] = []
    for part in _path_nodes(node):
        text = _string(part)
        parts.append(text if text is not None else "x")
    return parts


def _path_nodes(node: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        out.append(node.right)
        node = node.left
    out.append(node)
    return list(reversed(out))


def _where(node: Any) -> tuple[tuple[int, int], tuple[int, int]]:
    return (
        (node.lineno, node.col_offset),
        (node.end_lineno or node.lineno, node.end_col_offset or 0),
    )


def _owner(statements: list[ast.stmt], value: ast.AST) -> ast.stmt | None:
    """The innermost statement that evaluates ``value``: the last one (in source order) whose range holds it."""
    (start, end), found = _where(value), None
    for statement in statements:
        (low, high) = _where(statement)
        if low > start:
            break
        if end <= high:
            found = statement
    return found
