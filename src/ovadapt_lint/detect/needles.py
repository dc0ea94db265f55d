"""Which of many literal needles occur in a text, in one pass: the prefilter that picks the few detectors
(credential patterns, text signatures) a text can match."""

from __future__ import annotations

import re
from typing import Any

# Sets of present needles whose choice of detectors is remembered (texts repeat a few such sets; most hold
# `.` or `-` alone), per index; emptied when full.
CHOSEN_SETS = 4096


def trie_regex(words: set[str]) -> str:
    """The words as one regex factored by common prefix (`sk(?:-(?:ant-)?|_…)`): a flat alternation of
    ~200 needles costs the regex engine every alternative at every position, four times slower.
    Greedy, so the longest needle at a position is the one reported."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + build(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(trie)


def prefix_map(needles: set[str]) -> dict[str, tuple[str, ...]]:
    """Each needle -> the needles it starts with (itself included), shortest first. Looked up by prefix:
    comparing every pair of ~600 needles was a tenth of the credential index's cost (issue 29)."""
    return {n: tuple(n[:k] for k in range(1, len(n) + 1) if n[:k] in needles) for n in needles}


class Needles:
    """Which of a set of needles occur in a text: one alternation of the needles of two characters or more,
    searched again from each match's next character; single characters (`.`, `-`: in almost every text, a
    search each) are tested with ``in``. An alternation reports one needle per position, the longest, so
    ``prefixes`` names for each needle the needles to report with it: the needles that are prefixes of it
    (default: among these needles; the credential patterns' index shares one map between its two kinds)."""

    def __init__(
        self, needles: set[str], prefixes: dict[str, tuple[str, ...]] | None = None
    ) -> None:
        longer = {n for n in needles if len(n) > 1}
        self.regex = re.compile(trie_regex(longer)) if longer else None
        self.singles = tuple(sorted(n for n in needles if len(n) == 1))
        self.prefixes = prefixes if prefixes is not None else prefix_map(needles)

    def present(self, text: str, found: set[str] | None = None) -> set[str]:
        """The needles occurring in ``text``, added to ``found``."""
        found = set() if found is None else found
        for char in self.singles:
            if char in text:
                found.add(char)
        regex = self.regex
        if regex is not None:
            prefixes = self.prefixes
            match = regex.search(text)
            while match is not None:
                found.update(prefixes[match.group()])
                match = regex.search(text, match.start() + 1)
        return found
