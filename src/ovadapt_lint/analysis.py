"""A run's analysis as one value: the rule pack, the string scanner and the key and Python vocabularies,
built from one configuration's settings and passed down to the checks (and pickled once to each worker). The
configuration holds settings; this holds what is built from them. The readers here turn a bad extension,
vocabulary or deny-list file into a ConfigError naming it.

Each part is built on first use: a run answered by the cache needs none of them (its key digests the files
they are read from: config.analysis_digest), so such a run never reads those files nor imports the detectors.
``Analysis.build`` builds them at once, for callers that must fail on a bad file before linting anything;
the engine does the same (``ready``) before it lints the first file the cache does not answer."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError
from .source import read_regular

if TYPE_CHECKING:
    from .checks.python_vocabulary import PythonVocabulary
    from .detect.denylist import DenyList
    from .detect.scanner import StringScanner
    from .flow.models import FlowModels
    from .keyclass import Vocabulary
    from .pack import RulePack
    from .registry import Rule

# The parts read from the configuration's files: built together by ``ready`` (and before pickling).
_READ_PARTS = ("pack", "keys", "deny_list")


@dataclass(frozen=True, eq=False)
class Analysis:
    """What a configuration's files are judged with: the rule pack, scanner, vocabularies and flow models,
    each built on first use from the settings (``config``)."""

    config: Any  # a config.Config (a layer above): the settings every part is built from
    internal_domains: tuple[str, ...]
    scope: str  # "published" or "all" (see config.SCOPES): which values the content checks judge
    # The configured projection functions, classes, receivers, sanitizers and validators (see `python`).
    python_names: tuple[tuple[str, ...], ...]
    # The flow analysis' configured models: public sinks ("pkg.mod:function") and what is published.
    public_sinks: tuple[str, ...] = ()
    published: str = "projections"

    @classmethod
    def of(cls, config) -> Analysis:
        """The analysis of ``config``, its parts not built yet (nothing is read here)."""
        return cls(
            config=config,
            internal_domains=tuple(config.internal_domains),
            scope=config.scope,
            python_names=(
                tuple(config.projection_functions),
                tuple(config.projection_classes),
                tuple(config.projection_receivers),
                tuple(config.sanitizers),
                tuple(config.public_validators),
            ),
            public_sinks=tuple(config.public_sinks),
            published=config.published,
        )

    @classmethod
    def build(cls, config) -> Analysis:
        """The analysis of ``config`` (a config.Config), built: every file it names is read here, so a bad one
        fails before any file is linted."""
        return cls.of(config).ready()

    def ready(self) -> Analysis:
        """Build the parts read from files now (a bad file is a ConfigError here, not inside a check)."""
        for name in _READ_PARTS:
            getattr(self, name)
        return self

    @property
    def built(self) -> bool:
        """Whether any part read from the configuration's files has been built."""
        return any(name in self.__dict__ for name in _READ_PARTS)

    @property
    def rules(self) -> dict[str, Rule]:
        """The rules files are judged with: the built-in ones, unless the configuration extends them (then the
        pack is built). What selecting and reporting a cached result needs, without the detectors."""
        if self.config.extend_rules or "pack" in self.__dict__:
            return self.pack.rules
        from .registry import all_rules

        return all_rules()  # the very dict a pack without extensions holds (pack._load)

    @cached_property
    def pack(self) -> RulePack:
        """The rule pack: built-in plus the configuration's ``extend-rules`` files."""
        return read_rule_pack(self.config.extend_rules)

    @cached_property
    def keys(self) -> Vocabulary:
        """The key classifier: built-in vocabulary plus the configured tables."""
        return read_key_vocabulary(self.config)

    @cached_property
    def deny_list(self) -> DenyList:
        """The internal-name entries, read from their files once."""
        return read_deny_list(self.config.deny_list)

    @cached_property
    def packages(self) -> dict[str, str]:
        """flow.modnames.module_name's memo (each folder's packages part): a run's modules share their folders,
        and each asks the folders above it for an ``__init__.py``."""
        return {}

    # Built on first use, where it is used: a run answered by the cache needs neither, and a worker builds
    # its own scanner (with its own string cache) from the shipped parts.
    @cached_property
    def scanner(self) -> StringScanner:
        """The detectors for every string."""
        from .detect.scanner import StringScanner

        return StringScanner(self.pack, self.deny_list, self.internal_domains)

    @cached_property
    def python(self) -> PythonVocabulary:
        """Projection context and sanitizers for Python files: the built-in vocabulary plus ``python_names``."""
        from .checks.python_vocabulary import python_vocabulary

        functions, classes, receivers, _, validators = (
            self.python_names
        )  # sanitizers: the flow models'
        return python_vocabulary(
            functions,
            classes,
            receivers,
            validators,
            audit=self.scope == "all",
            outputs=self.published == "outputs",
        )

    @cached_property
    def flow(self) -> FlowModels:
        """The flow analysis' models (rules/flow/models.toml) with the configured sanitizers, public sinks,
        validators and publication setting."""
        from .flow.models import flow_models

        validators = tuple(self.python.public_validators)
        return flow_models(self.python_names[3], self.public_sinks, validators, self.published)

    def __getstate__(self) -> dict[str, Any]:
        self.ready()  # a worker receives the parts built: it never reads the configuration's files
        return {k: v for k, v in self.__dict__.items() if k != "scanner"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def read_rule_pack(extend_rules: Sequence[Path]) -> RulePack:
    """The built-in pack plus ``extend-rules`` files (rule TOML, contract JSON Schema), checked once."""
    from .pack import RulePack

    rules: list[tuple[str, str]] = []
    contracts: list[tuple[str, str]] = []
    for path in extend_rules:
        try:
            text = read_regular(path).decode(
                "utf-8"
            )  # a FIFO must not block: see source.read_regular
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read extend-rules file {path}: {exc}") from exc
        (contracts if path.name.endswith(".json") else rules).append((str(path), text))
    try:
        pack = RulePack.load(tuple(rules), tuple(contracts))
        # The built-in pack is checked by the test suite; a run builds each part when a file needs it.
        return pack.check() if rules or contracts else pack
    except Exception as exc:  # a bad extension file is a configuration error, whatever the cause
        raise ConfigError(f"bad extend-rules file: {type(exc).__name__}: {exc}") from exc


def read_key_vocabulary(config) -> Vocabulary:
    """The key classifier of ``config`` (a config.Config): its ``vocabulary`` files, ``extend-vocabulary``
    table and ``summary-max-length`` over the built-in vocabulary."""
    import dataclasses

    from .keyclass import vocabulary

    extra = []
    for path in config.vocabulary:
        extra.append((str(path), json.dumps(read_toml(path, "vocabulary"), sort_keys=True)))
    if config.extend_vocabulary:
        where = f"{config.source or 'configuration'}: 'extend-vocabulary'"
        extra.append((where, json.dumps(config.extend_vocabulary, sort_keys=True)))
    try:
        vocab = vocabulary(tuple(extra))
    except (
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
    ) as exc:  # a table where a list belongs, …
        raise ConfigError(f"bad vocabulary: {exc}") from exc
    if config.summary_max_length is not None:
        vocab = dataclasses.replace(vocab, compact_slot_max=config.summary_max_length)
    return vocab


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """A user's TOML file (config, vocabulary): a read or syntax error is a one-line ConfigError."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    try:
        return tomllib.loads(read_regular(path).decode("utf-8"))  # a FIFO must not block
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read {what}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def read_deny_list(paths: Sequence[Path]) -> DenyList:
    from .detect.denylist import DenyList, DenyListDecodeError

    try:
        return DenyList.from_files(paths)
    except DenyListDecodeError as exc:
        raise ConfigError(f"cannot read deny-list {exc}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read deny-list: {exc}") from exc
    except ValueError as exc:
        raise ConfigError(f"bad deny-list entry: {exc}") from exc
