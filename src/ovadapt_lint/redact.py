"""Masking of secrets in anything the linter prints or writes.

A finding may quote text (a contract rule's "found" value, a code frame).
Before it is shown, every credential the detectors find in it, and every long
opaque token (``rules/redaction.toml``: a safety net for what no detector
knows), is replaced by a short prefix and its length, e.g. ``sk-p…[48 chars]``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import rulepack
from .detect.credentials import scan_secrets

VISIBLE_PREFIX = 4


@lru_cache(maxsize=1)
def _safety_net() -> re.Pattern[str]:
    data = rulepack.load_toml("redaction.toml")
    return re.compile("|".join(f"(?:{entry['regex']})" for entry in data["token"]))


# Under this length a secret is a password more often than a generated token: its prefix and exact length
# would narrow a guess (`Wo…[10 chars]` of a `Word-NNNNN` password), so neither is shown.
SHOWN_FROM = 24


def mask(secret: str) -> str:
    """The public form of a secret. A long one (a generated token, SHOWN_FROM characters or more): its length
    and a prefix of at most VISIBLE_PREFIX characters and at most a quarter of it, which names the token's
    kind (`ghp_…[40 chars]`) and leaves the rest unguessable. A shorter one: only that it was masked."""
    if len(secret) < SHOWN_FROM:
        return "…[masked]"
    visible = min(VISIBLE_PREFIX, len(secret) // 4)
    return f"{secret[:visible]}…[{len(secret)} chars]"


def merge_spans(spans) -> list[tuple[int, int]]:
    """Overlapping or touching-inside spans joined, sorted: where a detector's span holds a smaller
    match (the safety net inside a JWT), the outer span wins, so each secret is masked once, whole."""
    merged: list[list[int]] = []
    for start, end in sorted((s, e) for s, e in spans if e > s):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


@lru_cache(maxsize=1)
def _credential_patterns():
    """The built-in credential patterns: what is shown anywhere is masked by the same detectors."""
    from .detect.credentials import SecretPatterns
    from .registry import all_rules

    return SecretPatterns.from_rules(all_rules())


def secret_spans(text: str, patterns=None) -> list[tuple[int, int]]:
    """Merged spans of every credential-looking token in ``text`` (detectors and the safety net).
    ``patterns``: the run's credential patterns (extension formats included); default the built-in ones."""
    patterns = patterns if patterns is not None else _credential_patterns()
    spans = [(h.start, h.end) for h in scan_secrets(text, patterns) if h.secret and h.end > h.start]
    spans += [m.span() for m in _safety_net().finditer(text)]
    return merge_spans(spans) if spans else spans  # most quoted text holds nothing to mask


def apply_masks(text: str, spans) -> str:
    """``text`` with each (merged) span replaced by its masked form, once."""
    out = []
    last = 0
    for start, end in merge_spans((max(s, 0), min(e, len(text))) for s, e in spans):
        out.append(text[last:start])
        out.append(mask(text[start:end]))
        last = end
    out.append(text[last:])
    return "".join(out)


def mask_text(text: str, patterns=None) -> str:
    """Replace every credential-looking token in ``text`` by its masked form (``patterns``: see secret_spans)."""
    spans = secret_spans(text, patterns)
    return apply_masks(text, spans) if spans else text


# A password-shaped token where no detector looked (`curl -u elastic:P@ssw0rd9`): 8+ characters with a lower-
# and an upper-case letter, a digit and a symbol, standing alone or after `:` or `=`. No `/` or `.`, so paths,
# hosts and versions stay readable.
_SHAPED = re.compile(
    r"""(?<![^\s"'`:=(\[,])(?=[\w@#$%^&*!+~-]{0,200}?[a-z])(?=[\w@#$%^&*!+~-]{0,200}?[A-Z])"""
    r"""(?=[\w@#$%^&*!+~-]{0,200}?[0-9])(?=[\w@#$%^&*!+~-]{0,200}?[@#$%^&*!+~])"""
    r"""[A-Za-z0-9@#$%^&*!+~_\-]{8,200}(?![^\s"'`,;)\]}])""",
    re.ASCII,
)
# A value assigned to a credential-named key where no detector judged it (`SNYK_TOKEN := "9f3c2a71-…"`, a UUID):
# only the value is masked, and only one with a digit and a letter, so `is_secret = true`, counts and
# environment lookups (`"GITHUB_TOKEN": os.environ[…]`) stay readable. The credential word anchors the match.
_ASSIGNED = re.compile(
    r"""(?i)(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|credential)s?"""
    r"""(?=([\w-]{0,40}))\1\\?["']?[ \t]{0,5}(?::=|=|:)[ \t]{0,5}(?:\\?["'])?"""
    r"""([a-z0-9][\w+/=.~-]{7,199})"""
)  # (?=(…))\1: the name's rest taken whole, no backtracking
_DIGIT, _LETTER = re.compile(r"[0-9]"), re.compile(r"[A-Za-z]")
# Backslash escapes of a source line, as they read in the string they spell (same length, so offsets hold):
# `\"` is a quote and `\n` a space, so `is_secret = true\n"` judges `true`, not `true\n`.
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
# A PEM private-key block on one line (`"-----BEGIN RSA PRIVATE KEY-----\\nMIIE…"`): masked from BEGIN to END,
# or to the end of the line when the block goes on below.
PEM_BEGIN = re.compile(r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY[A-Z0-9 ]{0,20}-----")
PEM_END = re.compile(r"-----END[A-Z0-9 ]{0,60}-----")


def pem_spans(line: str) -> list[tuple[int, int]]:
    spans = []
    for begin in PEM_BEGIN.finditer(line):
        end = PEM_END.search(line, begin.end())
        spans.append((begin.start(), end.end() if end else len(line)))
    return spans


def line_secret_spans(line: str, patterns=None) -> list[tuple[int, int]]:
    """Merged spans to mask in a line of source shown to a reader (code frames, --diff): what the
    detectors find in the line read as its strings say (escapes resolved in place), the safety net,
    and password-shaped tokens. ``patterns``: see secret_spans."""
    patterns = patterns if patterns is not None else _credential_patterns()
    readable = _ESCAPE.sub(lambda m: " " + (m.group(1) if m.group(1) in "\"'" else " "), line)
    spans = [
        (h.start, h.end) for h in scan_secrets(readable, patterns) if h.secret and h.end > h.start
    ]
    spans += [m.span() for m in _safety_net().finditer(line)]
    spans += [m.span() for m in _SHAPED.finditer(line)]
    spans += [
        m.span(2) for m in _ASSIGNED.finditer(line) if _DIGIT.search(m[2]) and _LETTER.search(m[2])
    ]
    spans += pem_spans(line)
    return merge_spans(spans)


def redact_line(line: str, patterns=None) -> str:
    """A source line as the linter shows it: every credential-looking token masked once."""
    return apply_masks(line, line_secret_spans(line, patterns))
