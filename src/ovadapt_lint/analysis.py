"""A run's analysis as one value: the rule pack, the string scanner and the key and Python vocabularies,
built once per configuration from its settings and passed down to the checks (and pickled once to each
worker). The configuration holds settings; this holds what is built from them. The readers here turn a
bad extension, vocabulary or deny-list file into a ConfigError naming it."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .detect.denylist import DenyList, DenyListDecodeError
from .detect.scanner import StringScanner
from .errors import ConfigError
from .keyclass import Vocabulary, vocabulary
from .pack import RulePack
from .source import read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

if TYPE_CHECKING:
    from .checks.python_vocabulary import PythonVocabulary
    from .flow.models import FlowModels


@dataclass(frozen=True, eq=False)
class Analysis:
    pack: RulePack
    keys: Vocabulary  # the key classifier: built-in vocabulary plus the configured tables
    deny_list: DenyList  # the internal-name entries, read from their files once
    internal_domains: tuple[str, ...]
    scope: str  # "published" or "all" (see config.SCOPES): which values the content checks judge
    # The configured projection functions, classes, receivers, sanitizers and validators (see `python`).
    python_names: tuple[tuple[str, ...], ...]
    # The flow analysis' configured models: public sinks ("pkg.mod:function") and what is published.
    public_sinks: tuple[str, ...] = ()
    published: str = "projections"

    @classmethod
    def build(cls, config) -> Analysis:
        """The analysis of ``config`` (a config.Config): every file it names is read here, so a bad one fails
        before any file is linted."""
        return cls(
            pack=read_rule_pack(config.extend_rules),
            keys=read_key_vocabulary(config),
            deny_list=read_deny_list(config.deny_list),
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

    # Built on first use, where it is used: a run answered by the cache needs neither, and a worker builds
    # its own scanner (with its own string cache) from the shipped parts.
    @cached_property
    def scanner(self) -> StringScanner:
        """The detectors for every string."""
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
        return {k: v for k, v in self.__dict__.items() if k != "scanner"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def read_rule_pack(extend_rules: Sequence[Path]) -> RulePack:
    """The built-in pack plus ``extend-rules`` files (rule TOML, contract JSON Schema), checked once."""
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
    extra = []
    for path in config.vocabulary:
        extra.append((str(path), json.dumps(read_toml(path, "vocabulary"), sort_keys=True)))
    if config.extend_vocabulary:
        where = f"{config.source or 'configuration'}: 'extend-vocabulary'"
        extra.append((where, json.dumps(config.extend_vocabulary, sort_keys=True)))
    try:
        vocab = vocabulary(tuple(extra))
    except (ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"bad vocabulary: {exc}") from exc
    if config.summary_max_length is not None:
        vocab = dataclasses.replace(vocab, compact_slot_max=config.summary_max_length)
    return vocab


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """A user's TOML file (config, vocabulary): a read or syntax error is a one-line ConfigError."""
    try:
        return tomllib.loads(read_regular(path).decode("utf-8"))  # a FIFO must not block
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read {what}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def read_deny_list(paths: Sequence[Path]) -> DenyList:
    try:
        return DenyList.from_files(paths)
    except DenyListDecodeError as exc:
        raise ConfigError(f"cannot read deny-list {exc}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read deny-list: {exc}") from exc
    except ValueError as exc:
        raise ConfigError(f"bad deny-list entry: {exc}") from exc
