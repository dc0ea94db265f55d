"""Smoke test: load the committed adapter fixture into a throwaway registry and check it round-trips."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "examples" / "fixtures" / "memory-preview.public.json"


def smoke() -> int:
    published = json.loads(FIXTURE.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="ov-smoke-") as tmp:
        registry = {
            "registry_root": tmp,
            "fixture_path": str(FIXTURE),
            "entries": [published],
        }
        registry_file = Path(tmp) / "registry.json"
        with registry_file.open("w", encoding="utf-8") as fh:
            json.dump(registry, fh)
        reloaded = json.loads(registry_file.read_text(encoding="utf-8"))
    return 0 if reloaded["entries"] == [published] else 1


if __name__ == "__main__":
    raise SystemExit(smoke())
