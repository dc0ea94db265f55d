"""Checksums some token formats carry: a match shows the token was issued by the provider's format (or
made by someone who computed it), so the finding is more certain; a mismatch never hides a token."""

from __future__ import annotations

import re
import zlib

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# GitHub's classic formats: prefix, 30 random base62 characters, then their CRC32 in 6 base62 digits.
_GITHUB_CLASSIC = re.compile(r"gh[pousr]_(?P<body>[A-Za-z0-9]{30})(?P<check>[A-Za-z0-9]{6})")


def base62(number: int, width: int) -> str:
    digits = ""
    while number:
        number, digit = divmod(number, 62)
        digits = _BASE62[digit] + digits
    return digits.rjust(width, "0")


def github_crc32(token: str) -> bool:
    """GitHub's classic token checksum (github.blog, 2021-04-05, "Behind GitHub's new authentication
    token formats"): the last 6 characters are the base62 CRC32 of the 30 random ones."""
    match = _GITHUB_CLASSIC.fullmatch(token)
    if match is None:
        return False
    return base62(zlib.crc32(match.group("body").encode("ascii")), 6) == match.group("check")


CHECKSUMS = {"github-crc32": github_crc32}
