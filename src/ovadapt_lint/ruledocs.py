"""Rule documentation: docs/rules.md, `rules --format markdown` and `--explain`.

It says where each rule is judged, which the check catalog declares, so it sits above the checks
(the registry below them holds only the rule records).
"""

from __future__ import annotations

from . import rulepack
from .checks.catalog import CONTENT_CODES, SECRET_CODES, judged_where
from .registry import Rule, all_rules


def where_judged(rule: Rule) -> str:
    """Where ``rule`` is judged. No check names an extension rule's code: its credential formats and text
    signatures are matched with the built-in ones (detect/scanner.py), so it is judged where those are."""
    if rule.code not in all_rules() and (rule.secret or rule.signature):
        return judged_where(
            SECRET_CODES[0] if rule.secret and rule.policy.everywhere else CONTENT_CODES[0]
        )
    return judged_where(rule.code)


def rule_markdown(rule: Rule) -> str:
    """A rule's section of docs/rules.md and of `--explain CODE --format markdown`."""
    parts = [
        f"## {rule.code} `{rule.name}`",
        "",
        f"*Category:* {rule.category} · *Default severity:* {rule.severity} · *Precision:* {rule.precision}",
        "",
        f"*Judged in:* {where_judged(rule)} (`--scope all`: every file)",
        "",
        rule.summary,
        "",
        "### What it does",
        "",
        rule.what,
        "",
        "### Why it matters",
        "",
        rule.why,
        "",
        "### Example",
        "",
        _fence(rule.example_lang),
        rule.example,
        "```",
    ]
    if rule.ok:
        parts += ["", "Not reported:", "", _fence(rule.ok_lang), rule.ok, "```"]
    if rule.signature_labels():
        parts += ["", "### Signatures", "", *(f"- {label}" for label in rule.signature_labels())]
    parts += [
        "",
        "### How to fix",
        "",
        rule.fix,
        "",
        f"*Automatic fix:* {fix_applicability_text(rule)}",
        "",
    ]
    return "\n".join(parts)


def rule_text(rule: Rule) -> str:
    """A rule as `--explain CODE` prints it."""
    lines = [
        f"{rule.code} ({rule.name}) [{rule.category}, {rule.severity}]",
        "",
        rule.summary,
        "",
        f"Judged in: {where_judged(rule)} (--scope all: every file)",
        "",
        "What it does:",
        f"  {rule.what}",
        "",
        "Why it matters:",
        f"  {rule.why}",
        "",
        "Example:",
        *("  " + line for line in rule.example.splitlines()),
    ]
    if rule.ok:
        lines += ["", "Not reported:", *("  " + line for line in rule.ok.splitlines())]
    if rule.signature_labels():
        lines += ["", "Signatures:", *(f"  - {label}" for label in rule.signature_labels())]
    lines += [
        "",
        "How to fix:",
        f"  {rule.fix}",
        "",
        f"Automatic fix: {fix_applicability_text(rule)}",
    ]
    return "\n".join(lines)


# Ruff's wording: a safe fix keeps what the code means and --fix applies it; an unsafe one may change
# what the code does and waits for --unsafe-fixes.
_APPLICABILITY = {
    "safe": "safe: `--fix` applies it (where the finding has one), `--diff` shows it.",
    "unsafe": "unsafe (it changes what the code does): `--fix --unsafe-fixes` applies it, "
    "`--diff --unsafe-fixes` shows it; `--fix` alone leaves it.",
    "none": "none: the finding is fixed by hand.",
}


