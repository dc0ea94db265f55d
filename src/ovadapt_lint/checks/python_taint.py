"""Taint for Python projection builders, on the stdlib ``ast``: which expressions carry
raw material, machine-local paths or credentials.

Sources, sanitizers and propagators are data (``rules/vocabulary/python.toml``).
Calls to the module's own functions are followed by their summaries; listed
propagators (``str``, ``"".join``, ``.strip()``) keep their arguments' taint;
any other call's result does not. Sanitizers (``len``, ``bool``, hashing,
``redact*``, comparisons) stop it, and so does selecting a compact field
(``data["issue_id"]``).
"""

from __future__ import annotations

import ast
import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .. import rulepack
from ..flow.build import dotted as dotted  # one definition of a Name/Attribute chain's name
from ..keyclass import Vocabulary


@dataclass(frozen=True)
class Step:
    text: str  # what the value is called at this step ('msg.content', 'first_line')
    line: int
    column: int  # 1-based


@dataclass(frozen=True)
class Taint:
    kind: str  # raw | path | credential
    category: str  # raw: the key-vocabulary category; path: local-path; credential: credential
    description: str  # "raw message text", "a machine-local path", ...
    source: Step
    via: tuple[Step, ...] = ()

    def through(self, step: Step) -> Taint:
        return replace(self, via=self.via + (step,))


_KIND_ORDER = {"raw": 0, "credential": 1, "path": 2}


def pick(*taints: Taint | None) -> Taint | None:
    """The most serious of several taints (raw, then credential, then path)."""
    present = [t for t in taints if t is not None]
    return min(present, key=lambda t: _KIND_ORDER[t.kind]) if present else None


@dataclass(frozen=True)
class PythonVocabulary:
    raw_names: dict
    raw_calls: frozenset[str]
    path_names: frozenset[str]
    file_reads: frozenset[str]
    path_calls: frozenset[str]
    path_methods: frozenset[str]
    path_env: frozenset[str]
    credential_env: tuple[str, ...]
    sanitizer_calls: frozenset[str]
    sanitizer_methods: frozenset[str]
    projection_functions: tuple[str, ...]
    projection_classes: tuple[str, ...]
    receivers: frozenset[str]
    marker_keys: frozenset[str]
    flag_suffixes: tuple[str, ...]
    flag_keys: frozenset[str]
    model_decorators: frozenset[str]
    model_bases: frozenset[str]
    sanitizer_patterns: tuple[str, ...] = ()
    propagators: frozenset[str] = frozenset()
    propagator_methods: frozenset[str] = frozenset()
    free_text_names: frozenset[str] = frozenset()
    public_validators: frozenset[str] = frozenset()
    audit: bool = (
        False  # --scope all: the broad, name-based projection recognition of earlier versions
    )
    # Answers by call name: the taint walk asks about the same calls many times per module.
    _sanitizers: dict = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def sanitizer(self, name: str) -> bool:
        """A call that stops a flow: listed, or named like one (redact_*, *compact*, sha256, ...)."""
        answer = self._sanitizers.get(name)
        if answer is None:
            last = name.rsplit(".", 1)[-1].lower()
            answer = self._sanitizers[name] = (
                name in self.sanitizer_calls
                or last in self.sanitizer_methods
                or any(fnmatch.fnmatchcase(last, p) for p in self.sanitizer_patterns)
            )
        return answer

    def is_flag_key(self, key: str) -> bool:
        return key in self.flag_keys or key.endswith(self.flag_suffixes)

    def projection_function(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name.lower(), p) for p in self.projection_functions)

    def projection_class(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.projection_classes)

    def credential_env_name(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name.upper(), p) for p in self.credential_env)


