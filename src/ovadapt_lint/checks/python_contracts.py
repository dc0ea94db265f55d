"""Contract values in Python builders (OVA1xx): adapter objects and their sections, however they are built.

A builder's objects are evaluated statically into values (literals, dicts, lists, or unknown): dict
displays, ``dict(...)`` calls and ``**`` spreads, item stores, ``update`` and ``setdefault``,
``append``/``extend``, module constants (also imported from a sibling module, aliased or through
``module.NAME``), calls of helper functions (their parameters bound to the call's arguments) and model
classes (dataclass, pydantic, TypedDict, NamedTuple: field defaults, then the constructor's keywords).

An object is judged by a contract when its ``schema_version`` names it (or nearly: a typo is reported),
when it sits under the contract's container key, when it has enough of the contract's (or one of its
sections') keys, or when it is placed under a section key of an object judged already. A
``schema_version`` naming another schema opts the object, and all it holds, out. The rule of every key
comes from the contract itself: the object is validated with the contract's JSON Schema, as JSON
fixtures are (``checks.contracts``); what a builder leaves unknown is never judged, except a flag the
contract requires to be ``false``, which must be the literal ``False``. Missing keys are not judged in
Python (another function may add them), but the retrieval and future gates must all be present in a
list whose every item is known.

Only values written in the linted module are reported (at the use of a constant, at a helper call's
argument): a sibling module reports its own. Sibling modules are read from disk next to the linted one.
"""

from __future__ import annotations

import ast
import difflib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..flow.build import dotted as _dotted
from ..frontends.ast_nodes import BLOCK_CLASSES, block_statements, flat_statements
from ..frontends.json_tree import format_path
from .contracts import STRUCTURAL_MATCH, STRUCTURAL_MATCH_UNVERSIONED, Contract, error_message

_NEAR_MISS = 0.9
_MAX_DEPTH = 4  # helper calls followed into each other
_BUDGET = 20000  # expressions evaluated per module: a huge generated module is judged only in part
_MAX_SIBLING = 1 << 20  # bytes of a sibling module read for its constants and helpers
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)


# --- values -------------------------------------------------------------------------------------
# Slots: a module's evaluation makes thousands of values and deferred results; slotted ones are quicker to make.
@dataclass(eq=False, slots=True)
class Lit:
    value: Any
    node: ast.AST | None  # where it is reported (in the linted module), None: not reportable here


@dataclass(eq=False, slots=True)
class Obj:
    entries: dict[str, Any]
    node: ast.AST | None
    declared: set[str] = field(
        default_factory=set
    )  # model fields without a default: keys, no value
    scope: str = ""  # the function that made it
    model: bool = False  # a model class's defaults (a placeholder "" is not a value it publishes)


@dataclass(eq=False, slots=True)
class Seq:
    items: list[Any]
    node: ast.AST | None
    exact: bool = True  # every item is known (no comprehension, spread or escape)


@dataclass(eq=False, slots=True)
class Opaque:
    node: (
        ast.AST | None
    )  # an expression the analysis cannot evaluate (reported only as a must-be-False flag)


@dataclass(eq=False, slots=True)
class _Ref:
    """A function, class or module the evaluator can follow."""

    view: ModuleView
    node: ast.AST | None  # FunctionDef / ClassDef, None for a module


class _Hole:
    """An unknown value inside a validated instance: errors at or below it are dropped."""

    def __repr__(self) -> str:
        return "<unknown>"


_HOLE = _Hole()


# --- contract places --------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    contract: Contract
    path: tuple[str, ...]  # "*": an item of an array
    props: frozenset[str]

    @property
    def name(self) -> str:
        return self.path[0] if self.path else ""


def _schemas(contract: Contract) -> tuple[dict, ...]:
    registry, _ = contract.schema_ref
    return registry.schemas


def _deref(schema: Any, root: dict, schemas: tuple[dict, ...]) -> Any:
    for _ in range(8):
        if not isinstance(schema, dict) or "$ref" not in schema:
            return schema
        ref = schema["$ref"]
        base, _, pointer = ref.partition("#")
        doc = root if not base else next((s for s in schemas if s.get("$id") == base), None)
        if doc is None:
            return schema
        target: Any = doc
        for part in [p for p in pointer.split("/") if p]:
            target = target.get(part) if isinstance(target, dict) else None
        if target is None:
            return schema
        schema, root = target, doc
    return schema


@lru_cache(maxsize=16)
def contract_places(contract: Contract) -> tuple[Place, ...]:
    """Every object a contract describes (the root, its sections, array items), with its property names,
    read from the contract's schema (``$ref`` followed)."""
    registry, number = contract.schema_ref
    root = registry.schemas[number]
    schemas = registry.schemas
    out: list[Place] = []

    def visit(schema: Any, path: tuple[str, ...], doc: dict) -> None:
        schema = _deref(schema, doc, schemas)
        if not isinstance(schema, dict) or len(path) > 4:
            return
        props = schema.get("properties")
        if schema.get("type") == "array" or "items" in schema:
            out.append(Place(contract, path, frozenset()))  # a list: its items have the place below
        if isinstance(props, dict):
            out.append(Place(contract, path, frozenset(props)))
            for key, sub in props.items():
                visit(sub, path + (key,), doc)
        items = schema.get("items")
        if isinstance(items, dict):
            visit(items, path + ("*",), doc)

    visit(root, (), root)
    return tuple(out)


