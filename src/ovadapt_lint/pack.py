"""The rule pack as one value: rules, contracts, text signatures and credential patterns, built once from
the built-in pack plus a configuration's ``extend-rules`` files and passed down to the checks and detectors
(and pickled once to each worker). Nothing here is module state: two packs can live side by side."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

from .checks.contracts import Contract, build_contracts, builtin_contracts
from .detect.credentials import SecretPatterns
from .detect.signatures import TextSignature
from .registry import Category, Rule, all_rules, build_rules, categories


@dataclass(frozen=True, eq=False)
class RulePack:
    rules: dict[str, Rule]
    extension_contracts: tuple[str, ...] = ()  # JSON Schema texts
    categories: dict[str, Category] = field(default_factory=categories)

    @classmethod
    def load(
        cls,
        extension_rules: tuple[tuple[str, str], ...] = (),
        extension_contracts: tuple[tuple[str, str], ...] = (),
    ) -> RulePack:
        """The built-in pack plus extension rule files ((name, TOML text)) and contracts ((name, JSON Schema
        text)); a ValueError (or a TOML error) names a bad rule file, and check() a bad contract or pattern.
        Equal contents give the same pack."""
        return _load(tuple(extension_rules), tuple(extension_contracts))

    # The detection data is built on first use (a warm run answered by the cache needs none of it)
    # and then kept with the pack, so a worker receives it built.
    @cached_property
    def contracts(self) -> tuple[Contract, ...]:
        return (
            build_contracts(self.extension_contracts)
            if self.extension_contracts
            else builtin_contracts()
        )

    @cached_property
    def text_signatures(self) -> tuple[TextSignature, ...]:
        # The category's policy is read once here, not for every signature of every string scanned.
        builtin = all_rules()
        return tuple(
            TextSignature.from_data(
                rule.code,
                data,
                self.categories[rule.category].whole_value,
                user=builtin.get(rule.code) != rule,
            )
            for rule in self.rules.values()
            for data in rule.signature
        )

    @cached_property
    def secrets(self) -> SecretPatterns:
        return SecretPatterns.from_rules(self.rules)

    def check(self) -> RulePack:
        """Build every part now, so a bad extension file fails before any file is linted."""
        self.contracts, self.text_signatures, self.secrets
        return self

    def rule(self, code: str) -> Rule:
        return self.rules[code]

    def category_of(self, code: str) -> Category:
        return self.categories[self.rules[code].category]

    @cached_property
    def judged_everywhere(self) -> frozenset[str]:
        """Codes of credentials and internal names: reported wherever they are, published or not."""
        return frozenset(
            code for code, rule in self.rules.items() if self.categories[rule.category].everywhere
        )

    @cached_property
    def section_words(self) -> frozenset[str]:
        """The contracts' section keys: three of them in a Python file make it worth analysing."""
        return frozenset(k for c in self.contracts for _, k, _, _ in c.section_values)

    def __getstate__(self) -> dict[str, Any]:
        # The derived sets are rebuilt where the pack lands (a worker); the credential patterns ship uncompiled.
        return {
            k: v
            for k, v in self.__dict__.items()
            if k not in ("judged_everywhere", "section_words")
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


# A pure function of the extension texts (no "current pack"): a run builds its pack once, and equal
# configurations (a hierarchy's) share it.
@lru_cache(maxsize=8)
def _load(
    extension_rules: tuple[tuple[str, str], ...], extension_contracts: tuple[tuple[str, str], ...]
) -> RulePack:
    if extension_rules:
        from .detect import gitleaks  # only extension files can be gitleaks rule files

        if sys.version_info >= (
            3,
            11,
        ):  # imported here: the built-in pack's tables come parsed (rulepack)
            import tomllib
        else:  # pragma: no cover - exercised on 3.10 only
            import tomli as tomllib
        parsed = [(name, tomllib.loads(text)) for name, text in extension_rules]
        ours = tuple((name, data) for name, data in parsed if not gitleaks.is_gitleaks(data))
        rules = build_rules(ours) if ours else dict(all_rules())
        translated = tuple(
            e
            for name, data in parsed
            if gitleaks.is_gitleaks(data)
            for e in gitleaks.translate(name, data)
        )
        if translated:  # gitleaks rule files: their rules become OVA411's patterns
            rules[gitleaks.CODE] = replace(
                rules[gitleaks.CODE], secret=(*rules[gitleaks.CODE].secret, *translated)
            )
    else:
        rules = all_rules()
    return RulePack(rules=rules, extension_contracts=tuple(text for _, text in extension_contracts))


def builtin_pack() -> RulePack:
    """The pack shipped in the package, without extensions."""
    return _load((), ())
