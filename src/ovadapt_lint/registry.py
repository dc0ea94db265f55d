"""The rule registry, loaded from ``rules/rules.toml`` in the rule pack.

Everything that describes a rule (text output, ``rules``/``--explain``, SARIF
descriptors, docs/rules.md) reads it from here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from . import rulepack

SEVERITIES = ("error", "warning", "note")
# The language of a rule's `example`/`ok` text: tests run each one as a file of that kind
# (tests/test_rule_examples.py); "text" is a description of a file that cannot be written down.
EXAMPLE_LANGUAGES = ("json", "jsonl", "python", "markdown", "text")
BLOCKS_FIX = ("", "always", "error")
# The check families a rule's `family` may name (rules.toml's header says what each one holds).
FAMILIES = (
    "notice",
    "contract",
    "duplicate-key",
    "raw-field",
    "compact-slot",
    "content",
    "raw-file",
    "secret",
    "scratch-path",
    "flow",
)
# What --fix may do to a rule's findings (Ruff's convention): "safe" fixes are applied by --fix,
# "unsafe" ones (they change what the code does) only with --unsafe-fixes, "none": no automatic fix.
FIX_APPLICABILITY = ("safe", "unsafe", "none")


@dataclass(frozen=True)
class Category:
    """Policy shared by every rule of a category (``[[category]]`` in rules.toml)."""

    name: str
    prefix: str
    placeholder: str = "value"
    notice: bool = False
    security_severity: str = ""  # empty: not a security rule
    whole_value: bool = False
    everywhere: bool = False
    folds_into_raw_file: bool = False
    fix_applicability: str = "none"

    @property
    def fix_text(self) -> str:
        """What --fix writes instead of a leaking value."""
        return f"[redacted:{self.placeholder}]"


@lru_cache(maxsize=1)
def categories() -> dict[str, Category]:
    out = {}
    for entry in rulepack.load_toml("rules.toml").get("category", []):
        category = Category(**entry)
        out[category.name] = category
    return out


def category_of(code: str) -> Category:
    """The category policy of the rule ``code``: a rule's code starts with its category's prefix (build_rules
    checks it, extension rules included), so the code alone names the category."""
    rule = all_rules().get(code)
    if rule is not None:
        return categories()[rule.category]
    for category in categories().values():
        if code.startswith(category.prefix):
            return category
    raise KeyError(code)


def is_notice(code: str, rules: dict[str, Rule] | None = None) -> bool:
    """A tool notice (about the run, not the content); unknown codes are not notices. ``rules``: the
    run's rules (an extension file may add a notice); default the built-in ones."""
    rule = (rules if rules is not None else all_rules()).get(code)
    return rule is not None and categories()[rule.category].notice


@dataclass(frozen=True)
class Rule:
    """A rule as rules/rules.toml defines it: code, name, category, severity, documentation, examples."""

    code: str
    name: str
    category: str
    severity: str
    precision: str
    summary: str
    what: str
    why: str
    example: str
    fix: str
    ok: str = ""
    example_lang: str = "json"
    ok_lang: str = "json"
    # Detection data kept with the rule it belongs to: text signatures
    # ([[rule.signature]]) and whole-file signatures ([[rule.file]]).
    signature: tuple[dict[str, Any], ...] = ()
    file: tuple[dict[str, Any], ...] = ()
    secret: tuple[dict[str, Any], ...] = ()  # credential patterns ([[rule.secret]])
    # Tool-notice policy (see the header of rules.toml).
    execution: bool = False
    blocks_fix: str = ""
    review_by_line: bool = False
    # The check family that reports it (FAMILIES); empty for an extension rule.
    family: str = ""
    fix_applicability: str = ""  # empty: the category's (see FIX_APPLICABILITY)

    @property
    def applicability(self) -> str:
        """What --fix may do to this rule's findings: "safe", "unsafe" or "none"."""
        return self.fix_applicability or self.policy.fix_applicability

    def signature_labels(self) -> list[str]:
        return [f"`{s['id']}`: {s['label']}" for s in (*self.signature, *self.file, *self.secret)]

    @property
    def policy(self) -> Category:
        return categories()[self.category]

    @property
    def security_related(self) -> bool:
        return not self.policy.notice

    def blocks_fix_at(self, severity: str) -> bool:
        """Whether a finding of this rule at ``severity`` stops --fix writing its file."""
        return self.blocks_fix == "always" or (self.blocks_fix == "error" and severity == "error")


@lru_cache(maxsize=1)
def all_rules() -> dict[str, Rule]:
    """The built-in rules (a project's ``extend-rules`` are in its rule pack: pack.RulePack)."""
    return build_rules()


