"""Credentials (OVA4xx): our own patterns from the rule pack, plus detect-secrets' detectors.

detect-secrets runs in-process through its plugin classes, on candidate strings
only. Its pitfalls are handled here: spans are located with the plugins' own
regular expressions (its GitHub detector *reports* only the ``ghp`` group), and
its Shannon-entropy limits are applied explicitly where a pattern asks for them
(``scan_line`` would skip them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import DIGEST_REF, UUID, Hit, is_placeholder, looks_like_regex

# A candidate for detect-secrets' pattern plugins: some run of 16+ token characters.
_CANDIDATE = re.compile(r"[A-Za-z0-9_\-+/=.]{16,}|-----BEGIN")


@dataclass(frozen=True)
class SecretPattern:
    id: str
    code: str
    label: str
    regex: re.Pattern[str]
    needles: tuple[str, ...] = ()
    ignore_case: bool = False
    key: re.Pattern[str] | None = None  # only for values under a key (or label) matching this
    entropy: str | None = None  # "base64" | "hex": the value must pass detect-secrets' limit
    # Which placeholder values are not reported: "all" (default), "templates" (${X}, {x}, {{x}} only), "none".
    placeholders: str = "all"
    skip_refs: bool = False  # commit SHAs, sha256 digests and UUIDs are not this kind of secret
    # In prose (comments, docstrings) the value must look like one: a digit, + / =, quotes, or 16+ letters.
    prose_needs_shape: bool = False
    # In prose, the regex's `connector` group must match this (when given).
    prose_connector: re.Pattern[str] | None = None
    # Named judgements of what is not a credential value here (see NOT_VALUES).
    not_values: tuple[str, ...] = ()

    @classmethod
    def from_data(cls, code: str, data: dict[str, Any]) -> "SecretPattern":
        flags = re.IGNORECASE if data.get("ignore_case") else 0
        needles = tuple(data.get("needles", ()))
        return cls(id=data["id"], code=code, label=data["label"], regex=re.compile(data["regex"], flags),
                   needles=tuple(n.lower() for n in needles) if flags else needles, ignore_case=bool(flags),
                   key=re.compile(data["key"], re.IGNORECASE) if "key" in data else None,
                   entropy=data.get("entropy"), placeholders=data.get("placeholders", "all"),
                   skip_refs=bool(data.get("skip_refs", False)),
                   prose_needs_shape=bool(data.get("prose_needs_shape", False)),
                   prose_connector=re.compile(data["prose_connector"], re.IGNORECASE) if "prose_connector" in data else None,
                   not_values=_not_values(data.get("not_values", ())))


def _not_values(names: Any) -> tuple[str, ...]:
    unknown = sorted(set(names) - set(NOT_VALUES))
    if unknown:
        raise ValueError(f"unknown not_values {unknown}; known: {sorted(NOT_VALUES)}")
    return tuple(names)


_SHAPED = re.compile(r"""^(?:["'].*["']|[^\s]*[0-9+/=][^\s]*|[A-Za-z]{16,})$""")
# Template references, and the placeholder --fix writes (so a second --fix changes nothing).
_TEMPLATE = re.compile(r"^[\"']?(?:\$\{\{[^}]+\}\}|\$\{[^}]+\}|\{\{[^}]+\}\}|\{[A-Za-z0-9_.:-]+\}|%\([A-Za-z_]+\)s|\$[A-Z][A-Z0-9_]+"
                       r"|\[redacted:[\w-]{1,40}\])[\"']?$")


@lru_cache(maxsize=1)
def secret_patterns() -> tuple[SecretPattern, ...]:
    from ..registry import all_rules

    return tuple(SecretPattern.from_data(rule.code, data)
                 for rule in all_rules().values() for data in rule.secret)


@lru_cache(maxsize=1)
def _entropy_plugins() -> dict[str, Any]:
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

    return {"base64": Base64HighEntropyString(), "hex": HexHighEntropyString()}


def passes_entropy(value: str, charset: str) -> bool:
    plugin = _entropy_plugins()[charset]
    return plugin.calculate_shannon_entropy(value) > plugin.entropy_limit


# detect-secrets secret types -> our codes. Types not listed (public IPs, the
# keyword and high-entropy plugins) are not run: our label rule (OVA409) replaces
# the keyword plugin, and entropy is applied only as a filter on our own patterns.
_DETECT_SECRETS_CODES = {
    "Artifactory Credentials": "OVA401", "AWS Access Key": "OVA401", "Azure Storage Account access key": "OVA401",
    "Basic Auth Credentials": "OVA404", "Cloudant Credentials": "OVA401", "Discord Bot Token": "OVA401",
    "GitHub Token": "OVA401", "GitLab Token": "OVA401", "IBM Cloud IAM Key": "OVA401",
    "IBM COS HMAC Credentials": "OVA401", "JSON Web Token": "OVA406", "Mailchimp Access Key": "OVA401",
    "NPM tokens": "OVA401", "OpenAI Token": "OVA401", "Private Key": "OVA402", "PyPI Token": "OVA401",
    "SendGrid API Key": "OVA401", "Slack Token": "OVA401", "SoftLayer Credentials": "OVA401",
    "Square OAuth Secret": "OVA401", "Stripe Access Key": "OVA401", "Telegram Bot Token": "OVA401",
    "Twilio API Key": "OVA401",
}


@lru_cache(maxsize=1)
def _detect_secrets_regexes() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """(code, secret type, regex) for every regex-based detect-secrets plugin we use."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    out = []
    for secret_type, plugin_class in sorted(get_mapping_from_secret_type_to_class().items()):
        code = _DETECT_SECRETS_CODES.get(secret_type)
        if code is None or not issubclass(plugin_class, RegexBasedDetector):
            continue
        for regex in plugin_class.denylist:
            out.append((code, secret_type, regex))
    return tuple(out)


def _secret_span(match: re.Match[str]) -> tuple[int, int]:
    """The named ``secret`` group, else the longest group of 8+ characters, else the whole match."""
    if "secret" in match.re.groupindex and match.group("secret") is not None:
        span = match.span("secret")
        return span if span[1] > span[0] else match.span()
    best = match.span()
    longest = 0
    for index in range(1, (match.re.groups or 0) + 1):
        start, end = match.span(index)
        if start >= 0 and end - start >= 8 and end - start > longest:
            best, longest = (start, end), end - start
    return best


WINDOW = 160  # characters of context kept on each side of a candidate token
MAX_WINDOW = 4096  # what one detect-secrets regex call may see


def _windows(text: str) -> list[tuple[int, int]]:
    """Merged [start, end) windows around candidate tokens."""
    windows: list[tuple[int, int]] = []
    for match in _CANDIDATE.finditer(text):
        start, end = max(0, match.start() - WINDOW), min(len(text), match.end() + WINDOW)
        if end - start > 4 * WINDOW + 512:  # an endless token: its head is what a detector needs
            end = start + 4 * WINDOW + 512
        if windows and start <= windows[-1][1] and max(windows[-1][1], end) - windows[-1][0] <= MAX_WINDOW:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


# --- what a matched value is not ----------------------------------------------
# Each judgement sees the match, the whole text, the value and where it ends; a pattern lists the ones
# that apply to it in `not_values` (rules/rules.toml). They judge the value's shape and
# context, never whether a credential is live.

_QUOTED = re.compile(r"""^(["'])(?P<inner>.*)\1$""", re.DOTALL)
# A list, an object, a tuple or a bracketed marker opens here: `"tokens": ["a", "b"]`, `secret: {name: x}`.
_STRUCTURE = re.compile(r"^[\[{(]")
# Code, not a value: a dotted name, a call or a subscript (`os.environ["X"]`, `os.getenv(`, `self.token`,
# `process.env.API_KEY`, `settings.SECRET_KEY`, `get_token()`), or a shell/PowerShell environment read.
_CODE = re.compile(r"^(?:[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+(?:[(\[].*)?|[A-Za-z_$][\w$]*[(\[].*|\$env:\w+|\$\{?env[:.]\w+.*)$",
                   re.IGNORECASE)
# The name of an environment variable holding the credential, not the credential: OPENAI_API_KEY, GH_TOKEN.
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:[A-Z0-9]+_)*(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD"
                       r"|CREDENTIALS?|AUTH)(?:_[A-Z0-9]+)*$|^(?:API_?KEY|TOKEN|SECRET|PASSWORD|AUTH)_[A-Z0-9_]+$")
_NUMBER = re.compile(r"^[+-]?\d[\d_,.]*[kKmM]?$")
_WORD = re.compile(r"^[A-Za-z][A-Za-z'-]*$")
_NEXT_WORD = re.compile(r"[ \t]+[A-Za-z(]")
_PLAIN_WORDS = re.compile(r"^[A-Za-z][A-Za-z'-]*(?:[ \t]+[A-Za-z][A-Za-z'-]*[.,:;!?]?)+$")
_COPULA = re.compile(r"^[ \t]+(?:is|was|set[ \t]+to)[ \t]+$", re.IGNORECASE)
_VERSION = re.compile(r"^[\^~=<>!v]*\d+(?:\.[\dx*]+)+(?:[-+.][\w.]*)?$", re.IGNORECASE)


def _label_in_identifier(match: re.Match[str], text: str) -> bool:
    """The credential word ends a longer name: `max_tokens`, `input-tokens`."""
    if "label" not in match.re.groupindex or match.start("label") < 2:
        return False
    before = text[match.start("label") - 2:match.start("label")]
    return before[1] in "_-" and before[0].isalnum()


def _empty(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """An empty string literal (`api_key = ""`) or punctuation only (`token ')'`): nothing is set.
    A missing value (`"secret": }`) is still reported."""
    quoted = _QUOTED.match(value)
    inner = quoted.group("inner") if quoted else value
    return bool(value) and not any(c.isalnum() for c in inner)


def _structure(match: re.Match[str], text: str, value: str, end: int) -> bool:
    return bool(_STRUCTURE.match(value)) and not is_placeholder(value)


def _code(match: re.Match[str], text: str, value: str, end: int) -> bool:
    return not _QUOTED.match(value) and bool(_CODE.match(value))


def _env_name(match: re.Match[str], text: str, value: str, end: int) -> bool:
    quoted = _QUOTED.match(value)
    return bool(_ENV_NAME.match(quoted.group("inner") if quoted else value))


def _counter(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """A number after a plural or compound label is a count (`"input_tokens": 100`, `max_tokens=4096`);
    so is a number after a label joined by a space or a comma, not a copula (`token 5 of 12`)."""
    if not _NUMBER.match(value) or "label" not in match.re.groupindex:
        return False
    label = match.group("label").lower()
    if label.endswith("s") and label != "pass" or _label_in_identifier(match, text):
        return True
    connector = match.group("connector") if "connector" in match.re.groupindex else None
    return connector is not None and not _COPULA.match(connector) and ":" not in connector and "=" not in connector


def _prose(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """Ordinary words, not a value: `token: see docs`, `password: at least 8 characters`,
    `password: "must be at least 8 characters"`."""
    quoted = _QUOTED.match(value)
    if quoted:
        return bool(_PLAIN_WORDS.match(quoted.group("inner").strip()))
    return bool(_WORD.match(value)) and _NEXT_WORD.match(text, end) is not None


def _version(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """A version requirement (`js-cookie: ^3.0.5`, `"cookie": "0.7.1"`) is a package, not a cookie."""
    quoted = _QUOTED.match(value)
    return bool(_VERSION.match(quoted.group("inner") if quoted else value))


NOT_VALUES = {
    "empty": _empty,
    "structure": _structure,
    "code": _code,
    "env-name": _env_name,
    "counter": _counter,
    "prose": _prose,
    "version": _version,
}


def _acceptable(pattern: SecretPattern, match: re.Match[str], text: str, start: int, end: int, prose: bool) -> bool:
    value = text[start:end]
    if prose and pattern.prose_needs_shape and not _SHAPED.match(value.strip()):
        return False
    stripped = value.strip().strip("\"'")
    if pattern.placeholders == "all" and stripped and is_placeholder(stripped):
        return False
    if pattern.placeholders == "templates" and _TEMPLATE.match(value.strip()):
        return False
    if pattern.skip_refs and (UUID.match(stripped) or DIGEST_REF.match(stripped)):
        return False
    if stripped and looks_like_regex(stripped):
        return False
    if any(NOT_VALUES[name](match, text, value.strip(), end) for name in pattern.not_values):
        return False
    if pattern.entropy and not passes_entropy(stripped, pattern.entropy):
        return False
    return True


def _overlaps(claimed: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in claimed)


def scan_secrets(text: str, key: str | None = None, prose: bool = False) -> list[Hit]:
    """Credential hits in ``text``; ``key`` is the name the text is stored under, if any;
    ``prose`` for comments and docstrings, where a credential word is usually just a word."""
    hits: list[Hit] = []
    if len(text) < 3:
        return hits
    # Whole matches already reported: a later pattern matching the same text is the same finding.
    claimed: list[tuple[int, int]] = []
    folded: str | None = None
    for pattern in secret_patterns():
        if pattern.key is not None and (key is None or not pattern.key.search(key)):
            continue
        if pattern.needles:
            if pattern.ignore_case:
                folded = folded if folded is not None else text.lower()
                if not any(n in folded for n in pattern.needles):
                    continue
            elif not any(n in text for n in pattern.needles):
                continue
        for match in pattern.regex.finditer(text):
            start, end = _secret_span(match)
            if _overlaps(claimed, *match.span()):
                continue
            if prose and pattern.prose_connector is not None and "connector" in match.re.groupindex \
                    and not pattern.prose_connector.match(match.group("connector") or ""):
                continue
            # Claimed even when the value is a placeholder: the most specific pattern judged this text.
            claimed.append(match.span())
            if not _acceptable(pattern, match, text, start, end, prose):
                continue
            hits.append(Hit(pattern.code, pattern.id, pattern.label, start, end, secret=True))
    # detect-secrets' own regexes are not all linear (e.g. `.+` runs): they only ever see bounded
    # windows around candidate tokens, never a whole long string.
    for start, end in _windows(text):
        window = text[start:end]
        for code, secret_type, regex in _detect_secrets_regexes():
            for match in regex.finditer(window):
                s, e = _secret_span(match)
                s, e = s + start, e + start
                value = text[s:e]
                if _overlaps(claimed, s, e) or is_placeholder(value) or looks_like_regex(value):
                    continue
                claimed.append((s, e))
                hits.append(Hit(code, "detect-secrets", f"a {secret_type} (detect-secrets)", s, e, secret=True))
    return hits
