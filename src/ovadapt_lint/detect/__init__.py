"""Detectors: functions on plain strings, shared by every front-end (JSON, Markdown, Python).

Each detector returns ``Hit``s: where in the string, which rule, and a label
that names what was found without quoting it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Hit:
    code: str
    signature: str  # the id of the signature or detector that matched
    label: str  # what was found, never the value itself
    start: int  # offsets into the scanned string, end exclusive
    end: int
    secret: bool = False  # the span is a credential: mask it wherever the text is shown
    precision: str | None = (
        None  # when this hit's precision differs from its rule's (a checksum, a public key)
    )


# Values that stand for a credential without being one: the whole value is a template
# (`${VAR}`, `${{ secrets.X }}`, `{{ x }}`, `{x}`, `{}`, `%(x)s`, `%d`, `$VAR`, `<x>`), a mask (`***`, `xxx`, `...`),
# a bracketed marker (`[REDACTED]`, `[PAD]`), a literal (`none`, `true`) or a stand-in word.
PLACEHOLDER = re.compile(
    r"""^["']?(?:
        <[^<>\n]{1,80}> | \$\{\{[^{}\n]{1,120}\}\} | \{\{[^{}\n]{1,120}\}\} | \$\{[^{}\n]{1,80}\} | \{[A-Za-z0-9_.:-]{1,80}\}
      | \$[A-Z][A-Z0-9_]{1,80} | %\([A-Za-z_]+\)[sdr] | %[-+ 0#]{0,3}\d{0,3}(?:\.\d{1,2})?[sdifrxXeEgG] | \{\}
      | \*{3,} | [xX]{3,} | \.{3,} | … | (.)\1{7,}
      | (?:your|my)[_-][\w-]{1,40} | changeme | change[_-]me | redacted | \[redacted[^\]]{0,40}\]
      | \[[A-Za-z][\w .:-]{0,40}\]
      | placeholder | example | dummy | sample | fake | test | none | null | nil | undefined | true | false | n/?a | tbd | todo
      | password | passwd | pass | secret | token | api[_-]?key | key | value | credentials?
    )["']?$""",
    re.IGNORECASE | re.VERBOSE,
)
# A placeholder marked anywhere inside the value: an elision (`sk-...`), a mask (`ghp_xxxxxx`), an embedded
# template (`sk-<your-key>`), a stand-in word (`somefakekey`, `fake-password`) or a `test-`/`test_` part
# (`sk-test-decrypt-token-67890`; not Stripe's `sk_test_…` keys, which are real test-mode keys). `example` counts too, so
# AWS's documented example keys (`AKIAIOSFODNN7EXAMPLE`, `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`)
# are placeholders for every credential rule.
PLACEHOLDER_MARK = re.compile(
    r"\.\.\.|…|\*{3,}|x{6,}|<[^<>\n]{1,80}>|\$\{[^{}\n]{1,80}\}|\{\{[^{}\n]{1,120}\}\}"
    r"|example|fake|dummy|placeholder|sample|changeme|change[_-]me|redacted|replace[_-]?(?:me|this)"
    r"|(?<![a-z])(?:your|insert)[_-]|(?<![a-z0-9_])test[_-]",
    re.IGNORECASE,
)
# A keyboard run of 8+ characters (`12345678`, `abcdefgh`) is typed, not generated:
# `sk-1234567890abcdef…` and `AKIA1234567890ABCDEF` are made-up keys.
SEQUENCE_RUN = 8
# Words that only stand for a value: a value made of nothing else, with at most a short number
# ("test-token", "test_key", "token123", "test_token_123", "mysecretpassword", "SecretStr",
# "your_api_key_here", "string", "sk-should-not-be-stored") is a placeholder.
FILLER_WORDS = frozenset(
    """
    test tests testing demo mock stub fake dummy example sample placeholder default dev local
    my your our the some this that here there new old change me replace insert enter put
    secret secrets password passwords passwd pass pwd pw passphrase token tokens key keys api apikey
    access auth bearer credential credentials client private public value values sk pk
    foo bar baz qux string str int integer bool boolean bytes none null nil undefined empty
    unset missing required optional invalid expired hidden masked omitted unknown generic random
    super very real do not no should be stored log leak leaked sensitive
    read write
""".split()
)
_FILLER_SPLIT = re.compile(
    r"[-_. ]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])"
)
_FILLER_VALUE = re.compile(r"^[A-Za-z][A-Za-z0-9_. -]{0,63}$")
_FILLER_NUMBER = re.compile(r"^\d{1,6}$")
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# Full commit SHAs and prefixed content digests used as refs. (Short hex runs
# after a credential word are treated as values: "token: abc123def".)  # ovadapt: ignore[OVA409]
DIGEST_REF = re.compile(r"^[0-9a-f]{40}$|^(?:sha1|sha256|sha512|md5):[0-9a-fA-F]{32,128}$")
# Regular-expression syntax: a detector's own pattern describes a secret, it is not one.
_REGEX_TOKENS = re.compile(
    r"\\[dswDSW][*+?{]|\[[^\]\n]{1,40}\][*+?{]|\(\?[:=!<iPmsx]|\.[*+]\??|\{\d+(?:,\d*)?\}|\[\^|\\[.()\[\]{}|+*?$^]|\\[bB]\W"
)


