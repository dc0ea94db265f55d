"""The libcst codemods behind --fix on Python: a flow is fixed at its sink (the finding's span), a
literal by its placeholder, all in one pass over one concrete syntax tree, so everything outside the
edited nodes (formatting, comments, line endings, encoding) is written back as it was read.

Per flow finding (rules/fixes.toml): a raw-named field becomes its compact counterpart or is removed; a
credential in a dict entry or an item store is removed; any other value is wrapped in the sanitiser.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import (
    ByteSpanPositionProvider,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
)

from ..findings import Finding
from ..keyclass import split_words, vocabulary
from .choose import counterparts

# How flow.resolve names the sink of a flow in its last step.
_SINK_KEY = re.compile(r'published field "(.*)"')
# Leaves whose text a literal edit rewrites in place (a whole-value edit replaces the node).
_TEXT_LEAVES = (
    cst.SimpleString,
    cst.FormattedStringText,
    cst.Comment,
    cst.ConcatenatedString,
    cst.FormattedString,
)


@dataclass
class Outcome:
    data: bytes
    parsed: bool = True  # False: libcst could not parse the file, nothing was planned
    applied: list[Finding] = field(default_factory=list)
    # id(finding) -> why its fix was not applied
    refused: dict[int, str] = field(default_factory=dict)


@dataclass
class _Plan:
    wrap: dict[cst.CSTNode, cst.Call] = field(default_factory=dict)  # value node -> its wrapper
    remove: set[cst.CSTNode] = field(default_factory=set)  # dict elements, statement lines
    replace: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)  # dict element -> new one
    text: dict[cst.CSTNode, list[tuple[int, int, str]]] = field(
        default_factory=dict
    )  # leaf -> edits
    modules: set[str] = field(default_factory=set)  # `import x` to add
    names: set[tuple[str, str]] = field(default_factory=set)  # `from x import y` to add


def rewrite(
    data: bytes,
    literal: Sequence[Finding],
    flows: Sequence[Finding],
    sanitizer: str,
) -> Outcome:
    """``data`` (UTF-8, no BOM) with the literal edits of ``literal`` and the codemods of ``flows`` applied.
    A file libcst cannot parse is returned unchanged, every fix refused with the reason."""
    try:
        module = cst.parse_module(data)
    except Exception:  # ParserSyntaxError, and whatever its native parser raises on syntax it lacks
        return Outcome(
            data, parsed=False, refused={id(f): "libcst cannot parse this file" for f in flows}
        )
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    spans = wrapper.resolve(ByteSpanPositionProvider)
    parents = wrapper.resolve(ParentNodeProvider)
    outcome = Outcome(data)
    plan = _Plan()
    by_range: dict[tuple[int, int, int, int], list[cst.CSTNode]] = {}
    for node, where in positions.items():
        if isinstance(node, cst.BaseExpression):
            key = (where.start.line, where.start.column, where.end.line, where.end.column)
            by_range.setdefault(key, []).append(node)

    planner = _Planner(module, parents, plan, sanitizer)
    for finding in sorted(flows, key=lambda f: f.sort_key()):
        span = finding.span
        nodes = by_range.get((span.start_line, span.start_col - 1, span.end_line, span.end_col - 1))
        if not nodes:
            outcome.refused[id(finding)] = "the published value is not one expression here"
            continue
        # The outermost of the nodes sharing the span (an expression and a name inside it can).
        candidates = set(nodes)
        node = next(n for n in nodes if parents.get(n) not in candidates)
        why = planner.decide(finding, node)
        if why is None:
            outcome.applied.append(finding)
        else:
            outcome.refused[id(finding)] = why

    leaves = [(spans[n], n) for n in spans if isinstance(n, _TEXT_LEAVES)]
    for finding in literal:
        assert finding.fix is not None
        start, end, replacement = finding.fix
        inside = [
            (s.length, n) for s, n in leaves if s.start <= start and end <= s.start + s.length
        ]
        if not inside:
            outcome.refused[id(finding)] = "the value is not one literal or comment"
            continue
        length, leaf = min(inside, key=lambda item: item[0])
        base = spans[leaf].start
        if planner.removed(leaf):
            outcome.applied.append(finding)  # it goes with the entry a codemod removes or replaces
            continue
        whole = start == base and end == base + length and replacement.startswith('"')
        if isinstance(leaf, (cst.ConcatenatedString, cst.FormattedString)) and not whole:
            outcome.refused[id(finding)] = "the value runs across literals; rewrite it by hand"
            continue
        plan.text.setdefault(leaf, []).append((start - base, end - base, replacement))
        outcome.applied.append(finding)

    if not outcome.applied:
        return outcome
    new = module.visit(_Apply(plan))
    if plan.modules or plan.names:
        context = CodemodContext()
        for name in sorted(plan.modules):
            AddImportsVisitor.add_needed_import(context, name)
        for module_name, name in sorted(plan.names):
            AddImportsVisitor.add_needed_import(context, module_name, name)
        new = AddImportsVisitor(context).transform_module(new)
    outcome.data = new.bytes
    return outcome


class _Planner:
    """Decides each flow finding's codemod (data: rules/fixes.toml) and records it in the plan."""

    def __init__(
        self,
        module: cst.Module,
        parents: Mapping[cst.CSTNode, cst.CSTNode],
        plan: _Plan,
        sanitizer: str,
    ) -> None:
        self.module, self.parents, self.plan = module, parents, plan
        self.sanitizer = sanitizer
        self.vocabulary = vocabulary()
        self.counterparts = counterparts()
        self._call: str | None | bool = False  # the sanitiser's call name, once resolved

    def removed(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` lies inside something the plan removes or replaces."""
        current: cst.CSTNode | None = node
        while current is not None:
            if current in self.plan.remove or current in self.plan.replace:
                return True
            current = self.parents.get(current)
        return False

    def decide(self, finding: Finding, node: cst.CSTNode) -> str | None:
        """Plan the fix of ``finding`` at ``node`` (the published value); why not, or None."""
        if self.removed(node) or node in self.plan.wrap:
            return None  # the value goes with its entry, or another finding's fix wraps it already
        if any(
            self._within(node, wrapped) or self._within(wrapped, node) for wrapped in self.plan.wrap
        ):
            return "another fix changes this value"
        parent = self.parents.get(node)
        if isinstance(parent, cst.DictElement) and parent.value is node:
            key = _string_key(parent.key)
            linted = _sink_key(finding)
            if linted is not None and key is not None and key != linted:
                return "the file changed since it was linted (run again)"
            if key is not None:
                if finding.code == "OVA410":
                    self.plan.remove.add(parent)
                    return None
                verdict = self.vocabulary.classify(key)
                # A named counterpart is used under any raw key (`body` is raw only by its value in JSON,
                # and here the flow says the value is raw); only a clearly raw key is removed.
                raw = verdict.category is not None and not verdict.weak
                if raw or "_".join(split_words(key)) in self.counterparts:
                    return self._compact(parent, key, remove=raw)
        if finding.code == "OVA410":
            line = self._store_line(node)
            if line is None:
                return "a credential is removed by hand (no sanitiser can tell a token)"
            self.plan.remove.add(line)
            return None
        return self._wrap(node)

    def _wrap(self, node: cst.CSTNode) -> str | None:
        """Route ``node`` through the sanitiser."""
        call = self._sanitizer_call()
        if call is None:
            return f"the name of the sanitiser {self.sanitizer.rsplit('.', 1)[-1]!r} is taken in this module"
        self.plan.wrap[node] = cst.Call(
            func=cst.parse_expression(call), args=[cst.Arg(value=_expression(node))]
        )
        return None

    def _within(self, inner: cst.CSTNode, outer: cst.CSTNode) -> bool:
        node: cst.CSTNode | None = inner
        while node is not None:
            if node is outer:
                return True
            node = self.parents.get(node)
        return False

    def _compact(self, element: cst.DictElement, key: str, remove: bool) -> str | None:
        """A raw-named field: its compact counterpart where fixes.toml names one, else removed (``remove``)
        or its value wrapped in the sanitiser."""
        found = self.counterparts.get("_".join(split_words(key)))
        dictionary = self.parents.get(element)
        taken = {
            _string_key(e.key)
            for e in getattr(dictionary, "elements", ())
            if isinstance(e, cst.DictElement)
        }
        if found is None or found[0] in taken:
            if remove:
                self.plan.remove.add(element)
                return None
            return self._wrap(element.value)
        new_key, template, modules = found
        assert isinstance(element.key, cst.SimpleString)
        quote = element.key.quote
        prefix = element.key.prefix
        template_node = cst.parse_expression(template.replace("{value}", "__ovadapt_value__"))
        value = template_node.visit(_Substitute(_expression(element.value)))
        self.plan.replace[element] = element.with_changes(
            key=cst.SimpleString(f"{prefix}{quote}{new_key}{quote}"), value=value
        )
        self.plan.modules.update(modules)
        return None

    def _store_line(self, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
        """The line of ``x[k] = node`` or ``x.update(k=node)`` when it is a statement of its own."""
        parent = self.parents.get(node)
        statement: cst.CSTNode | None = None
        if (
            isinstance(parent, cst.Assign)
            and parent.value is node
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Subscript)
        ):
            statement = parent
        elif isinstance(parent, cst.Arg) and parent.keyword is not None:
            call = self.parents.get(parent)
            if (
                isinstance(call, cst.Call)
                and len(call.args) == 1
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "update"
                and isinstance(self.parents.get(call), cst.Expr)
            ):
                statement = self.parents.get(call)
        line = self.parents.get(statement) if statement is not None else None
        if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
            return None
        block = self.parents.get(line)
        if not isinstance(block, (cst.IndentedBlock, cst.Module)) or len(block.body) < 2:
            return None  # the only statement of a block: removing it would leave the block empty
        return line

    def _sanitizer_call(self) -> str | None:
        """How the module calls the sanitiser: a name it already imports, else one the plan imports;
        None when that name is bound to something else."""
        if self._call is not False:
            return self._call if isinstance(self._call, str) else None
        module_name, _, name = self.sanitizer.rpartition(".")
        call: str | None = None
        bound = False
        for statement in self.module.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                bound |= _defines(statement, name)
                continue
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and not isinstance(
                    small.names, cst.ImportStar
                ):
                    source = _dotted(small.module) if small.module is not None else ""
                    for alias in small.names:
                        imported = _dotted(alias.name)
                        local = _alias(alias) or imported
                        if source == module_name and imported == name and not small.relative:
                            call = call or local
                        elif local == name:
                            bound = True
                elif isinstance(small, cst.Import):
                    for alias in small.names:
                        imported = _dotted(alias.name)
                        as_name = _alias(alias)
                        if imported == module_name:
                            call = call or f"{as_name or imported}.{name}"
                        elif (as_name or imported.split(".")[0]) == name:
                            bound = True
                elif isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                    bound |= _defines(small, name)
        if call is None and not bound:
            self.plan.names.add((module_name, name))
            call = name
        self._call = call if call is not None else None
        return call


def _sink_key(finding: Finding) -> str | None:
    """The published key the flow analysis saw at the sink (its last step), if it names one."""
    steps = finding.extra.get("flow") or ()
    message = steps[-1].get("message", "") if steps else ""
    match = _SINK_KEY.fullmatch(message)
    return match.group(1) if match else None


def _defines(node: cst.CSTNode, name: str) -> bool:
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return node.name.value == name
    targets: list[cst.BaseExpression] = []
    if isinstance(node, cst.Assign):
        targets = [t.target for t in node.targets]
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        targets = [node.target]
    return any(isinstance(t, cst.Name) and t.value == name for t in targets)


def _alias(alias: cst.ImportAlias) -> str | None:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return None


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _string_key(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower():
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _expression(node: cst.CSTNode) -> cst.BaseExpression:
    assert isinstance(node, cst.BaseExpression)
    return node


class _Substitute(cst.CSTTransformer):
    """Puts the original value (as written) where a template names it."""

    def __init__(self, value: cst.BaseExpression) -> None:
        self.value = value

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self.value if updated_node.value == "__ovadapt_value__" else updated_node


class _Apply(cst.CSTTransformer):
    """Writes the plan: text edits in leaves, wrapped values, replaced and removed entries and lines."""

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        edits = self.plan.text.get(original_node)
        if edits:
            updated_node = _edit_text(updated_node, edits)
        wrapper = self.plan.wrap.get(original_node)
        if wrapper is not None:
            return _wrapped(wrapper, updated_node)
        replacement = self.plan.replace.get(original_node)
        if replacement is not None:
            return replacement
        if original_node in self.plan.remove and isinstance(original_node, cst.SimpleStatementLine):
            return cst.RemoveFromParent()
        if isinstance(updated_node, cst.Dict) and any(
            e in self.plan.remove for e in original_node.elements
        ):
            return _without(original_node, updated_node, self.plan.remove)
        return updated_node


def _wrapped(call: cst.Call, value: cst.CSTNode) -> cst.Call:
    """``call`` with ``value`` as its argument; one pair of parentheses around the value becomes the
    call's own (their inner whitespace, line breaks included, stays where it was)."""
    assert isinstance(value, cst.BaseExpression)
    lpar, rpar = list(value.lpar), list(value.rpar)
    if len(lpar) == 1 and len(rpar) == 1:
        return call.with_changes(
            whitespace_before_args=lpar[0].whitespace_after,
            args=[
                cst.Arg(
                    value=value.with_changes(lpar=[], rpar=[]),
                    whitespace_after_arg=rpar[0].whitespace_before,
                )
            ],
        )
    return call.with_changes(args=[cst.Arg(value=value)])


def _edit_text(node: cst.CSTNode, edits: list[tuple[int, int, str]]) -> cst.CSTNode:
    """A literal or comment with byte edits (relative to its first byte) applied right to left."""
    if isinstance(node, (cst.ConcatenatedString, cst.FormattedString)):
        # Only a whole-value edit lands on these (a partial one has a smaller leaf inside).
        return cst.SimpleString(edits[0][2])
    assert isinstance(node, (cst.SimpleString, cst.FormattedStringText, cst.Comment))
    text = node.value.encode("utf-8")
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement.encode("utf-8") + text[end:]
    return node.with_changes(value=text.decode("utf-8"))


def _without(original: cst.Dict, updated: cst.Dict, remove: set[cst.CSTNode]) -> cst.Dict:
    """``updated`` without the elements whose originals are in ``remove``: each goes with its comma and the
    comment on its line; the layout around (the next line's indent, the closing brace's line) stays."""
    elements = list(updated.elements)
    kept = [i for i, o in enumerate(original.elements) if o not in remove]
    if not kept:
        return updated.with_changes(
            elements=[], lbrace=cst.LeftCurlyBrace(), rbrace=cst.RightCurlyBrace()
        )
    out: list[cst.BaseDictElement] = []
    lbrace, rbrace = updated.lbrace, updated.rbrace
    for index, element in enumerate(elements):
        if original.elements[index] not in remove:
            out.append(element)
            continue
        if index == len(elements) - 1 or not isinstance(element.comma, cst.Comma):
            continue  # the last element: its ending is handled below
        # The comment lines after a removed element belong to what follows: the element (or brace) before
        # it takes them, with the next line's indent.
        after = element.comma.whitespace_after
        if out:
            previous = out[-1]
            assert isinstance(previous.comma, cst.Comma)
            out[-1] = previous.with_changes(
                comma=previous.comma.with_changes(
                    whitespace_after=_join(previous.comma.whitespace_after, after)
                )
            )
        else:
            lbrace = lbrace.with_changes(whitespace_after=_join(lbrace.whitespace_after, after))
    if kept[-1] != len(elements) - 1:
        # The old last element went: the new last one takes over its ending (a trailing comma or none);
        # the brace keeps its own line, led by the comment on the new last element's line. The comment on
        # the removed element's line sits in the brace's whitespace (libcst): it goes with the element.
        tail, last = elements[-1].comma, out[-1]
        comma = last.comma
        if isinstance(comma, cst.Comma):
            own = comma.whitespace_after
            before = _uncommented(rbrace.whitespace_before)
            if isinstance(before, cst.ParenthesizedWhitespace):
                rbrace = rbrace.with_changes(whitespace_before=_join(own, before))
            elif _has_comment(own):
                rbrace = rbrace.with_changes(whitespace_before=own)
            else:
                rbrace = rbrace.with_changes(whitespace_before=before)
            out[-1] = last.with_changes(
                comma=comma.with_changes(whitespace_after=cst.SimpleWhitespace(""))
                if isinstance(tail, cst.Comma)
                else cst.MaybeSentinel.DEFAULT
            )
    return updated.with_changes(elements=out, lbrace=lbrace, rbrace=rbrace)


def _join(
    own: cst.BaseParenthesizableWhitespace, tail: cst.BaseParenthesizableWhitespace
) -> cst.BaseParenthesizableWhitespace:
    """``own``'s first line (its comment) and comment lines, then ``tail``'s comment lines, indent and last
    line; ``tail``'s first line is the removed element's (its comment goes with it)."""
    if isinstance(own, cst.ParenthesizedWhitespace):
        if isinstance(tail, cst.ParenthesizedWhitespace):
            return own.with_changes(
                empty_lines=[*own.empty_lines, *tail.empty_lines],
                indent=tail.indent,
                last_line=tail.last_line,
            )
        return own  # the next element was on the removed one's line: it starts where that one did
    return _uncommented(tail)


def _uncommented(
    whitespace: cst.BaseParenthesizableWhitespace,
) -> cst.BaseParenthesizableWhitespace:
    """``whitespace`` without the comment on its first line (the line of what was removed)."""
    if isinstance(whitespace, cst.ParenthesizedWhitespace) and whitespace.first_line.comment:
        return whitespace.with_changes(
            first_line=whitespace.first_line.with_changes(
                whitespace=cst.SimpleWhitespace(""), comment=None
            )
        )
    return whitespace


def _has_comment(whitespace: cst.BaseParenthesizableWhitespace) -> bool:
    return isinstance(whitespace, cst.ParenthesizedWhitespace) and (
        whitespace.first_line.comment is not None
        or any(line.comment is not None for line in whitespace.empty_lines)
    )
