"""Raw-field rules on Python projections: a projection field or model field that declares copied raw
material (``raw_transcript_copied: True``, OVA207). Other keys are not judged by their names (issue 25):
what flows into them is (``python_flows``), and the literals they hold are judged as content."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from ..findings import Finding, digest_value, make_finding
from .python_projections import ProjectionField, node_span
from .raw_fields import COPY_FLAG, RAWISH


def check_projection_fields(
    fields: Iterable[ProjectionField], lines, display: str, rules
) -> list[Finding]:
    """The field findings of a module's projections (``Publication.fields``); ``lines``: the module's line
    model, ``rules``: the rule pack's rules (an extension may define codes)."""
    findings = []
    for item in fields:
        key = item.key
        if (
            not item.governed
            and COPY_FLAG.search(key)
            and set(key.lower().split("_")) & RAWISH
            and isinstance(item.value, ast.Constant)
            and item.value.value is True
        ):
            findings.append(
                make_finding(
                    "OVA207",
                    f'projection flag "{key}" is True: the projection declares that it holds copied raw material',
                    display,
                    node_span(lines, item.key_node),
                    value_digest=digest_value((key,)),
                    rules=rules,
                )
            )
    return findings
