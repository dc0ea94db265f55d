"""Which of many literal needles occur in a text, in one pass: the prefilter that picks the few detectors
(credential patterns, text signatures) a text can match."""

from __future__ import annotations

import re
from functools import cached_property
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
        self.needles = tuple(sorted(needles))
        self._longer = {n for n in needles if len(n) > 1}
        self.singles = tuple(sorted(n for n in needles if len(n) == 1))
        self.prefixes = prefixes if prefixes is not None else prefix_map(needles)

    @cached_property
    def regex(self) -> re.Pattern[str] | None:
        """Compiled on first use: an index asked in one pass with others (NeedleSets) is asked on its own only
        for a text that is not ASCII, and sre's compiler took ~10 ms for detect-secrets' folded literals."""
        return re.compile(trie_regex(self._longer)) if self._longer else None

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


class NeedleSets:
    """Several needle indexes asked about one text in one pass: each ``(needles, folded)`` pair is an index and
    whether it is matched in the text's lower case. sre entered its engine at nearly every character (the needles
    start with most letters), once per index; one RE2 set of every index's needles as literals, the folded ones
    case-insensitive, reads each byte once and lists every needle that occurs. Only for ASCII text, where
    matching case-insensitively is matching in the lower case (Unicode folding matches `ſ` for `s`)."""

    def __init__(
        self, indexes: list[tuple[Needles | None, bool]], slots: list[int] | None = None
    ) -> None:
        # ``slots``: which answer each index's needles go to (default: an answer per index).
        self.indexes = indexes
        self.slots = slots if slots is not None else list(range(len(indexes)))
        # Each pattern of the set -> (which index, which needle).
        self.owners = [
            (kind, needle)
            for kind, (index, _) in enumerate(indexes)
            if index is not None
            for needle in index.needles
        ]
        self._set: Any = None  # built on first use
        # Answers by the patterns matched: texts repeat a few such sets (CHOSEN_SETS), and a repeated
        # frozenset keeps its hash for the lookups that follow.
        self._answers: dict[tuple[int, ...], tuple[frozenset[str], ...]] = {}

    def present(self, text: str) -> tuple[frozenset[str], ...] | None:
        """Per slot, the needles occurring in ``text`` (as its indexes' ``present`` report them); None when the
        text is not ASCII: then ask each index itself."""
        if not text.isascii():
            return None
        if self._set is None:
            self._set = self._compiled() if self.owners else False
        indices = self._set.Match(text.encode("ascii")) if self._set else None
        matched = tuple(sorted(indices)) if indices else ()
        answer = self._answers.get(matched)
        if answer is None:
            found: list[set[str]] = [set() for _ in range(max(self.slots, default=-1) + 1)]
            for number in matched:
                kind, needle = self.owners[number]
                index = self.indexes[kind][0]
                assert index is not None  # owners come from indexes that are there
                found[self.slots[kind]].update(index.prefixes[needle])
            if len(self._answers) >= CHOSEN_SETS:
                self._answers.clear()
            answer = self._answers[matched] = tuple(frozenset(f) for f in found)
        return answer

    def _compiled(self) -> Any:
        import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

        options = re2.Options()
        # Its automaton has at most a state per needle character (a few thousand): well inside this memory.
        options.max_mem = 64 << 20
        options.log_errors = False
        needle_set = re2.Set.SearchSet(options)
        for kind, needle in self.owners:
            folded = self.indexes[kind][1]
            needle_set.Add(("(?i:%s)" if folded else "%s") % re2.escape(needle))
        needle_set.Compile()
        return needle_set
