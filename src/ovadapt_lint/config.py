"""Configuration: defaults, config files (TOML) and rule selection.

A config file is either ``[tool.ovadapt-lint]`` in ``pyproject.toml`` or the
top level of ``.ovadapt-lint.toml`` / ``ovadapt-lint.toml``. Unknown keys and
wrong types are errors (exit 2), like Ruff.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .source import DEFAULT_MAX_FILE_SIZE

DEFAULT_INCLUDE = ("*.json", "*.jsonl", "*.py")
CONFIG_FILENAMES = (".ovadapt-lint.toml", "ovadapt-lint.toml", "pyproject.toml")


class ConfigError(Exception):
    """A configuration or usage problem: reported as a clear message, exit 2."""


@dataclass
class Config:
    select: list[str] = field(default_factory=lambda: ["OVA"])
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=lambda: list(DEFAULT_INCLUDE))
    exclude: list[str] = field(default_factory=list)
    deny_list: list[Path] = field(default_factory=list)
    vocabulary: list[Path] = field(default_factory=list)
    internal_domains: list[str] = field(default_factory=list)
    # Python projection context and sanitizers, added to rules/vocabulary/python.toml
    projection_functions: list[str] = field(default_factory=list)
    projection_classes: list[str] = field(default_factory=list)
    projection_receivers: list[str] = field(default_factory=list)
    sanitizers: list[str] = field(default_factory=list)
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    source: Path | None = None  # the config file this came from, if any
    # Built on first use from the fields above (files are read once per run, not per file).
    _scanner: Any = field(default=None, repr=False, compare=False)
    _vocabulary: Any = field(default=None, repr=False, compare=False)

    def enabled(self, code: str) -> bool:
        """Ruff semantics: the most specific matching selector wins; ignore wins ties."""
        best_select = max((len(p) for p in self.select + self.extend_select if code.startswith(p)), default=-1)
        best_ignore = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return best_select >= 0 and best_select > best_ignore

    def string_scanner(self):
        """The detectors for every string, built once per configuration."""
        if self._scanner is None:
            from .detect.denylist import DenyList
            from .detect.scanner import StringScanner

            try:
                deny = DenyList.from_files(self.deny_list)
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"cannot read deny-list: {exc}") from exc
            except ValueError as exc:
                raise ConfigError(f"bad deny-list entry: {exc}") from exc
            self._scanner = StringScanner(deny, tuple(self.internal_domains))
        return self._scanner

    def python_vocabulary(self):
        from .checks.python_taint import python_vocabulary

        return python_vocabulary(tuple(self.projection_functions), tuple(self.projection_classes),
                                 tuple(self.projection_receivers), tuple(self.sanitizers))

    def key_vocabulary(self):
        """The key classifier: built-in vocabulary plus the configured vocabulary files."""
        if self._vocabulary is None:
            self._vocabulary = self._load_vocabulary()
        return self._vocabulary

    def _load_vocabulary(self):
        from .keyclass import vocabulary

        extra = []
        for path in self.vocabulary:
            try:
                extra.append((str(path), path.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"cannot read vocabulary {path}: {exc}") from exc
        try:
            return vocabulary(tuple(extra))
        except (ValueError, KeyError, TypeError) as exc:  # TOMLDecodeError is a ValueError
            raise ConfigError(f"bad vocabulary file: {exc}") from exc


# key -> (attribute, expected type, element type)
_KEYS: dict[str, tuple[str, type, type | None]] = {
    "select": ("select", list, str),
    "extend-select": ("extend_select", list, str),
    "ignore": ("ignore", list, str),
    "include": ("include", list, str),
    "exclude": ("exclude", list, str),
    "deny-list": ("deny_list", list, str),
    "vocabulary": ("vocabulary", list, str),
    "internal-domains": ("internal_domains", list, str),
    "projection-functions": ("projection_functions", list, str),
    "projection-classes": ("projection_classes", list, str),
    "projection-receivers": ("projection_receivers", list, str),
    "sanitizers": ("sanitizers", list, str),
    "max-file-size": ("max_file_size", int, None),
}


def validate_codes(codes: list[str], where: str) -> list[str]:
    from . import registry

    known = registry.all_rules()
    out = []
    for raw in codes:
        code = raw.strip().upper()
        if not code:
            continue
        if code == "ALL":
            code = "OVA"
        if not code.startswith("OVA") or not any(k.startswith(code) for k in known):
            raise ConfigError(f"{where}: unknown rule code or prefix {raw!r}")
        out.append(code)
    return out


def _table(path: Path) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read config file: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("ovadapt-lint")
    return data


def load_config(path: Path, explicit: bool = True) -> Config | None:
    table = _table(path)
    if table is None:
        if explicit and path.name == "pyproject.toml":
            raise ConfigError(f"{path}: no [tool.ovadapt-lint] table")
        return None
    config = Config(source=path)
    for key, value in table.items():
        if key not in _KEYS:
            raise ConfigError(f"{path}: unknown key {key!r} (known: {', '.join(sorted(_KEYS))})")
        attr, typ, elem = _KEYS[key]
        if typ is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(f"{path}: {key!r} must be an integer, got {type(value).__name__}")
        if typ is list and (not isinstance(value, list) or not all(isinstance(v, elem) for v in value)):
            raise ConfigError(f"{path}: {key!r} must be a list of strings")
        if key in ("select", "extend-select", "ignore"):
            value = validate_codes(value, f"{path}: {key!r}")
        if key in ("deny-list", "vocabulary"):
            value = [(path.parent / v) for v in value]
        setattr(config, attr, value)
    return config


def find_config(start: Path) -> Config | None:
    """Walk up from ``start`` and load the first config file that has our table."""
    here = start.resolve()
    if here.is_file():
        here = here.parent
    for folder in (here, *here.parents):
        for name in CONFIG_FILENAMES:
            candidate = folder / name
            if candidate.is_file():
                config = load_config(candidate, explicit=False)
                if config is not None:
                    return config
    return None
