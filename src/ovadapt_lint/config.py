"""Configuration: the keys of a config file (one table, KEYS), the per-path settings they make (Config) and
the options of one run (RunOptions).

A config file is either ``[tool.ovadapt-lint]`` in ``pyproject.toml`` or the top level of
``.ovadapt-lint.toml`` / ``ovadapt-lint.toml``. Unknown keys and wrong types are errors (exit 2), like Ruff.
Each file is linted with the nearest config file above it (hierarchy.Configs), so most keys are per-path
settings; a run option (workers, cache, baseline, --force-include) is one value for the whole run, taken from
the first path's config file and the command line. KEYS also generates docs/configuration.md (configdocs.py).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

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


@dataclass(frozen=True)
class Key:
    """One setting: its config-file key, the field it fills, what its value must be, its default and its
    documentation (docs/configuration.md is generated from these)."""

    name: str | None  # the key in a config file; None: set on the command line (or the API) only
    attr: str  # the Config (per path) or RunOptions (run) field
    kind: str  # see _READERS: what the value must be, and how it is read
    default: Any
    doc: str
    run: bool = False  # a run option: one value for the run, not per path
    flag: str | None = None  # the command-line option that sets it too
    choices: tuple[str, ...] = ()
    extends: bool = False  # adds to ``attr`` instead of replacing it (extend-exclude)


KEYS: tuple[Key, ...] = (
    Key("select", "select", "codes", ("OVA",), "Rule codes or prefixes to report; `ALL` is `OVA`. "
        "The most specific selector wins, an ignore wins a tie (as in Ruff).", flag="--select"),
    Key("extend-select", "extend_select", "codes", (), "Codes or prefixes to report in addition "
        "to `select`.", flag="--extend-select"),
    Key("ignore", "ignore", "codes", (), "Codes or prefixes not to report.", flag="--ignore"),
    Key("per-file-ignores", "per_file_ignores", "ignores", {}, "Glob -> codes not to report in "
        "the matching files. Globs match the path relative to the config file's folder, or the file "
        "name; the findings are listed by `--show-suppressed`."),
    Key("include", "include", "globs", DEFAULT_INCLUDE, "The files a folder walk lints, ignoring "
        "case (files named on the command line are linted whatever their name).", flag="--include"),
    Key("exclude", "exclude", "globs", (), "Files or folders to skip; globs match the displayed "
        "path or the path relative to the config file's folder.", flag="--exclude"),
    Key("extend-exclude", "exclude", "globs", (), "Added to `exclude`.", flag="--extend-exclude",
        extends=True),
    Key("max-file-size", "max_file_size", "count", DEFAULT_MAX_FILE_SIZE, "Files larger than this "
        "many bytes are skipped with an OVA004 notice; 0: no limit.", flag="--max-file-size"),
    Key("scope", "scope", "choice", "published", "`published`: raw fields, raw content, local "
        "paths and private URLs are judged in what is published; credentials and internal names "
        "everywhere. `all`: every rule on every value (an audit).", flag="--scope", choices=SCOPES),
    Key("published", "published", "choice", "projections", "What the Python flow analysis treats "
        "as published: `projections` (recognised projections, public files, `public-sinks`) or "
        "`outputs` (also every machine-readable output: what is printed or json.dump-ed to standard "
        "output, what CLI command handlers return, and status dicts that repeat attestation flags "
        "without naming a schema).", flag="--published",
        choices=PUBLISHED),
    Key("public-paths", "public_paths", "globs", (), "Files or folders that are published, in "
        "addition to `*.public.json`, `*.public.jsonl` and `fixtures/` folders outside test paths; "
        "`!GLOB` takes matching files back out.", flag="--public-path"),
    Key("test-paths", "test_paths", "globs", (), "Test files or folders, in addition to the "
        "defaults (`tests/`, `test/`, `testing/`, `test_*.py`, `*_test.py`, `conftest.py`)."),
    Key("public-validators", "public_validators", "strings", (), "Calls whose argument is a "
        "public projection (a repository's own validator of its public fixtures)."),
    Key("public-sinks", "public_sinks", "sinks", (), "`package.module:function` or "
        "`package.module:Class.method` whose arguments are published; with `()` after it "
        "(`package.module:function()`), its return value is published (printed or sent by code "
        "outside the linted files, such as a CLI in another package)."),
    Key("projection-functions", "projection_functions", "globs", (), "Names of functions that "
        "build projections (fnmatch, lowercased; added to those of rules/vocabulary/python.toml), "
        "for the `--scope all` audit."),
    Key("projection-classes", "projection_classes", "globs", (), "Names of classes whose "
        "instances are projections."),
    Key("projection-receivers", "projection_receivers", "globs", (), "Names of variables that "
        "hold a projection being built."),
    Key("sanitizers", "sanitizers", "sanitizers", (), "Functions that redact, hash or validate: a "
        "value through one of them is no longer raw (added to the sanitisers of rules/flow/models.toml); "
        "`name:kind,kind` stops only those kinds (`pkg.text.mask_tokens:credential`)."),
    Key("deny-list", "deny_list", "paths", (), "Files of internal names (OVA701), relative to the "
        "config file: one per line, `#` comments, `re:PATTERN` (RE2), `sha256:HEX`.",
        flag="--deny-list"),
    Key("internal-domains", "internal_domains", "strings", (), "Domains whose hosts are internal "
        "(OVA603).", flag="--internal-domain"),
    Key("vocabulary", "vocabulary", "paths", (), "Key vocabulary files (TOML, the tables of "
        "rules/vocabulary/keys.toml), relative to the config file, merged into the built-in one.",
        flag="--vocabulary"),
    Key("extend-vocabulary", "extend_vocabulary", "table", {}, "Key vocabulary tables written "
        "inline, merged like a `vocabulary` file."),
    Key("summary-max-length", "summary_max_length", "count", None, "The longest value, in characters, "
        "of a one-line summary key such as `summary` or `next_action` (OVA301; default: the "
        "vocabulary's `compact_slots.max_length`, 280)."),
    Key("extend-rules", "extend_rules", "paths", (), "Extension rule files (rule TOML, contract "
        "JSON Schema), relative to the config file; `select` and `ignore` may name their codes."),
    Key("force-include", "force_include", "flag", False, "Lint files named on the command line "
        "even inside skipped folders or matching an exclude (pre-commit names every staged file).",
        run=True, flag="--force-include"),
    Key(None, "jobs", "count", 0, "Worker processes; 0: one per core, 1: in-process.", run=True,
        flag="--jobs"),
    Key(None, "use_cache", "flag", False, "Read and write the result cache: the command line does "
        "unless `--no-cache`, `--fix` or `--diff`; the API only when asked.", run=True,
        flag="--no-cache"),
    Key(None, "cache_dir", "path", None, "The result cache folder (default: `.ovadapt_cache` beside "
        "the first path's config file, or in the working directory; for `ovadapt-lint history`, in "
        "the repository's git folder).", run=True, flag="--cache-dir"),
    Key(None, "baseline", "path", None, "A baseline file: its findings are hidden, its entries "
        "that match nothing reported (OVA010).", run=True, flag="--baseline"),
    Key(None, "baseline_prune", "flag", False, "Remove the baseline's entries that match nothing.",
        run=True, flag="--baseline-prune"),
)  # fmt: skip
_BY_NAME = {key.name: key for key in KEYS if key.name is not None}
_BY_ATTR = {key.attr: key for key in KEYS if not key.extends}


def _default(attr: str) -> Any:
    """A dataclass field whose default is the table's."""
    default = _BY_ATTR[attr].default
    if isinstance(default, dict):
        return field(default_factory=dict)
    return field(default=default)


