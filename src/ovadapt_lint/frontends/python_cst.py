"""Python front-end: libcst parse with positions.

libcst keeps the concrete syntax with exact positions, which the projection
analysis needs. It runs only on modules that ``ast`` parsed (syntax errors are
reported by the fast path) and that can hold a projection.
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


def parse_python(source: SourceFile) -> tuple[PythonModule | None, list[Finding]]:
    """Parse a module that ``ast`` already accepted; a libcst failure is then a parser limit."""
    text = source.data.decode("utf-8", "replace")
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        line, column = exc.raw_line or 1, (exc.raw_column or 0) + 1
        return None, [notice("OVA001", "libcst cannot parse this file although the interpreter can (a parser "
                             "limit, e.g. an extremely long expression); projection analysis skipped",
                             source.display, Span(line, column, line, column + 1))]
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    return PythonModule(source, wrapper, wrapper.resolve(PositionProvider)), []