# --- modules --------------------------------------------------------------------------------------
class ModuleView:
    """A module's top-level names: functions, classes, imports (its assignments are evaluated on demand). A
    sibling is parsed only when more than a plain string constant is read from it."""

    def __init__(
        self,
        tree: ast.Module | None,
        name: str,
        imports: dict[str, str] | None,
        local: bool,
        text: bytes = b"",
        package: bool = False,
        path: str = "",
    ) -> None:
        self.name, self.local, self.text, self.package = name, local, text, package
        self.path = path  # a sibling's file
        self._tree, self._imports = tree, imports
        self._functions: dict[str, ast.AST] | None = None
        self._strings: dict[str, bytes | None] | None = None
        self._classes: dict[str, ast.ClassDef] | None = None

    @property
    def tree(self) -> ast.Module:
        if self._tree is None:
            from ..frontends.python_text import parse_ahead

            behind = _BEHIND.get(os.path.abspath(self.path)) if self.path else None
            if behind is not None and behind[0] == self.text:
                self._tree = behind[1]  # its own turn came lately: the tree it was linted with
            else:
                try:
                    # Kept for the sibling's own turn in the run: it is not parsed twice.
                    self._tree = parse_ahead(self.path, self.text)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    self._tree = ast.Module(body=[], type_ignores=[])
            self.text = b""
        return self._tree

    @property
    def imports(self) -> dict[str, str]:
        if self._imports is None:
            from ..flow.modnames import imports_of

            self._imports = imports_of(self.tree, self.name, self.package)
        return self._imports

    @property
    def functions(self) -> dict[str, ast.AST]:
        if self._functions is None:
            self._functions = {n.name: n for n in self.tree.body if isinstance(n, _FUNCTIONS)}
        return self._functions

    @property
    def classes(self) -> dict[str, ast.ClassDef]:
        if self._classes is None:
            self._classes = {n.name: n for n in self.tree.body if isinstance(n, ast.ClassDef)}
        return self._classes

    def string_constant(self, name: str) -> str | None:
        """``NAME = "text"``, bound once in the whole file (at the top level), read without parsing it."""
        if self._tree is not None or not self.text:
            return None
        if self._strings is None:
            self._strings = {}
            for match in _BINDING.finditer(self.text):
                bound = match.group(2).decode("ascii")
                literal = _STRING.match(match.group(3)) if not match.group(1) else None
                # Bound again (a branch, a function's local of the same name): the parse decides.
                self._strings[bound] = (
                    None if bound in self._strings or literal is None else literal.group(1)[1:-1]
                )
        raw = self._strings.get(name)
        try:
            return raw.decode("utf-8") if raw is not None else None
        except UnicodeDecodeError:
            return None


# The trees of the modules linted last, by absolute path, with the bytes parsed: a module read as a sibling
# after its own turn (for its constants and helpers) is not parsed again when it was linted lately.
_BEHIND: dict[str, tuple[bytes, ast.Module]] = {}
_BEHIND_MAX = 32
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=]", re.MULTILINE)


def remember_module(path: str, data: bytes, tree: ast.Module) -> None:
    """Keep a linted module's tree (``tree``: parsed from ``data`` decoded) for a later module that reads it as a
    sibling. Only plain ASCII without carriage returns or a coding declaration: there the tree of its text is
    the tree of its bytes, as a sibling's is parsed."""
    if not data.isascii() or b"\r" in data or _COOKIE.search(data, 0, 400):
        return
    key = os.path.abspath(path)
    _BEHIND.pop(key, None)
    while len(_BEHIND) >= _BEHIND_MAX:
        _BEHIND.pop(next(iter(_BEHIND)))
    _BEHIND[key] = (data, tree)


_BINDING = re.compile(
    rb"^([ \t]*)([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)([^\n]*)$", re.MULTILINE
)
_STRING = re.compile(rb"[ \t]*(\"[^\"\\\n]*\"|'[^'\\\n]*')[ \t]*(?:#.*)?$")


