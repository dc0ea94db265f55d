"""Access to the rule pack shipped inside the package (``ovadapt_lint/rules``).

The pack is data: rule metadata, contracts (JSON Schema), vocabularies and
patterns. It is located through importlib.resources so an installed wheel never
depends on the checkout it was built from.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # importlib.resources.abc is Python 3.11+; the annotation is never evaluated
    from importlib.resources.abc import Traversable


def pack_root() -> Traversable:
    return resources.files("ovadapt_lint") / "rules"


def read_text(*parts: str) -> str:
    node = pack_root()
    for part in parts:
        node = node / part
    return node.read_text(encoding="utf-8")


@cache
def load_toml(*parts: str) -> dict[str, Any]:
    return _parsed_toml("/".join(parts), read_text(*parts))


def _parsed_toml(name: str, text: str) -> dict[str, Any]:
    """``text`` parsed. tomllib is pure Python: parsing the pack's 160 KB of TOML was a third of a short run's
    CPU (issue 29). The parsed table is kept in the user's store (HMAC-authenticated, one entry per pack
    file, naming the digest of the text it was parsed from) and read back as JSON, about 20 times faster."""
    import hashlib

    from . import userstore

    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    table = f"parsed-{name.replace('/', '-')}.json"
    stored = userstore.read_table(table)
    if isinstance(stored, dict) and stored.get("digest") == digest:
        return stored["data"]
    if sys.version_info >= (
        3,
        11,
    ):  # imported here: a run whose parsed tables are stored never parses TOML
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    data = tomllib.loads(text)
    if (
        json.loads(json.dumps(data)) == data
    ):  # nothing JSON cannot carry (a date, say): else parse each time
        userstore.write_table(table, {"digest": digest, "data": data})
    return data


@cache
def load_json(*parts: str) -> Any:
    return json.loads(read_text(*parts))


def list_dir(*parts: str) -> list[str]:
    node = pack_root()
    for part in parts:
        node = node / part
    return sorted(child.name for child in node.iterdir())


def pack_digest() -> str:
    """A digest of every file in the pack, for cache keys and SARIF provenance."""
    import hashlib

    digest = hashlib.sha256()
    stack = [pack_root()]
    while stack:
        node = stack.pop()
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.is_dir():
                stack.append(child)
            else:
                digest.update(child.name.encode())
                digest.update(child.read_bytes())
    return digest.hexdigest()