def build_rules(extensions: tuple[tuple[str, dict[str, Any]], ...] = ()) -> dict[str, Rule]:
    """The built-in rules plus extension rule files ((name, parsed TOML)), checked; a ValueError names a bad one."""
    entries = [("rules.toml", e) for e in rulepack.load_toml("rules.toml")["rule"]]
    for name, data in extensions:
        if not isinstance(data.get("rule"), list):
            raise ValueError(f"{name}: no [[rule]] entries")
        entries += [(name, e) for e in data["rule"]]
    rules: dict[str, Rule] = {}
    for source, entry in entries:
        entry = dict(entry)
        for key in ("signature", "file", "secret"):
            entry[key] = tuple(entry.get(key, ()))
        try:
            rule = Rule(**entry)
        except TypeError as exc:
            raise ValueError(
                f"{source}: bad [[rule]] entry {entry.get('code', '?')}: {exc}"
            ) from exc
        if rule.code in rules:
            raise ValueError(f"{source}: {rule.code} is already defined")
        if rule.severity not in SEVERITIES:
            raise ValueError(f"{source}: {rule.code} has unknown severity {rule.severity!r}")
        if rule.example_lang not in EXAMPLE_LANGUAGES or rule.ok_lang not in EXAMPLE_LANGUAGES:
            raise ValueError(f"{source}: {rule.code} has an unknown example language")
        if rule.blocks_fix not in BLOCKS_FIX:
            raise ValueError(f"{source}: {rule.code} has unknown blocks_fix {rule.blocks_fix!r}")
        if rule.family and rule.family not in FAMILIES:
            raise ValueError(f"{source}: {rule.code} has unknown family {rule.family!r}")
        if rule.fix_applicability not in ("", *FIX_APPLICABILITY):
            raise ValueError(
                f"{source}: {rule.code} has unknown fix_applicability {rule.fix_applicability!r}"
            )
        category = categories().get(rule.category)
        if category is None or not rule.code.startswith(category.prefix):
            raise ValueError(f"{source}: {rule.code} does not match category {rule.category!r}")
        rules[rule.code] = rule
    for code, provided in _provider_secrets(rules).items():
        # Provider formats go first: the most specific label wins over a rule's broad pattern (`sk-`).
        rules[code] = replace(rules[code], secret=(*provided, *rules[code].secret))
    return dict(sorted(rules.items()))


# [[secret]] keys of rules/secrets/providers.toml: the catalogue's own, then the optional
# [[rule.secret]] ones (src/ovadapt_lint/detect/credentials.py, SecretPattern.from_data).
PROVIDER_REQUIRED = ("code", "id", "provider", "label", "needles", "regex", "example", "near_miss")
# `example_key`: the key an entry with a `key` is tested under (tests/test_providers.py).
PROVIDER_OPTIONAL = (
    "key",
    "entropy",
    "placeholders",
    "skip_refs",
    "not_values",
    "ignore_case",
    "example_key",
)


def provider_secrets() -> list[dict[str, Any]]:
    """The provider token catalogue, checked for shape (regexes compile lazily, on first use)."""
    return check_providers(rulepack.load_toml("secrets", "providers.toml").get("secret", []))


def check_providers(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``entries``, or a ValueError naming the first entry with unknown or missing keys."""
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        where = f"secrets/providers.toml: [[secret]] #{index + 1} ({entry.get('id', '?')})"
        unknown = sorted(set(entry) - set(PROVIDER_REQUIRED) - set(PROVIDER_OPTIONAL))
        missing = [k for k in PROVIDER_REQUIRED if k not in entry]
        if unknown or missing:
            raise ValueError(f"{where}: unknown keys {unknown}, missing keys {missing}")
        if not (entry["needles"] or "key" in entry) or not all(
            isinstance(n, str) and n for n in entry["needles"]
        ):
            raise ValueError(
                f"{where}: needles must be non-empty strings (an empty list only with a `key`)"
            )
        if entry["id"] in seen:
            raise ValueError(f"{where}: duplicate id")
        seen.add(entry["id"])
    return entries


def _provider_secrets(rules: dict[str, Rule]) -> dict[str, list[dict[str, Any]]]:
    by_code: dict[str, list[dict[str, Any]]] = {}
    for entry in provider_secrets():
        if entry["code"] not in rules:
            raise ValueError(
                f"secrets/providers.toml: {entry['id']} names unknown rule {entry['code']}"
            )
        data = {
            k: v
            for k, v in entry.items()
            if k not in ("code", "provider", "example", "near_miss", "example_key")
        }
        by_code.setdefault(entry["code"], []).append(data)
    return by_code


def family_codes(family: str) -> tuple[str, ...]:
    """The codes of the built-in rules of a check family, in code order."""
    return tuple(code for code, rule in all_rules().items() if rule.family == family)


def get(code: str) -> Rule:
    """A built-in rule."""
    return all_rules()[code]
