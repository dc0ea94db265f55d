"""Expands the `example` / `near_miss` templates of rules/secrets/providers.toml (see its header)."""

from __future__ import annotations

import random
import re
import string

ALPHABETS = {
    "a": string.ascii_letters + string.digits,
    "A": string.ascii_letters,
    "L": string.ascii_lowercase,
    "U": string.ascii_uppercase,
    "l": string.ascii_lowercase + string.digits,
    "u": string.ascii_uppercase + string.digits,
    "h": "0123456789abcdef",
    "H": "0123456789ABCDEF",
    "d": string.digits,
    "b": string.ascii_letters + string.digits + "_-",
    "s": string.ascii_letters + string.digits + "+/",
    "q": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
}
_FIELD = re.compile(r"\{([aALUluhHdbsq]):(\d+)\}")


def expand(template: str, rng: random.Random) -> str:
    """The template with every `{class:N}` replaced by N random characters of that class."""
    return _FIELD.sub(
        lambda m: "".join(rng.choice(ALPHABETS[m.group(1)]) for _ in range(int(m.group(2)))),
        template,
    )