@dataclass(frozen=True)
class Config:
    """One configuration's per-path settings (every key not marked ``run``). What is built from them (rule
    pack, scanner, vocabularies) is an analysis.Analysis, built once per configuration by the run. Lists are
    kept as tuples (a list given is converted), so a configuration cannot change once made."""

    select: tuple[str, ...] = _default("select")
    extend_select: tuple[str, ...] = _default("extend_select")
    ignore: tuple[str, ...] = _default("ignore")
    per_file_ignores: dict[str, list[str]] = _default("per_file_ignores")
    include: tuple[str, ...] = _default("include")
    exclude: tuple[str, ...] = _default("exclude")
    max_file_size: int = _default("max_file_size")
    scope: str = _default("scope")
    published: str = _default("published")
    public_paths: tuple[str, ...] = _default("public_paths")
    test_paths: tuple[str, ...] = _default("test_paths")
    public_validators: tuple[str, ...] = _default("public_validators")
    public_sinks: tuple[str, ...] = _default("public_sinks")
    projection_functions: tuple[str, ...] = _default("projection_functions")
    projection_classes: tuple[str, ...] = _default("projection_classes")
    projection_receivers: tuple[str, ...] = _default("projection_receivers")
    sanitizers: tuple[str, ...] = _default("sanitizers")
    deny_list: tuple[Path, ...] = _default("deny_list")
    internal_domains: tuple[str, ...] = _default("internal_domains")
    vocabulary: tuple[Path, ...] = _default("vocabulary")
    extend_vocabulary: dict[str, Any] = _default("extend_vocabulary")
    summary_max_length: int | None = _default("summary_max_length")
    extend_rules: tuple[Path, ...] = _default("extend_rules")
    source: Path | None = None  # the config file this came from, if any
    # The run options this config file sets (force-include): only the first path's count (RunOptions.of).
    run_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for attr, value in vars(self).items():
            if isinstance(value, list):
                object.__setattr__(self, attr, tuple(value))

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

        def contents(paths: Sequence[Path]) -> list[str]:
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


