"""Intraprocedural taint for Python projection builders: which expressions carry
raw material, machine-local paths or credentials.

Sources, sanitizers and path/credential calls are data (``rules/vocabulary/python.toml``).
Unknown calls propagate their arguments' taint (a ``_text(body, 180)`` helper
still returns body text); sanitizers (``len``, ``bool``, hashing, comparisons)
stop it; selecting a compact field (``data["issue_id"]``) stops it too.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable

import libcst as cst

from .. import rulepack
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

    def through(self, step: Step) -> "Taint":
        return replace(self, via=self.via + (step,))


_KIND_ORDER = {"raw": 0, "credential": 1, "path": 2}


def pick(*taints: "Taint | None") -> "Taint | None":
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
    audit: bool = False  # --scope all: the broad, name-based projection recognition of earlier versions

    def sanitizer(self, name: str) -> bool:
        """A call that stops a flow: listed, or named like one (redact_*, *compact*, sha256, ...)."""
        last = name.rsplit(".", 1)[-1].lower()
        return (name in self.sanitizer_calls or last in self.sanitizer_methods
                or any(fnmatch.fnmatchcase(last, p) for p in self.sanitizer_patterns))

    def is_flag_key(self, key: str) -> bool:
        return key in self.flag_keys or key.endswith(self.flag_suffixes)

    def projection_function(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name.lower(), p) for p in self.projection_functions)

    def projection_class(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.projection_classes)

    def credential_env_name(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name.upper(), p) for p in self.credential_env)


@lru_cache(maxsize=8)
def python_vocabulary(functions: tuple[str, ...] = (), classes: tuple[str, ...] = (), receivers: tuple[str, ...] = (),
                      sanitizers: tuple[str, ...] = (), validators: tuple[str, ...] = (),
                      audit: bool = False) -> PythonVocabulary:
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
        sanitizer_methods=frozenset(clean["methods"]) | frozenset(s.rsplit(".", 1)[-1] for s in sanitizers),
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


def dotted(node: cst.BaseExpression) -> str | None:
    """``os.path.join`` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def string_value(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


_CATEGORY_TEXT = {
    "transcript": "raw transcript text", "raw-output": "raw body or output", "log": "raw log text",
    "embedding": "an embedding", "credential": "a credential", "local-path": "a machine-local path",
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
    code_for: Callable[[cst.CSTNode], str]
    where: Callable[[cst.CSTNode], tuple[int, int]]  # (line, 1-based column)
    env: dict[str, Taint] = field(default_factory=dict)
    # name -> Summary of a function defined in the module being analysed (None: unknown)
    summaries: "Callable[[str], Summary | None] | None" = None

    def _step(self, node: cst.CSTNode, text: str | None = None) -> Step:
        line, column = self.where(node)
        shown = text if text is not None else self.code_for(node)
        return Step(shown if len(shown) <= 60 else shown[:57] + "...", line, column)

    def _source(self, kind: str, category: str, description: str, node: cst.CSTNode) -> Taint:
        return Taint(kind, category, description, self._step(node))

    def assign(self, name: str, taint: Taint | None, node: cst.CSTNode) -> None:
        if taint is None:
            self.env.pop(name, None)
        else:
            self.env[name] = taint.through(self._step(node, name))

    def bind_target(self, target: cst.BaseExpression, taint: Taint | None, node: cst.CSTNode,
                    value: cst.BaseExpression | None = None) -> None:
        """``value``: the assigned expression, so ``a, b = x, y`` binds element-wise."""
        if isinstance(target, cst.Name):
            self.assign(target.value, taint, node)
        elif isinstance(target, (cst.Tuple, cst.List)):
            if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements) and not any(
                    isinstance(e, cst.StarredElement) for e in (*value.elements, *target.elements)):
                for element, item in zip(target.elements, value.elements):
                    self.bind_target(element.value, self.of(item.value), node, item.value)
                return
            for element in target.elements:
                self.bind_target(element.value, taint, node)

    def _named(self, name: str, node: cst.CSTNode, base: cst.BaseExpression | None, keyed: bool = False) -> Taint | None:
        """Reading attribute or key ``name`` (of ``base``); ``keyed``: a subscript or ``.get`` of a record."""
        if name in self.vocab.sanitizer_methods:
            return None
        category = self.vocab.raw_names.get(name)
        if category is not None:
            return self._source("raw", category, _CATEGORY_TEXT.get(category, "raw material"), node)
        if keyed and name in self.vocab.free_text_names:
            # A free-text field of an input record (event["message"], result["summary"]) is raw until sanitised.
            return self._source("raw", "raw-output", f'free text from an input record ("{name}")', node)
        inner = self.of(base) if base is not None else None
        if inner is not None and self.keys.classify(name).reason in ("compact key", "compact suffix"):
            return None  # selecting an id, ref or count out of raw data
        return inner

    def _environ(self, name: str, node: cst.CSTNode) -> Taint | None:
        if name.upper() in self.vocab.path_env:
            return self._source("path", "local-path", "a machine-local path", node)
        if self.vocab.credential_env_name(name):
            return self._source("credential", "credential", "a credential from the environment", node)
        return None

    def of(self, node: cst.BaseExpression | None) -> Taint | None:
        """The taint an expression's value carries, or None."""
        if node is None:
            return None
        if isinstance(node, cst.Name):
            if node.value == "__file__":
                return self._source("path", "local-path", "a machine-local path", node)
            return self.env.get(node.value)
        if isinstance(node, cst.Attribute):
            name = dotted(node)
            if name in ("sys.stdin", "sys.argv"):
                return self._source("raw", "raw-output", "raw input", node)
            if name in self.vocab.path_names:
                return self._source("path", "local-path", "a machine-local path", node)
            if name == "os.environ":
                return None
            return self._named(node.attr.value, node, node.value)
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, cst.BinaryOperation):
            return pick(self.of(node.left), self.of(node.right))
        if isinstance(node, cst.BooleanOperation):
            return pick(self.of(node.left), self.of(node.right))
        if isinstance(node, (cst.Comparison, cst.Lambda)):
            return None
        if isinstance(node, cst.UnaryOperation):
            return None if isinstance(node.operator, cst.Not) else self.of(node.expression)
        if isinstance(node, cst.IfExp):
            return pick(self.of(node.body), self.of(node.orelse))
        if isinstance(node, cst.FormattedString):
            return pick(*(self.of(part.expression) for part in node.parts
                          if isinstance(part, cst.FormattedStringExpression)))
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            return pick(*(self.of(e.value) for e in node.elements))
        if isinstance(node, cst.Dict):
            return pick(*(self.of(e.value) for e in node.elements))
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            return self._comprehension(node)
        if isinstance(node, (cst.Await, cst.StarredElement)):
            return self.of(node.expression if isinstance(node, cst.Await) else node.value)
        if isinstance(node, cst.NamedExpr):
            return self.of(node.value)
        return None

    def _subscript(self, node: cst.Subscript) -> Taint | None:
        key = None
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = string_value(node.slice[0].slice.value)
        if dotted(node.value) == "os.environ" and key is not None:
            return self._environ(key, node)
        if key is not None:
            return self._named(key, node, node.value, keyed=True)
        return self.of(node.value)

    def _call(self, node: cst.Call) -> Taint | None:
        name = dotted(node.func) or ""
        args = [a.value for a in node.args]
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
        if isinstance(node.func, cst.Attribute):
            method = node.func.attr.value
            if method in self.vocab.sanitizer_methods:
                return None
            if method in self.vocab.file_reads:
                return self._source("raw", "raw-output", "file content", node)
            if method in self.vocab.path_methods:
                return pick(self.of(node.func.value), self._source("path", "local-path", "a machine-local path", node))
            if method == "get" and args and string_value(args[0]) is not None:
                return self._named(string_value(args[0]), node, node.func.value, keyed=True)
            if method in self.vocab.propagator_methods:
                # str methods and joins keep their text: "".join(lines), body.strip(), tmpl.format(x)
                return pick(self.of(node.func.value), *(self.of(a) for a in args))
            if self.vocab.audit:
                return pick(self.of(node.func.value), *(self.of(a) for a in args))
            return None  # an unknown method returns something else (a count, a bool, a new object)
        if name in self.vocab.propagators or self.vocab.audit:
            return pick(*(self.of(a) for a in args))
        return None  # an unknown function: its result is not its arguments

    def _summarised(self, summary: "Summary", node: cst.Call, args: list) -> Taint | None:
        """A call to a function of this module: what its result carries, by its summary."""
        carried = [self.of(args[i]) for i in summary.params if i < len(args)]
        carried += [self.of(a.value) for a in node.args if a.keyword is not None and a.keyword.value in summary.keywords]
        return pick(summary.intrinsic, *carried)

    def _comprehension(self, node) -> Taint | None:
        saved = dict(self.env)
        try:
            clause = node.for_in
            while clause is not None:
                self.bind_target(clause.target, self.of(clause.iter), clause)
                clause = clause.inner_for_in
            if isinstance(node, cst.DictComp):
                return self.of(node.value)  # keys name fields; only values carry material
            return self.of(node.elt)
        finally:
            self.env = saved
