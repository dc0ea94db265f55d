"""Checks: each module turns a parsed document into findings."""

from __future__ import annotations

import re
import sys
from typing import Any

from ..detect import Hit
from ..findings import Finding, Span, digest_value, make_finding
from ..frontends.json_tree import JNode, JsonDocument, PathPart, format_path
from ..redact import mask


def json_finding(
    doc: JsonDocument,
    code: str,
    node: JNode,
    path: tuple[PathPart, ...],
    message: str,
    ident: Any,
    rules=None,
) -> Finding:
    """A finding on a JSON node; ``ident`` identifies the offending value (only its digest is kept).
    ``rules``: the rule pack's rules, for codes an extension may define (see make_finding)."""
    return make_finding(
        code,
        message,
        doc.source.display,
        doc.span(node),
        json_path=format_path(path),
        value_digest=digest_value(ident),
        rules=rules,
    )


def hit_finding(
    hit: Hit,
    text: str,
    what: str,
    display: str,
    span: Span,
    json_path: str | None = None,
    rules=None,
) -> Finding:
    """A finding for a detector hit in ``text``; a credential is shown only masked."""
    fragment = text[hit.start : hit.end]
    shown = f" ({mask(fragment)})" if hit.secret else ""
    finding = make_finding(
        hit.code,
        f"{what} holds {hit.label}{shown} [{hit.signature}]",
        display,
        span,
        json_path=json_path,
        value_digest=digest_value((hit.signature, fragment)),
        secret_span=hit.secret,
        rules=rules,
    )
    if hit.precision is not None:
        finding.precision = hit.precision
    return finding


def placeholder(code: str) -> str:
    """What --fix writes instead of a leaking value: set per category in the rule pack."""
    from ..registry import category_of

    return sys.intern(category_of(code).fix_text)  # one string per placeholder, not one per finding


# The rest of a path after a local-path hit (`/home/alice` + `/proj/notes.md`): --fix replaces the whole path,
# in JSON and in Python alike, so `/home/alice/proj` and `~/work/proj` lose the same extent (a project name
# under a home folder is as private as the user name).
_PATH_REST = re.compile(r"""[^\s"'`{}()\[\],;<>|]*""")


def fix_end(hit: Hit, text: str) -> int:
    """Where --fix's edit for ``hit`` in ``text`` ends: the end of the whole path for a local path, else the match."""
    from ..registry import category_of

    if category_of(hit.code).name != "local-path":
        return hit.end
    rest = _PATH_REST.match(text, hit.end)
    assert rest is not None  # the pattern matches the empty string too
    return rest.end()