@dataclass(frozen=True)
class RunOptions:
    """The options of one run (the keys marked ``run``): one pool, one cache folder, one baseline, whatever
    configuration each file has."""

    jobs: int = _default("jobs")
    use_cache: bool = _default("use_cache")
    cache_dir: Path | None = _default("cache_dir")
    baseline: Path | None = _default("baseline")
    baseline_prune: bool = _default("baseline_prune")
    force_include: bool = _default("force_include")

    @classmethod
    def of(cls, root: Config, **given: Any) -> RunOptions:
        """The options of a run whose first path has ``root``: what its config file sets, then ``given``
        (the command line's)."""
        return cls(**{**root.run_options, **given})

    def settled(self, root: Config) -> RunOptions:
        """With the cache folder named: the one given, else beside ``root``'s config file (every
        configuration of the run shares it)."""
        if not self.use_cache or self.cache_dir is not None:
            return self
        from .cache import DEFAULT_DIR

        folder = (root.source.parent if root.source is not None else Path(".")) / DEFAULT_DIR
        return dataclasses.replace(self, cache_dir=folder)


@dataclass(frozen=True)
class Overrides:
    """The command line's per-path settings, applied over every configuration of a run (``apply``)."""

    select: tuple[str, ...] | None = None  # replaces the selection, ignores included (as in Ruff)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    replace: Mapping[str, Any] = field(default_factory=dict)  # field -> value
    extend: Mapping[str, tuple] = field(default_factory=dict)  # field -> values added to it

    def apply(self, config: Config) -> Config:
        """``config`` with these settings over it; the codes are checked against its rule pack."""
        # The codes a selection may name: the built-in ones and those of the config's extension rules.
        selecting = self.select is not None or self.extend_select or self.ignore
        known = _known_codes(config.extend_rules) if selecting else None
        changes: dict[str, Any] = {
            attr: (*getattr(config, attr), *values) for attr, values in self.extend.items()
        }
        if self.select is not None:
            changes.update(select=tuple(validate_codes(self.select, "--select", known)))
            changes.update(extend_select=(), ignore=())
        for attr, codes, where in (
            ("extend_select", self.extend_select, "--extend-select"),
            ("ignore", self.ignore, "--ignore"),
        ):
            given = changes.get(attr, getattr(config, attr))
            changes[attr] = (*given, *validate_codes(codes, where, known))
        return dataclasses.replace(config, **changes, **self.replace)


def _code_stamp() -> list:
    """The linter's own modules (name, size, mtime): a development checkout must not reuse
    results computed by different code under the same version number."""
    package = os.path.dirname(os.path.abspath(__file__))
    modules = []
    # What sorted(package.rglob("*.py")) lists, without a Path per module (every run asks): each file below
    # the package, linked folders not entered, in the order of their parts.
    for folder, _, files in os.walk(package):
        above = os.path.relpath(folder, package).split(os.sep) if folder != package else []
        modules += [(*above, name) for name in files if name.endswith(".py")]
    stamp = []
    for parts in sorted(modules):
        info = os.stat(os.path.join(package, *parts))
        stamp.append([os.path.join(*parts), info.st_size, info.st_mtime_ns])
    return stamp


def validate_codes(codes: Sequence[str], where: str, known=None) -> list[str]:
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


class _Reading(NamedTuple):
    """What reading a value may need: the config file's folder (paths are relative to it) and the rules
    its codes may name (built-in and its extension rules)."""

    folder: Path
    rules: Callable[[], Mapping[str, Any]]


def _strings(value: Any, where: str, reading: _Reading) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of strings")
    return tuple(value)


def _paths(value: Any, where: str, reading: _Reading) -> tuple[Path, ...]:
    return tuple(reading.folder / v for v in _strings(value, where, reading))


def _codes(value: Any, where: str, reading: _Reading) -> tuple[str, ...]:
    return tuple(validate_codes(_strings(value, where, reading), where, reading.rules()))


def _sinks(value: Any, where: str, reading: _Reading) -> tuple[str, ...]:
    entries = _strings(value, where, reading)
    for entry in entries:
        named = entry.removesuffix("()")  # `pkg.mod:function()`: what it returns is published
        if ":" not in named or not all(
            p.replace("_", "a").replace(".", "a").isalnum() for p in named.split(":", 1)
        ):
            raise ConfigError(
                f"{where}: {entry!r} is not 'package.module:function' or "
                f"'package.module:Class.method'"
            )
    return entries