@lru_cache(maxsize=256)
def _sibling(path: str, stamp: tuple[int, int], name: str, package: bool) -> ModuleView | None:
    """A sibling module, read once per process while its file is unchanged (``stamp``)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_SIBLING + 1)
    except OSError:
        return None
    if len(data) > _MAX_SIBLING:
        return None
    return ModuleView(None, name, None, False, data, package, path)


class Modules:
    """The linted module and the sibling modules it imports, found on disk beside it."""

    def __init__(self, local: ModuleView, path: Path | None, is_package: bool) -> None:
        self.local = local
        self.views: dict[str, ModuleView | None] = {local.name: local}
        self.read: list[
            str
        ] = []  # sibling files read: the module's contract findings depend on them too
        self._path, self._is_package = path, is_package
        self._root: Path | None = None

    @property
    def root(self) -> Path | None:
        """The directory the module's dotted name starts from, worked out once a sibling is looked for (most
        modules import none the evaluation reads)."""
        if self._root is None and self._path is not None:
            depth = len(self.local.name.split(".")) - (0 if self._is_package else 1)
            root = Path(os.path.abspath(self._path)).parent
            for _ in range(depth):
                root = root.parent
            self._root = root
        return self._root

    def view(self, name: str) -> ModuleView | None:
        if name in self.views:
            return self.views[name]
        found = None
        root = self.root
        if root is not None and name and all(p.isidentifier() for p in name.split(".")):
            base = root.joinpath(*name.split("."))
            for candidate, package in (
                (base.with_suffix(".py"), False),
                (base / "__init__.py", True),
            ):
                try:
                    info = os.stat(candidate)
                except OSError:
                    continue
                found = _sibling(str(candidate), (info.st_mtime_ns, info.st_size), name, package)
                self.read.append(str(candidate))
                break
        self.views[name] = found
        return found

    def lookup(self, qualified: str) -> tuple[ModuleView, str | None] | None:
        """(module, attribute or None for the module itself) that a qualified name denotes."""
        parts = qualified.split(".")
        for cut in range(len(parts), 0, -1):
            view = self.view(".".join(parts[:cut]))
            if view is not None:
                rest = parts[cut:]
                if len(rest) > 1:
                    return None
                return view, (rest[0] if rest else None)
        return None


# --- evaluation ---------------------------------------------------------------------------------
@dataclass(eq=False, slots=True)
class Pending:
    """A helper's result or an imported name, worked out only when a contract object needs it: most calls
    of a module build nothing the contracts judge, and following each would cost more than parsing."""

    thunk: Callable[[], Any] | None
    node: ast.AST | None
    value: Any = None
    argued: bool = (
        False  # a call given values written here: only here can its result be judged with them
    )
    feeds: bool = (
        False  # a call given a dict: a helper may add to it (``add_memory_section(adapter, refs)``)
    )


def force(value: Any) -> Any:
    while isinstance(value, Pending):
        if value.thunk is not None:
            thunk, value.thunk = value.thunk, None
            value.value = Opaque(value.node)  # a value that needs itself is unknown
            value.value = thunk()
        value = value.value
    return value


class Evaluator:
    """Evaluates a module's scopes into values, following constants, helpers and models."""

    def __init__(
        self,
        modules: Modules,
        model_decorators: frozenset[str],
        model_bases: frozenset[str],
        words: tuple[tuple[frozenset[str], ...], frozenset[str]] = ((), frozenset()),
    ) -> None:
        self.modules = modules
        self.keys = frozenset().union(*words[0])  # every key of a contract object
        self.marks = words[
            1
        ]  # contract values (enum and const strings), schema_version, container keys
        self.model_decorators, self.model_bases = model_decorators, model_bases
        self.created: list[Any] = []  # containers made in the linted module
        self.budget = _BUDGET
        self.stack: list[ast.AST] = []
        self.envs: dict[int, dict[str, Any] | None] = {}  # id(view) -> module-level bindings
        self.builders: dict[int, bool] = {}  # id(function) -> worth following (_builds)
        # Every deferred value made: released when the module is judged.
        self.pending: list[Pending] = []

    def _defer(self, value: Pending) -> Pending:
        self.pending.append(value)
        return value

    def release(self) -> None:
        """Drop the deferred values' closures: they refer back to their environments, and such cycles would keep
        the module's syntax tree alive until the cyclic garbage collector finds it (a measurable share of a run)."""
        for value in self.pending:
            value.thunk = value.value = None
        self.pending.clear()
        self.created.clear()
        self.envs.clear()

    # names ---------------------------------------------------------------------------------------
    def module_env(self, view: ModuleView) -> dict[str, Any]:
        key = id(view)
        if key not in self.envs:
            self.envs[key] = None  # being evaluated: a name read before it is bound is unknown
            env: dict[str, Any] = {}
            self.run_block(view, view.tree.body, env, "<module>")
            self.envs[key] = env
        return self.envs[key] or {}

    def name(self, view: ModuleView, env: dict[str, Any], ident: str, use: ast.AST) -> Any:
        if (
            ident in env
        ):  # a local or a parameter: where its value was written (a caller's argument)
            value = env[ident]
            return (
                Opaque(use)
                if isinstance(value, Opaque) and value.node is None and view.local
                else value
            )
        module_env = self.module_env(view) if env is not self.envs.get(id(view)) else env
        if ident in module_env:
            return self._at(module_env[ident], view, use)
        if ident in view.functions:
            return _Ref(view, view.functions[ident])
        if ident in view.classes:
            return _Ref(view, view.classes[ident])
        if ident in view.imports:
            qualified = view.imports[ident]
            return self._defer(
                Pending(
                    lambda: self._at(force(self.qualified(qualified)), view, use),
                    use if view.local else None,
                )
            )
        return Opaque(use if view.local else None)

    def qualified(self, name: str) -> Any:
        found = self.modules.lookup(name)
        if found is None:
            return Opaque(None)
        view, attr = found
        return _Ref(view, None) if attr is None else self.attribute(view, attr)

    def attribute(self, view: ModuleView, attr: str) -> Any:
        text = view.string_constant(attr)
        if text is not None:
            return Lit(text, None)
        if attr in view.functions:
            return _Ref(view, view.functions[attr])
        if attr in view.classes:
            return _Ref(view, view.classes[attr])
        env = self.module_env(view)
        if attr in env:
            return env[attr]
        if attr in view.imports:
            return self.qualified(view.imports[attr])
        return Opaque(None)

    @staticmethod
    def _at(value: Any, view: ModuleView, use: ast.AST) -> Any:
        """A scalar read through a name is reported where the name is used (in the linted module)."""
        if isinstance(value, Lit):
            return Lit(value.value, use if view.local else None)
        if isinstance(value, Opaque):
            return Opaque(use if view.local else None)
        return value

    # expressions ---------------------------------------------------------------------------------
    def eval(self, view: ModuleView, env: dict[str, Any], node: ast.AST | None, scope: str) -> Any:
        if node is None:
            return Opaque(None)
        self.budget -= 1
        here = node if view.local else None
        if self.budget < 0:
            return Opaque(here)
        if isinstance(node, ast.Constant):
            if node.value is None or isinstance(node.value, (str, bool, int, float)):
                return Lit(node.value, here)
            return Opaque(here)
        if isinstance(node, ast.Name):
            return self.name(view, env, node.id, node)
        if isinstance(node, ast.Call):  # the kinds most often met first
            return self.call(view, env, node, scope)
        if isinstance(node, ast.Attribute):
            base = self.eval(view, env, node.value, scope)
            if isinstance(base, Pending) or (isinstance(base, _Ref) and base.node is None):
                return self._defer(Pending(lambda: self._member(view, force(base), node), here))
            return Opaque(here)
        if isinstance(node, ast.Dict):
            obj = self._new(Obj({}, here, scope=scope), view)
            for key, value in zip(node.keys, node.values):
                if key is None:
                    self._merge(obj, self.eval(view, env, value, scope))
                    continue
                text = force(self.eval(view, env, key, scope))
                if isinstance(text, Lit) and isinstance(text.value, str):
                    obj.entries[text.value] = self.eval(view, env, value, scope)
            return obj
        if isinstance(node, (ast.List, ast.Tuple)):
            seq = self._new(Seq([], here), view)
            for item in node.elts:
                if isinstance(item, ast.Starred):
                    self._extend(seq, self.eval(view, env, item.value, scope))
                else:
                    seq.items.append(self.eval(view, env, item, scope))
            return seq
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = force(self.eval(view, env, node.left, scope))
            right = force(self.eval(view, env, node.right, scope))
            if isinstance(left, Seq) and isinstance(right, Seq):
                seq = self._new(Seq(list(left.items), here, left.exact), view)
                self._extend(seq, right)
                return seq
            if (
                isinstance(left, Lit)
                and isinstance(right, Lit)
                and isinstance(left.value, str)
                and isinstance(right.value, str)
            ):
                return Lit(left.value + right.value, here)  # PARENT = BASE + "_v0"
            return Opaque(here)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self._new(Seq([], here, exact=False), view)
        return Opaque(here)

    def _member(self, view: ModuleView, base: Any, node: ast.Attribute) -> Any:
        if isinstance(base, _Ref) and base.node is None:
            return self._at(force(self.attribute(base.view, node.attr)), view, node)
        return Opaque(node if view.local else None)

    def _new(self, value: Any, view: ModuleView) -> Any:
        if view.local:
            self.created.append(value)
        return value

    @staticmethod
    def _merge(obj: Obj, other: Any) -> None:
        other = force(other)
        if isinstance(other, Obj):
            obj.entries.update(other.entries)
            obj.declared |= other.declared

    @staticmethod
    def _extend(seq: Seq, other: Any) -> None:
        other = force(other)
        if isinstance(other, Seq):
            seq.items.extend(other.items)
            seq.exact = seq.exact and other.exact
        else:
            seq.exact = False

    def call(self, view: ModuleView, env: dict[str, Any], node: ast.Call, scope: str) -> Any:
        here = node if view.local else None
        func = node.func
        last = (
            func.attr
            if isinstance(func, ast.Attribute)
            else func.id
            if isinstance(func, ast.Name)
            else ""
        )
        if isinstance(func, ast.Name) and last in ("dict", "list", "tuple") and last not in env:
            return self.builtin(view, env, last, node, scope)
        if last == "asdict" and len(node.args) == 1:
            return self.eval(view, env, node.args[0], scope)
        if isinstance(func, ast.Attribute):
            receiver = self.eval(view, env, func.value, scope)
            if isinstance(receiver, (Obj, Seq)):
                return self.method(view, env, receiver, func.attr, node, scope)
            if not (
                isinstance(receiver, Pending)
                or (isinstance(receiver, _Ref) and receiver.node is None)
            ):
                self._escape(view, env, node, scope)
                return Opaque(here)
            target: Any = self._defer(
                Pending(lambda: self._member(view, force(receiver), func), None)
            )
        elif isinstance(func, ast.Name):
            target = self.name(view, env, func.id, func)
        else:
            return Opaque(here)
        if not isinstance(target, (Pending, _Ref)):
            self._escape(view, env, node, scope)
            return Opaque(here)
        # The arguments are read now (the bindings they name may change); the callee when it is needed.
        self._escape(view, env, node, scope)
        args = [self.eval(view, env, a, scope) for a in node.args if not isinstance(a, ast.Starred)]
        complete = not any(isinstance(a, ast.Starred) for a in node.args)
        kwargs = [(k.arg, self.eval(view, env, k.value, scope)) for k in node.keywords]
        # Given a contract key or value written here (``gate("memory_writeback", "approved")``): its result is
        # judged here with them. Other helpers are judged in their own module, with their parameters unknown.
        given = [*args, *(v for _, v in kwargs)]
        argued = view.local and (
            any(k in self.keys for k, _ in kwargs)
            or any(
                isinstance(v, Lit) and v.node is not None and v.value in self.marks for v in given
            )
        )
        feeds = any(isinstance(v, Obj) and not self.keys.isdisjoint(v.entries) for v in given)
        return self._defer(
            Pending(
                lambda: self.invoke(
                    view, force(target), node, args if complete else None, kwargs, scope, feeds
                ),
                here,
                argued=argued,
                feeds=feeds,
            )
        )

    def invoke(
        self,
        view: ModuleView,
        target: Any,
        node: ast.Call,
        args: list | None,
        kwargs: list,
        scope: str,
        feeds: bool,
    ) -> Any:
        here = node if view.local else None
        if isinstance(target, _Ref) and isinstance(target.node, _FUNCTIONS):
            return self.inline(view, target, node, args, kwargs, scope, feeds)
        if (
            isinstance(target, _Ref)
            and isinstance(target.node, ast.ClassDef)
            and self.is_model(target.node)
        ):
            return self.construct(view, target, node, kwargs, scope)
        return Opaque(here)

    @staticmethod
    def _escape(view: ModuleView, env: dict[str, Any], node: ast.Call, scope: str) -> None:
        """A list handed to a call may gain or lose items there: no item is missing for sure any more."""
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(arg, ast.Name):
                value = env.get(arg.id)
                if isinstance(value, Seq):
                    value.exact = False

    def builtin(
        self, view: ModuleView, env: dict[str, Any], name: str, node: ast.Call, scope: str
    ) -> Any:
        here = node if view.local else None
        if name == "dict":
            obj = self._new(Obj({}, here, scope=scope), view)
            for arg in node.args[:1]:
                self._merge(obj, self.eval(view, env, arg, scope))
            for keyword in node.keywords:
                value = self.eval(view, env, keyword.value, scope)
                if keyword.arg is None:
                    self._merge(obj, value)
                else:
                    obj.entries[keyword.arg] = value
            return obj
        if len(node.args) != 1 or node.keywords:
            return Opaque(here)
        inner = force(self.eval(view, env, node.args[0], scope))
        if isinstance(inner, Seq):
            return self._new(Seq(list(inner.items), here, inner.exact), view)
        return Opaque(here)

    def method(
        self,
        view: ModuleView,
        env: dict[str, Any],
        receiver: Any,
        name: str,
        node: ast.Call,
        scope: str,
    ) -> Any:
        here = node if view.local else None
        args = [self.eval(view, env, a, scope) for a in node.args if not isinstance(a, ast.Starred)]
        if isinstance(receiver, Obj):
            if name == "update":
                for arg in args[:1]:
                    self._merge(receiver, arg)
                for keyword in node.keywords:
                    value = self.eval(view, env, keyword.value, scope)
                    if keyword.arg is None:
                        self._merge(receiver, value)
                    else:
                        receiver.entries[keyword.arg] = value
                return Lit(None, here)
            key = force(args[0]) if args else None
            if (
                name in ("setdefault", "get")
                and isinstance(key, Lit)
                and isinstance(key.value, str)
            ):
                if key.value in receiver.entries:
                    return receiver.entries[key.value]
                if name == "setdefault":
                    receiver.entries[key.value] = args[1] if len(args) > 1 else Lit(None, here)
                    return receiver.entries[key.value]
                return args[1] if len(args) > 1 else Lit(None, here)
            if name in ("copy", "model_dump", "dict", "_asdict", "model_copy"):
                return self._new(
                    Obj(
                        dict(receiver.entries), here, set(receiver.declared), scope, receiver.model
                    ),
                    view,
                )
            return Opaque(here)
        if name == "append" and args:
            receiver.items.append(args[0])
        elif name == "extend" and args:
            self._extend(receiver, args[0])
        elif name == "insert" and len(args) == 2:
            receiver.items.insert(0, args[1])
        elif name == "copy":
            return self._new(Seq(list(receiver.items), here, receiver.exact), view)
        else:
            receiver.exact = False  # pop, remove, clear, sort...: what is left is not followed
            return Opaque(here)
        return Lit(None, here)

    def inline(
        self,
        view: ModuleView,
        target: _Ref,
        node: ast.Call,
        args: list | None,
        kwargs: list,
        scope: str,
        feeds: bool = False,
    ) -> Any:
        """A helper's result with its parameters bound to the call's arguments (and what it adds to a dict
        it is given)."""
        here = node if view.local else None
        function = target.node
        if (
            len(self.stack) >= _MAX_DEPTH
            or function in self.stack
            or self.budget < 0
            or not (feeds or (function is not None and self._builds(function)))
        ):
            return Opaque(here)
        spec = function.args  # type: ignore[union-attr]
        params = [a.arg for a in [*spec.posonlyargs, *spec.args]]
        local: dict[str, Any] = {}
        for param in [*params, *(a.arg for a in spec.kwonlyargs)]:
            local[param] = Opaque(None)
        for param, default in zip(params[len(params) - len(spec.defaults) :], spec.defaults):
            local[param] = self.eval(target.view, {}, default, scope)
        for param, default in zip((a.arg for a in spec.kwonlyargs), spec.kw_defaults):
            if default is not None:
                local[param] = self.eval(target.view, {}, default, scope)
        for param, value in zip(params, args or ()):
            local[param] = value
        for name, value in kwargs:
            if name is not None and name in local:
                local[name] = value
        self.stack.append(function)  # type: ignore[arg-type]
        try:
            result = force(self.run_block(target.view, function.body, local, function.name))  # type: ignore[union-attr]
        finally:
            self.stack.pop()
        if result is None:
            return Opaque(here)
        if not target.view.local and isinstance(result, (Lit, Opaque)):
            # A scalar a sibling helper returns is shown at the call.
            return Lit(result.value, here) if isinstance(result, Lit) else Opaque(here)
        return result

    def _builds(self, function: ast.AST) -> bool:
        """A helper worth following: it returns a dict, list or model it makes, or a literal."""
        known = self.builders.get(id(function))
        if known is None:
            known = self.builders[id(function)] = _builds(function)
        return known

    # models --------------------------------------------------------------------------------------
    def is_model(self, node: ast.ClassDef) -> bool:
        decorators = {
            _dotted(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list
        }
        bases = {_dotted(b) for b in node.bases}
        return bool(decorators & self.model_decorators or bases & self.model_bases)

    def model(self, view: ModuleView, node: ast.ClassDef) -> Obj:
        """A model class as the object its defaults make (fields without a default: keys only)."""
        obj = Obj({}, node if view.local else None, scope=node.name, model=True)
        for statement in node.body:
            if not (
                isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
            ):
                continue
            name = statement.target.id
            if (_dotted(statement.annotation) or "").endswith("ClassVar"):
                continue
            value = statement.value
            if isinstance(value, ast.Call) and (_dotted(value.func) or "").rsplit(".", 1)[-1] in (
                "Field",
                "field",
            ):
                value = next(
                    (k.value for k in value.keywords if k.arg == "default"),
                    value.args[0]
                    if value.args and (_dotted(value.func) or "").endswith("Field")
                    else None,
                )
            if value is None:
                obj.declared.add(name)
                continue
            obj.entries[name] = self.eval(view, {}, value, node.name)
        return obj

    def construct(
        self, view: ModuleView, target: _Ref, node: ast.Call, kwargs: list, scope: str
    ) -> Obj:
        model = self.model(target.view, target.node)  # type: ignore[arg-type]
        # The defaults are reported where the class is written, the keywords here.
        obj = self._new(
            Obj(
                {k: _unplaced(v) for k, v in model.entries.items()},
                node if view.local else None,
                set(model.declared),
                scope,
            ),
            view,
        )
        for name, value in kwargs:
            if name is None:
                self._merge(obj, value)
            else:
                obj.entries[name] = value
                obj.declared.discard(name)
        return obj

    # statements ----------------------------------------------------------------------------------
    def run_block(
        self, view: ModuleView, body: list[ast.stmt], env: dict[str, Any], scope: str
    ) -> Any:
        """Runs statements in source order (branches one after the other, loops once); the value of the
        last ``return``."""
        result = None
        for statement in flat_statements(body):
            if self.budget < 0:
                break
            if isinstance(statement, ast.Assign):
                value = self.eval(view, env, statement.value, scope)
                for target in statement.targets:
                    self.assign(view, env, target, value, scope)
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                self.assign(
                    view, env, statement.target, self.eval(view, env, statement.value, scope), scope
                )
            elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
                current = force(env.get(statement.target.id))
                value = self.eval(view, env, statement.value, scope)
                if isinstance(current, Seq) and isinstance(statement.op, ast.Add):
                    self._extend(current, value)
                elif isinstance(current, Obj) and isinstance(statement.op, ast.BitOr):
                    self._merge(current, value)
                else:
                    env[statement.target.id] = Opaque(statement.target if view.local else None)
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                done = self.eval(view, env, statement.value, scope)
                if isinstance(done, Pending) and done.feeds:
                    force(done)  # a helper called for what it adds to a dict
            elif isinstance(statement, ast.Return):
                result = (
                    self.eval(view, env, statement.value, scope)
                    if statement.value is not None
                    else Lit(None, None)
                )
            elif isinstance(statement, (ast.For, ast.AsyncFor)):
                self._unknown(view, env, statement.target)
            elif isinstance(statement, (ast.With, ast.AsyncWith)):
                for item in statement.items:
                    if item.optional_vars is not None:
                        self._unknown(view, env, item.optional_vars)
        return result

    @staticmethod
    def _unknown(view: ModuleView, env: dict[str, Any], target: ast.AST) -> None:
        for name in ast.walk(target):
            if isinstance(name, ast.Name):
                env[name.id] = Opaque(name if view.local else None)

    def assign(
        self, view: ModuleView, env: dict[str, Any], target: ast.AST, value: Any, scope: str
    ) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, ast.Subscript):
            receiver = force(self.eval(view, env, target.value, scope))
            key = force(self.eval(view, env, target.slice, scope))
            if isinstance(receiver, Obj) and isinstance(key, Lit) and isinstance(key.value, str):
                receiver.entries[key.value] = value
            elif isinstance(receiver, Seq):
                receiver.exact = False
        else:
            self._unknown(view, env, target)