def _filler(piece: str) -> bool:
    """The piece is a run of filler words ("mysecretpassword" = my + secret + password)."""
    piece = piece.lower()
    ends = {0}
    for end in range(1, len(piece) + 1):
        if any(
            start in ends and piece[start:end] in FILLER_WORDS
            for start in range(max(0, end - 12), end)
        ):
            ends.add(end)
    return len(piece) in ends


def filler_value(value: str) -> bool:
    """True for a value made only of filler words and at most short numbers (see FILLER_WORDS)."""
    if not _FILLER_VALUE.match(value):
        return False
    pieces = [p for p in _FILLER_SPLIT.split(value) if p]
    words = [p for p in pieces if not _FILLER_NUMBER.match(p)]
    return bool(words) and all(_filler(p) for p in words)


def _sequence(value: str) -> bool:
    """A run of SEQUENCE_RUN characters each one after the previous (`12345678`, `abcdefgh`)."""
    run = 1
    for previous, current in zip(value, value[1:]):
        run = run + 1 if current.isalnum() and ord(current) == ord(previous) + 1 else 1
        if run >= SEQUENCE_RUN:
            return True
    return False


# A provider format's prefix and version parts (`sk-ant-oat01-`, `ghp_`, `xoxb-`): what follows is the token.
_FORMAT_PREFIX = re.compile(r"^[A-Za-z]{1,8}[-_](?:[A-Za-z0-9]{1,6}[-_]){0,2}")


def is_placeholder(value: str) -> bool:
    """A value that stands for a credential: a template, a mask, a marker, a keyboard run or stand-in words,
    alone or after a provider's prefix (`sk-ant-oat01-test`: a test's stand-in for a token of that format)."""
    value = value.strip()
    if PLACEHOLDER.match(value):
        return True
    inner = value.strip("\"'")
    if not inner:
        return False
    prefix = _FORMAT_PREFIX.match(inner)
    body = inner[prefix.end() :] if prefix is not None else inner
    return (
        PLACEHOLDER_MARK.search(inner, 0, 4000) is not None
        or filler_value(inner)
        or (prefix is not None and (filler_value(body) or _word_body(prefix.group(), body)))
        or _sequence(inner[:4000])
    )


def _word_body(prefix: str, body: str) -> bool:
    """After a provider's versioned prefix, one short lowercase word (`sk-ant-oat01-file`, a test naming where
    its token came from): issued tokens carry a long generated body, never a bare word. (Unversioned, the
    prefix may be a word itself: `service_role` is a claim, not a token.)"""
    return (
        len(body) <= _WORD_BODY
        and body.isalpha()
        and body.islower()
        and any(c.isdigit() for c in prefix)
    )


_WORD_BODY = 12


# Outside what is published, a context rule (a header, a URL password, a cookie, `password = …`) reports
# only values shaped like generated secrets; in a published value every credential-shaped value counts.
SHAPED_MIN_LENGTH = 8
SHAPED_MIN_ENTROPY = (
    3.0  # bits per character: typed words and fixtures stay below, generated secrets above
)
_SEGMENTS = re.compile(r"[-_.:/+ ~=]+")
_LEET = str.maketrans("4@31!05$7", "aaeiiosst")


def shannon_entropy(text: str) -> float:
    if not text:
        return 0.0
    counts: dict[str, int] = {}
    for char in text:
        counts[char] = counts.get(char, 0) + 1
    return -sum(c / len(text) * math.log2(c / len(text)) for c in counts.values())