def _sanitizers(value: Any, where: str, reading: _Reading) -> tuple[str, ...]:
    from .flow.models import sanitizer_errors

    entries = _strings(value, where, reading)
    for error in sanitizer_errors(entries):
        raise ConfigError(f"{where}: {error}")
    return entries


def _table_value(value: Any, where: str, reading: _Reading) -> dict:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table")
    return value


def _ignores(value: Any, where: str, reading: _Reading) -> dict[str, list[str]]:
    for pattern, codes in _table_value(value, where, reading).items():
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise ConfigError(f"{where}: {pattern!r} must map to a list of rule codes")
    return {
        pattern: validate_codes(codes, f"{where} {pattern!r}", reading.rules())
        for pattern, codes in value.items()
    }


def _count(value: Any, where: str, reading: _Reading) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{where} must be a non-negative integer, got {value!r}")
    return value


def _flag(value: Any, where: str, reading: _Reading) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false, got {value!r}")
    return value


# kind -> reader: the value checked (a ConfigError naming the file and key) and converted.
_READERS: dict[str, Callable[[Any, str, _Reading], Any]] = {
    "strings": _strings,
    "globs": _strings,
    "paths": _paths,
    "codes": _codes,
    "sinks": _sinks,
    "sanitizers": _sanitizers,
    "table": _table_value,
    "ignores": _ignores,
    "count": _count,
    "flag": _flag,
}


def _read(key: Key, value: Any, where: str, reading: _Reading) -> Any:
    if key.kind == "choice":
        if value not in key.choices:
            raise ConfigError(f"{where} must be one of {', '.join(key.choices)}, got {value!r}")
        return value
    return _READERS[key.kind](value, where, reading)


def _table(path: Path) -> dict[str, Any] | None:
    data = read_toml(path, "config file")
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("ovadapt-lint")
    return data


def _check_known(path: Path, table: dict[str, Any]) -> None:
    unknown = [key for key in table if key not in _BY_NAME]
    if "tool" in unknown and isinstance(table["tool"], dict):
        # `[tool.ovadapt-lint]` copied from a pyproject.toml example into .ovadapt-lint.toml.
        raise ConfigError(
            f"{path}: unknown key 'tool': in {path.name} the keys sit at the top level, without a "
            f"[tool.ovadapt-lint] header (that header is for pyproject.toml only)"
        )
    if unknown:
        raise ConfigError(
            f"{path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_BY_NAME))})"
        )


def _known_codes(extend_rules: Sequence[Path]) -> dict:
    """The rules a selection may name: the built-in ones (without building a pack: no detector is imported
    to check a --select) and those of the extension rule files."""
    if not extend_rules:
        from .registry import all_rules

        return all_rules()
    from .analysis import read_rule_pack

    return read_rule_pack(extend_rules).rules


def _extension_rules(path: Path, table: dict[str, Any]) -> tuple[Path, ...]:
    """The file's extension rules, read now so a bad one is reported naming this file, and first: select
    and ignore may name the codes they define."""
    from .analysis import read_rule_pack

    if "extend-rules" not in table:
        return ()
    where = f"{path}: 'extend-rules'"
    files = _paths(table["extend-rules"], where, _Reading(path.parent, dict))
    read_rule_pack(files)
    return files


def _values(path: Path, table: dict[str, Any], reading: _Reading) -> dict[str, Any]:
    """field -> value of each key the file sets, checked; a key that extends a field adds to it."""
    values: dict[str, Any] = {}
    added: dict[str, tuple] = {}
    for name in sorted(table):
        key = _BY_NAME[name]
        value = _read(key, table[name], f"{path}: {name!r}", reading)
        (added if key.extends else values)[key.attr] = value
    for attr, extra in added.items():
        values[attr] = (*values.get(attr, _BY_ATTR[attr].default), *extra)
    return values


def load_config(path: Path, explicit: bool = True) -> Config | None:
    """The configuration of a config file; None for a pyproject.toml without our table (an error when
    ``explicit``, the file named by --config). A bad key or value is a ConfigError naming the file and key."""
    from .analysis import read_key_vocabulary

    table = _table(path)
    if table is None:
        if explicit and path.name == "pyproject.toml":
            raise ConfigError(f"{path}: no [tool.ovadapt-lint] table")
        return None
    _check_known(path, table)
    extend_rules = _extension_rules(path, table)
    reading = _Reading(path.parent, functools.cache(lambda: _known_codes(extend_rules)))
    values = _values(path, table, reading)
    run = {attr: values.pop(attr) for attr in list(values) if _BY_ATTR[attr].run}
    config = Config(**values, source=path, run_options=run)
    if not {"extend-vocabulary", "vocabulary", "summary-max-length"}.isdisjoint(table):
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