def fixes_markdown() -> list[str]:
    """How the unsafe Python fixes work, from their data (rules/fixes.toml)."""
    data = rulepack.load_toml("fixes.toml")
    pairs = [
        f"`{raw}` → `{new}`: `{entry['template'].replace('{value}', '…')}`"
        for entry in data.get("counterpart", [])
        for raw, new in entry["keys"].items()
    ]
    return [
        "## Automatic fixes",
        "",
        "Each rule says below whether its findings have an automatic fix (Ruff's convention): *safe* fixes "
        "are applied by `--fix`; *unsafe* ones change what the code does and are applied by `--fix "
        "--unsafe-fixes` (shown by `--diff --unsafe-fixes`). Safe fixes rewrite a literal: the leaking part "
        'becomes its placeholder (`[redacted:credential]`, …), a must-be-false flag written as `"false"` '
        "becomes `false`. The unsafe fixes of the Python flow rules change the code at the sink with libcst, "
        "keeping every other byte: a value under a raw-named key becomes its compact counterpart where one is "
        "named ("
        + "; ".join(pairs)
        + "), else the entry is removed with its comma and the comment on its "
        "line; a credential in a dict entry or an item store is removed; any other value is wrapped in the "
        "sanitiser, the first configured `sanitizers` entry that names its module, else "
        f"`{data['sanitizer']['default']}` (its import is added unless the module has it).",
        "",
    ]


def fix_applicability_text(rule: Rule) -> str:
    """The rule's fix applicability as the docs and --explain say it."""
    return _APPLICABILITY[rule.applicability]


def _fence(language: str) -> str:
    return "```" if language == "text" else f"```{language}"


def docs_markdown(rules: dict[str, Rule] | None = None) -> str:
    """The content of docs/rules.md (the built-in rules unless ``rules`` is given)."""
    rules = rules if rules is not None else all_rules()
    lines = [
        "# ovadapt-lint rules",
        "",
        "<!-- Generated by `ovadapt-lint rules --format markdown`; do not edit by hand. -->",
        "",
        "## What is judged where",
        "",
        "Every file has a role: `public` (`*.public.json`, `*.public.jsonl`, `public-paths`, and any JSON "
        "document that holds a projection: an object a contract recognises, or one with a boolean "
        "`*_copied`/`*_recorded`/`*_captured`/`*_included`/`*_exported` key or a `public_boundary`/`public_safe*` "
        "key), `test` (`tests/`, `test_*.py`, `*_test.py`, `conftest.py`, `test-paths`) or `source`. "
        "Credentials and internal names are judged everywhere; contract rules wherever a contract recognises an "
        "object; raw fields, raw content, local paths and private URLs only in published values: public JSON "
        "and Markdown, and the Python values that reach a projection (with the constants that feed them). "
        "Each rule below says where it is judged; `--scope all` judges every rule everywhere. The README's "
        "section of the same name describes how Python projections are recognised.",
        "",
        "| code | name | category | severity | summary |",
        "|---|---|---|---|---|",
    ]
    for rule in rules.values():
        lines.append(
            f"| [{rule.code}](#{rule.code.lower()}-{rule.name}) | `{rule.name}` | {rule.category} | {rule.severity} | {rule.summary} |"
        )
    lines.append("")
    lines += flow_models_markdown()
    lines += fixes_markdown()
    for rule in rules.values():
        lines.append(rule_markdown(rule))
    return "\n".join(lines).rstrip() + "\n"


def _names(values) -> str:
    return ", ".join(f"`{v}`" for v in sorted(values)) or "(none)"