def word_segments(value: str) -> bool:
    """Made of words and numbers only (`sk-byok-should-be-stored`, `ROCKET_LAUNCHER_0001`): typed, not generated."""
    segments = [s for s in _SEGMENTS.split(value) if s]
    return bool(segments) and all(s.isalpha() or s.isdigit() for s in segments)


def secret_shaped(value: str, min_length: int = SHAPED_MIN_LENGTH) -> bool:
    """A generated-looking secret: long enough, letters and digits, high entropy, and not a
    sequence of words and numbers (`ROCKET_LAUNCHER_0001`, `synthetic-pass-1`)."""
    value = value.strip().strip("\"'`")
    for scheme in ("Bearer ", "Basic ", "Token ", "bearer ", "basic ", "token "):
        if value.startswith(scheme):
            value = value[len(scheme) :].strip()
    if len(value) < min_length or is_placeholder(value):
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    if word_segments(value):
        return False
    if filler_value(value.rstrip("0123456789!_-.").translate(_LEET)):  # s3cr3t_pw, p@ssw0rd123
        return False
    # A short value cannot reach 3 bits per character unless nearly every character differs; a hex value (16
    # symbols) is held to what random hex of its length shows (a 16-hex key averages 3.4 bits, often below 3).
    floor = min(SHAPED_MIN_ENTROPY, math.log2(len(value)) - 0.25)
    if _HEX_VALUE.match(value):
        floor = min(floor, entropy_floor(len(value), 16))
    return shannon_entropy(value) >= floor


_HEX_VALUE = re.compile(r"^[0-9a-fA-F]+$")
ENTROPY_MARGIN = 0.6  # bits per character below the typical entropy of random text of the same length and alphabet


def entropy_floor(length: int, alphabet: int) -> float:
    """log2 of the distinct characters ``length`` random draws from ``alphabet`` symbols would show, less a
    margin: random text stays above it (99%+); what falls below repeats itself like typed text."""
    distinct = alphabet * (1 - (1 - 1 / alphabet) ** length)
    return math.log2(distinct) - ENTROPY_MARGIN


def looks_like_regex(text: str) -> bool:
    """True for text holding regular-expression syntax (a quantified class, a group
    extension, an escaped metacharacter, ...), which prose, paths and secrets lack."""
    if (
        "\\" not in text
        and "[" not in text
        and "(?" not in text
        and "*" not in text
        and "{" not in text
    ):
        return False
    return _REGEX_TOKENS.search(text, 0, 4000) is not None


@lru_cache(maxsize=4096)
def _compiles(text: str) -> bool:
    try:
        re.compile(text)
    except (re.error, RecursionError, OverflowError, ValueError):
        return False
    return True


def _word(text: str, start: int, end: int) -> tuple[int, int]:
    """The whitespace-delimited run of text around [start, end)."""
    left = max(text.rfind(c, 0, start) for c in " \t\n\r") + 1
    rights = [i for i in (text.find(c, end) for c in " \t\n\r") if i != -1]
    return left, min(rights, default=len(text))


def in_pattern(text: str, start: int, end: int) -> bool:
    """The span [start, end) is part of a regular expression: the whole text compiles as one and the
    whitespace-delimited word holding the span has regex syntax. Regex-looking text elsewhere in the
    string (`... (match .*)`) leaves a path or URL beside it judged."""
    if not looks_like_regex(text):
        return False
    left, right = _word(text, start, end)
    return _REGEX_TOKENS.search(text[left:right], 0, 4000) is not None and _compiles(text[:4000])


def compile_linear(pattern: str, ignore_case: bool, what: str, whose: str):
    """A user's regular expression compiled by RE2 (google-re2), which matches in time linear in the text
    whatever the pattern (`(a|aa)+$` backtracks for minutes in Python's re): a pattern from a deny-list or an
    extension rule cannot hang a run. The result has re's search, finditer and groups. RE2 has no
    look-around or back-references: such a pattern raises ValueError("``what`` (why; ``whose`` use RE2
    syntax ...)"), quoting no part of the pattern (it can hold an internal name); RE2 logs nothing."""
    import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

    options = re2.Options()
    options.case_sensitive = not ignore_case
    options.log_errors = False  # RE2 would log the pattern to stderr
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        kind = exc.args[0] if exc.args else b""
        kind = (kind.decode("utf-8", "replace") if isinstance(kind, bytes) else str(kind)).split(
            ":", 1
        )[0]
        raise ValueError(
            f"{what} ({kind or 'not RE2 syntax'}; {whose} use RE2 syntax: no look-around or "
            f"back-references)"
        ) from None
