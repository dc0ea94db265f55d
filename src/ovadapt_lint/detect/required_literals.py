"""The literal text a regular expression cannot match without: a prefilter read off the regex itself.

``required_literals`` parses a regex (Python's own parser) and returns strings one of which every match
contains, so a text holding none of them is skipped without running the regex. Only what the parse tree
proves is used: anything unsure (a look-around, a back-reference, a local flag, a non-ASCII character,
a class of ranges) contributes nothing, and a regex with nothing certain gets no prefilter at all.
"""

from __future__ import annotations

import re

try:  # Python 3.11+
    from re import _parser as _sre  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _sre  # type: ignore[no-redef]

_MAX_CLASS = 8  # a class of more single characters than this is not worth a needle each
# The most strings a stretch of known strings may give: detect-secrets' SoftLayer keyword regex needs 180.
_MAX_PRODUCT = 256


def required_literals(pattern: str, flags: int = 0) -> tuple[frozenset[str], bool] | None:
    """(strings one of which every match of ``pattern`` contains, whether they are lower-cased because the
    regex ignores case), or None when the regex promises no literal. A lower-cased literal proves absence
    only in ASCII text: Unicode case folding matches `ſ` for `s` and `K` (Kelvin) for `k`."""
    try:
        parsed = _sre.parse(pattern, flags)
        folded = bool(parsed.state.flags & re.IGNORECASE)
        found = _sequence(list(parsed), folded)
    except Exception:  # an unknown opcode or parser change: no prefilter rather than a wrong one
        return None
    return (found, folded) if found else None


def _sequence(items: list, folded: bool) -> frozenset[str] | None:
    """Every run of consecutive elements that match a few known strings (`(?:cloudant|cl)(?:_|-|)(?:key|pw)`)
    gives the strings of their concatenation; each other element may also require its own. The best option is
    the one whose shortest string is longest (the rarest, on ordinary text)."""
    options: list[frozenset[str]] = []
    run: list[frozenset[str]] = []
    for op, av in [*items, (None, None)]:
        exact = _exact(op, av, folded) if op is not None else None
        if exact is not None:
            run.append(exact)
            continue
        options += _products(run)
        run = []
        element = _element(op, av, folded) if op is not None else None
        if element:
            options.append(element)
    if not options:
        return None
    return max(options, key=lambda o: (min(map(len, o)), -len(o)))


def _products(run: list[frozenset[str]]) -> list[frozenset[str]]:
    """The concatenations of each stretch of ``run`` (each element's strings), kept when they are few and
    none is empty: every match of the stretch is one of them."""
    found = []
    for start in range(len(run)):
        strings = frozenset([""])
        for part in run[start:]:
            strings = frozenset(a + b for a in strings for b in part)
            if len(strings) > _MAX_PRODUCT:
                break
            if "" not in strings:
                found.append(_minimal(strings))
    return found


def _exact(op, av, folded: bool) -> frozenset[str] | None:
    """Every string the element matches, when they are few (ASCII literals, alternatives and optional parts of
    them, classes of a few characters), else None."""
    if op is _sre.LITERAL:
        char = chr(av)
        return frozenset([char.lower() if folded else char]) if char.isascii() else None
    if op is _sre.SUBPATTERN:
        _group, add_flags, del_flags, body = av
        return None if add_flags or del_flags else _exact_sequence(list(body), folded)
    if op is _sre.BRANCH:
        alternatives = [_exact_sequence(list(body), folded) for body in av[1]]
        if any(a is None for a in alternatives):
            return None
        union = frozenset[str]().union(*alternatives)  # type: ignore[arg-type]
        return union if len(union) <= _MAX_PRODUCT else None
    if op in _REPEATS:
        low, high, body = av
        if (low, high) not in ((0, 1), (1, 1)):
            return None
        inner = _exact_sequence(list(body), folded)
        return None if inner is None else (inner | {""} if low == 0 else inner)
    if op is _sre.IN:
        return _element(op, av, folded)
    return None


def _exact_sequence(items: list, folded: bool) -> frozenset[str] | None:
    strings = frozenset([""])
    for op, av in items:
        part = _exact(op, av, folded)
        if part is None:
            return None
        strings = frozenset(a + b for a in strings for b in part)
        if len(strings) > _MAX_PRODUCT:
            return None
    return strings


def _element(op, av, folded: bool) -> frozenset[str] | None:
    if op is _sre.SUBPATTERN:
        _group, add_flags, del_flags, body = av
        return None if add_flags or del_flags else _sequence(list(body), folded)
    if op is _sre.BRANCH:
        alternatives = [_sequence(list(body), folded) for body in av[1]]
        literals = [a for a in alternatives if a]
        if len(literals) < len(alternatives):
            return None  # an alternative without a literal: the branch promises none
        return _minimal(frozenset[str]().union(*literals))
    if op in _REPEATS:
        low, _high, body = av
        return _sequence(list(body), folded) if low >= 1 else None
    if op is _ATOMIC:
        return _sequence(list(av), folded)
    if op is _sre.IN:
        chars = [chr(value) for kind, value in av if kind is _sre.LITERAL]
        if len(chars) != len(av) or len(chars) > _MAX_CLASS or not all(c.isascii() for c in chars):
            return None  # a range, a category or a negation
        return frozenset(c.lower() if folded else c for c in chars)
    return None  # a look-around, an anchor, any character, a back-reference: no promise


def _minimal(strings: frozenset[str]) -> frozenset[str]:
    """Without the strings that contain another one: a text holding `cloudant` holds `cl`."""
    return frozenset(s for s in strings if not any(t != s and t in s for t in strings))


_REPEATS = tuple(
    getattr(_sre, name)
    for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
    if hasattr(_sre, name)
)
_ATOMIC = getattr(_sre, "ATOMIC_GROUP", object())
