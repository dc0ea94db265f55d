"""Configuration: defaults, config files (TOML) and rule selection.

A config file is either ``[tool.ovadapt-lint]`` in ``pyproject.toml`` or the
top level of ``.ovadapt-lint.toml`` / ``ovadapt-lint.toml``. Unknown keys and
wrong types are errors (exit 2), like Ruff.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .analysis import read_toml
from .errors import ConfigError
from .source import DEFAULT_MAX_FILE_SIZE, read_regular

# Notebooks are JSON documents; their outputs are raw tool output (see classify.py for how they are judged).
DEFAULT_INCLUDE = ("*.json", "*.jsonl", "*.ndjson", "*.py", "*.ipynb")
CONFIG_FILENAMES = (".ovadapt-lint.toml", "ovadapt-lint.toml", "pyproject.toml")
# "published": path, URL, raw-field and raw-content rules judge published values only; "all": every string.
SCOPES = ("published", "all")
# What the Python flow analysis treats as published: recognised projections and public files, or also every
# machine-readable output (json.dump(s), print) of a repository that promises all its JSON output is public-safe.
PUBLISHED = ("projections", "outputs")


@dataclass
class Config:
    """A configuration's settings. What is built from them (rule pack, scanner, vocabularies) is an
    analysis.Analysis, built once per configuration by the run."""

    select: list[str] = field(default_factory=lambda: ["OVA"])
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=lambda: list(DEFAULT_INCLUDE))
    exclude: list[str] = field(default_factory=list)
    deny_list: list[Path] = field(default_factory=list)
    vocabulary: list[Path] = field(default_factory=list)
    internal_domains: list[str] = field(default_factory=list)
    # Python projection context (added to rules/vocabulary/python.toml) and sanitizers (to rules/flow/models.toml)
    projection_functions: list[str] = field(default_factory=list)
    projection_classes: list[str] = field(default_factory=list)
    projection_receivers: list[str] = field(default_factory=list)
    sanitizers: list[str] = field(default_factory=list)
    # The publication model (see classify.py): which files and values are published.
    scope: str = (
        "published"  # "published": content rules on published values only; "all": everywhere
    )
    public_paths: list[str] = field(default_factory=list)  # globs of published files or folders
    test_paths: list[str] = field(
        default_factory=list
    )  # globs of test files or folders (added to the defaults)
    public_validators: list[str] = field(
        default_factory=list
    )  # calls whose argument is a public projection
    public_sinks: list[str] = field(
        default_factory=list
    )  # "pkg.module:function": its arguments are published
    published: str = "projections"  # see PUBLISHED
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    summary_max_length: int | None = None
    extend_vocabulary: dict[str, Any] = field(default_factory=dict)
    extend_rules: list[Path] = field(default_factory=list)
    baseline: Path | None = None  # --baseline: hide the findings it records
    baseline_prune: bool = False  # --baseline-prune: drop entries that match nothing
    jobs: int = 0  # worker processes; 0: one per core, 1: in-process
    cache_dir: Path | None = (
        None  # None: .ovadapt_cache beside the config file (or in the working directory)
    )
    use_cache: bool = False  # the CLI turns it on; the API stays side-effect free unless asked
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    # Lint explicitly named files even inside skipped folders (node_modules, build, a venv) or excluded.
    force_include: bool = False
    source: Path | None = None  # the config file this came from, if any

    def enabled(self, code: str) -> bool:
        """Ruff semantics: the most specific matching selector wins; ignore wins ties."""
        best_select = max(
            (len(p) for p in self.select + self.extend_select if code.startswith(p)), default=-1
        )
        best_ignore = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return best_select >= 0 and best_select > best_ignore

    def analysis_digest(self) -> str:
        """Everything that changes what a file's analysis reports (not selection or suppression)."""
        import hashlib
        import json

        from . import rulepack
        from .version import __version__

        def contents(paths: list[Path]) -> list[str]:
            out = []
            for path in paths:
                try:
                    out.append(
                        read_regular(path).decode("utf-8")
                    )  # a FIFO must not block: see source.read_regular
                except (OSError, UnicodeDecodeError):
                    out.append(f"<unreadable {path}>")
            return out

        state = {
            "version": __version__,
            "code": _code_stamp(),
            "pack": rulepack.pack_digest(),
            "max_file_size": self.max_file_size,
            "deny": contents(self.deny_list),
            "vocabulary": contents(self.vocabulary),
            "extend_vocabulary": self.extend_vocabulary,
            "extend_rules": contents(self.extend_rules),
            "internal_domains": self.internal_domains,
            "summary_max_length": self.summary_max_length,
            "python": [
                self.projection_functions,
                self.projection_classes,
                self.projection_receivers,
                self.sanitizers,
            ],
            "publication": [
                self.scope,
                self.public_paths,
                self.test_paths,
                self.public_validators,
                self.public_sinks,
                self.published,
            ],
        }
        return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()

    def ignored_for(self, path: Path) -> dict[str, list[str]]:
        """pattern -> codes of the ``per-file-ignores`` entries that match a file. Patterns match the
        path relative to the config file's folder (or the working directory), or the file name."""
        import os

        from .discover import matches

        if not self.per_file_ignores:
            return {}
        base = self.source.parent if self.source is not None else Path(".")
        try:
            rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
        except ValueError:  # another drive on Windows
            rel = str(path)
        posix = rel.replace(os.sep, "/")
        return {
            pattern: codes
            for pattern, codes in self.per_file_ignores.items()
            if matches(posix, [pattern])
        }


