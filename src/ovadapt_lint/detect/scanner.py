"""One entry point for every string the linter sees: all detector families at once."""

from __future__ import annotations

import re

from . import PLACEHOLDER, Hit, filler_value, is_placeholder, secret_shaped
from .credentials import scan_secrets
from .denylist import DenyList
from .signatures import scan_text
from .typed import made_up
from .urls import UrlDetector

CACHE_SIZE = 100_000
_NO_HITS: tuple[tuple[Hit, ...], tuple[Hit, ...]] = ((), ())


class StringScanner:
    """Raw-content signatures, credentials, local paths, private URLs and the deny-list.

    ``raw_content=False`` (for keys and identifiers) leaves out the OVA3xx
    signatures, which judge bodies of text.
    """

    def __init__(
        self, pack, deny_list: DenyList | None = None, internal_domains: tuple[str, ...] = ()
    ) -> None:
        # ``pack``: the rule pack (pack.RulePack): its text signatures, credential patterns and categories.
        self.pack = pack
        self.deny_list = deny_list or DenyList()
        self.urls = UrlDetector(internal_domains)
        # Fixtures repeat keys and values a lot; hits are immutable, so they are cached.
        self._cache: dict[
            tuple, tuple
        ] = {}  # scan() and scan_families() answers, by their arguments

    def scan(
        self,
        text: str,
        key: str | None = None,
        *,
        raw_content: bool = True,
        prose: bool = False,
        secrets: bool = True,
        content: bool = True,
        published: bool = True,
    ) -> list[Hit]:
        """``prose``: the text is a comment or docstring (credential words need a value-shaped value).
        ``secrets``: credentials and the deny-list (judged everywhere); ``content``: raw content, local
        paths and private URLs (judged where the text is published). ``published``: False for text that
        is not published (tests, ordinary code), where context rules report generated-looking values only."""
        cache_key = (text, key, raw_content, prose, secrets, content, published)
        cached = self._cache.get(cache_key)
        if cached is None:
            cached = self._store(
                cache_key,
                tuple(self._scan(text, key, raw_content, prose, secrets, content, published)),
            )
        return list(cached)

    def scan_families(
        self, text: str, key: str | None = None, *, raw_content: bool = True
    ) -> tuple[list[Hit], list[Hit]]:
        """(``scan(secrets=True, content=False)``, ``scan(secrets=False, content=True)``) of published text,
        with one credential pass for both (two passes were a third of a large document's time, issue 15)."""
        cache_key = (text, key, raw_content, "families")
        cached = self._cache.get(cache_key)
        if cached is None:
            cached = self._store(cache_key, self._families(text, key, raw_content))
        return list(cached[0]), list(cached[1])

    def _store(self, cache_key: tuple, answer: tuple) -> tuple:
        """Remember an answer of either scan: the memo is bounded, emptied when full (hits are immutable)."""
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()
        self._cache[cache_key] = answer
        return answer

    def _credentials(self, text: str, key: str | None, prose: bool) -> tuple[Hit, ...]:
        """The credential pass of a published text scanned for one family: the other family's check scans it
        again (a Python literal: python-secrets, then python-content), and one pass serves both. Remembered
        for published text alone: most text is not, and is scanned once."""
        cache_key = (text, key, prose, "credentials")
        found = self._cache.get(cache_key)
        if found is None:
            found = self._store(cache_key, tuple(scan_secrets(text, self.pack.secrets, key, prose)))
        return found

    def _families(
        self, text: str, key: str | None, raw_content: bool
    ) -> tuple[tuple[Hit, ...], tuple[Hit, ...]]:
        everywhere = self.pack.judged_everywhere
        credentials = scan_secrets(text, self.pack.secrets, key, False)
        secret_hits = [h for h in credentials if h.code in everywhere] + self.deny_list.scan(text)
        content_hits = (
            scan_text(text, self.pack.text_signatures, prose=False, raw_content=raw_content)
            + self.urls.scan(text)
            + [h for h in credentials if h.code not in everywhere]
        )
        if not secret_hits and not content_hits:
            return _NO_HITS  # the common case, one shared pair for every cached string
        return tuple(secret_hits), tuple(content_hits)

    def _scan(
        self,
        text: str,
        key: str | None,
        raw_content: bool,
        prose: bool,
        secrets: bool,
        content: bool,
        published: bool = True,
    ) -> list[Hit]:
        hits: list[Hit] = []
        if content:
            hits += scan_text(text, self.pack.text_signatures, prose=prose, raw_content=raw_content)
            hits += self.urls.scan(text)
        if secrets or content:
            # One credential pass serves both families: signed URLs (OVA604) are private URLs.
            everywhere = self.pack.judged_everywhere
            hits += [
                h
                for h in (
                    self._credentials(text, key, prose)
                    if published and secrets != content
                    else scan_secrets(text, self.pack.secrets, key, prose)
                )
                if (h.code in everywhere and secrets) or (h.code not in everywhere and content)
            ]
        if not published:
            hits = [h for h in hits if _reported_outside_publication(h, text)]
        if secrets:
            hits += self.deny_list.scan(text)
        return hits


