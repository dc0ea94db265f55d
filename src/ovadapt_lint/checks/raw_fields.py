"""Raw-field rules (OVA2xx) on fixture keys: the key classifier plus the value's shape.

A key name alone never makes a finding: the value must be able to carry material.
Booleans, numbers, null, hex digests, ids, snake_case enum tokens, single URIs, the
tool's own redaction placeholders, and objects or arrays of only those cannot
(``stdout_sha256``, ``transcript_id: "t_42"``, ``trace_kind: "remote_command_…"``,
``resource_cap_patch: {"applied": false}``). Credential keys keep their own test
(a token is the credential). Strongly raw keys (stdout, transcript, traceback, ...)
are raw whenever they hold anything else; ambiguous keys (output, body, path, ...)
only when the value does not look compact.

One leak is one finding: a field whose every material value a content rule (OVA3xx-OVA6xx)
reports is marked ``covered_by`` those codes, and the selection stage drops it while one
of them is enabled (see ``mark_covered``).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from ..detect import is_placeholder
from ..findings import Finding, Span
from ..frontends.json_tree import JNode, JsonDocument, format_path, walk
from ..keyclass import Vocabulary, vocabulary
from . import json_finding

CATEGORY_CODES = {
    "credential": "OVA201",
    "transcript": "OVA202",
    "log": "OVA203",
    "local-path": "OVA204",
    "raw-output": "OVA205",
    "embedding": "OVA206",
}
_CATEGORY_TEXT = {
    "credential": "a credential",
    "transcript": "transcript or prompt text",
    "log": "log or trace output",
    "local-path": "a local path",
    "raw-output": "raw output or a raw body",
    "embedding": "an embedding vector",
}
_LOCAL_PATH = re.compile(
    r"^(?:~[/\\]|/(?:Users|home|root|tmp|var|private|mnt|srv|Volumes|opt|etc)/|[A-Za-z]:[\\/]|\\\\|file://)"
)
# Flags that declare raw material was copied: a true value is a raw-copy declaration.
_COPY_SUFFIXES = "copied|recorded|captured|ingested|included|embedded"
COPY_FLAG = re.compile(rf"_(?:{_COPY_SUFFIXES})$")
# Flag-shaped keys hold booleans by convention; a wrong type there is a contract problem, not a body.
_FLAG_KEY = re.compile(
    rf"_(?:{_COPY_SUFFIXES}|allowed|performed|enabled|required|present|redacted|detected)$"
)
RAWISH = frozenset(
    {
        "raw",
        "body",
        "bodies",
        "transcript",
        "transcripts",
        "trajectory",
        "trajectories",
        "credential",
        "credentials",
        "secret",
        "secrets",
        "path",
        "paths",
        "log",
        "logs",
        "output",
        "outputs",
        "memory",
        "evidence",
        "payload",
        "payloads",
        "content",
        "prompt",
        "prompts",
    }
)


_AUTH_SCHEME = re.compile(r"^(?:bearer|basic|token|digest)\s+", re.IGNORECASE)


def _credential_token(text: str) -> bool:
    value = _AUTH_SCHEME.sub("", text.strip())
    return len(value) >= 4 and not any(c.isspace() for c in value) and not is_placeholder(value)


def _compact_string(text: str, limit: int) -> bool:
    return "\n" not in text.strip() and len(text) <= limit


def _describe(node: JNode) -> str:
    if node.kind == "string":
        lines = node.value.count("\n") + 1
        return f"a string of {len(node.value):,} characters" + (
            f" on {lines} lines" if lines > 1 else ""
        )
    if node.kind == "array":
        return f"an array of {len(node.value)} item(s)"
    return f"an object with {len(node.value)} key(s)"


def _strings(node: JNode) -> list[str]:
    """The string itself, or the strings directly in an array."""
    if node.kind == "string":
        return [node.value]
    return (
        [item.value for item in node.value if item.kind == "string"] if node.kind == "array" else []
    )


# Values that cannot carry material, whatever their key says (issue 25): the shapes a projection uses
# to point at material without holding it.
_HEX_DIGEST = re.compile(
    r"(?:(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[:-])?(?:[0-9a-f]{7,128}|[0-9A-F]{7,128})"
)
_SRI_DIGEST = re.compile(r"sha(?:256|384|512)-[A-Za-z0-9+/]{43,86}={0,2}")
# One identifier-shaped token: an id (`t_42`, `msg_ref_1`, a UUID), a snake_case or kebab-case enum
# token (`remote_command_file_bridge_agent_operations`), a version; no spaces, no path separators.
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-_.:#@][A-Za-z0-9]+)*")
_TOKEN_MAX = 128
# One URI is a reference; its scheme, host and scope are judged by the content rules (OVA4xx, OVA6xx).
_URI = re.compile(r"(?!data:|file:)[a-z][a-z0-9+.-]*://[^\s]+")
_URI_MAX = 512
# The tool's own --fix placeholder (see rules.toml, category placeholders).
_REDACTED = re.compile(r"\[redacted:[a-z-]{1,40}\]")
# Several snake_case words of letters only (`not_configured`, `from_env`): an enum, even under a
# credential key. A single word may be a password, so it stays judged as one.
_WORD_ENUM = re.compile(r"[a-z]+(?:_[a-z]+)+")


def _inert_string(text: str) -> bool:
    """A string that points at or names something but cannot hold a body of material."""
    if not text or _REDACTED.fullmatch(text):
        return True
    if len(text) <= _TOKEN_MAX and (
        _TOKEN.fullmatch(text) or _HEX_DIGEST.fullmatch(text) or _SRI_DIGEST.fullmatch(text)
    ):
        return True
    return len(text) <= _URI_MAX and _URI.fullmatch(text) is not None


def _leaves(node: JNode):
    """The scalar values in ``node`` (itself, for a scalar), without recursion: a document may nest deeply."""
    stack = [node]
    while stack:
        item = stack.pop()
        if item.kind == "array":
            stack.extend(item.value)
        elif item.kind == "object":
            stack.extend(m.value for m in item.value)
        else:
            yield item


def _inert(node: JNode) -> bool:
    """Null, a boolean, a number, an inert string, or a container of only those."""
    return all(leaf.kind != "string" or _inert_string(leaf.value) for leaf in _leaves(node))


def _credential_token_value(text: str) -> bool:
    text = text.strip()
    return not (_REDACTED.fullmatch(text) or _WORD_ENUM.fullmatch(text)) and _credential_token(text)


def _credential_value(node: JNode) -> bool:
    """A value under a credential key that may be the credential: a token (after an auth scheme), or a
    container holding one. Prose, placeholders, flags and multi-word enum tokens are not."""
    return any(
        leaf.kind == "string" and _credential_token_value(leaf.value) for leaf in _leaves(node)
    )


def _carries_raw(
    category: str, weak: bool, node: JNode, limit: int, container_ok: bool = False
) -> bool:
    if node.kind not in ("string", "array", "object") or not node.value:
        return False
    if container_ok and node.kind == "object":
        return False
    if category == "credential":
        return _credential_value(node)
    if category == "embedding":
        if node.kind == "array":
            return sum(1 for item in node.value if item.kind == "number") >= 2
        return (
            len(node.value) >= 64
            and " " not in node.value
            and not _HEX_DIGEST.fullmatch(node.value)
        )
    if category == "local-path":
        if weak or node.kind != "object":
            return any(_LOCAL_PATH.match(s) for s in _strings(node))
        return not _inert(node)
    if _inert(node):
        return False
    if not weak:
        return True
    if node.kind == "string":
        return not _compact_string(node.value, limit)
    if node.kind == "array":
        return any(
            item.kind == "object"
            or (item.kind == "string" and not _compact_string(item.value, limit))
            for item in node.value
            if not _inert(item)
        )
    # An object under an ambiguous key (SARIF's `"message": {"text": "…"}`) is raw when it nests
    # records or holds text that is not compact.
    return any(
        m.value.kind in ("object", "array")
        or (m.value.kind == "string" and not _compact_string(m.value.value, limit))
        for m in node.value
        if not _inert(m.value)
    )


def check_raw_fields(
    doc: JsonDocument,
    adapters: Iterable[JNode] = (),
    vocab: Vocabulary | None = None,
    values: list[tuple[Finding, JNode, str]] | None = None,
) -> list[Finding]:
    """``adapters``: adapter objects, whose copy flags the contract rules already judge. ``values``, when
    given, receives each field finding with the value it judged (for ``mark_covered``)."""
    vocab = vocab or vocabulary()
    findings = []
    inside = {id(node) for adapter in adapters for node, _, _ in walk(adapter)}
    for root, prefix in doc.roots:
        for _node, path, member in walk(root, prefix):
            if member is None:
                continue
            verdict = vocab.classify(member.key)
            value = member.value
            if value.kind == "true" and COPY_FLAG.search(member.key) and id(value) not in inside:
                words = set(member.key.lower().split("_"))
                if words & RAWISH:
                    findings.append(
                        json_finding(
                            doc,
                            "OVA207",
                            member.key_node,
                            path,
                            f"{format_path(path)} is true: the fixture declares that it holds copied raw material",
                            member.key,
                        )
                    )
                    continue
            if verdict.category is None or _FLAG_KEY.search(member.key):
                continue
            if not _carries_raw(
                verdict.category,
                verdict.weak,
                value,
                vocab.compact_string_max,
                verdict.container_ok,
            ):
                continue
            code = CATEGORY_CODES[verdict.category]
            findings.append(
                json_finding(
                    doc,
                    code,
                    member.key_node,
                    path,
                    f"{format_path(path)} may carry {_CATEGORY_TEXT[verdict.category]} ({verdict.reason}): {_describe(value)}",
                    (member.key, value.python() if value.kind == "string" else value.kind),
                )
            )
            if values is not None:
                values.append((findings[-1], value, verdict.category))
    return findings


# The categories whose findings say what a value is (raw content, a credential, a local path, a private URL).
CONTENT_CATEGORIES = frozenset({"raw-content", "credential", "local-path", "private-url"})


def _material(node: JNode, category: str) -> list[JNode]:
    """The strings inside a field's value that could carry its material: credential tokens under a
    credential key, local paths under a path key, else every string that is not inert."""
    if category == "credential":
        return [
            leaf
            for leaf in _leaves(node)
            if leaf.kind == "string" and _credential_token_value(leaf.value)
        ]
    if category == "local-path":
        return [
            leaf
            for leaf in _leaves(node)
            if leaf.kind == "string" and _LOCAL_PATH.match(leaf.value)
        ]
    return [
        leaf for leaf in _leaves(node) if leaf.kind == "string" and not _inert_string(leaf.value)
    ]


# What a field of each category leaks, when a content finding of that category lies anywhere in its value
# (the token after `Bearer `, the home directory of a longer path): that finding's fix removes the leak.
_SAME_LEAK = {"credential": "credential", "local-path": "local-path"}


def mark_covered(
    doc: JsonDocument, values: list[tuple[Finding, JNode, str]], findings: Iterable[Finding]
) -> None:
    """One leak, one finding: mark a field finding whose every material value a content finding reports
    (``Finding.covered_by``: per value, the codes reporting it); finalise.select drops it while one code
    per value is enabled.

    The content finding is the one kept: it names what the value is (a traceback, a token shown masked,
    a home-directory path), points at the value itself rather than its key, and --fix can replace it;
    the field finding adds only that the key has a raw-sounding name. A value is covered by a content
    finding on the whole of it, or, under a credential or path key, by a credential or local-path
    finding inside it. A match inside a longer body (a path inside a stdout) does not cover the body:
    the rest of it is still material, and still reported.
    """
    if not values:
        return
    whole: dict = {}  # span -> codes of the content findings on exactly that span
    inside: dict[
        int, list[tuple[int, int, int, str, str]]
    ] = {}  # line -> (column, end line, end column, category, code)
    for finding in findings:
        if finding.category in CONTENT_CATEGORIES:
            at = finding.span
            whole.setdefault(at, set()).add(finding.code)
            inside.setdefault(at.start_line, []).append(
                (at.start_col, at.end_line, at.end_col, finding.category, finding.code)
            )
    if not whole:
        return
    for row in inside.values():
        row.sort()
    for finding, value, category in values:
        same = _SAME_LEAK.get(category)
        codes = _reported(doc, value, whole, inside, same)
        if codes:  # a structure rule reports the whole value (a vector, a message record), or the one string
            finding.covered_by = (codes,)
            continue
        covered = []
        for node in _material(value, category):
            codes = _reported(doc, node, whole, inside, same)
            if not codes:
                break
            covered.append(codes)
        else:
            if covered:
                finding.covered_by = tuple(covered)


def _reported(
    doc: JsonDocument, node: JNode, whole: dict, inside: dict, same: str | None
) -> tuple[str, ...]:
    """The codes of the content findings that report ``node``: on all of it, or (category ``same``) in it.
    Indexed (``whole`` by span, ``inside`` by line and column): a minified document has every finding on
    one line, and a scan of that line per field would be quadratic."""
    span = doc.span(node)
    codes = set(whole.get(span, ()))
    if node.kind == "string" and node.value:
        # The characters between the quotes (a JSON string is on one line; a quote is one column).
        codes |= whole.get(
            Span(span.start_line, span.start_col + 1, span.end_line, span.end_col - 1), set()
        )
        if (
            same is not None
        ):  # a JSON string is on one line: what starts within its columns lies in it
            row = inside.get(span.start_line, [])
            index = bisect_left(row, (span.start_col,))
            while index < len(row) and row[index][0] < span.end_col:
                _, end_line, end_col, category, code = row[index]
                if category == same and (end_line, end_col) <= (span.end_line, span.end_col):
                    codes.add(code)
                index += 1
    return tuple(sorted(codes))
