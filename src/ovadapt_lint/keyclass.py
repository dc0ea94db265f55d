"""The key classifier shared by fixture and Python rules: LoopX's convention
(``rules/vocabulary/keys.toml``), whole words only."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from . import rulepack

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def split_words(key: str) -> list[str]:
    """``rawToolOutput`` / ``raw-tool_output`` -> ["raw", "tool", "output"]."""
    return [w.lower() for w in _WORDS.findall(key)]


@dataclass(frozen=True)
class Verdict:
    category: str | None  # credential | transcript | log | local-path | raw-output | embedding | None
    reason: str  # which part of the convention decided
    weak: bool = False  # an ambiguous key: judged by its value's shape


@dataclass(frozen=True)
class Vocabulary:
    compact_keys: frozenset[str]
    compact_last_words: frozenset[str]
    compact_any_word: frozenset[str]
    exact_raw: dict[str, str]
    raw_words: tuple[tuple[str, frozenset[str]], ...]
    weak_keys: frozenset[str]
    compact_string_max: int

    def classify(self, key: str) -> Verdict:
        words = split_words(key)
        norm = "_".join(words)
        if norm in self.compact_keys:
            return Verdict(None, "compact key")
        if norm in self.exact_raw:
            return Verdict(self.exact_raw[norm], f'raw key "{norm}"', norm in self.weak_keys)
        # A multi-word raw key inside a longer key: raw evidence beats a pointer suffix (api_key_id).
        for size in (3, 2):
            for start in range(len(words) - size + 1):
                part = "_".join(words[start:start + size])
                if part in self.exact_raw:
                    return Verdict(self.exact_raw[part], f'raw key "{part}"')
        for category, vocabulary in self.raw_words:
            hit = next((w for w in words if w in vocabulary), None)
            if hit is not None:
                return Verdict(category, f'raw word "{hit}"', norm in self.weak_keys)
        if words and (words[-1] in self.compact_last_words or any(w in self.compact_any_word for w in words)):
            return Verdict(None, "compact suffix")
        return Verdict(None, "unclassified")


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    data = rulepack.load_toml("vocabulary", "keys.toml")
    return Vocabulary(
        compact_keys=frozenset(data["compact_keys"]),
        compact_last_words=frozenset(data["compact_last_words"]),
        compact_any_word=frozenset(data["compact_any_word"]),
        exact_raw=dict(data["exact_raw"]),
        raw_words=tuple((cat, frozenset(words)) for cat, words in data["raw_words"].items()),
        weak_keys=frozenset(data["weak"]["keys"]),
        compact_string_max=int(data["weak"]["compact_string_max"]),
    )