@lru_cache(maxsize=8)
def python_vocabulary(
    functions: tuple[str, ...] = (),
    classes: tuple[str, ...] = (),
    receivers: tuple[str, ...] = (),
    sanitizers: tuple[str, ...] = (),
    validators: tuple[str, ...] = (),
    audit: bool = False,
) -> PythonVocabulary:
    """The built-in Python vocabulary, extended by the configuration's lists."""
    data = rulepack.load_toml("vocabulary", "python.toml")
    projection, sources, clean = data["projection"], data["sources"], data["sanitizers"]
    return PythonVocabulary(
        raw_names=dict(sources["raw_names"]),
        raw_calls=frozenset(sources.get("raw_calls", ())),
        path_names=frozenset(sources.get("path_names", ())),
        file_reads=frozenset(sources["file_reads"]),
        path_calls=frozenset(sources["path_calls"]),
        path_methods=frozenset(sources["path_methods"]),
        path_env=frozenset(sources["path_env"]),
        credential_env=tuple(sources["credential_env"]),
        sanitizer_calls=frozenset(clean["calls"]) | frozenset(sanitizers),
        sanitizer_methods=frozenset(clean["methods"])
        | frozenset(s.rsplit(".", 1)[-1] for s in sanitizers),
        projection_functions=tuple(projection["functions"]) + functions,
        projection_classes=tuple(projection["classes"]) + classes,
        receivers=frozenset(projection["receivers"]) | frozenset(receivers),
        marker_keys=frozenset(projection["marker_keys"]),
        flag_suffixes=tuple(projection["flag_suffixes"]),
        flag_keys=frozenset(projection["flag_keys"]),
        model_decorators=frozenset(projection["model_decorators"]),
        model_bases=frozenset(projection["model_bases"]),
        sanitizer_patterns=tuple(clean.get("patterns", ())),
        propagators=frozenset(data["propagators"]["calls"]),
        propagator_methods=frozenset(data["propagators"]["methods"]),
        free_text_names=frozenset(sources.get("free_text_names", ())),
        public_validators=frozenset(projection.get("validators", ())) | frozenset(validators),
        audit=audit,
    )


def string_value(node: ast.AST | None) -> str | None:
    """A string literal's value (implicit concatenations included); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def is_false(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def call_args(node: ast.Call) -> list[ast.expr]:
    """Positional arguments (a ``*x`` as ``x``), then keyword values, in source order."""
    positional = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
    return positional + [k.value for k in node.keywords]


_CATEGORY_TEXT = {
    "transcript": "raw transcript text",
    "raw-output": "raw body or output",
    "log": "raw log text",
    "embedding": "an embedding",
    "credential": "a credential",
    "local-path": "a machine-local path",
}


@dataclass(frozen=True)
class Summary:
    """What a module function's result carries: its own sources, and which parameters reach it."""

    intrinsic: Taint | None
    params: tuple[int, ...] = ()
    keywords: tuple[str, ...] = ()


