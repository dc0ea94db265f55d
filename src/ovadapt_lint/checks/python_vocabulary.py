"""The projection vocabulary of Python builders (``rules/vocabulary/python.toml``): which classes,
functions and receivers make a projection under ``--scope all``, which keys attest or flag, which
validators publish their argument; and small ``ast`` helpers the projection analysis shares.

Sources, sanitisers, propagators and sinks of the flow analysis are ``rules/flow/models.toml``
(``flow.models``)."""

from __future__ import annotations

import ast
import fnmatch
from dataclasses import dataclass
from functools import lru_cache

from .. import rulepack
from ..flow.build import dotted as dotted  # one definition of a Name/Attribute chain's name


@dataclass(frozen=True)
class PythonVocabulary:
    projection_functions: tuple[str, ...]
    projection_classes: tuple[str, ...]
    receivers: frozenset[str]
    marker_keys: frozenset[str]
    flag_suffixes: tuple[str, ...]
    flag_keys: frozenset[str]
    model_decorators: frozenset[str]
    model_bases: frozenset[str]
    public_validators: frozenset[str] = frozenset()
    # --scope all: the broad, name-based projection recognition of earlier versions
    audit: bool = False
    # published = "outputs": a dict that attests what it leaves out is output, schema or not
    outputs: bool = False

    def is_flag_key(self, key: str) -> bool:
        return key in self.flag_keys or key.endswith(self.flag_suffixes)

    def projection_function(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name.lower(), p) for p in self.projection_functions)

    def projection_class(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.projection_classes)


@lru_cache(maxsize=8)
def python_vocabulary(
    functions: tuple[str, ...] = (),
    classes: tuple[str, ...] = (),
    receivers: tuple[str, ...] = (),
    validators: tuple[str, ...] = (),
    audit: bool = False,
    outputs: bool = False,
) -> PythonVocabulary:
    """The built-in projection vocabulary, extended by the configuration's lists."""
    projection = rulepack.load_toml("vocabulary", "python.toml")["projection"]
    return PythonVocabulary(
        projection_functions=tuple(projection["functions"]) + functions,
        projection_classes=tuple(projection["classes"]) + classes,
        receivers=frozenset(projection["receivers"]) | frozenset(receivers),
        marker_keys=frozenset(projection["marker_keys"]),
        flag_suffixes=tuple(projection["flag_suffixes"]),
        flag_keys=frozenset(projection["flag_keys"]),
        model_decorators=frozenset(projection["model_decorators"]),
        model_bases=frozenset(projection["model_bases"]),
        public_validators=frozenset(projection.get("validators", ())) | frozenset(validators),
        audit=audit,
        outputs=outputs,
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
