"""What each linted file was judged as, and why, for the reports and ``--show-roles``.

A file's role comes from its name and place (classify.path_role) or, for a JSON document, from what it holds
(classify.content_role: a contract object or an attestation key makes it public, a negative-case declaration makes
it test data), the same rule the engine applies before the checks run. The engine does not hand the role it decided
back, so a JSON document is read again here; a byte prefilter (the negative-case keys, and for a document not public
by its path the attestation suffixes and the contracts' keys and versions) skips the parse for nearly every file.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .classify import (
    ATTESTATION_SUFFIXES,
    PUBLIC,
    ROLES,
    Role,
    content_role,
    negative_case_vocabulary,
    path_role,
)
from .discover import Target


def file_roles(
    targets,
    configs,
    known: dict[str, Role] | None = None,
    content: dict[str, Role | None] | None = None,
) -> dict[str, Role]:
    """display path -> Role for each target; ``configs``: a hierarchy.Configs (each file's nearest config);
    ``known``: the path roles the run decided (LintResult.path_roles), not decided again; ``content``: the
    roles (or None) the run found its JSON documents to have by content (LintResult.content_roles), so those
    documents are not read again."""
    roles: dict[str, Role] = {}
    needles: dict = {}  # document_role's memo, per pack
    known, content = known or {}, content or {}
    for target in targets:
        role = known.get(target.display)
        document = target.kind in ("json", "jsonl")
        if role is not None and not document:
            roles[target.display] = role  # nothing left to decide: no config looked up
            continue
        config = configs.for_file(target.path)
        if role is None:
            base = config.source.parent if config.source is not None else Path(".")
            role = path_role(target.path, config.public_paths, config.test_paths, base)
        if document:
            if target.display in content:
                found = content[target.display]
            else:
                contracts = configs.analysis(config).pack.contracts
                found = document_role(
                    target, config.max_file_size, contracts, needles, role.role == PUBLIC
                )
            role = found or role
        roles[target.display] = role
    return roles


def role_counts(roles: dict[str, Role]) -> dict[str, int]:
    """Files per role, every role named (zero included), in the order of classify.ROLES."""
    counts = Counter(r.role for r in roles.values())
    return {role: counts.get(role, 0) for role in ROLES}


def _needles(contracts) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Byte strings one of which a document must hold to have a role by content: (a negative-case key; and
    for a document not public by its path, also what makes it public: an attestation key ends in a suffix or
    starts with `public_`, a contract object has a container key, a `schema_version` or distinctive keys)."""
    negative = {f'"{key}"' for key in negative_case_vocabulary()[0]}
    words = {f'{suffix}"' for suffix in ATTESTATION_SUFFIXES} | {'"public_', '"schema_version"'}
    for contract in contracts:
        words |= {f'"{k}"' for k in (*contract.container_keys, *contract.distinctive_keys)}
    return tuple(sorted(w.encode() for w in negative)), tuple(
        sorted(w.encode() for w in words | negative)
    )


def document_role(
    target: Target, max_size: int, contracts, needles: dict, path_public: bool
) -> Role | None:
    """The role a JSON document has by what it holds (classify.content_role), or None: its path role stands
    (``needles``: the run's memo of each pack's prefilter, by the identity of its contracts)."""
    if id(contracts) not in needles:
        needles[id(contracts)] = (contracts, _needles(contracts))  # the pack kept alive with its id
    prefilter = needles[id(contracts)][1][0 if path_public else 1]
    from .checks.contracts import find_adapters
    from .frontends.json_tree import parse_json, parse_jsonl
    from .source import read_source

    source, _ = read_source(target.path, target.display, max_size, target.kind)
    if source is None:
        return None
    data = source.data
    # A key written with \u escapes defeats the byte search: such a document is parsed.
    if b"\\u" not in data and not any(needle in data for needle in prefilter):
        return None
    doc = parse_jsonl(source) if target.kind == "jsonl" else parse_json(source)
    adapters = () if path_public else find_adapters(doc, contracts)
    return content_role(doc, adapters, path_public)


def discover_roles(
    paths: list[str], configs, force_include: bool = False
) -> list[tuple[Target, Role]]:
    """The files a run of ``paths`` would lint, each with its role (for ``--show-roles``)."""
    from .discover import discover

    root = configs.root
    targets = list(discover(paths, root.include, root.exclude, configs.settings, force_include))
    roles = file_roles(targets, configs)
    return [(t, roles[t.display]) for t in targets]


def write_roles(found: list[tuple[Target, Role]], out, as_json: bool = False) -> None:
    """One line per file, ``role  path  (why)``, then the counts; or a JSON document
    (schema ``ovadapt-lint/roles/v1``: files with uri, role and why, and the counts)."""
    counts = role_counts({t.display: r for t, r in found})
    if as_json:
        import json

        document = {
            "schema": "ovadapt-lint/roles/v1",
            "summary": counts,
            "files": [{"path": t.uri, "role": r.role, "why": r.why} for t, r in found],
        }
        out.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return
    for target, role in found:
        out.write(f"{role.role:<7} {target.display}  ({role.why})\n")
    out.write(f"{len(found)} file(s): {summary_counts(counts)}\n")


def summary_counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {role}" for role, n in counts.items())
