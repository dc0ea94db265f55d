"""The key classifier shared by fixture and Python rules: LoopX's convention
(``rules/vocabulary/keys.toml``), whole words only."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from . import rulepack

# Digits stay with the letters before them ("sha256"): only camelCase and non-alphanumerics split.
_WORDS = re.compile(r"[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z]+[0-9]*|[0-9]+")


def split_words(key: str) -> list[str]:
    """``rawToolOutput`` / ``raw-tool_output`` -> ["raw", "tool", "output"]."""
    return [w.lower() for w in _WORDS.findall(key)]


@dataclass(frozen=True)
class Verdict:
    category: (
        str | None
    )  # credential | transcript | log | local-path | raw-output | embedding | None
    reason: str  # which part of the convention decided
    weak: bool = False  # an ambiguous key: judged by its value's shape
    container_ok: bool = False  # an object under this key is a container, not a body


_UNCLASSIFIED = Verdict(None, "unclassified")  # most keys: one shared verdict
VERDICT_CACHE_SIZE = 100_000


@dataclass(frozen=True)
class Vocabulary:
    compact_keys: frozenset[str]
    compact_last_words: frozenset[str]
    compact_any_word: frozenset[str]
    exact_raw: dict[str, str]
    raw_words: tuple[tuple[str, frozenset[str]], ...]
    weak_keys: frozenset[str]
    compact_string_max: int
    compact_slots: frozenset[str] = frozenset()  # OVA301: keys that hold one short line
    compact_slot_max: int = 280
    body_words: frozenset[str] = frozenset()  # beyond the convention, see keys.toml
    qualifiers: frozenset[str] = frozenset()
    qualified_only: frozenset[str] = frozenset()  # body words that count only with a qualifier
    # Verdicts by key: a module or fixture asks about the same few keys thousands of times.
    _verdicts: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    # Every word the word rules look for: a key with none of them is unclassified after the whole-key rules.
    _words: frozenset = field(
        default=frozenset(), init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        words = (
            set(self.compact_last_words)
            | self.compact_any_word
            | self.body_words
            | self.qualified_only
        )
        for _, vocabulary in self.raw_words:
            words |= vocabulary
        object.__setattr__(self, "_words", frozenset(words))

    def classify(self, key: str) -> Verdict:
        verdict = self._verdicts.get(key)
        if verdict is None:
            if len(self._verdicts) >= VERDICT_CACHE_SIZE:
                self._verdicts.clear()  # bounded: a 750k-key document held a verdict per key (issue 15)
            verdict = self._verdicts[key] = self._classify(key)
        return verdict

    def _classify(self, key: str) -> Verdict:
        words = split_words(key)
        norm = "_".join(words)
        if norm in self.compact_keys:
            return Verdict(None, "compact key")
        if norm in self.exact_raw:
            return Verdict(self.exact_raw[norm], f'raw key "{norm}"', norm in self.weak_keys)
        # A multi-word raw key inside a longer key: raw evidence beats a pointer suffix (api_key_id).
        for size in (3, 2):
            for start in range(len(words) - size + 1):
                part = "_".join(words[start : start + size])
                if part in self.exact_raw:
                    return Verdict(self.exact_raw[part], f'raw key "{part}"')
        if self._words.isdisjoint(words):
            return _UNCLASSIFIED  # the rules below would each look in vain (issue 15: most keys of a large file)
        for category, vocabulary in self.raw_words:
            hit = next((w for w in words if w in vocabulary), None)
            if hit is not None:
                return Verdict(category, f'raw word "{hit}"', norm in self.weak_keys)
        if words and (
            words[-1] in self.compact_last_words or any(w in self.compact_any_word for w in words)
        ):
            return Verdict(None, "compact suffix")
        body = next((w for w in words if w in self.body_words or w in self.qualified_only), None)
        if body is not None:
            qualifier = next((w for w in words if w in self.qualifiers and w != body), None)
            if qualifier is not None:
                return Verdict("raw-output", f'body word "{body}" with "{qualifier}"')
            if body not in self.qualified_only:
                return Verdict("raw-output", f'body word "{body}"', weak=True, container_ok=True)
        return _UNCLASSIFIED


_LIST_KEYS = ("compact_keys", "compact_last_words", "compact_any_word")
_KNOWN = {
    *_LIST_KEYS,
    "exact_raw",
    "raw_words",
    "weak",
    "compact_slots",
    "not_raw",
    "replace",
    "beyond_convention",
}


def merge_vocabulary(base: dict, extra: dict, where: str = "vocabulary") -> dict:
    """A user vocabulary on top of the built-in one.

    Lists are extended, ``exact_raw`` and ``raw_words`` are merged, ``not_raw``
    removes words and keys from every raw list, and ``replace = true`` makes the
    user's file replace the built-in vocabulary instead.
    """
    unknown = set(extra) - _KNOWN
    if unknown:
        raise ValueError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(_KNOWN))})"
        )
    if extra.get("replace"):
        merged = {k: v for k, v in extra.items() if k != "replace"}
        missing = [k for k in (*_LIST_KEYS, "exact_raw", "raw_words", "weak") if k not in merged]
        if missing:
            raise ValueError(
                f"{where}: replace = true needs every table; missing {', '.join(missing)}"
            )
        return merged
    merged = {
        k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
        for k, v in base.items()
    }
    for key in _LIST_KEYS:
        merged[key] = merged[key] + [str(w).lower() for w in extra.get(key, [])]
    merged["exact_raw"].update({str(k).lower(): v for k, v in extra.get("exact_raw", {}).items()})
    for category, words in extra.get("raw_words", {}).items():
        merged["raw_words"][category] = list(merged["raw_words"].get(category, [])) + [
            str(w).lower() for w in words
        ]
    for table in ("weak", "compact_slots"):
        merged[table] = {**merged.get(table, {}), **extra.get(table, {})}
    beyond = dict(merged.get("beyond_convention", {}))
    for key, words in extra.get("beyond_convention", {}).items():
        beyond[key] = list(beyond.get(key, [])) + [str(w).lower() for w in words]
    merged["beyond_convention"] = beyond
    drop = {str(w).lower() for w in extra.get("not_raw", [])}
    merged["exact_raw"] = {k: v for k, v in merged["exact_raw"].items() if k not in drop}
    merged["beyond_convention"]["body_words"] = [
        w for w in beyond.get("body_words", []) if w not in drop
    ]
    merged["raw_words"] = {
        c: [w for w in ws if w not in drop] for c, ws in merged["raw_words"].items()
    }
    categories = {"credential", "transcript", "log", "local-path", "raw-output", "embedding"}
    bad = {c for c in (*merged["raw_words"], *merged["exact_raw"].values()) if c not in categories}
    if bad:
        raise ValueError(
            f"{where}: unknown category {', '.join(sorted(bad))} (known: {', '.join(sorted(categories))})"
        )
    return merged


def _build(data: dict) -> Vocabulary:
    return Vocabulary(
        compact_keys=frozenset(data["compact_keys"]),
        compact_last_words=frozenset(data["compact_last_words"]),
        compact_any_word=frozenset(data["compact_any_word"]),
        exact_raw=dict(data["exact_raw"]),
        raw_words=tuple((cat, frozenset(words)) for cat, words in data["raw_words"].items()),
        weak_keys=frozenset(data["weak"]["keys"]),
        compact_string_max=int(data["weak"]["compact_string_max"]),
        compact_slots=frozenset(data["compact_slots"]["keys"]),
        compact_slot_max=int(data["compact_slots"]["max_length"]),
        body_words=frozenset(data.get("beyond_convention", {}).get("body_words", ())),
        qualifiers=frozenset(data.get("beyond_convention", {}).get("qualifiers", ())),
        qualified_only=frozenset(data.get("beyond_convention", {}).get("qualified_only", ())),
    )


@lru_cache(maxsize=8)
def vocabulary(extra: tuple[tuple[str, str], ...] = ()) -> Vocabulary:
    """The built-in vocabulary, extended by user tables given as (name, JSON text) pairs."""
    import json

    data = rulepack.load_toml("vocabulary", "keys.toml")
    for name, text in extra:
        data = merge_vocabulary(data, json.loads(text), name)
    return _build(data)
