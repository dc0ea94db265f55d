"""Contract rules (OVA1xx): adapter objects validated against the JSON Schema contracts
in ``rules/contracts/``.

A contract is a JSON Schema (draft 2020-12) with three annotations:
``x-ova-contract`` (its schema_version and container keys), ``x-ova-code`` (the
rule a subschema's failures report; inherited by nested subschemas) and
``x-ova-message`` (a message template for checks whose default wording would be
vague). Adding a contract is adding a file.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

from .. import rulepack
from ..findings import Finding
from ..frontends.json_tree import JNode, JsonDocument, Member, PathPart, format_path, walk
from ..redact import mask_text
from . import json_finding

# A schema_version this close to a known one is judged by that contract, so a typo
# is reported instead of silently opting the object out.
_NEAR_MISS_RATIO = 0.9


# An object with this many of a contract's distinctive keys is judged by it even
# without a recognisable schema_version (3 when it has none at all).
STRUCTURAL_MATCH = 5
STRUCTURAL_MATCH_UNVERSIONED = 3


@dataclass(frozen=True)
class Contract:
    schema_version: str
    container_keys: tuple[str, ...]
    # (registry, index) of the JSON Schema. The validator is built on first use: importing jsonschema costs
    # ~0.1 s, and most runs (Python files, JSON without contract objects) only need the fields below.
    schema_ref: Any
    # required keys other than schema_version and mode: what makes an object look like this contract
    distinctive_keys: frozenset[str] = frozenset()
    # key -> (allowed literal values, rule code) for every const/enum property: used on generator code
    field_values: tuple[tuple[str, frozenset, str], ...] = ()
    # top-level object properties (issue_projection, truth_contract, ...): sub-projection names
    sections: tuple[str, ...] = ()
    # (section, key, allowed values, code): a key's rule inside one section wins over field_values
    section_values: tuple[tuple[str, str, frozenset, str], ...] = ()

    @property
    def validator(self) -> Any:
        return _validator(self.schema_ref)

    def allowed_values(self, section: str | None = None) -> dict[str, tuple[frozenset, str]]:
        out = {key: (values, code) for key, values, code in self.field_values}
        out.update(
            {
                key: (values, code)
                for sec, key, values, code in self.section_values
                if sec == section
            }
        )
        return out


def _field_values(schema: Any) -> tuple[tuple[str, frozenset, str], ...]:
    """Every property constrained to literals (const/enum), anywhere in a contract (codes inherited)."""
    found: dict[str, tuple[set, str]] = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        for name, sub in (node.get("properties") or {}).items():
            if not isinstance(sub, dict) or "x-ova-code" not in sub:
                continue
            values = [sub["const"]] if "const" in sub else sub.get("enum")
            if values and all(isinstance(v, (str, bool)) for v in values):
                known = found.setdefault(name, (set(), sub["x-ova-code"]))
                known[0].update(values)
        stack.extend(v for k, v in node.items() if k not in ("const", "enum", "x-ova-contract"))
    return tuple((name, frozenset(values), code) for name, (values, code) in sorted(found.items()))


_SCHEMA_KEYWORDS = (
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "additionalProperties",
)
_SCHEMA_MAPS = ("properties", "$defs", "patternProperties", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")


def _inherit_codes(schema: Any, code: str | None) -> Any:
    """Copy ``x-ova-code`` down into every nested subschema that does not set its own."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    code = out.setdefault("x-ova-code", code) if code is not None or "x-ova-code" in out else None
    if out.get("x-ova-code") is None:
        out.pop("x-ova-code", None)
    for key in _SCHEMA_KEYWORDS:
        if key in out:
            out[key] = _inherit_codes(out[key], code)
    for key in _SCHEMA_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {name: _inherit_codes(sub, code) for name, sub in out[key].items()}
    for key in _SCHEMA_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [_inherit_codes(sub, code) for sub in out[key]]
    return out


@lru_cache(maxsize=1)
def builtin_contracts() -> tuple[Contract, ...]:
    """The built-in contracts (a project's ``extend-rules`` contracts are in its rule pack: pack.RulePack)."""
    return build_contracts()


