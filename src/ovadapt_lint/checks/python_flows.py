"""A Python module's flow facts (``flow.build``), built with what the classify stage recognised as published
(``Publication``: flow sinks, projection types and values); resolved across the run's modules later
(``flow.resolve``), where raw sources reaching those sinks become findings (OVA208, OVA410, OVA504)."""

from __future__ import annotations

import ast
from typing import Any

from ..frontends.python_text import PythonText
from ..source import file_stamp
from .python_projections import node_bounds


def module_flow_facts(module: PythonText, analysis, name: str, is_package: bool, publication):
    """The module's ``flow.facts.ModuleFacts``; ``publication``: its ``classify_python.Publication``."""
    from ..flow.build import ModuleBuilder
    from ..flow.modnames import imports_of

    # The classify stage's, when it worked them out under the same name (it did for a module it analysed).
    imports = publication.imports
    if imports is None or publication.module_name != (name, is_package):
        imports = imports_of(module.tree, name, is_package)
    else:
        imports = dict(imports)
    lines = module.lines
    assert lines is not None  # the front-end always sets it

    # The last node asked about and its span: a trace step asks for a node's span, then for its code.
    last: list[Any] = [None, None]

    def span(node: Any) -> tuple:
        if node is last[0]:
            return last[1]
        found = node_bounds(lines, node)
        last[0], last[1] = node, found
        return found

    def code(node: ast.AST) -> str:
        return lines.cut(span(node))  # type: ignore[union-attr]  # no Span made: one per trace step

    builder = ModuleBuilder(
        module.tree,
        name,
        module.source.display,
        imports,
        analysis.flow,
        span,
        code,
        dict(publication.flow_sinks),
        dict(publication.projection_types),
    )
    if module.text and "Path" not in module.text:
        # No annotation or call of it can name a path type: none is looked for.
        builder.path_types = False
    if (
        publication.recognise is not None
    ):  # the module may publish: the classify stage recognised it
        builder.projection_values = dict(publication.projection_values)
        builder.recognise = publication.recognise
    facts = builder.build()
    last[0] = last[1] = None  # the tree is not kept alive by the memo
    if publication.recognise is not None:
        facts.depends = [[path, *file_stamp(path)] for path in publication.contract_sources]
    return facts
