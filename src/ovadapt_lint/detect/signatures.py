"""Text signatures: raw material recognised inside a string, whatever holds it.

Signatures are data (``[[rule.signature]]`` in ``rules/rules.toml``), kept with
the rule they report. Each one is a set of regular expressions that must all
match, guarded by cheap literal needles so most strings cost a few substring
tests (Semgrep's prefilter idea).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from . import Hit, compile_linear, in_pattern, looks_like_regex
from .needles import CHOSEN_SETS, Needles, NeedleSets


@dataclass(frozen=True)
class TextSignature:
    id: str
    code: str
    label: str
    # All must match. Compiled on first use: most signatures never meet their needles, and compiling the
    # pack's ~40 patterns was a fifth of a one-file run (issue 29). An extension's are compiled at load.
    sources: tuple[str, ...]
    needles: tuple[str, ...] = ()  # at least one must occur (literal); empty: always try
    ignore_case: bool = False
    distinct: int = 1  # the first pattern must match this many distinct texts (group 1 if any)
    min_length: int = 0
    skip_in_regex: bool = False  # not matched in text that is itself a regular expression
    in_prose: bool = True  # also matched in comments and docstrings
    whole_value: bool = (
        False  # its category judges bodies of text, not keys and identifiers (the pack sets it)
    )
    linear: bool = False  # an extension rule's: its patterns run on RE2 (compile_linear)

    @classmethod
    def from_data(
        cls, code: str, data: dict[str, Any], whole_value: bool = False, user: bool = False
    ) -> TextSignature:
        """``user``: an extension rule's signature: its patterns run on RE2 (compile_linear), so a user's
        pattern cannot hang the run; the built-in ones are tested for catastrophic backtracking."""
        flags = re.IGNORECASE if data.get("ignore_case") else 0
        patterns = data["all"] if isinstance(data["all"], list) else [data["all"]]
        needles = (
            tuple(n.lower() for n in data.get("needles", ()))
            if flags
            else tuple(data.get("needles", ()))
        )
        signature = cls(
            id=data["id"],
            code=code,
            label=data["label"],
            sources=tuple(patterns),
            needles=needles,
            ignore_case=bool(flags),
            distinct=int(data.get("distinct", 1)),
            min_length=int(data.get("min_length", 0)),
            skip_in_regex=bool(data.get("skip_in_regex")),
            in_prose=bool(data.get("prose", True)),
            whole_value=whole_value,
            linear=user,
        )
        if user:  # a bad pattern is reported when the rule is read; RE2 never compiles lazily
            signature.__dict__["patterns"] = tuple(
                compile_linear(
                    p,
                    bool(flags),
                    f"rule {code} signature {data['id']!r}: bad pattern",
                    "extension signatures",
                )
                for p in patterns
            )
        return signature

    @cached_property
    def patterns(self) -> tuple[re.Pattern[str], ...]:
        flags = re.IGNORECASE if self.ignore_case else 0
        return tuple(re.compile(p, flags) for p in self.sources)

    def __getstate__(self) -> dict[str, Any]:
        # A pickled signature (a worker's) leaves the built-in patterns behind: they compile on first use there.
        state = dict(self.__dict__)
        if not self.linear:
            state.pop("patterns", None)
        return state

    def search(self, text: str, folded: str | None = None) -> tuple[int, int] | None:
        """The span of the first pattern's first match when the signature matches, else None."""
        if len(text) < self.min_length:
            return None
        if self.needles:
            haystack = (
                (folded if folded is not None else text.lower()) if self.ignore_case else text
            )
            if not any(n in haystack for n in self.needles):
                return None
        # Only matches inside the regular expression itself are skipped, not the whole string.
        regex = self.skip_in_regex and looks_like_regex(text)
        first: tuple[int, int] | None = None
        for index, pattern in enumerate(self.patterns):
            if index == 0 and self.distinct > 1:
                seen: set[str] = set()
                for match in pattern.finditer(text):
                    if regex and in_pattern(text, *match.span()):
                        continue
                    seen.add((match.group(1) if pattern.groups else match.group(0)).lower())
                    first = first or match.span()
                    if len(seen) >= self.distinct:
                        break
                if len(seen) < self.distinct:
                    return None
                continue
            found = (
                next((m for m in pattern.finditer(text) if not in_pattern(text, *m.span())), None)
                if regex
                else pattern.search(text)
            )
            if found is None:
                return None
            first = first or found.span()
        return first


