"""Python front-end: libcst parse with positions.

libcst keeps comments, string prefixes and exact positions, which the string
detectors and inline suppressions need; its native parser covers Python 3.0
to 3.13 syntax. A file it cannot parse (a syntax error, Python 2) gets an
OVA001 notice and the run goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..findings import Finding, Span
from ..source import SourceFile, notice


@dataclass
class PythonModule:
    source: SourceFile
    wrapper: MetadataWrapper
    positions: Mapping[cst.CSTNode, Any]

    @property
    def module(self) -> cst.Module:
        return self.wrapper.module

    def span(self, node: cst.CSTNode) -> Span:
        where = self.positions[node]
        return Span(where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)

    def line(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line


def parse_python(source: SourceFile) -> tuple[PythonModule | None, list[Finding]]:
    text = source.data.decode("utf-8", "replace")
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        line, column = exc.raw_line or 1, (exc.raw_column or 0) + 1
        where = Span(line, column, line, column + 1)
        if _valid_for_interpreter(text):
            return None, [notice("OVA001", "libcst cannot parse this file although the interpreter can "
                                 "(a parser limit, e.g. an extremely long expression); file not analysed",
                                 source.display, where)]
        first = str(exc.message).splitlines()[0].split(": expected one of")[0] if exc.message else "syntax error"
        hint = " (Python 2 code?)" if _looks_like_python2(text) else ""
        return None, [notice("OVA001", f"Python syntax error{hint}: {first[:200]}; file not analysed",
                             source.display, where)]
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    return PythonModule(source, wrapper, wrapper.resolve(PositionProvider)), []


def _valid_for_interpreter(text: str) -> bool:
    import ast

    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _looks_like_python2(text: str) -> bool:
    import re

    return bool(re.search(r"(?m)^\s*(?:print\s+[\"'\w]|exec\s+[\"']|except\s+\w+\s*,\s*\w+\s*:)", text))
