"""A JSON tree as comparable rows: what the two tree builders must agree on (docs/architecture.md, "Two JSON
tree builders"), shared by the property test and the linear-cost tests that compare them."""

from __future__ import annotations

from ovadapt_lint.frontends.json_tree import JsonDocument, walk


def node_rows(root, prefix: tuple = ()) -> list:
    """Each node under ``root``: path, kind, byte span, scalar type and value, and its member key's span."""
    return [
        (
            path,
            node.kind,
            node.start,
            node.end,
            None if node.kind in ("object", "array") else (type(node.value), node.value),
            None if member is None else (member.key_node.start, member.key_node.end, member.key),
        )
        for node, path, member in walk(root, prefix)
    ]


def document_rows(doc: JsonDocument) -> list:
    """The rows of every root of a document, under its prefix (JSON Lines records)."""
    return [row for root, prefix in doc.roots for row in node_rows(root, prefix)]
