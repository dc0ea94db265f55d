"""Every Python string literal, f-string part, comment, docstring and identifier
through the shared string detectors (raw content, credentials, paths, URLs,
deny-list). Comments and docstrings are prose: a credential word needs a
value-shaped value there, and comment-body signatures do not apply."""

from __future__ import annotations

import ast
import bisect

from ..detect import Hit
from ..detect.scanner import StringScanner
from ..findings import Finding, Span
from ..frontends.python_text import PythonText, Where
from ..registry import category_of
from ..source import SourceFile, advance
from . import fix_end, hit_finding, placeholder


def _locate(span: Span, raw: str, fragment: str) -> Span | None:
    """The fragment's own position when it appears verbatim in the literal's source, else None."""
    index = raw.find(fragment) if fragment else -1
    if index < 0:
        return None
    line, column = advance(span.start_line, span.start_col, raw[:index])
    end_line, end_column = advance(line, column, fragment)
    return Span(line, column, end_line, end_column)


# Why a literal the program uses is left alone by --fix (the run reports it still).
USED_BY_PROGRAM = (
    "the program uses this value (it is passed to a call, compared or read): rewriting it would "
    "change what the code does; move the value out of the published data by hand"
)


def _findings(
    hits: list[Hit],
    value: str,
    what: str,
    span: Span,
    raw: str,
    source: SourceFile,
    rules=None,
    used: str | None = None,
) -> list[Finding]:
    """``used``: why the literal may not be rewritten (it is not published as written: the program uses
    it), or None. A credential or internal name is rewritten wherever it is: the source itself is the leak
    (and the secret must be rotated), so only what is judged as published content is held to ``used``."""
    out = []
    everywhere_used, used_content = None, used
    for hit in hits:
        used = everywhere_used if category_of(hit.code).everywhere else used_content
        # Raw content is about the whole literal; the other detectors point at the match.
        if category_of(hit.code).whole_value:
            finding = hit_finding(hit, value, what, source.display, span, rules=rules)
            if used is not None and what in ("string literal", "f-string text"):
                finding.unfixable = used
            elif what in ("string literal", "docstring"):
                finding.fix = (
                    source.offset(span.start_line, span.start_col),
                    source.offset(span.end_line, span.end_col),
                    '"' + placeholder(hit.code) + '"',
                )
            else:
                finding.unfixable = "raw content in an f-string or comment is rewritten by hand"
        else:
            where = _locate(span, raw, value[hit.start : hit.end])
            finding = hit_finding(hit, value, what, source.display, where or span, rules=rules)
            end = fix_end(hit, value)
            extent = (
                _locate(span, raw, value[hit.start : end])
                if where is not None and end > hit.end
                else where
            )
            if used is not None and what in ("string literal", "f-string text"):
                finding.unfixable = used
            elif extent is not None and what != "an identifier":
                finding.fix = (
                    source.offset(extent.start_line, extent.start_col),
                    source.offset(extent.end_line, extent.end_col),
                    placeholder(hit.code),
                )
            else:
                finding.unfixable = (
                    "an identifier is renamed by hand"
                    if what == "an identifier"
                    else "the value is written with escapes; rewrite it by hand"
                )
        out.append(finding)
    return out