def flow_models_markdown() -> list[str]:
    """The Python flow analysis' model (rules/flow/models.toml) as documentation: written from the data."""
    from . import rulepack

    data = rulepack.load_toml("flow", "models.toml")
    sources, kill, carry, sinks = (
        data["sources"],
        data["sanitizers"],
        data["propagators"],
        data["sinks"],
    )
    raises = data["exceptions"]
    by_kind: dict[str, list[str]] = {}
    for table in ("calls", "methods", "names", "fields"):
        for name, kind in sources[table].items():
            shown = (
                f".{name}()" if table == "methods" else f'["{name}"]' if table == "fields" else name
            )
            by_kind.setdefault(kind, []).append(shown)
    lines = [
        "## Python flows (OVA208, OVA410, OVA504, OVA605)",
        "",
        "A Python finding is a flow from a raw **source** to a published **sink** through no **sanitiser**; a key "
        "name alone never makes one. Each module is read once into facts (per function: what its result carries, "
        "the calls it makes, what reaches its sinks); after the run the facts of all modules are joined over their "
        "imports (`from .x import f`, aliases, re-exports), so a value is followed through helpers, containers "
        "(`append`, `extend`, `update`, `setdefault`, item stores, comprehensions, `dict(...)`, `**` spreads, "
        "dataclass and pydantic fields) and returns in other modules. Each finding sits where the value is put "
        "under its published key and carries its trace (text output, SARIF `codeFlows`). The models are data in "
        "`rules/flow/models.toml`; this section is generated from it, and every entry below has an example "
        "generated from the data and run as a test (`tests/test_flow_models.py`).",
        "",
        '**Sources** (by kind; `["x"]` is a key or attribute read from a record, also through `.get`):',
        "",
    ]
    for kind, row in data["kinds"].items():
        lines.append(
            f"- `{kind}` ({row['code']}, {row['text']}): {_names(by_kind.get(kind, []))}"
            + ("; `except E as e`" if kind == sources["except_binding"] else "")
            + (
                "; `open()` / `.open()` of a file that is not public"
                if kind == "file-content"
                else ""
            )
        )
    lines += [
        f"- `credential` also: environment variables named {_names(sources['env_credential'])}, and a command "
        f"line (a list or f-string) holding a flag {_names(sources['credential_flags'])} followed by a value; "
        f"`local-path` also: environment variables {_names(sources['env_path'])}, and a folder parameter joined "
        f"onto (`out_dir / name`, `os.path.join(root, ...)`), and the text (`str()`, `os.fspath()`, f-strings, "
        f"`.as_posix()`) of a parameter annotated `Path` or of `Path(<not a literal>)`; `record`: `{{k: v for k, v in record.items()}}` "
        f"of a record handed in (an allow-list of literal keys, `if k in ALLOWED`, a comprehension or loop over "
        f"`ALLOWED` reading `record.get(k)`, copies only those fields, each with its own kind; a deny-list, "
        f"`if k not in SECRET`, copies every other field).",
        "- A helper that reads a record with keys it is given (`def first_text(row, *keys)` reading "
        "`row.get(key)` / `row[key]` / `getattr(obj, key)`, also through another such helper) reads, at a call with "
        'literal keys (`first_text(item, "summary", "note")`, `*KEYS` of a module constant), each named field: '
        "the result carries the source kind of every key above.",
        "",
        f"**Sanitisers** stop a flow: calls {_names(kill['calls'])}; any call into {_names(kill['modules'])}; "
        f"methods {_names(kill['methods'])}; attributes {_names(kill['attributes'])}; comparisons, `not`, "
        f'membership tests and enum mapping (`x if x in ALLOWED else "other"`, `MAPPING[x]`); reading an id, '
        f"count, digest or flag field (`issue_id`, `stdout_sha256`); a regex substitution whose replacement "
        f"matches `{kill['placeholders']}`; a function of the linted code whose every return carries nothing "
        f"(its summary), or that checks its argument against a pattern and refuses it (`if PATTERN.search(x): "
        f"raise` / `return None`); and the configured `sanitizers`. Truncation, slicing, `textwrap.shorten` and "
        f"whitespace collapse only propagate.",
        "",
        "Sanitisers stop the kinds they handle (Pysa's per-kind sanitisers): hashing, counting, comparing and the "
        "calls above stop every kind; a function that refuses what a pattern finds, or a substitution with a "
        "placeholder, stops the kinds its pattern looks for, read from the text of the pattern, of the constants "
        "it is built from, of the predicates it calls and of its name: "
        + "; ".join(
            f"marks `{row['marks']}` (e.g. `{row['example']}`) stop "
            + ("every kind" if set(row["kinds"]) >= set(data["kinds"]) else _names(row["kinds"]))
            for row in kill["pattern_kinds"]
        )
        + ". A pattern with none of these marks stops every kind, and so does a test that refuses what does "
        "*not* match (`if not TOKEN.fullmatch(x): raise`, an allow-list). "
        + "; ".join(
            f"Stopping all of {_names(row['all_of'])} (one sanitiser or several in turn) stops "
            f"{_names(row['kinds'])} too"
            for row in kill["pattern_combined"]
        )
        + ". So a credential-only refusal (`if TOKEN.search(text): return None`) lets exception text, free "
        "text and paths through: they are still reported. A function's summary says which kinds it stops, and "
        "a caller's value through it keeps the others. A configured sanitiser may name its kinds: `sanitizers "
        '= ["pkg.text.mask_tokens:credential", "pkg.text.scrub"]` (the first stops credentials only, the '
        "second every kind).",
        "",
        f"**Propagators** carry their arguments' material: calls {_names(carry['calls'])}; methods "
        f"{_names(carry['methods'])}; container updates {_names(carry['container_methods'])}. By position: the elements of "
        f"{_names(carry['counted'])} pair a count (no material) with an element of the argument, and those of "
        f"{_names(carry['zipped'])} an element of each argument, so `for i, x in enumerate(xs)` gives a clean `i`. "
        f"Any other library "
        f"call's result carries nothing (the quiet default); calls into the linted code follow the callee's "
        f"summary, also through a variable that holds a function of the linted code: named directly "
        f"(`render = render_full if full else render_brief`) or returned by a selector of the same module "
        f"(`render = pick(layout)`, whose every return names a function), called as each of them.",
        "",
        "**Exception text** (`except E as e`) is what the try body can raise as an `E`: a `raise` in the linted "
        'code carries its message (a constant message carries nothing; `f"... {path}"` carries the path); a '
        "call of the linted code carries what its body raises (its own handlers that catch everything without "
        "raising again keep it); a missing computed key raises a `KeyError` that carries the key. Library calls "
        f"whose exceptions carry no material: {_names(raises['quiet_calls'])}, and methods "
        f"{_names(raises['quiet_methods'])}; calls whose exceptions of some classes carry material (a path, a "
        f"command line): {_names([f'{k} ({chr(47).join(v)})' for k, v in raises['carriers'].items()])}. Any other "
        "call may raise anything, so `e` is exception text whatever its class.",
        "",
        "**Sinks** (where a value is published):",
        "",
        '- the fields of a recognised projection (see "What is judged where"), a store into one, an instance of '
        "a projection type (also imported from another module), and stores into a projection another function "
        "returned;",
        "- a dict whose literal keys are those of an object of a committed public JSON fixture of the linted set "
        "(three or more shared keys, most of the dict's, two of them not generic): it builds that fixture;",
        f"- the argument of {_names(sinks['dumps'])} into a public file, or of {_names(sinks['write_methods'])} "
        f"(also the text of {_names(sinks['serialisers'])}) on "
        f"one: a path whose name ends in {_names(sinks['public_suffixes'])} or that runs through a "
        f"{_names(sinks['public_folders'])} folder, wherever the value was built;",
        '- the arguments of the configured `public-sinks = ["pkg.module:function", "pkg.module:Class.method"]` '
        "(a chat-board upsert, a comment poster) and of `public-validators`; what a `public-sinks` entry written "
        'with `()` returns (`"pkg.module:build_payload()"`: a payload a command-line tool outside the linted '
        "files prints);",
        f'- with `published = "outputs"` (config, or `--published outputs`): every machine-readable output too: '
        f"what reaches standard output (the arguments of {_names(sinks['outputs'])}, `json.dump(x, sys.stdout)`; "
        f"not a `json.dumps` that feeds a hash, a socket or a private file), and what a CLI command handler returns (a function given "
        f"to `set_defaults({'/'.join(sinks['handler_keywords'])}=...)` or decorated as "
        f"{_names(sinks['handler_decorators'])}).",
        "",
        "To extend the model for a repository: list its redactors in `sanitizers` (with the kinds they stop when "
        "not all), its publishers in "
        '`public-sinks`, and set `published = "outputs"` when everything it prints as JSON is promised to be '
        "public-safe.",
        "",
    ]
    return lines