def _builds(function: ast.AST) -> bool:
    made: set[str] = set()
    returned: list[ast.AST] = []
    for node in flat_statements(function.body):  # type: ignore[attr-defined]
        if isinstance(node, ast.Assign) and _made(node.value):
            made |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and _made(node.value)
            and isinstance(node.target, ast.Name)
        ):
            made.add(node.target.id)
        elif isinstance(node, ast.Return) and node.value is not None:
            returned.append(node.value)
    return any(
        _made(v) or isinstance(v, ast.Constant) or (isinstance(v, ast.Name) and v.id in made)
        for v in returned
    )


def _made(node: ast.AST) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Tuple)):
        return True
    if isinstance(node, ast.BinOp):
        return _made(node.left) or _made(node.right)
    if isinstance(node, ast.Call):
        name = (_dotted(node.func) or "").rsplit(".", 1)[-1]
        return name in ("dict", "list") or name[:1].isupper()
    return False


def _unplaced(value: Any) -> Any:
    """A model default seen through an instance: reported with the class, not at the constructor."""
    if isinstance(value, Lit):
        return Lit(value.value, None)
    if isinstance(value, Opaque):
        return Opaque(None)
    return value


# --- judging ------------------------------------------------------------------------------------
Report = Callable[[str, ast.AST, str, object], None]