def build_contracts(extra: tuple[str, ...] = ()) -> tuple[Contract, ...]:
    """The built-in contracts plus extension contracts (JSON Schema texts)."""
    schemas = [
        _inherit_codes(copy.deepcopy(rulepack.load_json("contracts", name)), None)
        for name in rulepack.list_dir("contracts")
        if name.endswith(".schema.json")
    ]
    built_in = len(schemas)
    for text in extra:
        schemas.append(_inherit_codes(json.loads(text), None))
    if (
        len(schemas) > built_in
    ):  # the built-in schemas are checked by the test suite, not on every run
        from jsonschema import Draft202012Validator

        for schema in schemas[built_in:]:
            Draft202012Validator.check_schema(schema)
    registry = _SchemaRegistry(tuple(schemas))
    contracts = []
    for number, schema in enumerate(schemas):
        meta = schema.get("x-ova-contract") or {}
        contracts.append(
            Contract(
                schema_version=meta["schema_version"],
                container_keys=tuple(meta.get("container_keys", ())),
                schema_ref=(registry, number),
                distinctive_keys=frozenset(schema.get("required", ())) - {"schema_version", "mode"},
                field_values=_field_values(schema),
                sections=tuple(
                    k
                    for k, v in (schema.get("properties") or {}).items()
                    if isinstance(v, dict) and v.get("type") in ("object", "array")
                ),
                section_values=tuple(
                    (section, *entry)
                    for section, sub in (schema.get("properties") or {}).items()
                    for entry in _field_values(sub)
                ),
            )
        )
    return tuple(contracts)


class _SchemaRegistry:
    """The contracts' schemas, resolvable by ``$id`` from each other; validators are built on first use."""

    def __init__(self, schemas: tuple[dict, ...]) -> None:
        self.schemas = schemas
        self._validators: dict[int, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        # Shipped to workers as schemas only: each builds its validators on first use.
        return {"schemas": self.schemas, "_validators": {}}

    def validator(self, number: int) -> Any:
        if number not in self._validators:
            from jsonschema import Draft202012Validator
            from referencing import Registry, Resource

            resources = Registry().with_resources(
                (schema["$id"], Resource.from_contents(schema)) for schema in self.schemas
            )
            for index, schema in enumerate(self.schemas):
                self._validators[index] = Draft202012Validator(schema, registry=resources)
        return self._validators[number]


def _validator(make: tuple[_SchemaRegistry, int]) -> Any:
    registry, number = make
    return registry.validator(number)


def _strings(value: Any, limit: int = 64) -> list[str]:
    """The strings in ``value`` (keys and values, depth first), at most ``limit`` of them."""
    found: list[str] = []
    stack = [value]
    while stack and len(found) < limit:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found += [k for k in item if isinstance(k, str)][: limit - len(found)]
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return found


def _masked_kind(value: Any, scanner) -> str | None:
    """What another rule would mask in ``value`` (a local path, an internal name, a private URL, a credential,
    raw content), named by kind; None when nothing is. The contract rules then say what kind of value they
    found instead of quoting it: README's promise that those are never quoted holds for every rule."""
    if scanner is None or isinstance(value, (bool, int, float)) or value is None:
        return None
    for text in _strings(value):
        hits = scanner.scan(text, secrets=True, content=True, published=True)
        if hits:
            hit = min(hits, key=lambda h: h.code)
            label = hit.label.split(" (deny-list entry", 1)[
                0
            ]  # the entry is named by the OVA701 finding
            return f"{label} ({hit.code}), not quoted"
    return None


def _show(value: Any, scanner=None, limit: int = 80) -> str:
    kind = _masked_kind(value, scanner)
    if kind is not None:
        return f"{_TYPE_NAMES.get(type(value), 'a value')} holding {kind}"
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return mask_text(text)


_TYPE_NAMES = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "an array",
    dict: "an object",
    type(None): "null",
}


def _describe(value: Any, scanner=None) -> str:
    if _masked_kind(value, scanner) is not None:
        return _show(value, scanner)
    return f"{_show(value)} ({_TYPE_NAMES.get(type(value), type(value).__name__)})"


def _resolve(node: JNode, path: Iterable[Any]) -> JNode:
    for part in path:
        if node.kind == "object" and isinstance(part, str):
            child = node.get(part)
        elif node.kind == "array" and isinstance(part, int) and part < len(node.value):
            child = node.value[part]
        else:
            child = None
        if child is None:
            break
        node = child
    return node


