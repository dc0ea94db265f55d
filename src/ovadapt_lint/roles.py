"""What each linted file was judged as, and why, for the reports and ``--show-roles``.

A file's role comes from its name and place (classify.path_role) or, for a JSON document, from what it holds
(classify.content_reason: a contract object, an attestation key), the same rule the engine applies before the
checks run. The engine does not hand the role it decided back, so a JSON document that is not public by its path
is read again here; a byte prefilter (the attestation suffixes, the contracts' keys and versions) skips the parse
for nearly every such file.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .classify import ATTESTATION_SUFFIXES, PUBLIC, ROLES, Role, content_reason, path_role
from .discover import Target


def file_roles(
    targets,
    configs,
    known: dict[str, Role] | None = None,
    content: dict[str, str | None] | None = None,
) -> dict[str, Role]:
    """display path -> Role for each target; ``configs``: a hierarchy.Configs (each file's nearest config);
    ``known``: the path roles the run decided (LintResult.path_roles), not decided again; ``content``: the
    reasons (or None) the run found for its JSON documents to be public by content (LintResult.content_roles),
    so those documents are not read again."""
    roles: dict[str, Role] = {}
    needles: dict[
        Path | None, tuple[bytes, ...]
    ] = {}  # per config (its source): its pack's contracts
    known, content = known or {}, content or {}
    for target in targets:
        role = known.get(target.display)
        document = target.kind in ("json", "jsonl")
        if role is not None and (role.role == PUBLIC or not document):
            roles[target.display] = role  # nothing left to decide: no config looked up
            continue
        config = configs.for_file(target.path)
        if role is None:
            base = config.source.parent if config.source is not None else Path(".")
            role = path_role(target.path, config.public_paths, config.test_paths, base)
        if role.role != PUBLIC and document and target.display in content:
            why = content[target.display]
            roles[target.display] = Role(PUBLIC, why) if why is not None else role
            continue
        if role.role != PUBLIC and document:
            contracts = configs.analysis(config).pack.contracts
            if config.source not in needles:
                needles[config.source] = _needles(contracts)
            why = _content_reason(target, config.max_file_size, contracts, needles[config.source])
            if why is not None:
                role = Role(PUBLIC, why)
        roles[target.display] = role
    return roles


def role_counts(roles: dict[str, Role]) -> dict[str, int]:
    """Files per role, every role named (zero included), in the order of classify.ROLES."""
    counts = Counter(r.role for r in roles.values())
    return {role: counts.get(role, 0) for role in ROLES}


def _needles(contracts) -> tuple[bytes, ...]:
    """Byte strings one of which a document must hold to be public by content: attestation keys end in a suffix
    or start with `public_`; a contract object has a container key, a `schema_version` or distinctive keys."""
    words = {f'{suffix}"' for suffix in ATTESTATION_SUFFIXES} | {'"public_', '"schema_version"'}
    for contract in contracts:
        words |= {f'"{k}"' for k in (*contract.container_keys, *contract.distinctive_keys)}
    return tuple(sorted(w.encode() for w in words))


def content_role(target: Target, max_size: int, contracts, needles: dict) -> str | None:
    """Why a JSON document that is not public by its path is public by what it holds, or None (``needles``:
    the run's memo of each pack's prefilter, by the identity of its contracts)."""
    if id(contracts) not in needles:
        needles[id(contracts)] = (contracts, _needles(contracts))  # the pack kept alive with its id
    return _content_reason(target, max_size, contracts, needles[id(contracts)][1])


def _content_reason(
    target: Target, max_size: int, contracts, needles: tuple[bytes, ...]
) -> str | None:
    from .checks.contracts import find_adapters
    from .frontends.json_tree import parse_json, parse_jsonl
    from .source import read_source

    source, _ = read_source(target.path, target.display, max_size, target.kind)
    if source is None:
        return None
    data = source.data
    # A key written with \u escapes defeats the byte search: such a document is parsed.
    if b"\\u" not in data and not any(needle in data for needle in needles):
        return None
    doc = parse_jsonl(source) if target.kind == "jsonl" else parse_json(source)
    return content_reason(doc, find_adapters(doc, contracts))


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
