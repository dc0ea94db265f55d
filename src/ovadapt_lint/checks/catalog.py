"""Which checks run on which files: each check declares the codes it may emit and the
roles it applies to; the engine runs the catalog instead of a hand-written sequence.
Before the checks of a Python module run, the classify stage (``classify_python``) makes
its ``Publication``: what the module publishes, which the Python checks read.

Roles (see ``classify``): ``public`` values are published (a public JSON document,
a Python value that reaches a projection); ``source`` and ``test`` are not.
Credentials and the deny-list run everywhere; contracts wherever a contract
applies; raw fields, raw content, paths and private URLs on published values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..classify import PUBLIC, ROLES, SOURCE
from ..findings import Finding, digest_value, make_finding
from ..internal_error import mark_check
from ..registry import family_codes

if TYPE_CHECKING:
    from ..classify_python import Publication

EVERYWHERE = frozenset(ROLES)
PUBLISHED = frozenset({PUBLIC})
CODE = frozenset({PUBLIC, SOURCE})  # Python that builds projections; tests build none


@dataclass
class Context:
    """What one file's checks share: parsed once, passed to each check."""

    source: Any
    # The configuration's analysis (analysis.Analysis): rule pack, scanner, vocabularies, scope.
    analysis: Any
    role: str  # the file's role, or ``public`` for a JSON document that holds a projection
    doc: Any = None  # JsonDocument for JSON files
    text: str | None = None  # decoded text for Markdown
    module: Any = None  # PythonText for Python
    adapters: list = field(default_factory=list)
    # Python: what the module publishes (the classify stage), when it ran: on code, or under --scope all
    publication: Publication | None = None
    flow_facts: Any = None  # Python: the module's flow facts (flow.facts.ModuleFacts), for the run
    shared: dict = field(
        default_factory=dict
    )  # one check's results kept for a later one (check name -> findings)

    @property
    def pack(self):
        """The rule pack (pack.RulePack): rules, contracts, signatures, patterns."""
        return self.analysis.pack


@dataclass(frozen=True)
class Check:
    name: str
    codes: tuple[str, ...]  # rule codes or prefixes the check may emit
    roles: frozenset[str]
    run: Callable[[Context], list[Finding]]

    def applies(self, role: str, scope: str) -> bool:
        return scope == "all" or role in self.roles

    def claims(self, code: str) -> bool:
        return code in self.codes


# Each rule says in rules.toml which family of checks reports it; the checks take their codes from there.
CONTRACT_CODES = family_codes("contract")
RAW_FIELD_CODES = family_codes("raw-field")
# Text signatures, paths and private URLs in string values.
CONTENT_CODES = family_codes("content")
SECRET_CODES = family_codes("secret")  # OVA411: a project's gitleaks rules
FLOW_CODES = family_codes("flow")


# --- JSON ------------------------------------------------------------------
def _duplicate_keys(ctx: Context) -> list[Finding]:
    from .contracts import check_duplicate_keys

    return check_duplicate_keys(ctx.doc, ctx.analysis.scanner)


def _contracts(ctx: Context) -> list[Finding]:
    from .contracts import check_contracts

    return check_contracts(ctx.doc, ctx.adapters, ctx.pack.rules, ctx.analysis.scanner)


def _raw_fields(ctx: Context) -> list[Finding]:
    from .raw_fields import check_raw_fields

    values = ctx.shared.setdefault(
        "raw-field-values", []
    )  # for mark_covered, once the content checks ran
    return check_raw_fields(
        ctx.doc, [node for _, node, _ in ctx.adapters], ctx.analysis.keys, values
    )


def _compact_slots(ctx: Context) -> list[Finding]:
    from .raw_content import check_compact_slots

    return check_compact_slots(ctx.doc, ctx.analysis.keys)


def _published(ctx: Context) -> bool:
    return ctx.role == PUBLIC or ctx.analysis.scope == "all"


def _json_secrets(ctx: Context) -> list[Finding]:
    from .strings import check_string_families, check_strings

    if _published(ctx):
        # The content check runs too (same condition): both families in one walk, its half kept for it.
        secrets, ctx.shared["string-content"] = check_string_families(ctx.doc, ctx.analysis.scanner)
        return secrets
    return check_strings(
        ctx.doc, ctx.analysis.scanner, secrets=True, content=False, published=False
    )