def _unset_report(code: str, node: ast.AST, message: str, ident: object) -> None:
    raise RuntimeError("a contract object was reported before ContractJudge.verdicts")


class ContractJudge:
    """Finds the module's contract objects among the evaluated values and validates them."""

    def __init__(self, contracts: tuple[Contract, ...]) -> None:
        self.contracts = contracts
        # Set by ``verdicts``: recognising the objects (``judge``) reports nothing.
        self.report: Report = _unset_report
        self.code: Callable[[ast.AST], str] = str
        self.places = {c: contract_places(c) for c in contracts}
        self.words = _recognising(contracts)
        self.by_container = {key: c for c in contracts for key in c.container_keys}
        self.judged: set[int] = (
            set()
        )  # ids of value nodes a contract rule judged (OVA207 stays quiet there)
        self.seen: set[tuple] = set()
        self._versions: dict[str, Contract | None] = {}
        # (object, its place, its JSON instance) for each object a contract judges, in the order found
        self.objects: list[tuple[Obj, Place, Any]] = []

    def contract_for_version(self, version: str) -> Contract | None:
        if version not in self._versions:
            self._versions[version] = next(
                (c for c in self.contracts if near_version(version, c.schema_version)), None
            )
        return self._versions[version]

    # recognition ---------------------------------------------------------------------------------
    def recognise(self, obj: Obj) -> Place | None | bool:
        """The place an object has by itself; False: another schema's object (never judged)."""
        version = force(obj.entries.get("schema_version"))
        if isinstance(version, Lit) and isinstance(version.value, str):
            contract = self.contract_for_version(version.value)
            return self.root(contract) if contract is not None else False
        keys = set(obj.entries) | obj.declared
        if keys.isdisjoint(self.words):
            return None  # no hit below could be counted: most objects a module builds
        best, score = None, 0
        for contract in self.contracts:
            needed = STRUCTURAL_MATCH if "schema_version" in keys else STRUCTURAL_MATCH_UNVERSIONED
            hits = len(keys & contract.distinctive_keys)
            if hits >= min(needed, len(contract.distinctive_keys) + 1) and hits > score:
                best, score = self.root(contract), hits
            for place in self.places[contract]:
                if not place.path:
                    continue
                hits = len(keys & place.props)
                # a builder named after its section (build_issue_projection) needs fewer of its keys
                named = len(place.path) == 1 and place.name in obj.scope and hits >= 2
                if (hits >= 3 or named) and hits > score:
                    best, score = place, hits
        return best

    def root(self, contract: Contract) -> Place:
        return next(p for p in self.places[contract] if not p.path)

    def place_at(self, place: Place, key: str) -> Place | None:
        path = place.path + (key,)
        return next((p for p in self.places[place.contract] if p.path == path), None)

    def judge(self, created: list[Any]) -> None:
        made = list(
            created
        )  # what judging works out (a helper's result) is judged where it is held
        inner: set[int] = set()
        for value in made:
            for child in _children(value):
                inner.add(id(child))
        for value in made:
            if id(value) not in inner:
                self.walk(value, set())

    def walk(self, value: Any, seen: set[int], place: Place | None = None) -> None:
        if id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, Pending) and value.argued:
            value = force(value)
        if isinstance(value, Seq):
            for item in value.items:
                self.walk(item, seen)
            return
        if not isinstance(value, Obj):
            return
        found = self.recognise(value) if place is None else place
        if found is False:
            return  # another schema: neither it nor what it holds is the adapter's
        if found is None or found is True:
            for key, child in value.entries.items():
                contract = self.by_container.get(key)
                if contract is not None and isinstance(force(child), Obj):
                    self.walk(force(child), seen, self.root(contract))
                else:  # a helper's own module judges what it returns, unless given values from here
                    self.walk(child, seen)
            return
        self.validate(value, found)

    def validate(self, value: Obj, place: Place) -> None:
        """Keep an object a contract judges, worked out into its JSON instance now (the order in which values
        are worked out is the order of the walk), and mark the values its contract governs."""
        prefix = tuple(0 if p == "*" else p for p in place.path)
        instance: Any = _instance(value)
        for part in reversed(prefix):
            instance = [instance] if part == 0 else {part: instance}
        self.objects.append((value, place, instance))
        self.by_name(value, place, reporting=False)

    # validation ----------------------------------------------------------------------------------
    def verdicts(self, report: Report, code: Callable[[ast.AST], str]) -> None:
        """Report what the judged objects break: their schema's errors, then the flags and enums kept by name."""
        self.report, self.code = report, code
        for value, place, instance in self.objects:
            prefix = tuple(0 if p == "*" else p for p in place.path)
            for error in place.contract.validator.iter_errors(instance):
                self.error(error, value, prefix, place.contract)
            self.by_name(value, place)

    def error(self, error: Any, value: Obj, prefix: tuple, contract: Contract) -> None:
        path = tuple(error.absolute_path)
        if error.validator == "required" or path[: len(prefix)] != prefix:
            return
        rel = path[len(prefix) :]
        target, key, parent = _value_at(value, rel)
        if target is None or (
            isinstance(target, Opaque)
            and not (error.validator == "const" and error.validator_value is False)
        ):
            return
        if error.validator == "minLength" and isinstance(parent, Obj) and parent.model:
            return
        if error.validator in ("contains", "minItems", "uniqueItems") and not (
            isinstance(target, Seq) and _closed(target)
        ):
            return
        node = _node_of(target) or (
            parent.node if parent is not None and error.validator == "propertyNames" else None
        )
        if node is None:
            return
        schema = error.schema if isinstance(error.schema, dict) else {}
        code = schema.get("x-ova-code", "OVA113")
        shown_path = format_path(path)
        for index, part in enumerate(prefix):  # an item judged by itself: which item is not known
            if part == 0:
                shown_path = shown_path.replace(
                    format_path(prefix[: index + 1]), format_path(prefix[:index]) + "[*]", 1
                )
        if error.validator == "const" and error.validator_value is False:
            shown = self.code(node)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            message, ident = (
                f'adapter flag "{key}" must be the literal False, found {shown}',
                (key, shown),
            )
        elif (
            error.validator in ("enum", "const")
            and isinstance(target, Lit)
            and isinstance(target.value, str)
        ):
            allowed = (
                error.validator_value if error.validator == "enum" else [error.validator_value]
            )
            options = ", ".join(sorted(str(a) for a in allowed))
            message, ident = (
                f'adapter field "{key}" is "{target.value}", not one of {options}',
                (key, target.value),
            )
        else:
            try:
                message, ident = error_message(error, shown_path)
            except (TypeError, ValueError):
                message, ident = (
                    f"{shown_path} fails the contract's {error.validator!r} check",
                    error.validator,
                )
            ident = (shown_path, message)
        self.add(code, node, message, ident)

    def by_name(self, value: Any, place: Place | None, reporting: bool = True) -> None:
        """A flag or enum key outside the place the contract gives it keeps its rule by name (as before the
        schema was used on Python): ``adapter.update(writeback_performed=True)``. Without ``reporting``: only
        mark the values a contract rule governs."""
        value = force(value)
        if not isinstance(value, Obj):
            if isinstance(value, Seq) and place is not None:
                item = self.place_at(place, "*")
                for child in value.items:
                    self.by_name(child, item, reporting)
            return
        rules = (
            {key: (values, code) for key, values, code in place.contract.field_values}
            if place
            else {}
        )
        for key, child in value.entries.items():
            child = force(child)
            inner = self.place_at(place, key) if place is not None else None
            if inner is not None or (place is not None and key in place.props):
                self._mark(child)
                self.by_name(child, inner, reporting)
                continue
            rule = rules.get(key)
            node = _node_of(child)
            if rule is None or node is None:
                continue
            allowed, code = rule
            self.judged.add(id(node))
            if not reporting:
                continue
            if allowed == frozenset({False}):
                if not (isinstance(child, Lit) and child.value is False):
                    shown = self.code(node)
                    shown = shown if len(shown) <= 60 else shown[:57] + "..."
                    self.add(
                        code,
                        node,
                        f'adapter flag "{key}" must be the literal False, found {shown}',
                        (key, shown),
                    )
            elif (
                isinstance(child, Lit)
                and isinstance(child.value, str)
                and child.value not in allowed
            ):
                options = ", ".join(sorted(str(a) for a in allowed))
                self.add(
                    code,
                    node,
                    f'adapter field "{key}" is "{child.value}", not one of {options}',
                    (key, child.value),
                )

    def _mark(self, value: Any) -> None:
        node = _node_of(value)
        if node is not None:
            self.judged.add(id(node))

    def add(self, code: str, node: ast.AST, message: str, ident: object) -> None:
        where = (code, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), message)
        if where in self.seen:
            return
        self.seen.add(where)
        self.report(code, node, message, ident)