@dataclass
class TaintTracker:
    vocab: PythonVocabulary
    keys: Vocabulary
    code_for: Callable[[ast.AST], str]
    where: Callable[[ast.AST], tuple[int, int]]  # (line, 1-based column)
    env: dict[str, Taint] = field(default_factory=dict)
    # name -> Summary of a function defined in the module being analysed (None: unknown)
    summaries: Callable[[str], Summary | None] | None = None

    def _step(self, node: ast.AST, text: str | None = None) -> Step:
        line, column = self.where(node)
        shown = text if text is not None else self.code_for(node)
        return Step(shown if len(shown) <= 60 else shown[:57] + "...", line, column)

    def _source(self, kind: str, category: str, description: str, node: ast.AST) -> Taint:
        return Taint(kind, category, description, self._step(node))

    def assign(self, name: str, taint: Taint | None, node: ast.AST) -> None:
        if taint is None:
            self.env.pop(name, None)
        else:
            self.env[name] = taint.through(self._step(node, name))

    def bind_target(
        self, target: ast.AST, taint: Taint | None, node: ast.AST, value: ast.AST | None = None
    ) -> None:
        """``value``: the assigned expression, so ``a, b = x, y`` binds element-wise."""
        if isinstance(target, ast.Name):
            self.assign(target.id, taint, node)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if (
                isinstance(value, (ast.Tuple, ast.List))
                and len(value.elts) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in (*value.elts, *target.elts))
            ):
                for element, item in zip(target.elts, value.elts):
                    self.bind_target(element, self.of(item), node, item)
                return
            for element in target.elts:
                self.bind_target(
                    element.value if isinstance(element, ast.Starred) else element, taint, node
                )

    def _named(
        self, name: str, node: ast.AST, base: ast.AST | None, keyed: bool = False
    ) -> Taint | None:
        """Reading attribute or key ``name`` (of ``base``); ``keyed``: a subscript or ``.get`` of a record."""
        if name in self.vocab.sanitizer_methods:
            return None
        category = self.vocab.raw_names.get(name)
        if category is not None:
            return self._source("raw", category, _CATEGORY_TEXT.get(category, "raw material"), node)
        if keyed and name in self.vocab.free_text_names:
            # A free-text field of an input record (event["message"], result["summary"]) is raw until sanitised.
            return self._source(
                "raw", "raw-output", f'free text from an input record ("{name}")', node
            )
        inner = self.of(base) if base is not None else None
        if inner is not None and self.keys.classify(name).reason in (
            "compact key",
            "compact suffix",
        ):
            return None  # selecting an id, ref or count out of raw data
        return inner

    def _environ(self, name: str, node: ast.AST) -> Taint | None:
        if name.upper() in self.vocab.path_env:
            return self._source("path", "local-path", "a machine-local path", node)
        if self.vocab.credential_env_name(name):
            return self._source(
                "credential", "credential", "a credential from the environment", node
            )
        return None

    def of(self, node: ast.AST | None) -> Taint | None:
        """The taint an expression's value carries, or None."""
        if node is None:
            return None
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return self._source("path", "local-path", "a machine-local path", node)
            return self.env.get(node.id)
        if isinstance(node, ast.Attribute):
            name = dotted(node)
            if name in ("sys.stdin", "sys.argv"):
                return self._source("raw", "raw-output", "raw input", node)
            if name in self.vocab.path_names:
                return self._source("path", "local-path", "a machine-local path", node)
            if name == "os.environ":
                return None
            return self._named(node.attr, node, node.value)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.BinOp):
            return pick(self.of(node.left), self.of(node.right))
        if isinstance(node, ast.BoolOp):
            return pick(*(self.of(v) for v in node.values))
        if isinstance(node, (ast.Compare, ast.Lambda)):
            return None
        if isinstance(node, ast.UnaryOp):
            return None if isinstance(node.op, ast.Not) else self.of(node.operand)
        if isinstance(node, ast.IfExp):
            return pick(self.of(node.body), self.of(node.orelse))
        if isinstance(node, ast.JoinedStr):
            return pick(
                *(
                    self.of(part.value)
                    for part in node.values
                    if isinstance(part, ast.FormattedValue)
                )
            )
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return pick(*(self.of(e) for e in node.elts))
        if isinstance(node, ast.Dict):
            return pick(*(self.of(v) for v in node.values))
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self._comprehension(node)
        if isinstance(node, (ast.Await, ast.Starred, ast.NamedExpr)):
            return self.of(node.value)
        return None

    def _subscript(self, node: ast.Subscript) -> Taint | None:
        key = string_value(node.slice)
        if dotted(node.value) == "os.environ" and key is not None:
            return self._environ(key, node)
        if key is not None:
            return self._named(key, node, node.value, keyed=True)
        return self.of(node.value)

    def _call(self, node: ast.Call) -> Taint | None:
        name = dotted(node.func) or ""
        args = call_args(node)
        if name in ("os.getenv", "os.environ.get", "environ.get", "getenv") and args:
            key = string_value(args[0])
            return self._environ(key, node) if key is not None else None
        if name.startswith("hashlib.") or (name and self.vocab.sanitizer(name)):
            return None
        if name in self.vocab.path_calls:
            return self._source("path", "local-path", "a machine-local path", node)
        if name in self.vocab.raw_calls:
            return self._source("raw", "raw-output", "raw command output", node)
        if self.summaries is not None and name:
            summary = self.summaries(name.rsplit(".", 1)[-1])
            if summary is not None:
                return self._summarised(summary, node, args)
        if isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in self.vocab.sanitizer_methods:
                return None
            if method in self.vocab.file_reads:
                return self._source("raw", "raw-output", "file content", node)
            if method in self.vocab.path_methods:
                return pick(
                    self.of(node.func.value),
                    self._source("path", "local-path", "a machine-local path", node),
                )
            if method == "get" and args and string_value(args[0]) is not None:
                return self._named(string_value(args[0]), node, node.func.value, keyed=True)  # type: ignore[arg-type]
            if method in self.vocab.propagator_methods:
                # str methods and joins keep their text: "".join(lines), body.strip(), tmpl.format(x)
                return pick(self.of(node.func.value), *(self.of(a) for a in args))
            if self.vocab.audit:
                return pick(self.of(node.func.value), *(self.of(a) for a in args))
            return None  # an unknown method returns something else (a count, a bool, a new object)
        if name in self.vocab.propagators or self.vocab.audit:
            return pick(*(self.of(a) for a in args))
        return None  # an unknown function: its result is not its arguments

    def _summarised(self, summary: Summary, node: ast.Call, args: list) -> Taint | None:
        """A call to a function of this module: what its result carries, by its summary."""
        carried = [self.of(args[i]) for i in summary.params if i < len(args)]
        carried += [
            self.of(k.value)
            for k in node.keywords
            if k.arg is not None and k.arg in summary.keywords
        ]
        return pick(summary.intrinsic, *carried)

    def _comprehension(self, node) -> Taint | None:
        saved = dict(self.env)
        try:
            for clause in node.generators:
                self.bind_target(clause.target, self.of(clause.iter), clause.target)
            if isinstance(node, ast.DictComp):
                return self.of(node.value)  # keys name fields; only values carry material
            return self.of(node.elt)
        finally:
            self.env = saved
