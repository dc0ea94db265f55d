"""Every Python string literal, f-string part, comment, docstring and identifier
through the shared string detectors (raw content, credentials, paths, URLs, deny-list)."""

from __future__ import annotations

import libcst as cst

from ..detect import Hit
from ..detect.scanner import StringScanner
from ..findings import Finding, Span
from ..frontends.python_cst import PythonModule
from . import hit_finding


def _locate(module: PythonModule, node: cst.CSTNode, raw: str, value: str, hit: Hit) -> Span:
    """The hit's own position when its text appears verbatim in the source token, else the token's."""
    fragment = value[hit.start:hit.end]
    index = raw.find(fragment) if fragment else -1
    if index < 0:
        return module.span(node)
    where = module.positions[node].start
    before = raw[:index]
    line = where.line + before.count("\n")
    column = (len(before) - before.rfind("\n")) if "\n" in before else where.column + 1 + len(before)
    end_line = line + fragment.count("\n")
    end_column = (len(fragment) - fragment.rfind("\n")) if "\n" in fragment else column + len(fragment)
    return Span(line, column, end_line, end_column)


class _StringVisitor(cst.CSTVisitor):
    def __init__(self, module: PythonModule, scanner: StringScanner) -> None:
        self.module = module
        self.scanner = scanner
        self.findings: list[Finding] = []
        self.names_seen: set[str] = set()
        self.docstrings: set[int] = set()

    def _note_docstring(self, node: cst.Module | cst.ClassDef | cst.FunctionDef) -> None:
        body = node.body if isinstance(node, cst.Module) else node.body.body
        if body and isinstance(body[0], cst.SimpleStatementLine) and body[0].body:
            first = body[0].body[0]
            if isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
                self.docstrings.add(id(first.value))

    def visit_Module(self, node: cst.Module) -> None:
        self._note_docstring(node)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._note_docstring(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._note_docstring(node)

    def _report(self, node: cst.CSTNode, raw: str, value: str, what: str, *, prose: bool = False,
                deny_only: bool = False) -> None:
        hits = self.scanner.deny_list.scan(value) if deny_only else self.scanner.scan(value, prose=prose)
        self._report_parts(node, [(node, raw, value)], hits, what)

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> bool:
        # Implicit concatenation is one value: a secret may be split across the parts.
        # The parts are collected iteratively (the chain can be thousands long).
        parts: list[cst.CSTNode] = []
        current: cst.CSTNode = node
        while isinstance(current, cst.ConcatenatedString):
            parts.append(current.left)
            current = current.right
        parts.append(current)
        if not all(isinstance(p, cst.SimpleString) for p in parts):
            return True
        values = [p.evaluated_value for p in parts]  # type: ignore[union-attr]
        values = [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in values]
        docstring = id(node) in self.docstrings
        hits = self.scanner.scan("".join(values), prose=docstring)
        self._report_parts(node, [(p, p.value, v) for p, v in zip(parts, values)], hits,
                           "docstring" if docstring else "string literal")
        return False

    def _report_parts(self, node: cst.CSTNode, parts: list[tuple[cst.CSTNode, str, str]], hits: list[Hit],
                      what: str) -> None:
        """Findings for hits in the joined values of ``parts`` ((node, raw source, value) each)."""
        value = "".join(text for _, _, text in parts)
        for hit in hits:
            span = self.module.span(node)
            if not hit.code.startswith("OVA3"):
                offset = 0
                for part, raw, text in parts:  # locate the hit in the part that holds it
                    if offset <= hit.start and hit.end <= offset + len(text):
                        local = Hit(hit.code, hit.signature, hit.label, hit.start - offset, hit.end - offset)
                        span = _locate(self.module, part, raw, text, local)
                        break
                    offset += len(text)
            self.findings.append(hit_finding(hit, value, what, self.module.source.display, span))

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        if len(value) >= 3:
            docstring = id(node) in self.docstrings
            self._report(node, node.value, value, "docstring" if docstring else "string literal", prose=docstring)

    def visit_FormattedStringText(self, node: cst.FormattedStringText) -> None:
        if len(node.value) >= 3:
            self._report(node, node.value, node.value, "f-string text")

    def visit_Comment(self, node: cst.Comment) -> None:
        self._report(node, node.value, node.value, "comment", prose=True)

    def visit_Name(self, node: cst.Name) -> None:
        # Identifiers only carry internal names; each name is reported once per file.
        if self.scanner.deny_list and node.value not in self.names_seen:
            self.names_seen.add(node.value)
            self._report(node, node.value, node.value, "an identifier", deny_only=True)


def check_python_strings(module: PythonModule, scanner: StringScanner) -> list[Finding]:
    visitor = _StringVisitor(module, scanner)
    module.module.visit(visitor)
    return visitor.findings