@lru_cache(maxsize=16)
def _recognising(contracts: tuple[Contract, ...]) -> frozenset[str]:
    """Every key that counts towards recognising an object (``ContractJudge.recognise``): an object with none of
    them has no place, and most objects a module builds have none."""
    return frozenset().union(
        *(c.distinctive_keys for c in contracts),
        *(p.props for c in contracts for p in contract_places(c)),
    )


@lru_cache(maxsize=4096)
def near_version(version: str, known: str) -> bool:
    """The same schema_version, or a typo of it (the cheap upper bounds first: most versions are far off)."""
    if version == known:
        return True
    # real_quick_ratio, without a matcher: most strings asked about differ in length
    if 2.0 * min(len(version), len(known)) / (len(version) + len(known)) < _NEAR_MISS:
        return False
    matcher = _matcher(known)
    matcher.set_seq1(version)
    return matcher.quick_ratio() >= _NEAR_MISS and matcher.ratio() >= _NEAR_MISS


@lru_cache(maxsize=16)
def near_lengths(known: str) -> frozenset[int]:
    """The lengths a version can have and still be ``near_version`` of ``known`` (its length bound, the same
    expression): a module's many strings are sorted out by length before any is asked about."""
    size = len(known)
    return frozenset(
        {size}  # the version itself
        | {
            length
            for length in range(2 * size + 2)
            if 2.0 * min(length, size) / ((length + size) or 1) >= _NEAR_MISS
        }
    )