def error_message(error: Any, path: str, scanner=None) -> tuple[str, Any]:
    """(message, value identifying the problem) for one jsonschema error. ``scanner``: the run's string
    scanner; a value it would report is named by kind, never quoted (_masked_kind)."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    keyword = error.validator
    instance = error.instance
    template = schema.get("x-ova-message")
    shown = _show(instance, scanner)
    if template and keyword in ("contains", "not", "propertyNames", "if", "then"):
        return template.format(path=path, found=shown, found_raw=shown.strip('"')), instance
    if keyword == "const":
        return (
            f"{path} must be {json.dumps(error.validator_value)}, found {_describe(instance, scanner)}",
            instance,
        )
    if keyword == "enum":
        allowed = ", ".join(json.dumps(v) for v in error.validator_value)
        return f"{path} is {shown}; allowed: {allowed}", instance
    if keyword == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return f"{path} must be of type {expected}, found {_describe(instance, scanner)}", instance
    if keyword == "exclusiveMinimum":
        return f"{path} must be greater than {error.validator_value}, found {shown}", instance
    if keyword == "minLength":
        return f"{path} must not be empty", instance
    if keyword == "maxLength":
        return (
            f"{path} is {len(instance)} characters long; at most {error.validator_value} allowed",
            len(instance),
        )
    if keyword == "uniqueItems":
        return f"{path} lists the same value more than once", instance
    if template:
        return template.format(path=path, found=shown, found_raw=shown.strip('"')), instance
    return f"{path} fails the contract's {keyword!r} check", instance


def _contract_for(node: JNode, contracts: tuple[Contract, ...]) -> Contract | None:
    version = node.get("schema_version")
    if version is not None and version.kind == "string":
        for contract in contracts:
            if contract.schema_version == version.value:
                return contract
        import difflib  # only for a schema_version no contract names exactly (issue 29: start-up)

        for contract in contracts:
            if (
                difflib.SequenceMatcher(None, contract.schema_version, version.value).ratio()
                >= _NEAR_MISS_RATIO
            ):
                return contract
    distinctive = frozenset().union(*(c.distinctive_keys for c in contracts))
    keys = {m.key for m in node.value if m.key in distinctive}  # the only keys compared below
    needed = STRUCTURAL_MATCH if version is not None else STRUCTURAL_MATCH_UNVERSIONED
    best = max(contracts, key=lambda c: len(keys & c.distinctive_keys), default=None)
    if best is not None and len(keys & best.distinctive_keys) >= min(
        needed, len(best.distinctive_keys) + 1
    ):
        return best
    return None


def _is_json_schema(root: JNode) -> bool:
    marker = root.get("$schema") if root.kind == "object" else None
    return marker is not None and marker.kind == "string" and "json-schema.org" in marker.value


def _adapters(
    doc: JsonDocument, contracts: tuple[Contract, ...]
) -> Iterable[tuple[Contract | None, JNode, tuple[PathPart, ...]]]:
    by_key = {key: c for c in contracts for key in c.container_keys}
    for root, prefix in doc.roots:
        if _is_json_schema(root):
            continue  # a schema that describes adapters is not an adapter
        for node, path, member in walk(root, prefix):
            if member is not None and member.key in by_key:
                if node.kind != "object":
                    yield None, node, path
                    continue
                yield by_key[member.key], node, path
            elif node.kind == "object":
                contract = _contract_for(node, contracts)
                if contract is not None:
                    yield contract, node, path


def find_adapters(
    doc: JsonDocument, contracts: tuple[Contract, ...] | None = None
) -> list[tuple[Contract | None, JNode, tuple[PathPart, ...]]]:
    """Every object judged by a contract (contract None: a non-object under a container key);
    ``contracts``: the rule pack's (the built-in ones when not given)."""
    contracts = contracts if contracts is not None else builtin_contracts()
    found, seen = [], set()
    for contract, node, base in _adapters(doc, contracts):
        if id(node) not in seen:
            seen.add(id(node))
            found.append((contract, node, base))
    return found


