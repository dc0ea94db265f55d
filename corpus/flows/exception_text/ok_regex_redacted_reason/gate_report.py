"""Gate report for the public board: a blocked gate's reason with paths, hosts and secrets masked."""

from __future__ import annotations

import re

_SECRET = re.compile(r"(?i)(token|secret|password|api[_-]?key)\s*[=:]\s*\S+")
_PATH = re.compile(r"(?:/|[A-Za-z]:\\)[^\s'\"]+")
_URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")


def redact_reason(text: str) -> str:
    text = _SECRET.sub(r"\1=<redacted>", text)
    text = _URL.sub("<url>", text)
    return _PATH.sub("<path>", text)


def gate_report(gate_id: str, gate) -> dict:
    try:
        gate.check()
    except PermissionError as exc:
        return {
            "schema_version": "gate_report_projection_v1",
            "gate_id": gate_id,
            "state": "blocked",
            "reason": redact_reason(str(exc)),
        }
    return {"schema_version": "gate_report_projection_v1", "gate_id": gate_id, "state": "clear"}
