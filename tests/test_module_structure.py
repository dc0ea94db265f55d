"""Module layering and rule-pack integrity that would otherwise only fail at run time."""

from __future__ import annotations

import ast
from pathlib import Path

import ovadapt_lint

SRC = Path(ovadapt_lint.__file__).parent


def _imported_modules(name: str) -> set[str]:
    """The package-relative modules ``name`` imports, at module level or inside functions."""
    tree = ast.parse((SRC / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_discover_does_not_import_config_for_its_error_type():
    assert "config" not in _imported_modules("discover")
    assert "discover" not in _imported_modules("errors") and "config" not in _imported_modules("errors")


def test_config_error_is_one_class_wherever_it_is_imported_from():
    from ovadapt_lint import ConfigError, config, errors, vcs

    assert config.ConfigError is errors.ConfigError is ConfigError
    assert issubclass(vcs.GitError, errors.ConfigError)
