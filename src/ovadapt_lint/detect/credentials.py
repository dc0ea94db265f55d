"""Credentials (OVA4xx): our own patterns from the rule pack, plus detect-secrets' detectors.

detect-secrets runs in-process through its plugin classes, on candidate strings
only. Its pitfalls are handled here: spans are located with the plugins' own
regular expressions (its GitHub detector *reports* only the ``ghp`` group), and
its Shannon-entropy limits are applied explicitly where a pattern asks for them
(``scan_line`` would skip them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, TypeGuard

from . import DIGEST_REF, UUID, Hit, is_placeholder, looks_like_regex, shannon_entropy
from .checksums import CHECKSUMS
from .keynames import credential_name, public_by_design
from .needles import CHOSEN_SETS, Needles, NeedleSets, prefix_map
from .typed import generated

# A candidate for detect-secrets' pattern plugins: some run of 16+ token characters.
_CANDIDATE = re.compile(r"[A-Za-z0-9_\-+/=.]{16,}|-----BEGIN")


@dataclass(frozen=True)
class SecretPattern:
    id: str
    code: str
    label: str
    source: str  # the regex, compiled on first use: most provider formats never meet their needles
    needles: tuple[str, ...] = ()
    ignore_case: bool = False
    key: re.Pattern[str] | None = None  # only for values under a key (or label) matching this
    # "base64" | "hex" | "any": detect-secrets' limit; "shape": typed.generated; a number: a gitleaks rule's limit.
    entropy: str | float | None = None
    # Which placeholder values are not reported: "all" (default), "templates" (${X}, {x}, {{x}} only), "none".
    placeholders: str = "all"
    # "all" (or true): commit SHAs, sha256 digests and UUIDs are not this kind of secret; "digests": only the
    # SHAs and digests (a UUID assigned to a credential name is a value: Heroku API keys are UUIDs); "prefixed": only
    # digests that say so (`sha256:…`): bare 40-hex after a credential word is a value (issue 26).
    skip_refs: str | None = None
    # In prose (comments, docstrings) the value must look like one: a digit, + / =, quotes, or 16+ letters.
    prose_needs_shape: bool = False
    # In prose, the regex's `connector` group must match this (when given).
    prose_connector: re.Pattern[str] | None = None
    # Named judgements of what is not a credential value here (see NOT_VALUES).
    not_values: tuple[str, ...] = ()
    # "credential": the regex's `name` group (else the key the text is stored under) must name a credential
    # (detect/keynames.py): `oktaApiToken`, `API_KEY_PROD`, not `max_tokens`.
    names: str | None = None
    precision: str | None = (
        None  # this format's precision when it differs from its rule's (SARIF, per result)
    )
    checksum: str | None = (
        None  # a named checksum (CHECKSUMS); a match raises the precision to "very-high"
    )
    # Translated gitleaks rules (detect/gitleaks.py): needles matched in the lower-cased text while the regex keeps
    # its own case; the group that is the secret (0: the first non-empty group); allowlists.
    fold_needles: bool = False
    secret_group: int | None = None
    allowlists: tuple[tuple, ...] = ()  # gitleaks.Allowlist

    @classmethod
    def from_data(cls, code: str, data: dict[str, Any]) -> SecretPattern:
        flags = re.IGNORECASE if data.get("ignore_case") else 0
        needles = tuple(data.get("needles", ()))
        fold = bool(flags) or bool(data.get("fold_needles"))
        return cls(
            id=data["id"],
            code=code,
            label=data["label"],
            source=data["regex"],
            needles=tuple(n.lower() for n in needles) if fold else needles,
            ignore_case=bool(flags),
            fold_needles=bool(data.get("fold_needles")),
            secret_group=data.get("secret_group"),
            allowlists=tuple(data.get("allowlists", ())),
            key=re.compile(data["key"], re.IGNORECASE) if "key" in data else None,
            entropy=data.get("entropy"),
            placeholders=data.get("placeholders", "all"),
            skip_refs=_skip_refs(data.get("skip_refs")),
            prose_needs_shape=bool(data.get("prose_needs_shape", False)),
            prose_connector=re.compile(data["prose_connector"], re.IGNORECASE)
            if "prose_connector" in data
            else None,
            not_values=_not_values(data.get("not_values", ())),
            names=_names(data.get("names")),
            precision=data.get("precision"),
            checksum=_checksum(data.get("checksum")),
        )

    def __getstate__(self) -> dict[str, Any]:
        # A pickled pattern (shipped to a worker) leaves its compiled regex behind: it compiles on first use there.
        state = dict(self.__dict__)
        state.pop("regex", None)
        return state

    @cached_property
    def regex(self) -> re.Pattern[str]:
        try:
            return re.compile(self.source, re.IGNORECASE if self.ignore_case else 0)
        except re.error as exc:
            raise ValueError(f"secret pattern {self.id}: bad regex: {exc}") from exc


def _skip_refs(kind: Any) -> str | None:
    if kind is True:
        return "all"
    if kind not in (None, False, "all", "digests", "prefixed"):
        raise ValueError(f'unknown skip_refs {kind!r}; known: true, "all", "digests", "prefixed"')
    return kind or None


def _names(kind: Any) -> str | None:
    if kind not in (None, "credential"):
        raise ValueError(f'unknown names {kind!r}; known: "credential"')
    return kind


def _checksum(name: Any) -> str | None:
    if name is not None and name not in CHECKSUMS:
        raise ValueError(f"unknown checksum {name!r}; known: {sorted(CHECKSUMS)}")
    return name


def _not_values(names: Any) -> tuple[str, ...]:
    unknown = sorted(set(names) - set(NOT_VALUES))
    if unknown:
        raise ValueError(f"unknown not_values {unknown}; known: {sorted(NOT_VALUES)}")
    return tuple(names)


_SHAPED = re.compile(r"""^(?:["'].*["']|[^\s]*[0-9+/=][^\s]*|[A-Za-z]{16,})$""")
# Template references, the placeholder --fix writes (so a second --fix changes nothing), and an elided
# or masked value (`Bearer ...`, `Bearer ***`), which shows no credential.
_TEMPLATE = re.compile(
    r"^[\"']?(?:\$\{\{[^}]+\}\}|\$\{[^}]+\}|\{\{[^}]+\}\}|\{[A-Za-z0-9_.:-]+\}|%\([A-Za-z_]+\)s|\$[A-Z][A-Z0-9_]+"
    r"|\[redacted:[\w-]{1,40}\]|\.{3,}|…|\*{3,})[\"']?$"
)


class SecretPatterns:
    """The rule pack's credential patterns, with the needle index that picks the few a text can match.
    Built once per pack; the index and the regexes are made on first use, and a pickled copy (a worker's)
    carries only the patterns' data, so it stays cheap to ship and lazy to compile."""

    def __init__(self, patterns: tuple[SecretPattern, ...]) -> None:
        self.patterns = patterns
        self._forget()

    def _forget(self) -> None:
        # one_pass's answers: ours alone, and ours with detect-secrets' index (the one it was built with)
        self._alone: NeedleSets | None = None
        self._with: tuple[_DetectSecretsIndex, NeedleSets] | None = None

    def __iter__(self):
        return iter(self.patterns)

    def __len__(self) -> int:
        return len(self.patterns)

    def __getstate__(self) -> dict[str, Any]:
        return {"patterns": self.patterns}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.patterns = state["patterns"]
        self._forget()

    @cached_property
    def needle_index(self) -> tuple[Needles | None, Needles | None]:
        """The case-sensitive needles, matched in the text, and the folded ones, matched in its lower case."""
        exact = {
            n for p in self.patterns if not (p.ignore_case or p.fold_needles) for n in p.needles
        }
        folded = {n for p in self.patterns if p.ignore_case or p.fold_needles for n in p.needles}
        return _needles(exact, folded)

    def one_pass(self, detect_secrets: _DetectSecretsIndex | None) -> NeedleSets:
        """This index, and detect-secrets' (``detect_secrets``) when given, asked in one pass (NeedleSets)."""
        if detect_secrets is None:
            if self._alone is None:
                self._alone = self._needle_sets(None)
            return self._alone
        # Built again for another detect-secrets index (a test reloads its table).
        if self._with is None or self._with[0] is not detect_secrets:
            self._with = (detect_secrets, self._needle_sets(detect_secrets))
        return self._with[1]

    def _needle_sets(self, detect_secrets: _DetectSecretsIndex | None) -> NeedleSets:
        exact, folded = self.needle_index
        indexes = [(exact, False), (folded, True)]
        if detect_secrets is not None:
            indexes += [(detect_secrets.exact, False), (detect_secrets.folded, True)]
        return NeedleSets(indexes, [0, 0, 1, 1][: len(indexes)])

    @cached_property
    def groups(self) -> tuple[_PatternGroup, _PatternGroup]:
        """Our patterns split into formats and contexts, and those judged by a credential name."""
        return (
            _PatternGroup(tuple(p for p in self.patterns if p.names is None)),
            _PatternGroup(tuple(p for p in self.patterns if p.names is not None)),
        )

    @classmethod
    def from_rules(cls, rules) -> SecretPatterns:
        """The [[rule.secret]] patterns of ``rules`` (code -> rule record), in rule order; a project's own gitleaks
        rules first: formats it chose win over the built-in contexts (`ACME_SECRET=…` is its rule's, not OVA409's)."""
        patterns = [
            SecretPattern.from_data(rule.code, data)
            for rule in rules.values()
            for data in rule.secret
        ]
        return cls(tuple(sorted(patterns, key=lambda p: not p.fold_needles)))


def _needles(exact: set[str], folded: set[str]) -> tuple[Needles | None, Needles | None]:
    # One prefix map for both kinds, as the index always had: a match of either kind also reports the needles
    # of the other kind it starts with (at worst a pattern is tried that then does not match).
    prefixes = prefix_map(exact | folded)
    return (Needles(exact, prefixes) if exact else None), (
        Needles(folded, prefixes) if folded else None
    )


@lru_cache(maxsize=1)
def _entropy_plugins() -> dict[str, Any]:
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )

    return {"base64": Base64HighEntropyString(), "hex": HexHighEntropyString()}


_HEX = re.compile(r"^[0-9a-fA-F]+$")


def passes_entropy(value: str, charset: str) -> bool:
    """detect-secrets' limit for ``charset``; "any" measures a hex value (dashes of a UUID aside) as hex
    and anything else as base64."""
    if charset == "any":
        bare = value.replace("-", "") if UUID.match(value) else value
        charset, value = ("hex", bare) if _HEX.match(bare) else ("base64", value)
    plugin = _entropy_plugins()[charset]
    return plugin.calculate_shannon_entropy(value) > plugin.entropy_limit


# detect-secrets secret types -> our codes. Types not listed (public IPs, the
# keyword and high-entropy plugins) are not run: our label rule (OVA409) replaces
# the keyword plugin, and entropy is applied only as a filter on our own patterns.
_DETECT_SECRETS_CODES = {
    "Artifactory Credentials": "OVA401",
    "AWS Access Key": "OVA401",
    "Azure Storage Account access key": "OVA401",
    "Basic Auth Credentials": "OVA404",
    "Cloudant Credentials": "OVA401",
    "Discord Bot Token": "OVA401",
    "GitHub Token": "OVA401",
    "GitLab Token": "OVA401",
    "IBM Cloud IAM Key": "OVA401",
    "IBM COS HMAC Credentials": "OVA401",
    "JSON Web Token": "OVA406",
    "Mailchimp Access Key": "OVA401",
    "NPM tokens": "OVA401",
    "OpenAI Token": "OVA401",
    "Private Key": "OVA402",
    "PyPI Token": "OVA401",
    "SendGrid API Key": "OVA401",
    "Slack Token": "OVA401",
    "SoftLayer Credentials": "OVA401",
    "Square OAuth Secret": "OVA401",
    "Stripe Access Key": "OVA401",
    "Telegram Bot Token": "OVA401",
    "Twilio API Key": "OVA401",
}


class LazyRegex:
    """A detect-secrets regex, compiled on first use: a text meets few of them (_DetectSecretsIndex), and
    compiling all 45 was a tenth of a one-file run (issue 29). ``pattern`` and ``flags`` as re's."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self.flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: str, *args: int) -> re.Match[str] | None:
        return self.compiled.search(text, *args)

    def finditer(self, text: str, *args: int) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text, *args)


@lru_cache(maxsize=1)
def _detect_secrets_regexes() -> tuple[tuple[str, str, LazyRegex], ...]:
    """(code, secret type, regex) for every regex-based detect-secrets plugin we use. The table is kept in
    the user's store per installed detect-secrets: importing it costs ~0.15 s, most of it ``requests``,
    which a linter never calls."""
    from .. import userstore

    name = _detect_secrets_table_name()
    table = userstore.read_table(name) if name else None
    if not _valid_table(table):
        table = _detect_secrets_table()
        if name:
            userstore.write_table(name, table)
    return tuple(
        (code, secret_type, LazyRegex(pattern, flags))
        for code, secret_type, pattern, flags in table
    )


def _detect_secrets_table() -> list[list]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector

    # Annotated here: the library types the mapping with a type variable that only its result holds.
    plugins: Mapping[str, type[BasePlugin]] = get_mapping_from_secret_type_to_class()
    out: list[list[Any]] = []
    for secret_type, plugin_class in sorted(plugins.items()):
        code = _DETECT_SECRETS_CODES.get(secret_type)
        if code is None or not issubclass(plugin_class, RegexBasedDetector):
            continue
        # Each plugin sets ``denylist`` as a class attribute over the base's abstract property.
        denylist: Iterable[re.Pattern[str]] = plugin_class.denylist  # type: ignore[assignment]
        for regex in denylist:
            out.append([code, secret_type, regex.pattern, regex.flags])
    return out


def _valid_table(table: Any) -> TypeGuard[list[list[Any]]]:
    return (
        isinstance(table, list)
        and bool(table)
        and all(
            isinstance(row, list)
            and len(row) == 4
            and row[0] in _DETECT_SECRETS_CODES.values()
            and isinstance(row[1], str)
            and isinstance(row[2], str)
            and isinstance(row[3], int)
            for row in table
        )
    )


def _detect_secrets_table_name() -> str | None:
    """A name that changes with the installed detect-secrets (its location, version and plugin files) and
    with this mapping, found without importing the package."""
    import hashlib
    import importlib.util
    import os
    import sys

    try:
        spec = importlib.util.find_spec("detect_secrets")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = list(spec.submodule_search_locations)[0]
    digest = hashlib.sha256(
        repr((sorted(_DETECT_SECRETS_CODES.items()), sys.version_info[:2], root)).encode()
    )
    try:
        with open(os.path.join(root, "__version__.py"), "rb") as handle:
            digest.update(handle.read())
        plugins = os.path.join(root, "plugins")
        for entry in sorted(os.scandir(plugins), key=lambda e: e.name):
            info = entry.stat()
            digest.update(f"{entry.name}:{info.st_size}:{info.st_mtime_ns}".encode())
    except OSError:
        return None
    return f"detect-secrets-{digest.hexdigest()[:24]}.json"


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
        if (
            windows
            and start <= windows[-1][1]
            and max(windows[-1][1], end) - windows[-1][0] <= MAX_WINDOW
        ):
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


# --- what a matched value is not ----------------------------------------------
# Each judgement sees the match, the whole text, the value (trailing )>].,:;!? and backticks of an unquoted value
# removed) and where the value ends; a pattern lists the ones that apply to it in `not_values`
# (rules/rules.toml). They judge the value's shape and context, never whether a credential is live.

_QUOTED = re.compile(r"""^(["'])(?P<inner>.*)\1$""", re.DOTALL)
_TRAILING = ")>].,:;!?`"
# A list, an object, a tuple or a bracketed marker opens here: `"tokens": ["a", "b"]`, `secret: {name: x}`.
_STRUCTURE = re.compile(r"^[\[{(]")
# Code, not a value: a dotted name, a call or a subscript (`os.environ["X"]`, `os.getenv(`, `self.token`,
# `process.env.API_KEY`, `settings.SECRET_KEY`, `get_token()`), a shell/PowerShell environment read,
# the next key of a list (`tokens: model=…`), or arithmetic (`tokens = h*w*24/1024`).
_CODE = re.compile(
    r"""^(?:[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+(?:[(\[].*)?|[A-Za-z_$][\w$]*[(\[].*
                       |\$env:\w+|\$\{?env[:.]\w+.*|[a-z_][a-z0-9_]{0,30}=|(?=[^*]*\*)[\w.]+(?:[*/][\w.]+){2,})$""",
    re.VERBOSE,
)
_OPERATOR_NEXT = re.compile(r"[ \t]+[*/+%-][ \t]+[\w(]")
# The name of a variable or an environment variable, not its value: `openai_key`, `OPENAI_API_KEY`,
# `accessToken`. Letters only, two parts at least, one of them a credential word.
# One letter per repetition: `[A-Za-z]+(?:[_-]?[A-Za-z]+)+` backtracked exponentially on a long letter run.
_NAME = re.compile(r"^[A-Za-z](?:[_-]?[A-Za-z])+$")
_NAME_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_CREDENTIAL_PARTS = frozenset(
    {
        "key",
        "keys",
        "apikey",
        "token",
        "tokens",
        "secret",
        "secrets",
        "password",
        "passwd",
        "pwd",
        "pass",
        "passphrase",
        "credential",
        "credentials",
        "auth",
    }
)
# A number, maybe closing the call it is an argument of: `4096`, `-1`, `0.5`, `20).configurable_fields(`.
_NUMBER = re.compile(r"^[+-]?\d[\d_,.]*[kKmM]?(?:$|[)\]}])")
# A word (letters; a hyphenated compound may carry a version: "Base64-encoded", "UTF-8").
_WORD = re.compile(r"^[A-Za-z]+(?:-[A-Za-z]+)*$")
_WORDISH = re.compile(r"^[A-Za-z]+\d{0,2}(?:-[A-Za-z0-9]+)*$")
_WORD_CHOICES = re.compile(r"^[A-Za-z]{2,}(?:/[A-Za-z]{2,})+$")  # "imported/used", "empty/None"
_NEXT_WORD = re.compile(r"[ \t]+[A-Za-z({<$]")
_NEXT_TWO_WORDS = re.compile(r"[ \t]+[A-Za-z]+[ \t]+[A-Za-z]+")
_PLAIN_WORDS = re.compile(
    r"^[A-Za-z][A-Za-z'-]*(?:[ \t]+(?:[A-Za-z][A-Za-z'-]*|\d{1,4})[.,:;!?]?)+$"
)
_COPULA = re.compile(r"^[ \t]+(?:is|was|set[ \t]+to)[ \t]+$", re.IGNORECASE)
_VERSION = re.compile(r"^[\^~=<>!v]*\d+(?:\.[\dx*]+)+(?:[-+.][\w.]*)?$", re.IGNORECASE)
_ELISION = re.compile(r"[ \t]*(?:\.\.\.|…)")


def _inner(value: str) -> str:
    quoted = _QUOTED.match(value)
    return quoted.group("inner") if quoted else value


def _label_in_identifier(match: re.Match[str], text: str) -> bool:
    """The credential word ends a longer name: `max_tokens`, `input-tokens`."""
    if "label" not in match.re.groupindex or match.start("label") < 2:
        return False
    before = text[match.start("label") - 2 : match.start("label")]
    return before[1] in "_-" and before[0].isalnum()


def _empty(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """An empty string literal (`api_key = ""`) or punctuation only (`token ')'`): nothing is set.
    A missing value (`"secret": }`) is still reported."""
    return bool(value) and not any(c.isalnum() for c in _inner(value))


def _structure(match: re.Match[str], text: str, value: str, end: int) -> bool:
    return bool(_STRUCTURE.match(value)) and not is_placeholder(value)


def _code(match: re.Match[str], text: str, value: str, end: int) -> bool:
    if _QUOTED.match(value):
        return False
    return bool(_CODE.match(value)) or _OPERATOR_NEXT.match(text, end) is not None


def _name(match: re.Match[str], text: str, value: str, end: int) -> bool:
    inner = _inner(value)
    if not _NAME.match(inner):
        return False
    parts = [p.lower() for p in _NAME_PART.findall(inner)]
    return len(parts) >= 2 and any(p in _CREDENTIAL_PARTS for p in parts)


def _counter(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """A number after a plural or compound label is a count (`"input_tokens": 100`, `max_tokens=4096`);
    so is a number after a label joined by a space or a comma, not a copula (`token 5 of 12`)."""
    if not _NUMBER.match(value) or "label" not in match.re.groupindex:
        return False
    label = match.group("label").lower()
    if label.endswith("s") or _label_in_identifier(match, text):
        return True
    connector = match.group("connector") if "connector" in match.re.groupindex else None
    return connector is not None and not _COPULA.match(connector)


def _prose(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """Ordinary words, not a value: `token: see docs`, `password: at least 8 characters`,
    `page_token: Base64-encoded cursor from the last page`, `secret is empty/None`,
    `password: "must be at least 8 characters"`."""
    quoted = _QUOTED.match(value)
    if quoted:
        return bool(_PLAIN_WORDS.match(quoted.group("inner").strip()))
    if _WORD_CHOICES.match(value):
        return True
    if _WORD.match(value) and _NEXT_WORD.match(text, end):
        return True
    # `client_secret: OAuth2 client secret.` describes; `password=hunter2 for postgres` assigns.  # ovadapt: ignore[OVA409]
    return (
        bool(_WORDISH.match(value))
        and "=" not in _separator(match)
        and _NEXT_TWO_WORDS.match(text, end) is not None
    )


def _separator(match: re.Match[str]) -> str:
    """What joins the credential word to its value (`": "`, `=`, ` is `)."""
    if "label" not in match.re.groupindex or "secret" not in match.re.groupindex:
        return ""
    return match.string[match.end("label") : match.start("secret")]


def _version(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """A version requirement (`js-cookie: ^3.0.5`, `"cookie": "0.7.1"`) is a package, not a cookie."""
    return bool(_VERSION.match(_inner(value)))


def _user_name(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """A URL password equal to its user name (`postgres://postgres:postgres@localhost`) is a default."""
    return "user" in match.re.groupindex and match.group("user") == _inner(value)


def _elided(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """The match is followed by an elision: `-----BEGIN PRIVATE KEY-----...` shows a format."""
    return _ELISION.match(text, match.end()) is not None


def _public_key(match: re.Match[str], text: str, value: str, end: int) -> bool:
    """A key public by design, as its prefix says (PostHog `phc_`, Stripe `pk_live_`): not a secret."""
    return public_by_design(value.strip("\"'"))


NOT_VALUES = {
    "public-key": _public_key,
    "empty": _empty,
    "structure": _structure,
    "code": _code,
    "name": _name,
    "counter": _counter,
    "prose": _prose,
    "version": _version,
    "user-name": _user_name,
    "elided": _elided,
}


def _judged(value: str) -> str:
    """The value as judged: stripped, and without the closing punctuation an unquoted value runs into."""
    value = value.strip()
    if _QUOTED.match(value):
        return value
    original = value
    pairs = {")": "(", ">": "<", "]": "["}
    while value and value[-1] in _TRAILING:
        last = value[-1]
        if last in pairs and value.count(pairs[last]) >= value.count(last):
            break  # `<TOKEN>`, `get_token()`: the closer belongs to the value
        value = value[:-1]
    return value or original


def _acceptable(
    pattern: SecretPattern, match: re.Match[str], text: str, start: int, end: int, prose: bool
) -> bool:
    value = text[start:end]
    if prose and pattern.prose_needs_shape and not _SHAPED.match(value.strip()):
        return False
    # A missing value (`"secret": }`) is judged as the whole match, as before: no value is not a non-value.
    missing = "secret" in match.re.groupindex and match.group("secret") == ""
    judged = value.strip() if missing else _judged(value)
    stripped = judged.strip("\"'")
    if pattern.placeholders == "all" and stripped and is_placeholder(stripped):
        return False
    if pattern.placeholders == "templates" and _TEMPLATE.match(value.strip()):
        return False
    if pattern.skip_refs and (
        (pattern.skip_refs == "all" and UUID.match(stripped))
        or (DIGEST_REF.match(stripped) and (pattern.skip_refs != "prefixed" or ":" in stripped))
    ):
        return False
    if stripped and looks_like_regex(stripped):
        return False
    if not missing and any(
        NOT_VALUES[name](match, text, judged, end) for name in pattern.not_values
    ):
        return False
    if pattern.entropy == "shape":
        return generated(stripped)
    if isinstance(pattern.entropy, float):  # a gitleaks rule's limit
        return shannon_entropy(value) > pattern.entropy
    if pattern.entropy and not passes_entropy(stripped, pattern.entropy):
        return False
    if pattern.code == "OVA401" and _FILE_NAME_AFTER.match(text, end) is not None:
        return False  # a piece of a file name (`video_box.ico-<hex>.png`, `img/sk-<hex>.svg`)
    return True


# A file extension right after the match, closing the word: the match is part of a file name.
_FILE_NAME_AFTER = re.compile(
    r"\.(?:png|jpe?g|gif|svg|ico|webp|bmp|css|js|mjs|cjs|map|json|html?|txt|md|py|woff2?|ttf|"
    r"eot|otf|zip|gz|tgz|tar|pdf|mp4|webm|mp3|wav|xml|ya?ml|lock)(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def _precision(pattern: SecretPattern, value: str) -> str | None:
    """A matching checksum makes the finding "very-high"; a mismatch keeps the pattern's precision."""
    if pattern.checksum is not None and CHECKSUMS[pattern.checksum](value):
        return "very-high"
    return pattern.precision


def _inside_word(text: str, start: int, end: int) -> bool:
    """Some detect-secrets regexes have no word boundaries: a match that a letter or digit continues on
    either side has the wrong length for its format (`TODAYINASIAASACKOFRICEFELLOVER` is no AWS key id)."""
    return (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum())


def _overlaps(claimed: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in claimed)


def scan_secrets(
    text: str, patterns: SecretPatterns, key: str | None = None, prose: bool = False
) -> list[Hit]:
    """Credential hits in ``text`` by the rule pack's ``patterns``; ``key`` is the name the text is stored
    under, if any; ``prose`` for comments and docstrings, where a credential word is usually just a word."""
    hits: list[Hit] = []
    if len(text) < 3:
        return hits
    # Whole matches already reported: a later pattern matching the same text is the same finding.
    claimed: list[tuple[int, int]] = []
    # detect-secrets' index is built for the first text with a candidate token (the windows its regexes see);
    # once built, its needles are found in the same pass as ours, and windows only for a text that needs them.
    windows: list[tuple[int, int]] | None = None
    if _DS_INDEX[1] is None:
        windows = _windows(text)
    detect_secrets = _detect_secrets_index() if windows or _DS_INDEX[1] is not None else None
    found = patterns.one_pass(detect_secrets).present(text)
    theirs: frozenset[str] | None = None
    if found is None:  # not ASCII: each index on its own
        exact, folded = patterns.needle_index
        present: set[str] = set()
        if exact is not None:
            exact.present(text, present)
        if folded is not None:
            folded.present(text.lower(), present)
        chosen = frozenset(present)
    else:
        chosen = found[0]
        if detect_secrets is not None:
            theirs = found[1]
    specific, by_name = patterns.groups
    keyed = key is not None
    candidates = specific.candidates(chosen, keyed)
    if candidates:
        _pattern_hits(candidates, text, key, prose, claimed, hits)
    if detect_secrets is not None:
        regexes = detect_secrets.candidates(text, theirs)
        if regexes:
            if windows is None:
                windows = _windows(text)
            _detect_secrets_hits(text, windows, regexes, claimed, hits)
    # Last, so a known format (detect-secrets' Azure `AccountKey=…`) keeps its own rule and label.
    candidates = by_name.candidates(chosen, keyed)
    if candidates:
        _pattern_hits(candidates, text, key, prose, claimed, hits)
    return hits


class _PatternGroup:
    """Patterns in rule order, indexed by needle: a text meets the few patterns whose needles it holds
    (asking ~200 patterns each whether their needles are present cost more than the matching)."""

    def __init__(self, patterns: tuple, needles: list | None = None, make=None) -> None:
        # ``needles``: each pattern's needles when they are not its own (detect-secrets' rows); ``make``: what
        # a chosen pattern becomes (a detect-secrets row, its regex compiled), when it is first chosen.
        self.patterns = patterns
        self.make = make
        needles = needles if needles is not None else [p.needles for p in patterns]
        self.always = tuple(i for i, own in enumerate(needles) if not own)
        self.by_needle: dict[str, list[int]] = {}
        for index, own in enumerate(needles):
            for needle in own:
                self.by_needle.setdefault(needle, []).append(index)

        # Candidates by the set of needles present (CHOSEN_SETS): choosing cost more than matching (issue 15).
        self._chosen: dict[tuple[frozenset[str], bool], tuple] = {}

    def candidates(self, present: frozenset[str], keyed: bool = True) -> tuple:
        """``keyed``: False for a text stored under no key, which meets no pattern that needs one (our
        patterns only; the rows of detect-secrets need none)."""
        found = self._chosen.get((present, keyed))
        if found is None:
            chosen = set(self.always)
            for needle in present:
                chosen.update(self.by_needle.get(needle, ()))
            if len(self._chosen) >= CHOSEN_SETS:
                self._chosen.clear()
            found = tuple(self.patterns[i] for i in sorted(chosen))
            if self.make is not None:
                found = tuple(self.make(p) for p in found)
            if not keyed:
                found = tuple(p for p in found if not _needs_key(p))
            self._chosen[(present, keyed)] = found
        return found


def _needs_key(pattern: SecretPattern) -> bool:
    """What _pattern_hits skips for a text under no key: a pattern for the values of some keys, or one that
    judges the key's name (names, but no `name` group of its own)."""
    return pattern.key is not None or (
        pattern.names is not None and "name" not in pattern.regex.groupindex
    )


def _pattern_hits(
    patterns: tuple[SecretPattern, ...],
    text: str,
    key: str | None,
    prose: bool,
    claimed: list[tuple[int, int]],
    hits: list[Hit],
) -> None:
    """``patterns``: those whose needles the text holds (see _PatternGroup), in rule order."""
    for pattern in patterns:
        if pattern.key is not None and (key is None or not pattern.key.search(key)):
            continue
        named = pattern.names is not None and "name" in pattern.regex.groupindex
        if pattern.names is not None and not named and (key is None or not credential_name(key)):
            continue
        for match in pattern.regex.finditer(text):
            start, end = (
                _secret_span(match)
                if pattern.secret_group is None
                else _group_span(match, pattern.secret_group)
            )
            if _overlaps(claimed, *match.span()):
                continue
            if named and not credential_name(
                match.group("name") or match.groupdict().get("flagname") or ""
            ):
                continue
            if (
                prose
                and pattern.prose_connector is not None
                and "connector" in match.re.groupindex
                and not pattern.prose_connector.match(match.group("connector") or "")
            ):
                continue
            # Claimed even when the value is a placeholder: the most specific pattern judged this text.
            claimed.append(match.span())
            if not _acceptable(pattern, match, text, start, end, prose):
                continue
            if pattern.allowlists and _allowed(pattern, match, text, start, end):
                continue
            hits.append(
                Hit(
                    pattern.code,
                    pattern.id,
                    pattern.label,
                    start,
                    end,
                    secret=True,
                    precision=_precision(pattern, text[start:end]),
                )
            )


def _group_span(match: re.Match[str], group: int) -> tuple[int, int]:
    """gitleaks' choice of the secret: group ``group``, or (0) the first non-empty group, else the match."""
    if group:
        return match.span(group) if match.start(group) >= 0 else match.span()
    for index in range(1, (match.re.groups or 0) + 1):
        if match.start(index) >= 0 and match.end(index) > match.start(index):
            return match.span(index)
    return match.span()


def _allowed(pattern: SecretPattern, match: re.Match[str], text: str, start: int, end: int) -> bool:
    from .gitleaks import allowed

    line_start = text.rfind("\n", 0, match.start()) + 1
    line_end = text.find("\n", match.end())
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return allowed(pattern.allowlists, text[start:end], match.group(), line)


class _DetectSecretsIndex:
    """detect-secrets' regexes, each behind the literals it cannot match without (required_literals): a text
    meets only those whose literals it holds, in table order. Lower-cased literals prove nothing in non-ASCII
    text (Unicode case folding matches `ſ` for `s`), so there every regex behind them is run."""

    def __init__(
        self, rows: tuple[tuple[str, str, LazyRegex], ...], gates: list | None = None
    ) -> None:
        # ``gates``: each row's required literals (required_literals), when already known (_stored_gates).
        self.rows = rows
        gates = gates if gates is not None else _gates(rows)
        folded = {n for gate in gates if gate and gate[1] for n in gate[0]}
        self.exact, self.folded = _needles(
            {n for gate in gates if gate and not gate[1] for n in gate[0]}, folded
        )
        self.folded_needles = frozenset(folded)
        self.group = _PatternGroup(rows, [gate[0] if gate else () for gate in gates], _compiled_row)

    def candidates(
        self, text: str, present: frozenset[str] | None = None
    ) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
        """The rows that can match somewhere in ``text``, their regexes compiled. ``present``: the needles
        occurring in ``text``, when a pass shared with other needles found them (an ASCII text's)."""
        if present is not None:
            return self.group.candidates(present)
        found: set[str] = set()
        if self.exact is not None:
            self.exact.present(text, found)
        if self.folded is not None:
            if text.isascii():
                self.folded.present(text.lower(), found)
            else:
                found |= self.folded_needles
        return self.group.candidates(frozenset(found))


def _gates(rows: tuple[tuple[str, str, LazyRegex], ...]) -> list:
    from .required_literals import required_literals

    return [required_literals(regex.pattern, regex.flags) for _, _, regex in rows]


def _stored_gates(rows: tuple[tuple[str, str, LazyRegex], ...]) -> list:
    """The rows' required literals, kept in the user's store: reading 45 parse trees was a sixth of a one-file
    run's own work (issue 29). Named by the rows and by the code that reads the literals off them."""
    import hashlib
    import os

    from .. import userstore

    try:
        with open(os.path.join(os.path.dirname(__file__), "required_literals.py"), "rb") as handle:
            code = handle.read()
    except OSError:  # no source beside the package (a frozen build): read the literals each time
        return _gates(rows)
    digest = hashlib.sha256(code)
    digest.update(repr([(regex.pattern, regex.flags) for _, _, regex in rows]).encode())
    name = f"literals-of-detect-secrets-{digest.hexdigest()[:24]}.json"
    stored = userstore.read_table(name)
    if _valid_gates(stored, len(rows)):
        return [None if gate is None else (frozenset(gate[0]), gate[1]) for gate in stored]
    gates = _gates(rows)
    userstore.write_table(name, [None if g is None else [sorted(g[0]), g[1]] for g in gates])
    return gates


def _valid_gates(stored: Any, count: int) -> TypeGuard[list[Any]]:
    return (
        isinstance(stored, list)
        and len(stored) == count
        and all(
            gate is None
            or (
                isinstance(gate, list)
                and len(gate) == 2
                and isinstance(gate[0], list)
                and bool(gate[0])
                and all(isinstance(n, str) and n for n in gate[0])
                and isinstance(gate[1], bool)
            )
            for gate in stored
        )
    )


def _compiled_row(row: tuple[str, str, LazyRegex]) -> tuple[str, str, re.Pattern[str]]:
    code, secret_type, regex = row
    return code, secret_type, regex.compiled


# A request-forgery token's name: what follows is sent to every visitor of the page, not a credential.
_CSRF_BEFORE = re.compile(r"[cx]srf|authenticity[_-]token", re.IGNORECASE)

# The index of the loaded table, by identity (a test reloads the table).
_DS_INDEX: list[Any] = [None, None]


def _detect_secrets_index() -> _DetectSecretsIndex:
    rows = _detect_secrets_regexes()
    if _DS_INDEX[0] is not rows:
        _DS_INDEX[:] = [rows, _DetectSecretsIndex(rows, _stored_gates(rows))]
    return _DS_INDEX[1]


def _detect_secrets_hits(
    text: str,
    windows: list[tuple[int, int]],
    regexes: tuple[tuple[str, str, re.Pattern[str]], ...],
    claimed: list[tuple[int, int]],
    hits: list[Hit],
) -> None:
    """``regexes`` (the rows whose literals ``text`` holds) in the ``windows`` around its candidate tokens:
    detect-secrets' own regexes are not all linear (e.g. `.+` runs), so they never see a whole long string."""
    for start, end in windows:
        window = text[start:end]
        for code, secret_type, regex in regexes:
            for match in regex.finditer(window):
                if _inside_word(text, match.start() + start, match.end() + start):
                    continue
                s, e = _secret_span(match)
                s, e = s + start, e + start
                value = text[s:e]
                if _overlaps(claimed, s, e) or is_placeholder(value) or looks_like_regex(value):
                    continue
                claimed.append((s, e))
                if _CSRF_BEFORE.search(text, max(0, s - 40), s):
                    continue  # IBM's keyword regex takes any `…token: <44 characters>`, a CSRF token's too
                hits.append(
                    Hit(
                        code,
                        "detect-secrets",
                        f"a {secret_type} (detect-secrets)",
                        s,
                        e,
                        secret=True,
                    )
                )
