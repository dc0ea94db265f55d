"""Checks: each module turns a parsed document into findings."""

from __future__ import annotations

from typing import Any

from ..findings import Finding, digest_value, make_finding
from ..frontends.json_tree import JNode, JsonDocument, PathPart, format_path


def json_finding(doc: JsonDocument, code: str, node: JNode, path: tuple[PathPart, ...], message: str,
                 ident: Any) -> Finding:
    """A finding on a JSON node; ``ident`` identifies the offending value (only its digest is kept)."""
    return make_finding(code, message, doc.source.display, doc.span(node),
                        json_path=format_path(path), value_digest=digest_value(ident))