def _json_content(ctx: Context) -> list[Finding]:
    from .strings import check_strings

    found = ctx.shared.pop("string-content", None)
    if found is not None:
        return found
    return check_strings(ctx.doc, ctx.analysis.scanner, secrets=False, content=True)


def _raw_structures(ctx: Context) -> list[Finding]:
    from .raw_content import check_raw_structures

    return check_raw_structures(ctx.doc)


def _scratch_paths(ctx: Context) -> list[Finding]:
    from .local_paths import check_scratch_paths

    return check_scratch_paths(ctx.doc)


JSON_CHECKS = (
    Check("duplicate-keys", family_codes("duplicate-key"), PUBLISHED, _duplicate_keys),
    # Wherever a contract recognises an object (such a document is public by that fact).
    Check("contracts", CONTRACT_CODES, EVERYWHERE, _contracts),
    Check("raw-fields", RAW_FIELD_CODES, PUBLISHED, _raw_fields),
    Check("compact-slots", family_codes("compact-slot"), PUBLISHED, _compact_slots),
    Check("string-secrets", SECRET_CODES, EVERYWHERE, _json_secrets),
    Check("string-content", CONTENT_CODES, PUBLISHED, _json_content),
    # Raw material recognised by its shape (a message record, a diff, a vector): three content rules.
    Check("raw-structures", ("OVA302", "OVA305", "OVA312"), PUBLISHED, _raw_structures),
    # Relative paths into local scratch: git-ignored or well-known scratch folders.
    Check("scratch-paths", family_codes("scratch-path"), PUBLISHED, _scratch_paths),
)


# --- Markdown ----------------------------------------------------------------
def _text_secrets(ctx: Context) -> list[Finding]:
    from .text_files import check_text

    return check_text(
        ctx.source, ctx.text or "", ctx.analysis.scanner, content=False, published=_published(ctx)
    )


def _text_content(ctx: Context) -> list[Finding]:
    from .text_files import check_text

    return check_text(ctx.source, ctx.text or "", ctx.analysis.scanner, content=True, secrets=False)


TEXT_CHECKS = (
    Check("text-secrets", SECRET_CODES, EVERYWHERE, _text_secrets),
    Check("text-content", CONTENT_CODES, PUBLISHED, _text_content),
)


# --- Python ------------------------------------------------------------------
def _module_name(ctx: Context) -> tuple[str, bool]:
    from ..flow.modnames import module_name

    return module_name(ctx.source.path, ctx.analysis.packages)


def _classify_python(ctx: Context) -> Publication:
    from ..classify_python import classify_module

    return classify_module(ctx.module, ctx.analysis)


def _publication(ctx: Context) -> Publication:
    from ..classify_python import Publication

    return ctx.publication if ctx.publication is not None else Publication()


def _python_contract_values(ctx: Context) -> list[Finding]:
    from .python_contracts import check_module
    from .python_projections import node_span

    objects = _publication(ctx).contracts
    if objects is None:
        return []
    findings: list[Finding] = []
    lines, display, rules = ctx.module.lines, ctx.source.display, ctx.pack.rules

    def report(code: str, node: Any, message: str, ident: object) -> None:
        findings.append(
            make_finding(
                code,
                message,
                display,
                node_span(lines, node),
                value_digest=digest_value(ident),
                rules=rules,
            )
        )

    check_module(objects, report, lambda node: lines.segment(node_span(lines, node)))
    return findings


def _python_raw_fields(ctx: Context) -> list[Finding]:
    from .python_fields import check_projection_fields

    return check_projection_fields(
        _publication(ctx).fields, ctx.module.lines, ctx.source.display, ctx.pack.rules
    )


def _python_flows(ctx: Context) -> list[Finding]:
    from .python_flows import module_flow_facts

    publication = _publication(ctx)
    # Named once, by the classify stage, when it ran.
    name, is_package = publication.module_name or _module_name(ctx)
    ctx.flow_facts = module_flow_facts(ctx.module, ctx.analysis, name, is_package, publication)
    return []  # flow findings come from the run's modules together (flow.resolve)


