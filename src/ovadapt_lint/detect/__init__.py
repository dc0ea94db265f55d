"""Detectors: functions on plain strings, shared by every front-end (JSON, Markdown, Python).

Each detector returns ``Hit``s: where in the string, which rule, and a label
that names what was found without quoting it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Hit:
    code: str
    signature: str  # the id of the signature or detector that matched
    label: str  # what was found, never the value itself
    start: int  # offsets into the scanned string, end exclusive
    end: int
    secret: bool = False  # the span is a credential: mask it wherever the text is shown


# Values that stand for a credential without being one: the whole value is a template
# (`${VAR}`, `${{ secrets.X }}`, `{{ x }}`, `{x}`, `%(x)s`, `$VAR`, `<x>`), a mask (`***`, `xxx`, `...`),
# a bracketed marker (`[REDACTED]`, `[PAD]`), a literal (`none`, `true`) or a stand-in word.
PLACEHOLDER = re.compile(
    r"""^["']?(?:
        <[^<>\n]{1,80}> | \$\{\{[^{}\n]{1,120}\}\} | \{\{[^{}\n]{1,120}\}\} | \$\{[^{}\n]{1,80}\} | \{[A-Za-z0-9_.:-]{1,80}\}
      | \$[A-Z][A-Z0-9_]{1,80} | %\([A-Za-z_]+\)s | %s
      | \*{3,} | [xX]{3,} | \.{3,} | … | (.)\1{7,}
      | (?:your|my)[_-][\w-]{1,40} | changeme | change[_-]me | redacted | \[redacted[^\]]{0,40}\]
      | \[[A-Za-z][\w .:-]{0,40}\]
      | placeholder | example | dummy | sample | fake | test | none | null | nil | undefined | true | false | n/?a | tbd | todo
      | password | passwd | pass | secret | token | api[_-]?key | key | value | credentials?
    )["']?$""",
    re.IGNORECASE | re.VERBOSE,
)
# A placeholder marked anywhere inside the value: an elision (`sk-...`), a mask (`ghp_xxxx`), an embedded
# template (`sk-<your-key>`) or a stand-in word (`somefakekey`, `fake-password`). `example` counts too, so
# AWS's documented example keys (`AKIAIOSFODNN7EXAMPLE`, `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`)
# are placeholders for every credential rule.
PLACEHOLDER_MARK = re.compile(
    r"\.\.\.|…|\*{3,}|x{4,}|<[^<>\n]{1,80}>|\$\{[^{}\n]{1,80}\}|\{\{[^{}\n]{1,120}\}\}"
    r"|example|fake|dummy|placeholder|sample|changeme|change[_-]me|redacted|replace[_-]?(?:me|this)"
    r"|(?<![a-z])(?:your|insert)[_-]",
    re.IGNORECASE,
)
# Words that only stand for a value: a value made of nothing else ("test-token", "test_key",
# "mysecretpassword", "SecretStr", "your_api_key_here", "string") is a placeholder. Values with
# a digit or another symbol are never made of these words.
FILLER_WORDS = frozenset("""
    test tests testing demo mock stub fake dummy example sample placeholder default dev local
    my your our the some this that here there new old change me replace insert enter put
    secret secrets password passwords passwd pass pwd passphrase token tokens key keys api apikey
    access auth bearer credential credentials client private public value values
    foo bar baz qux string str int integer bool boolean bytes none null nil undefined empty
    unset missing required optional invalid expired hidden masked omitted unknown generic random
""".split())
_FILLER_SPLIT = re.compile(r"[-_. ]+|(?<=[a-z])(?=[A-Z])")
_FILLER_VALUE = re.compile(r"^[A-Za-z][A-Za-z_. -]{0,63}$")
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# Full commit SHAs and prefixed content digests used as refs. (Short hex runs
# after a credential word are treated as values: "token: abc123def".)  # ovadapt: ignore[OVA409]
DIGEST_REF = re.compile(r"^[0-9a-f]{40}$|^(?:sha1|sha256|sha512|md5):[0-9a-fA-F]{32,128}$")
# Regular-expression syntax: a detector's own pattern describes a secret, it is not one.
_REGEX_TOKENS = re.compile(r"\\[dswDSW][*+?{]|\[[^\]\n]{1,40}\][*+?{]|\(\?[:=!<iPmsx]|\.[*+]\??|\{\d+(?:,\d*)?\}|\[\^|\\[.()\[\]{}|+*?$^]|\\[bB]\W")


def _filler(piece: str) -> bool:
    """The piece is a run of filler words ("mysecretpassword" = my + secret + password)."""
    piece = piece.lower()
    ends = {0}
    for end in range(1, len(piece) + 1):
        if any(start in ends and piece[start:end] in FILLER_WORDS for start in range(max(0, end - 12), end)):
            ends.add(end)
    return len(piece) in ends


def filler_value(value: str) -> bool:
    """True for a value made only of filler words (see FILLER_WORDS)."""
    if not _FILLER_VALUE.match(value):
        return False
    pieces = [p for p in _FILLER_SPLIT.split(value) if p]
    return bool(pieces) and all(_filler(p) for p in pieces)


def is_placeholder(value: str) -> bool:
    """A value that stands for a credential: a template, a mask, a marker or stand-in words."""
    value = value.strip()
    if PLACEHOLDER.match(value):
        return True
    inner = value.strip("\"'")
    return bool(inner) and (PLACEHOLDER_MARK.search(inner, 0, 4000) is not None or filler_value(inner))


def looks_like_regex(text: str) -> bool:
    """True for text holding regular-expression syntax (a quantified class, a group
    extension, an escaped metacharacter, ...), which prose, paths and secrets lack."""
    if "\\" not in text and "[" not in text and "(?" not in text and "*" not in text and "{" not in text:
        return False
    return _REGEX_TOKENS.search(text, 0, 4000) is not None