def _code_stamp() -> list:
    """The linter's own modules (name, size, mtime): a development checkout must not reuse
    results computed by different code under the same version number."""
    package = Path(__file__).parent
    stamp = []
    for module in sorted(package.rglob("*.py")):
        info = module.stat()
        stamp.append([str(module.relative_to(package)), info.st_size, info.st_mtime_ns])
    return stamp


# key -> (attribute, expected type, element type of a list or the allowed values of a string)
_KEYS: dict[str, tuple[str, type, type | tuple[str, ...] | None]] = {
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
    "scope": ("scope", str, SCOPES),
    "published": ("published", str, PUBLISHED),
    "public-sinks": ("public_sinks", list, str),
    "public-paths": ("public_paths", list, str),
    "test-paths": ("test_paths", list, str),
    "public-validators": ("public_validators", list, str),
    "max-file-size": ("max_file_size", int, None),
    "extend-exclude": ("exclude", list, str),
    "per-file-ignores": ("per_file_ignores", dict, list),
    "summary-max-length": ("summary_max_length", int, None),
    "extend-vocabulary": ("extend_vocabulary", dict, None),
    "extend-rules": ("extend_rules", list, str),
    "force-include": ("force_include", bool, None),
}


def validate_codes(codes: list[str], where: str, known=None) -> list[str]:
    """``codes`` upper-cased; ``known``: the rule pack's rules (the built-in ones when not given)."""
    from . import registry

    known = known if known is not None else registry.all_rules()
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
    data = read_toml(path, "config file")
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("ovadapt-lint")
    return data


def load_config(path: Path, explicit: bool = True) -> Config | None:
    from .analysis import read_key_vocabulary, read_rule_pack

    table = _table(path)
    if table is None:
        if explicit and path.name == "pyproject.toml":
            raise ConfigError(f"{path}: no [tool.ovadapt-lint] table")
        return None
    config = Config(source=path)
    unknown = [key for key in table if key not in _KEYS]
    if "tool" in unknown and isinstance(table["tool"], dict):
        # `[tool.ovadapt-lint]` copied from a pyproject.toml example into .ovadapt-lint.toml.
        raise ConfigError(
            f"{path}: unknown key 'tool': in {path.name} the keys sit at the top level, without a "
            f"[tool.ovadapt-lint] header (that header is for pyproject.toml only)"
        )
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")
    # Extension rules first: select/ignore may name the codes they define.
    pack = None
    for key in sorted(table, key=lambda k: (k != "extend-rules", k == "extend-exclude")):
        value = table[key]
        attr, typ, elem = _KEYS[key]
        where = f"{path}: {key!r}"
        if typ is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ConfigError(f"{where} must be a non-negative integer, got {value!r}")
        if typ is list:
            assert isinstance(elem, type)
            if not isinstance(value, list) or not all(isinstance(v, elem) for v in value):
                raise ConfigError(f"{where} must be a list of strings")
        if typ is dict and not isinstance(value, dict):
            raise ConfigError(f"{where} must be a table")
        if typ is bool and not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, got {value!r}")
        if typ is str:
            assert isinstance(elem, tuple)
            if value not in elem:
                raise ConfigError(f"{where} must be one of {', '.join(elem)}, got {value!r}")
        if key == "public-sinks":
            for entry in value:
                if ":" not in entry or not all(
                    p.replace("_", "a").replace(".", "a").isalnum() for p in entry.split(":", 1)
                ):
                    raise ConfigError(
                        f"{where}: {entry!r} is not 'package.module:function' or "
                        f"'package.module:Class.method'"
                    )
        if key == "per-file-ignores":
            for pattern, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    raise ConfigError(f"{where}: {pattern!r} must map to a list of rule codes")
            pack = pack or read_rule_pack(config.extend_rules)
            value = {
                pattern: validate_codes(codes, f"{where} {pattern!r}", pack.rules)
                for pattern, codes in value.items()
            }
        if key in ("select", "extend-select", "ignore"):
            pack = pack or read_rule_pack(config.extend_rules)
            value = validate_codes(value, where, pack.rules)
        if key in ("deny-list", "vocabulary", "extend-rules"):
            value = [(path.parent / v) for v in value]
        if key == "extend-exclude":
            value = config.exclude + value
        setattr(config, attr, value)
        if key == "extend-rules":
            pack = read_rule_pack(config.extend_rules)  # checked now, naming this file
    if "extend-vocabulary" in table or "vocabulary" in table or "summary-max-length" in table:
        read_key_vocabulary(config)  # checked now, naming this file
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
