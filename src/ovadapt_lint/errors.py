"""Exception types shared across modules.

They live here, apart from the modules that raise them, so that e.g.
``discover`` and ``config`` need not import each other for an error class.
"""

from __future__ import annotations


class ConfigError(Exception):
    """A configuration or usage problem: reported as a clear message, exit 2."""


class GitError(ConfigError):
    """A git problem the user must fix: not a repository, an unknown REF, git missing (exit 2)."""
