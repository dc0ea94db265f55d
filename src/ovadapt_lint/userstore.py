"""The user's own store, outside any repository: ``$XDG_CACHE_HOME/ovadapt-lint/``.

It holds the key that authenticates cache entries (created on first use, mode 0600) and small
derived tables that are costly to rebuild on every run (detect-secrets' detector regexes, whose
import alone costs ~0.15 s). What is read back must carry a valid HMAC under that key: a file
someone else wrote there is ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

KEY_BYTES = 32


def folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ovadapt-lint"


def key_file() -> Path:
    """Where the HMAC key lives: the user's cache folder, never the repository."""
    return folder() / "cache-key"


def user_key() -> bytes | None:
    """The user's authentication key, created on first use (0600); None when it cannot be created or
    read, or is readable by others (then nothing is read from or written to the store or the cache)."""
    path = key_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            handle = os.open(
                path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
            )
        except FileExistsError:
            pass
        else:
            import secrets  # only when the key is made: every other run reads it

            with os.fdopen(handle, "wb") as out:
                out.write(secrets.token_bytes(KEY_BYTES))
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(handle, "rb") as source:
            info = os.fstat(source.fileno())
            if os.name == "posix" and (
                info.st_mode & 0o077 or info.st_uid != os.getuid() or not stat.S_ISREG(info.st_mode)
            ):
                return None
            key = source.read(4096)
    except OSError:
        return None
    return key if len(key) >= KEY_BYTES else None


def _mac(key: bytes, name: str, payload: str) -> str:
    return hmac.new(
        key, (name + "\0" + payload).encode("utf-8", "surrogatepass"), hashlib.sha256
    ).hexdigest()


def read_table(name: str) -> Any | None:
    """A table written by ``write_table`` under this user's key; None when missing, damaged or forged."""
    key = user_key()
    if key is None:
        return None
    try:
        entry = json.loads((folder() / name).read_text(encoding="utf-8"))
        payload, mac = entry["payload"], entry["mac"]
        if (
            isinstance(payload, str)
            and isinstance(mac, str)
            and hmac.compare_digest(mac, _mac(key, name, payload))
        ):
            return json.loads(payload)
    except (OSError, ValueError, TypeError, KeyError):
        pass
    return None


def write_table(name: str, table: Any) -> None:
    key = user_key()
    if key is None:
        return
    try:
        payload = json.dumps(table)
        handle, temporary = tempfile.mkstemp(dir=folder(), suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"payload": payload, "mac": _mac(key, name, payload)}, out)
        os.replace(temporary, folder() / name)
    except OSError:
        pass  # a read-only home makes the store useless, not the run
