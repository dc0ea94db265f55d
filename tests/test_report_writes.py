"""JSON and SARIF reports reach the output in a few large writes."""

from __future__ import annotations

import io
import json

from ovadapt_lint.report.json_report import dump_json


class _CountingOutput(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_large_json_report_is_written_in_chunks_not_per_token() -> None:
    # Issue 15: json.dump wrote every token separately (~416k writes for 32k findings).
    document = {
        "summary": {"findings": 20_000},
        "findings": [{"code": "OVA301", "line": i, "message": "caf\u00e9"} for i in range(20_000)],
    }
    out = _CountingOutput()
    dump_json(document, out)
    text = out.getvalue()
    assert text == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    assert out.writes <= len(text) // (1 << 16) + 2