@lru_cache(maxsize=16)
def _matcher(known: str) -> difflib.SequenceMatcher:
    """A matcher against a known version, kept: difflib works out the second sequence once for all the first
    ones compared with it (``set_seq1``)."""
    return difflib.SequenceMatcher(None, "", known)


def _children(value: Any):
    held = (
        value.entries.values()
        if isinstance(value, Obj)
        else value.items
        if isinstance(value, Seq)
        else ()
    )
    return [v for v in map(_settled, held) if isinstance(v, (Obj, Seq))]


def _settled(value: Any) -> Any:
    """A value without working anything out: a pending result only once it has been worked out."""
    while isinstance(value, Pending) and value.thunk is None:
        value = value.value
    return value


def _instance(value: Any, depth: int = 0) -> Any:
    value = force(value)
    if depth > 12:
        return _HOLE
    if isinstance(value, Lit):
        return value.value
    if isinstance(value, Obj):
        return {k: _instance(v, depth + 1) for k, v in value.entries.items()}
    if isinstance(value, Seq):
        return [_instance(v, depth + 1) for v in value.items]
    return _HOLE


def _value_at(value: Any, path: tuple) -> tuple[Any, str | None, Any]:
    """(the value at ``path``, its key, its holder); (None, ...) when the path crosses an unknown value."""
    key: str | None = None
    parent: Any = None
    value = force(value)
    for part in path:
        if isinstance(value, Obj) and isinstance(part, str) and part in value.entries:
            parent, key, value = value, part, force(value.entries[part])
        elif isinstance(value, Seq) and isinstance(part, int) and part < len(value.items):
            parent, value = value, force(value.items[part])
        else:
            return None, None, None
    return value, key, parent