# Rules that read a credential from its context (a header, a URL, a cookie, `password = …`): outside what is
# published they see test fixtures and examples (`password = "hunter2"`, `Cookie: chips=ahoy`), so there
# only a value shaped like a generated secret is reported: code -> the shortest such value.
CONTEXT_MIN_LENGTH = {"OVA403": 12, "OVA404": 8, "OVA405": 16, "OVA409": 12}
_PEM_BODY = re.compile(r"[A-Za-z0-9+/]{20,}")
_LOOPBACK_AFTER = re.compile(r"[^@\s]{0,80}@(?:localhost|127\.|\[::1\]|0\.0\.0\.0)", re.IGNORECASE)


def _reported_outside_publication(hit: Hit, text: str) -> bool:
    """Outside published values: typed stand-ins, documentation samples and local-development values are
    test data, not leaks. Provider formats stay exact, but a token made of words or runs is typed, not issued."""
    value = text[hit.start : hit.end]
    if hit.code in CONTEXT_MIN_LENGTH:
        if hit.signature == "cookie-assignment" and "=" in value:
            value = value.split("=", 1)[1]  # `name=value`: judge the value, not the name
        if hit.code == "OVA404" and _LOOPBACK_AFTER.match(text, hit.end):
            return False  # a local development database or cache
        return secret_shaped(value, CONTEXT_MIN_LENGTH[hit.code])
    if hit.code == "OVA402":  # a key, not a header someone checks for: the base64 body follows
        return _PEM_BODY.search(text, hit.end, hit.end + 600) is not None
    if hit.code == "OVA406":
        return not _sample_jwt(value)
    if hit.code == "OVA401":
        # Filled with a run, a period, a keyboard row or words (`AIzaaaa…`, `glptt-Need5_T00-be-exactly-…`):
        # typed, not issued. (In a published value every provider shape counts: LoopX pins `ghp_aaaa…`.)
        return not made_up(value)
    return True


def _sample_jwt(token: str) -> bool:
    """A documentation sample (jwt.io's `{"sub": "1234567890", "name": "John Doe"}`): its claims are a
    keyboard run or stand-in words."""
    import base64
    import json

    parts = token.split(".")
    if len(parts) < 2:
        return False
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, UnicodeDecodeError):
        return False
    values = [str(v) for v in claims.values()] if isinstance(claims, dict) else []
    return any(_stand_in_claim(v) or v in ("John Doe", "Jane Doe") for v in values)


def _stand_in_claim(value: str) -> bool:
    """Filler words alone (`"aud": "api"`, `"scope": "read write"`) are ordinary claims of issued tokens;
    templates, masks, keyboard runs and stand-in words (`test`, `example`) mark a sample."""
    return is_placeholder(value) and (
        not filler_value(value.strip()) or PLACEHOLDER.match(value.strip()) is not None
    )