def scan_text(
    text: str, signatures: tuple[TextSignature, ...], prose: bool = False, raw_content: bool = True
) -> list[Hit]:
    """Signature hits in ``text``: at most one per rule code (its first matching signature).
    ``prose``: a comment or docstring, where signatures marked ``prose = false`` do not apply.
    ``raw_content=False`` (keys, identifiers): only the path and private-URL signatures run.
    ``signatures``: the rule pack's (pack.RulePack.text_signatures)."""
    hits: list[Hit] = []
    done: set[str] = set()
    unguarded, plan, (exact, folded_needles, one_pass), chosen = _plan(
        signatures, raw_content, prose
    )
    # Which needles occur, asked once per text rather than once per signature (issue 15), both kinds in one pass.
    folded = text.lower() if folded_needles is not None else None
    found: tuple[frozenset[str], ...] | list[set[str]] | None = one_pass.present(text)
    if found is None:  # not ASCII: each index on its own
        found = [
            exact.present(text) if exact is not None else set(),
            folded_needles.present(folded)
            if folded_needles is not None and folded is not None
            else set(),
        ]
    present = {(n, False) for n in found[0]} | {(n, True) for n in found[1]}
    if not present:
        run = unguarded  # only the signatures without needles can match
    else:
        # The signatures a set of needles lets through, remembered: texts repeat a few such sets.
        key = frozenset(present)
        cached = chosen.get(key)
        if cached is None:
            if len(chosen) >= CHOSEN_SETS:
                chosen.clear()
            cached = chosen[key] = tuple(
                s for s, wanted in plan if not wanted or not key.isdisjoint(wanted)
            )
        run = cached
    for signature in run:
        if signature.code in done:
            continue
        span = signature.search(text, folded)
        if span is not None:
            done.add(signature.code)
            hits.append(Hit(signature.code, signature.id, signature.label, span[0], span[1]))
    return hits


# Per signature set: the needles as written and the case-folded ones, each found in one pass (most strings,
# keys and ids contain none: one search replaces a loop over every signature), and each applicable signature
# with its needles as (needle, matched case-folded) pairs. Keyed by id, the set kept alive (issue 15).
_Plan = tuple[tuple[TextSignature, frozenset], ...]
_Chosen = dict[frozenset, tuple[TextSignature, ...]]
# (needles matched as written, those matched case-folded, both asked in one pass)
_Index = tuple[Needles | None, Needles | None, NeedleSets]
_PLANS: dict[
    tuple[int, bool, bool],
    tuple[tuple[TextSignature, ...], tuple[TextSignature, ...], _Plan, _Index, _Chosen],
] = {}


def _plan(
    signatures: tuple[TextSignature, ...], raw_content: bool, prose: bool
) -> tuple[tuple[TextSignature, ...], _Plan, _Index, _Chosen]:
    """(the applicable signatures without needles; every applicable signature in order, with its needles; the
    set's needle index (_needles); the signatures each set of present needles lets through, in order)."""
    key = (id(signatures), raw_content, prose)
    found = _PLANS.get(key)
    if found is None or found[0] is not signatures:
        active = [
            s
            for s in signatures
            if (raw_content or not s.whole_value) and not (prose and not s.in_prose)
        ]
        plan = tuple((s, frozenset((n, s.ignore_case) for n in s.needles)) for s in active)
        found = _PLANS[key] = (
            signatures,
            tuple(s for s, wanted in plan if not wanted),
            plan,
            _needles(signatures),
            {},
        )
    return found[1:]


# Per signature set: one needle index for every plan of it. A needle of a signature a plan leaves out only
# adds to the present set (its signature is not in the plan); compiling an index per plan cost more (issue 29).
_NEEDLES: dict[int, tuple[tuple[TextSignature, ...], _Index]] = {}


def _needles(signatures: tuple[TextSignature, ...]) -> _Index:
    found = _NEEDLES.get(id(signatures))
    if found is None or found[0] is not signatures:
        exact = {n for s in signatures if not s.ignore_case for n in s.needles}
        folded = {n for s in signatures if s.ignore_case for n in s.needles}
        as_written = Needles(exact) if exact else None
        lowered = Needles(folded) if folded else None
        index = (as_written, lowered, NeedleSets([(as_written, False), (lowered, True)]))
        found = _NEEDLES[id(signatures)] = (signatures, index)
    return found[1]
