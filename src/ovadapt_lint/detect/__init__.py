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


# Values that stand for a credential without being one.
PLACEHOLDER = re.compile(
    r"""^["']?(?:
        <[^<>\n]{1,80}> | \{\{[^{}\n]{1,120}\}\} | \$\{[^{}\n]{1,80}\} | \{[A-Za-z0-9_.:-]{1,80}\}
      | \$[A-Z][A-Z0-9_]{1,80} | %\([A-Za-z_]+\)s | %s
      | \*{3,} | [xX]{3,} | \.{3,} | … | (.)\1{7,}
      | (?:your|my)[_-][\w-]{1,40} | changeme | change[_-]me | redacted | \[redacted[^\]]{0,40}\]
      | placeholder | example | dummy | sample | fake | test | none | null | n/?a | tbd | todo
      | password | passwd | pass | secret | token | api[_-]?key | key | value | credentials?
    )["']?$""",
    re.IGNORECASE | re.VERBOSE,
)
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# Full commit SHAs and prefixed content digests used as refs. (Short hex runs
# after a credential word are treated as values: "token: abc123def".)  # ovadapt: ignore[OVA409]
DIGEST_REF = re.compile(r"^[0-9a-f]{40}$|^(?:sha1|sha256|sha512|md5):[0-9a-fA-F]{32,128}$")
# Regular-expression syntax: a detector's own pattern describes a secret, it is not one.
_REGEX_TOKENS = re.compile(r"\\[dswDSW][*+?{]|\[[^\]\n]{1,40}\][*+?{]|\(\?[:=!<iPmsx]|\.[*+]\??|\{\d+(?:,\d*)?\}|\[\^|\\[.()\[\]{}|+*?$^]|\\[bB]\W")


def is_placeholder(value: str) -> bool:
    return bool(PLACEHOLDER.match(value.strip()))


def looks_like_regex(text: str) -> bool:
    """True for text holding regular-expression syntax (a quantified class, a group
    extension, an escaped metacharacter, ...), which prose, paths and secrets lack."""
    if "\\" not in text and "[" not in text and "(?" not in text and "*" not in text and "{" not in text:
        return False
    return _REGEX_TOKENS.search(text, 0, 4000) is not None