def _python_secrets(ctx: Context) -> list[Finding]:
    from .python_strings import check_python_strings

    if ctx.analysis.scope == "all":
        published = None  # every literal is judged as if published
    else:
        published = list(ctx.publication.spans) if ctx.publication is not None else []
    return check_python_strings(
        ctx.module, ctx.analysis.scanner, secrets=True, content=False, published=published
    )


def _python_content(ctx: Context) -> list[Finding]:
    from .python_strings import check_python_strings

    if ctx.analysis.scope == "all":
        published = None  # every literal
    elif ctx.publication is None or not ctx.publication.spans:
        return []
    else:
        published = list(ctx.publication.spans)
    return check_python_strings(
        ctx.module, ctx.analysis.scanner, secrets=False, content=True, published=published
    )


# The classify stage of Python modules: on code (tests build no projections), or everywhere under --scope all.
PYTHON_CLASSIFY = ("python-classify", CODE, _classify_python)

PYTHON_CHECKS = (
    # Contract values of the adapter objects the module builds (classified, judged here).
    Check("python-contract-values", CONTRACT_CODES, CODE, _python_contract_values),
    Check("python-raw-fields", RAW_FIELD_CODES, CODE, _python_raw_fields),
    # The module's flow facts; the findings come once every module's facts are in (engine.flow_findings).
    Check("python-flows", FLOW_CODES, CODE, _python_flows),
    Check("python-secrets", SECRET_CODES, EVERYWHERE, _python_secrets),
    # Raw content, paths and URLs in the literals that reach a projection (and the constants that feed them).
    Check("python-content", CONTENT_CODES, CODE, _python_content),
)

CATALOG = {
    "json": JSON_CHECKS,
    "jsonl": JSON_CHECKS,
    "markdown": TEXT_CHECKS,
    "python": PYTHON_CHECKS,
}


def run_checks(kind: str, ctx: Context) -> list[Finding]:
    scope = ctx.analysis.scope
    findings: list[Finding] = []
    if kind == "python":
        name, roles, classify = PYTHON_CLASSIFY
        if scope == "all" or ctx.role in roles:
            try:
                ctx.publication = classify(ctx)
            except Exception as exc:  # reported by the engine as OVA009, naming the stage
                mark_check(exc, name)
                raise
    try:
        for check in CATALOG[kind]:
            if check.applies(ctx.role, scope):
                try:
                    findings += check.run(ctx)
                except Exception as exc:  # reported by the engine as OVA009, naming this check
                    mark_check(exc, check.name)
                    raise
    finally:
        if ctx.publication is not None:
            ctx.publication.release()
    if ctx.shared.get("raw-field-values"):
        from .raw_fields import mark_covered

        # One leak, one finding: a raw field whose value a content rule reports is marked for selection.
        mark_covered(ctx.doc, ctx.shared.pop("raw-field-values"), findings)
    return findings


# Rules outside the catalog: notices come from the readers, raw storage files from the file-level pass.
_WHOLE_FILE = dict.fromkeys(
    family_codes("raw-file"), "every file, tests included: committing raw storage is the leak"
)
_KIND_TEXT = {"json": "JSON", "markdown": "Markdown", "python": "Python"}


def judged_where(code: str) -> str:
    """Which roles a rule applies to, for its documentation (default ``--scope published``)."""
    from ..registry import is_notice

    if is_notice(code):
        return "every file (tool notices)"
    if code in _WHOLE_FILE:
        return _WHOLE_FILE[code]
    parts = []
    for kind in ("json", "markdown", "python"):
        roles = set().union(*[c.roles for c in CATALOG[kind] if c.claims(code)])
        if not roles:
            continue
        if kind == "json" and code in CONTRACT_CODES:
            parts.append("JSON: every object a contract recognises, in any file")
        elif roles == EVERYWHERE:
            parts.append(f"{_KIND_TEXT[kind]}: every file, tests included")
            from ..detect.scanner import CONTEXT_MIN_LENGTH

            if code in CONTEXT_MIN_LENGTH and kind == "python":
                parts.append("outside published values only generated-looking values are reported")
        elif kind == "python":
            parts.append("Python: values that reach a projection, in non-test code")
        else:
            parts.append(f"{_KIND_TEXT[kind]}: published documents only")
    return "; ".join(parts) if parts else "not run by any check"
