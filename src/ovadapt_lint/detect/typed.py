"""Values a person typed rather than a service generated: words, runs, repetitions (issue 26).

A provider format (prefix, length, alphabet) or a credential name says where a secret would be; these
judge whether the value there is one. Made-up values repeat a character or a short period
(`AIzaaaaa…`, `ghp_abcabc…`), follow a keyboard row (`qwertyuiop`) or spell words
(`glptt-Need5_T00-be-exactly-40-chars-long`); generated tokens do none of these.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import rulepack
from . import UUID, shannon_entropy, word_segments
from . import entropy_floor as detect_entropy_floor

_RUN = re.compile(r"(.)\1{7,}")  # 8 of one character: 1 in ~10^12 for a random base62 token
_KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890")
KEYBOARD_RUN = 6
# A short leading part that names the format (`glptt-`, `sk-`, `ghp_`): not judged as a word.
_PREFIX = re.compile(r"^[A-Za-z0-9]{1,8}[-_.](?:[A-Za-z0-9]{1,6}[-_]){0,2}")  # `sk-ant-oat01-`
_PIECES = re.compile(r"[A-Za-z]+|\d+")
WORD_COVERAGE = 0.75  # share of the value's letters (and numbers) spelled by whole words
_HEX = re.compile(r"^[0-9a-fA-F]+$")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


@lru_cache(maxsize=1)
def _words() -> frozenset[str]:
    return frozenset(
        rulepack.load_toml("vocabulary", "credential_names.toml")["typed_words"].split()
    )


def repetitive(value: str) -> bool:
    """Runs of 8+ of one character making a third of the value, a short period repeated (`abcabcabc…`,
    `abab…`), or a keyboard row."""
    runs = sum(len(m.group()) for m in _RUN.finditer(value))
    if runs and runs >= 0.3 * len(
        value
    ):  # X's bearer tokens open with 21 `A`s, then 80+ random characters
        return True
    lowered = value.lower()
    for row in _KEYBOARD_ROWS:
        for start in range(len(row) - KEYBOARD_RUN + 1):
            if row[start : start + KEYBOARD_RUN] in lowered:
                return True
    body = _NOT_ALNUM.sub("", _PREFIX.sub("", value, count=1) if len(value) > 12 else value)
    for period in range(2, 5):
        # A repeated period after the format's prefix: `ghp_abcabcabc…`, `glpat-ababab…`.
        if len(body) >= 4 * period + 8:
            same = sum(body[i] == body[i + period] for i in range(len(body) - period))
            if same >= 0.85 * (len(body) - period):
                return True
    return False


def _spelled(piece: str, words: frozenset[str]) -> bool:
    """The whole letter run splits into vocabulary words (`thisisjustaplaceholder`)."""
    piece = piece.lower()
    if len(piece) > 64:
        return False
    ends = [True] + [False] * len(piece)
    for end in range(1, len(piece) + 1):
        for start in range(max(0, end - 16), end):
            if ends[start] and piece[start:end] in words:
                ends[end] = True
                break
    return ends[-1]


@lru_cache(maxsize=4096)
def word_made(value: str) -> bool:
    """Nearly all of the value (its format prefix aside) is spelled by whole words: typed, not generated."""
    body = _PREFIX.sub("", value, count=1) if len(value) > 12 else value
    pieces = _PIECES.findall(body)
    if not pieces:
        return False
    words = _words()
    total = covered = 0
    for piece in pieces:
        if piece.isdigit():
            total += 1  # a number in a typed value is one token however long (`12345`)
            continue
        total += len(piece)
        if len(piece) >= 2 and _spelled(piece, words):
            covered += len(piece)
    return covered >= 8 and covered >= WORD_COVERAGE * total


# Typed words are lower, UPPER, Capitalized or camelCase (`INFO_DEBUG_VERBOSE_1`); issued letter-only parts change
# case at random.
_WORD_CASE = re.compile(r"^(?:[A-Z]?[a-z]+(?:[A-Z][a-z]+)*|[A-Z]+|\d+)$")
_SEGMENT = re.compile(r"[-_.:/+ ~=]+")


def typed_segments(value: str) -> bool:
    """Words and numbers joined by separators, each word in a typed case: `ROCKET_LAUNCHER_0001`."""
    return word_segments(value) and all(_WORD_CASE.match(s) for s in _SEGMENT.split(value) if s)


def made_up(value: str) -> bool:
    """A repetition, a keyboard row or words: not an issued credential. (Letter-only parts alone do not make
    a value typed: Slack's `xoxb-…-<24 lower-case letters>` and `AKIA` + 16 capitals are issued so.)"""
    return repetitive(value) or word_made(value)


MIN_LENGTH = 16


def _alphabet(value: str) -> int:
    size = 0
    if any(c.islower() for c in value):
        size += 26
    if any(c.isupper() for c in value):
        size += 26
    if any(c.isdigit() for c in value):
        size += 10
    if any(not c.isalnum() for c in value):
        size += 4
    return size


def entropy_floor(value: str) -> float:
    """Of ``value``'s length and alphabet (hex, or the classes it uses): see detect.entropy_floor."""
    return detect_entropy_floor(len(value), 16 if _HEX.match(value) else _alphabet(value))


def _mixed_case(value: str) -> bool:
    """Letters in random case (`xEEsAoCaAQ`), not camelCase words: several upper-upper and lower-upper pairs."""
    pairs = list(zip(value, value[1:]))
    return (
        sum(a.isupper() and b.isupper() for a, b in pairs) >= 2
        and sum(a.islower() and b.isupper() for a, b in pairs) >= 2
    )


_SEPARATED = re.compile(r"[/\-_.:]")


def generated(value: str) -> bool:
    """Shaped like a generated secret, judged by shape alone (used where a credential name stands beside the
    value): 16+ characters, letters and digits (or random-case letters; hex, a 40-hex commit length included; not
    digits alone), an entropy near that of random text of its length and alphabet, and no words, runs or repetition."""
    if UUID.match(value):
        value = value.replace("-", "")  # Heroku API keys are UUIDs: judge the 32 hex digits
    if len(value) < MIN_LENGTH:
        return False
    parts = _SEPARATED.split(value)
    if len(parts) >= 3 and max(len(p) for p in parts) <= 8:
        return False  # `unused-under-sigv4`, `/openai/v1/chat/completions`: short segments, not a random run
    if (
        "/" in value
        and max(len(p) for p in value.split("/")) < 12
        and any(p.isalpha() for p in value.split("/"))
    ):
        return False  # `openai/gpt-4o-mini`: a model or route name
    if not any(c.isalpha() for c in value):
        return False  # a number (an account, a timestamp) is not a key, however long
    if not any(c.isdigit() for c in value) and not (_HEX.match(value) or _mixed_case(value)):
        return False
    if shannon_entropy(value) < entropy_floor(value):
        return False
    return not made_up(value) and not typed_segments(value)
