"""GitHub Actions workflow commands (``::error file=...::message``)."""

from __future__ import annotations

from typing import TextIO

from ..engine import LintResult
from ..redact import mask_text

_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def write_github(result: LintResult, out: TextIO) -> None:
    for f in result.findings:
        s = f.span
        out.write(
            f"::{_LEVEL.get(f.severity, 'error')} file={_prop(result.uri(f.path))},line={s.start_line},col={s.start_col},"
            f"endLine={s.end_line},endColumn={s.end_col},title={_prop(f.code + ' ' + f.name)}::"
            f"{_data(f.code + ' ' + mask_text(f.message))}\n"
        )