class _Uses:
    """Which literals the program itself uses, so --fix may not rewrite them: only a value that is published
    as written (an element of a dict, list or tuple, an operand of `+` or `%`, an f-string, a returned or
    yielded value, a field of a constructor or `dict(...)` call, a value stored into a container) may be
    rewritten. A literal passed to any other call (`os.path.expanduser("~/work/x")`), compared, used as a
    subscript or receiver, or bound to a name the program so uses, is not: rewriting it would change what
    the code does, while the flow it feeds is still reported. Built lazily, once per module."""

    _DATA = (
        ast.Dict,
        ast.List,
        ast.Tuple,
        ast.Set,
        ast.JoinedStr,
        ast.FormattedValue,
        ast.Starred,
        ast.BoolOp,
    )

    def __init__(self, module: PythonText) -> None:
        self.module = module
        self.parents: dict[int, ast.AST] = {}
        self.at: dict[
            tuple[int, int], ast.AST
        ] = {}  # (line, code-point column) -> Constant or JoinedStr
        self.loads: dict[str, list[ast.Name]] = {}
        lines = module.lines
        for node in ast.walk(module.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
            if isinstance(node, (ast.Constant, ast.JoinedStr)) and lines is not None:
                self.at.setdefault((node.lineno, lines.column(node.lineno, node.col_offset)), node)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.loads.setdefault(node.id, []).append(node)
        self._names: dict[str, bool] = {}

    def used(self, span: Span) -> bool:
        node = self.at.get((span.start_line, span.start_col))
        return node is not None and self._used(node, 0)

    def _used(self, node: ast.AST, depth: int) -> bool:
        while True:
            parent = self.parents.get(id(node))
            if parent is None or isinstance(
                parent, (ast.Return, ast.Yield, ast.YieldFrom, ast.Expr)
            ):
                return False
            if isinstance(parent, self._DATA) or (
                isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Add, ast.Mod))
            ):
                node = parent
            elif isinstance(parent, ast.IfExp) and node is not parent.test:
                node = parent
            elif isinstance(parent, ast.keyword):
                call = self.parents.get(id(parent))
                if not (isinstance(call, ast.Call) and _constructor(call.func)):
                    return True
                node = call
            elif isinstance(parent, (ast.Assign, ast.AnnAssign)) and node is parent.value:
                targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
                return any(self._bound_and_used(target, depth) for target in targets)
            else:
                return True  # a call's argument, a comparison, a subscript, a receiver, a loop, a with, ...

    def _bound_and_used(self, target: ast.AST, depth: int) -> bool:
        if isinstance(target, ast.Subscript):
            return False  # stored into a container: data
        if isinstance(target, (ast.Tuple, ast.List)):
            return any(self._bound_and_used(t, depth) for t in target.elts)
        if not isinstance(target, ast.Name):
            return True  # an attribute: whoever reads it is out of sight
        name = target.id
        if name not in self._names:
            self._names[name] = True  # a name that refers to itself is used until shown otherwise
            self._names[name] = depth > 8 or any(
                self._used(load, depth + 1) for load in self.loads.get(name, [])
            )
        return self._names[name]


def _constructor(func: ast.AST) -> bool:
    """`dict(...)` or a class (a capitalised name): its keywords are the fields of the value it builds."""
    name = (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )
    return name == "dict" or name[:1].isupper()


class _Intervals:
    """Published spans merged into sorted, disjoint intervals: containment by binary search."""

    def __init__(self, spans: list[Span]) -> None:
        merged: list[list[tuple[int, int]]] = []
        for start, end in sorted(
            ((s.start_line, s.start_col), (s.end_line, s.end_col)) for s in spans
        ):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [start for start, _ in merged]
        self.ends = [end for _, end in merged]

    def contains(self, where: Where) -> bool:
        """Whether the span ``where`` (its four numbers) lies inside one interval."""
        index = bisect.bisect_right(self.starts, (where[0], where[1])) - 1
        return index >= 0 and (where[2], where[3]) <= self.ends[index]


def check_python_strings(
    module: PythonText,
    scanner: StringScanner,
    *,
    secrets: bool = True,
    content: bool = True,
    published: list[Span] | None = None,
) -> list[Finding]:
    """``secrets``: credentials and deny-listed names in every literal, comment and identifier.
    ``content``: raw content, paths and private URLs, in the literals inside ``published`` spans
    (the values that reach a projection), or everywhere when ``published`` is None (``--scope all``).
    Outside the published spans, context credential rules report generated-looking values only."""
    source = module.source
    findings: list[Finding] = []
    intervals = _Intervals(published) if published is not None else None
    uses: _Uses | None = None
    for literal in module.literals:
        if len(literal.value) < 3:
            continue
        # Most modules publish nothing: no search of an empty interval list per literal.
        inside = intervals is None or (bool(intervals.starts) and intervals.contains(literal.where))
        judged = content and inside
        if not (secrets or judged):
            continue
        prose = literal.what == "docstring"
        hits = scanner.scan(
            literal.value,
            literal.key,
            prose=prose,
            secrets=secrets,
            content=judged,
            published=inside,
        )
        if hits:
            if uses is None:
                uses = _Uses(module)
            used = USED_BY_PROGRAM if uses.used(literal.span) else None
            findings += _findings(
                hits,
                literal.value,
                literal.what,
                literal.span,
                literal.raw,
                source,
                scanner.pack.rules,
                used,
            )
    comments_judged = content and published is None
    if secrets or comments_judged:
        for comment in module.comments:
            span = Span(
                comment.line, comment.column, comment.line, comment.column + len(comment.text)
            )
            hits = scanner.scan(
                comment.text,
                prose=True,
                secrets=secrets,
                content=comments_judged,
                published=published is None,
            )
            findings += _findings(
                hits, comment.text, "comment", span, comment.text, source, scanner.pack.rules
            )
    if scanner.deny_list and secrets:
        # Identifiers only carry internal names; each name is reported once per file.
        for name, span in module.names.items():
            findings += _findings(
                scanner.deny_list.scan(name),
                name,
                "an identifier",
                span,
                name,
                source,
                scanner.pack.rules,
            )
    return findings
