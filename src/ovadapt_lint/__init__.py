"""ovadapt-lint: a static-analysis and redaction linter for public-safe projection fixtures.

Public API::

    from ovadapt_lint import lint_paths
    findings = lint_paths(["fixtures/"])
"""

from __future__ import annotations

from .config import Config
from .engine import lint_paths
from .errors import ConfigError
from .findings import Finding, Span
from .fix import redact_text, redact_value
from .version import __version__

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
