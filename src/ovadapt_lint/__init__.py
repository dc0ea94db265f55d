"""ovadapt-lint: a static-analysis and redaction linter for public-safe projection fixtures.

Public API::

    from ovadapt_lint import lint_paths
    findings = lint_paths(["fixtures/"])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

if (
    TYPE_CHECKING
):  # the names below are imported on first use (__getattr__): `--version` reads none of them
    from .config import Config
    from .engine import lint_paths
    from .errors import ConfigError
    from .findings import Finding, Span
    from .fix import redact_text, redact_value

__all__ = [
    "Config",
    "ConfigError",
    "Finding",
    "Span",
    "lint_paths",
    "redact_text",
    "redact_value",
    "__version__",
]

# Public name -> the module that defines it. Importing the package must not import the engine, the rule pack
# and the detectors: the command line imports this package first, and `--version` needs none of them.
_LAZY = {
    "Config": "config",
    "ConfigError": "errors",
    "Finding": "findings",
    "Span": "findings",
    "lint_paths": "engine",
    "redact_text": "fix",
    "redact_value": "fix",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next lookup is an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