def check_contracts(
    doc: JsonDocument, adapters: list | None = None, rules=None, scanner=None
) -> list[Finding]:
    """Contract findings on ``adapters`` (find_adapters); ``rules``: the rule pack's, for extension codes;
    ``scanner``: the run's string scanner, so a found value another rule masks is named by kind, not quoted."""
    if not doc.complete:
        return []
    findings: list[Finding] = []
    for contract, node, base in adapters if adapters is not None else find_adapters(doc):
        if contract is None:
            findings.append(
                json_finding(
                    doc,
                    "OVA113",
                    node,
                    base,
                    f"{format_path(base)} must be an adapter object, found "
                    f"{_describe(node.python(), scanner)}",
                    node.kind,
                )
            )
            continue
        findings.extend(_validate(doc, contract, node, base, rules, scanner))
    return findings


def _validate(
    doc: JsonDocument,
    contract: Contract,
    node: JNode,
    base: tuple[PathPart, ...],
    rules=None,
    scanner=None,
) -> list[Finding]:
    instance = node.python()
    findings = []
    for error in contract.validator.iter_errors(instance):
        schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
        code = schema.get("x-ova-code", "OVA113")
        rel = list(error.absolute_path)
        target = _resolve(node, rel)
        if error.validator == "required":
            holder = instance_at(instance, rel)
            missing = [
                k
                for k in error.validator_value
                if isinstance(holder, dict) and k not in holder and repr(k) in error.message
            ]
            key = missing[0] if missing else "?"
            prop = schema.get("properties", {}).get(key, {})
            code = prop.get("x-ova-code", code) if isinstance(prop, dict) else code
            # A missing section is reported with the section's own rule.
            path = format_path(base + tuple(rel))
            findings.append(
                json_finding(
                    doc,
                    code,
                    target,
                    base + tuple(rel) + (key,),
                    f'{path} is missing required key "{key}"',
                    ("missing", key),
                    rules,
                )
            )
            continue
        if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
            member = (
                next((m for m in target.value if m.key == error.instance), None)
                if target.kind == "object"
                else None
            )
            where = member.key_node if member else target
            path = format_path(base + tuple(rel) + (error.instance,))
            message, ident = error_message(error, path, scanner)
            findings.append(
                json_finding(
                    doc, code, where, base + tuple(rel) + (error.instance,), message, ident, rules
                )
            )
            continue
        path = format_path(base + tuple(rel))
        message, ident = error_message(error, path, scanner)
        finding = json_finding(doc, code, target, base + tuple(rel), message, ident, rules)
        if error.validator == "const" and error.validator_value is False:
            if target.kind == "string" and target.value.strip().lower() == "false":
                finding.fix = (target.start, target.end, "false")  # the same claim, as the boolean
            elif target.kind == "true":
                finding.unfixable = (
                    "the flag says raw material was copied: remove the copy, then set it to false"
                )
        findings.append(finding)
    return findings


def instance_at(instance: Any, path: list[Any]) -> Any:
    for part in path:
        try:
            instance = instance[part]
        except (KeyError, IndexError, TypeError):
            return None
    return instance


def check_duplicate_keys(doc: JsonDocument, scanner=None) -> list[Finding]:
    """OVA112 for every repeated key; ``scanner``: a key another rule reports is named by kind, not quoted."""
    findings = []
    for root, prefix in doc.roots:
        for node, path, _ in walk(root, prefix):
            if node.kind != "object" or len(node.value) < 2:
                continue
            ordered = sorted(
                m.key for m in node.value
            )  # a list, not a table of every key of a large object
            repeated = {a for a, b in pairwise(ordered) if a == b}
            del ordered
            first: dict[str, Member] = {}  # key nodes are made on demand: only for a duplicate
            for member in node.value:
                if member.key not in repeated:
                    continue
                if member.key not in first:
                    first[member.key] = member
                    continue
                first_line, _ = doc.source.position(first[member.key].key_node.start)
                kind = _masked_kind(member.key, scanner)
                shown = f'"{member.key}"' if kind is None else f"(a key holding {kind})"
                findings.append(
                    json_finding(
                        doc,
                        "OVA112",
                        member.key_node,
                        path + (member.key,),
                        f"duplicate key {shown} in {format_path(path)} (first at line {first_line}); "
                        "most parsers keep only the last value",
                        member.value.python()
                        if member.value.kind not in ("object", "array")
                        else member.value.kind,
                    )
                )
    return findings
