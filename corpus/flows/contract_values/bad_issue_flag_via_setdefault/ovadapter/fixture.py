"""Regenerate the committed adapter fixture."""

from __future__ import annotations

import json
from pathlib import Path

from .adapter import build_adapter

FIXTURE = Path("examples/fixtures/openviking-session-memory-adapter.public.json")


def regenerate() -> None:
    adapter = build_adapter("loopx-meta", "example/viking", 2792, "session_public_ref_a", "todo_0001")
    document = {"fixture": "memory_adapter_public_v0", "openviking_session_memory_adapter": adapter}
    FIXTURE.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