def _closed(seq: Seq, depth: int = 0) -> bool:
    """Every item known, all the way down: only then is a missing item really missing."""
    if not seq.exact or depth > 6:
        return False
    for item in map(force, seq.items):
        if isinstance(item, Opaque):
            return False
        if isinstance(item, Obj) and any(
            isinstance(force(v), Opaque) for v in item.entries.values()
        ):
            return False
        if isinstance(item, Seq) and not _closed(item, depth + 1):
            return False
    return True


def _node_of(value: Any) -> ast.AST | None:
    return getattr(value, "node", None)


# --- entry points -------------------------------------------------------------------------------
@dataclass(eq=False)
class ContractObjects:
    """The contract objects a module builds, recognised and worked out (the classify stage), not yet judged:
    ``judged`` are the ids of the value nodes a contract rule governs (the field rule stays quiet there),
    ``sources`` the sibling files read (a result cache must treat the module's findings as stale when one of
    them changes)."""

    judge: ContractJudge
    evaluator: Evaluator
    sources: tuple[str, ...]

    @property
    def judged(self) -> frozenset[int]:
        return frozenset(self.judge.judged)

    def release(self) -> None:
        self.evaluator.release()


def evaluate_module(
    tree: ast.Module,
    text: str,
    name: str,
    is_package: bool,
    path: Path | None,
    contracts: tuple[Contract, ...],
    model_decorators: frozenset[str],
    model_bases: frozenset[str],
    imports: dict[str, str] | None,
    line_ends: list[int],
) -> ContractObjects:
    """Evaluate the objects a module builds and recognise the ones a contract judges; reports nothing.
    ``imports``: the module's ``flow.modnames.imports_of`` under ``name``, when the caller has it; ``line_ends``:
    the offset just past each of its lines (the front end's ``ends``)."""
    from ..flow.modnames import imports_of

    if imports is None:
        imports = imports_of(tree, name, is_package)
    local = ModuleView(tree, name, imports, True)
    words = _words(contracts)
    modules = Modules(local, path, is_package)
    evaluator = Evaluator(modules, model_decorators, model_bases, words)
    evaluator.module_env(local)
    # The tokenizer's lines (split_lines), which ast's line numbers count: str.splitlines also breaks at a form
    # feed or U+2028 in a comment, and every function below one was cut from the wrong lines.
    starts = [0, *line_ends]
    for node in _definitions(tree):
        if isinstance(node, _FUNCTIONS):
            # A function that names no contract key or value builds no contract object by itself (a helper it
            # calls is followed from where it is called).
            end = min(node.end_lineno or node.lineno, len(starts) - 1)
            if not _worth(text[starts[node.lineno - 1] : starts[end]], words):
                continue
            env: dict[str, Any] = {}
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                env[arg.arg] = Opaque(None)
            for extra in (args.vararg, args.kwarg):
                if extra is not None:
                    env[extra.arg] = Opaque(None)
            evaluator.run_block(local, node.body, env, node.name)
        elif isinstance(node, ast.ClassDef) and evaluator.is_model(node):
            evaluator.created.append(evaluator.model(local, node))
    judge = ContractJudge(contracts)
    judge.judge(evaluator.created)
    return ContractObjects(judge, evaluator, tuple(modules.read))


def check_module(objects: ContractObjects, report: Report, code: Callable[[ast.AST], str]) -> None:
    """Judge the contract objects a module builds (``evaluate_module``): each finding goes to ``report``; the
    evaluated values are released after."""
    try:
        objects.judge.verdicts(report, code)
    finally:
        objects.release()


def _definitions(tree: ast.Module):
    """Every function and class of a module, nested ones included, without walking expressions."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for statement in block_statements(node):
            if isinstance(statement, _SCOPES):
                yield statement
            if statement.__class__ in BLOCK_CLASSES:  # a simple statement holds no definition
                stack.append(statement)


@lru_cache(maxsize=16)
def _words(contracts: tuple[Contract, ...]) -> tuple[tuple[frozenset[str], ...], frozenset[str]]:
    """(each contract object's keys, the words any one of which marks a builder: schema_version, container keys,
    the contracts' own enum and const values)."""
    marks = {"schema_version"} | {k for c in contracts for k in c.container_keys}
    for contract in contracts:
        for _, values, _ in contract.field_values:
            marks |= {v for v in values if isinstance(v, str) and "_" in v}
        for _, _, values, _ in contract.section_values:
            marks |= {v for v in values if isinstance(v, str) and "_" in v}
    return _place_words(contracts), frozenset(marks)


def _worth(segment: str, words: tuple[tuple[frozenset[str], ...], frozenset[str]]) -> bool:
    """A contract value, or two compound keys of one contract object (``waiting_on``, ``issue_ref_id``: single
    words such as ``state`` or ``summary`` are in every other function)."""
    marks, compound, objects = _searched(words)
    if any(w in segment for w in marks):
        return True
    # Each key searched once, though objects share keys: the search of the text is the cost.
    found = {w for w in compound if w in segment}
    return any(len(found.intersection(keys)) >= 2 for keys in objects)


@lru_cache(maxsize=16)
def _searched(
    words: tuple[tuple[frozenset[str], ...], frozenset[str]],
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[frozenset[str], ...]]:
    """What ``_worth`` searches: the marks (``schema_version`` first, the one most builders hold), the distinct
    compound keys that are no mark (a mark is absent by then), and each contract object's compound keys."""
    places, marks = words
    objects = tuple(frozenset(w for w in keys if "_" in w) for keys in places)
    compound = frozenset().union(*objects) - marks
    return (
        tuple(sorted(marks, key=lambda w: (w != "schema_version", w))),
        tuple(sorted(compound)),
        objects,
    )


@lru_cache(maxsize=16)
def _place_words(contracts: tuple[Contract, ...]) -> tuple[frozenset[str], ...]:
    return tuple(p.props for c in contracts for p in contract_places(c) if len(p.props) >= 3)


def may_build(text: str, contracts: tuple[Contract, ...]) -> bool:
    """A cheap literal prefilter: a contract value (``live_openviking_retrieval``) or two compound keys of one
    contract object (``waiting_on`` and ``next_action``) appear."""
    return _worth(text, _words(contracts))
