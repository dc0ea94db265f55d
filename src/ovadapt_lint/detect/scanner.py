"""One entry point for every string the linter sees: all detector families at once."""

from __future__ import annotations

from .credentials import scan_secrets
from .denylist import DenyList
from .signatures import scan_text
from .urls import UrlDetector
from . import Hit

CACHE_SIZE = 100_000


class StringScanner:
    """Raw-content signatures, credentials, local paths, private URLs and the deny-list.

    ``raw_content=False`` (for keys and identifiers) leaves out the OVA3xx
    signatures, which judge bodies of text.
    """

    def __init__(self, deny_list: DenyList | None = None, internal_domains: tuple[str, ...] = ()) -> None:
        self.deny_list = deny_list or DenyList()
        self.urls = UrlDetector(internal_domains)
        # Fixtures repeat keys and values a lot; hits are immutable, so they are cached.
        self._cache: dict[tuple[str, str | None, bool, bool], tuple[Hit, ...]] = {}

    def scan(self, text: str, key: str | None = None, *, raw_content: bool = True, prose: bool = False) -> list[Hit]:
        """``prose``: the text is a comment or docstring (credential words need a value-shaped value)."""
        cache_key = (text, key, raw_content, prose)
        cached = self._cache.get(cache_key)
        if cached is None:
            cached = tuple(self._scan(text, key, raw_content, prose))
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[cache_key] = cached
        return list(cached)

    def _scan(self, text: str, key: str | None, raw_content: bool, prose: bool) -> list[Hit]:
        hits = scan_text(text, prose=prose, raw_content=raw_content)
        hits += scan_secrets(text, key, prose)
        hits += self.urls.scan(text)
        hits += self.deny_list.scan(text)
        return hits
