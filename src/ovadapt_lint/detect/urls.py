"""Private URLs (OVA602 private addresses, OVA603 internal hosts).

Candidates are found with regular expressions and judged with the standard
``ipaddress`` and ``urllib.parse`` modules. Private ``viking://`` scopes
(OVA601) and signed URLs (OVA604) are pattern rules in the rule pack.
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache
from urllib.parse import urlsplit

from .. import rulepack
from . import Hit, in_pattern, looks_like_regex

_URL = re.compile(r"""\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s"'<>`\\]+""")
# An address, not a CIDR range ("10.0.0.0/8" defines a network, it does not point at a host).
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]*\d)(?!\.\w)(?!/\d)")
_IPV6 = re.compile(
    r"(?<![\w:.])\[?((?:[0-9A-Fa-f]{1,4}:){1,7}:?[0-9A-Fa-f]{0,4}|::1)\]?(?![\w:])(?!/\d)",
    re.IGNORECASE,
)
_HOST_PORT = re.compile(r"(?<![\w.\-/@])([A-Za-z0-9][A-Za-z0-9.\-]*[A-Za-z0-9]):(\d{2,5})(?!\d)")
_BARE_HOST = re.compile(
    r"(?<![\w.\-/@])((?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9\-]*)(?![\w\-]|\.[A-Za-z0-9])"
)


@lru_cache(maxsize=1)
def _network() -> tuple[tuple, frozenset[str], tuple[str, ...], tuple[str, ...]]:
    data = rulepack.load_toml("vocabulary", "network.toml")
    networks = tuple(ipaddress.ip_network(n) for n in data["private_networks"])
    return (
        networks,
        frozenset(data["private_hostnames"]),
        tuple(data["internal_suffixes"]),
        tuple(data["bare_internal_suffixes"]),
    )


def _private_ip(text: str) -> bool:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return any(address.version == net.version and address in net for net in _network()[0])


class UrlDetector:
    def __init__(self, internal_domains: tuple[str, ...] = ()) -> None:
        _, self.private_hosts, suffixes, bare = _network()
        extra = tuple("." + d.lower().lstrip(".") for d in internal_domains if d.strip())
        self.suffixes = suffixes + extra
        self.bare_suffixes = bare + extra
        self.domains = tuple(d.lower().lstrip(".") for d in internal_domains if d.strip())

    def _internal(self, host: str, bare: bool) -> bool:
        host = host.lower().rstrip(".")
        if host in self.domains:
            return True
        return host.endswith(self.bare_suffixes if bare else self.suffixes)

    def _judge_host(self, host: str, bare: bool) -> tuple[str, str, str] | None:
        host = host.strip("[]").lower()
        if host in self.private_hosts:
            return "OVA602", "private-host", "a localhost address"
        if _private_ip(host):
            return "OVA602", "private-ip", "a private, loopback or link-local address"
        if self._internal(host, bare):
            return "OVA603", "internal-host", "an internal host name"
        return None

    def scan(self, text: str) -> list[Hit]:
        if len(text) < 4:
            return []
        regex = looks_like_regex(text)  # then only the hosts inside the pattern itself are skipped
        hits: list[Hit] = []
        seen: set[str] = set()
        claimed: list[tuple[int, int]] = []

        def add(verdict: tuple[str, str, str] | None, start: int, end: int) -> None:
            if (
                verdict is None
                or verdict[0] in seen
                or any(s < end and start < e for s, e in claimed)
            ):
                return
            if regex and in_pattern(text, start, end):
                return
            seen.add(verdict[0])  # one finding per rule per string
            claimed.append((start, end))
            hits.append(Hit(verdict[0], verdict[1], verdict[2], start, end))

        if "://" in text:
            for match in _URL.finditer(text):
                try:
                    host = urlsplit(match.group(0)).hostname
                except ValueError:
                    continue
                if host:
                    add(self._judge_host(host, bare=False), *match.span())
                claimed.append(match.span())  # a public URL is judged whole, not by its parts
        if "." in text:
            for match in _IPV4.finditer(text):
                add(self._judge_host(match.group(0), bare=True), *match.span())
        if "::" in text or "fe80" in text.lower() or "fd" in text.lower():
            for match in _IPV6.finditer(text):
                if ":" in match.group(1):
                    add(self._judge_host(match.group(1), bare=True), *match.span())
        if ":" in text:
            for match in _HOST_PORT.finditer(text):
                add(self._judge_host(match.group(1), bare=False), *match.span())
        if "." in text:
            for match in _BARE_HOST.finditer(text):
                if self._internal(match.group(1), bare=True):
                    add(("OVA603", "internal-host", "an internal host name"), *match.span())
        return hits
