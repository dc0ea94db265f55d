"""Score ovadapt-lint and detect-secrets on the labelled credential set (issue 16).

    python3 benchmarks/credential_score.py [--set tests/data/credentials/labelled.jsonl] [--json OUT]
                                           [--tools ovadapt-lint,detect-secrets] [--misses]

Each record becomes three ordinary (non-public) files in a temporary folder: ``NNN.json`` (an object
holding the value under a key named after the record's context), ``NNN_bare.json`` (the bare JSON
value) and ``NNN.py`` (a Python assignment of the literal). Both tools scan the same folder
(``python3 -m ovadapt_lint --no-cache --select OVA4 --format json .`` and
``detect-secrets scan --all-files .``); a record counts as flagged when any of its forms has a
finding. Prints Markdown tables: recall per secret family, flag rate per decoy family, per form and
per context, and totals. Only ids and numbers are printed, never a value. Exits 0 unless a tool
fails to run (2).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SET = ROOT / "tests" / "data" / "credentials" / "labelled.jsonl"
FORMS = ("json", "bare", "py")
TOOLS = ("ovadapt-lint", "detect-secrets")
# The key a value sits under when its context is not "key": what a config or fixture would call it.
CONTEXT_KEYS = {
    "bare": "value",
    "header": "header",
    "curl": "command",
    "url": "url",
    "prose": "note",
}
FILE_RE = re.compile(r"^(\d+)(_bare)?\.(json|py)$")


class ToolError(RuntimeError):
    pass


def load_set(path: Path = DEFAULT_SET) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def key_for(record: dict) -> str:
    return (
        record["key"]
        if record["context"] == "key" and record.get("key")
        else CONTEXT_KEYS.get(record["context"], "value")
    )


def _identifier(key: str) -> str:
    ident = re.sub(r"\W", "_", key)
    return ident if ident and not ident[0].isdigit() and ident.isidentifier() else f"v_{ident}"


def materialise(records: list[dict], folder: Path) -> None:
    for n, rec in enumerate(records):
        key, value = key_for(rec), rec["value"]
        (folder / f"{n:04d}.json").write_text(
            json.dumps({key: value}, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        (folder / f"{n:04d}_bare.json").write_text(
            json.dumps(value, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        (folder / f"{n:04d}.py").write_text(f"{_identifier(key)} = {value!r}\n", encoding="utf-8")


def _form(name: str) -> tuple[int, str] | None:
    m = FILE_RE.match(Path(name).name)
    if not m:
        return None
    return int(m.group(1)), "bare" if m.group(2) else m.group(3)


def _run(cmd: list[str], folder: Path, ok_codes: set[int]) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in [str(ROOT / "src"), env.get("PYTHONPATH", "")] if p
    )
    try:
        proc = subprocess.run(
            cmd, cwd=folder, capture_output=True, text=True, env=env, timeout=1800
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolError(f"{cmd[0]} could not run: {type(exc).__name__}") from None
    if proc.returncode not in ok_codes:
        # stderr is not echoed: a tool's error output could quote a scanned line.
        raise ToolError(f"{' '.join(cmd[:4])} exited {proc.returncode}")
    return proc.stdout


def run_ovadapt(folder: Path) -> set[tuple[int, str]]:
    out = _run(
        [
            sys.executable,
            "-m",
            "ovadapt_lint",
            "--no-cache",
            "--select",
            "OVA4",
            "--format",
            "json",
            ".",
        ],
        folder,
        {0, 1},
    )
    try:
        findings = json.loads(out)["findings"]
    except (ValueError, KeyError, TypeError):
        raise ToolError("ovadapt-lint printed no findings document") from None
    return {f for f in (_form(x["path"]) for x in findings if x["code"].startswith("OVA4")) if f}


def run_detect_secrets(folder: Path) -> set[tuple[int, str]]:
    out = _run(["detect-secrets", "scan", "--all-files", "."], folder, {0})
    try:
        results = json.loads(out)["results"]
    except (ValueError, KeyError, TypeError):
        raise ToolError("detect-secrets printed no results document") from None
    return {f for f in (_form(name) for name, hits in results.items() if hits) if f}


RUNNERS = {"ovadapt-lint": run_ovadapt, "detect-secrets": run_detect_secrets}


def score(records: list[dict], hits: set[tuple[int, str]]) -> dict:
    """Per-family, per-form and per-context counts of flagged records, for secrets and decoys."""
    groups: dict = {"secret": defaultdict(lambda: [0, 0]), "decoy": defaultdict(lambda: [0, 0])}
    forms = {lab: {f: [0, 0] for f in FORMS} for lab in groups}
    contexts: dict = {lab: defaultdict(lambda: [0, 0]) for lab in groups}
    flagged_ids: dict = {"secret": [], "decoy": []}
    for n, rec in enumerate(records):
        lab = rec["label"]
        per_form = {f: (n, f) in hits for f in FORMS}
        any_form = any(per_form.values())
        for bucket in (groups[lab][rec["family"]], contexts[lab][rec["context"]]):
            bucket[0] += any_form
            bucket[1] += 1
        for f in FORMS:
            forms[lab][f][0] += per_form[f]
            forms[lab][f][1] += 1
        if any_form:
            flagged_ids[lab].append(rec["id"])

    def rates(table):
        return {
            k: {"flagged": v[0], "total": v[1], "rate": v[0] / v[1] if v[1] else 0.0}
            for k, v in sorted(table.items())
        }

    total = {
        lab: [sum(v[0] for v in groups[lab].values()), sum(v[1] for v in groups[lab].values())]
        for lab in groups
    }
    return {
        "recall": total["secret"][0] / max(total["secret"][1], 1),
        "decoy_rate": total["decoy"][0] / max(total["decoy"][1], 1),
        "secrets": rates(groups["secret"]),
        "decoys": rates(groups["decoy"]),
        "forms": {lab: rates(forms[lab]) for lab in groups},
        "contexts": {lab: rates(contexts[lab]) for lab in groups},
        "totals": {lab: {"flagged": a, "total": b} for lab, (a, b) in total.items()},
        "missed_secret_ids": [
            r["id"]
            for r in records
            if r["label"] == "secret" and r["id"] not in set(flagged_ids["secret"])
        ],
        "flagged_decoy_ids": flagged_ids["decoy"],
    }


def score_tools(records: list[dict], tools=TOOLS) -> dict:
    with tempfile.TemporaryDirectory(prefix="credset-") as tmp:
        folder = Path(tmp)
        materialise(records, folder)
        return {tool: score(records, RUNNERS[tool](folder)) for tool in tools}


def _pct(cell: dict) -> str:
    return f"{cell['flagged']}/{cell['total']} ({100 * cell['rate']:.1f}%)"


def markdown(results: dict) -> str:
    tools = list(results)
    first = results[tools[0]]
    lines = []

    def table(title, rows_key, sub=None):
        lines.append(f"\n### {title}\n")
        lines.append("| " + " | ".join(["group"] + tools) + " |")
        lines.append("|---|" + "---:|" * len(tools))
        rows = first[rows_key] if sub is None else first[rows_key][sub]
        for name in rows:
            cells = [
                (results[t][rows_key] if sub is None else results[t][rows_key][sub])[name]
                for t in tools
            ]
            lines.append("| " + " | ".join([name] + [_pct(c) for c in cells]) + " |")

    lines.append("| tool | recall (secrets flagged) | decoys flagged |")
    lines.append("|---|---:|---:|")
    for t in tools:
        tot = results[t]["totals"]
        lines.append(
            f"| {t} | {tot['secret']['flagged']}/{tot['secret']['total']} ({100 * results[t]['recall']:.1f}%) "
            f"| {tot['decoy']['flagged']}/{tot['decoy']['total']} ({100 * results[t]['decoy_rate']:.1f}%) |"
        )
    table("Recall per secret family", "secrets")
    table("Flag rate per decoy family", "decoys")
    table("Secrets flagged per form", "forms", "secret")
    table("Decoys flagged per form", "forms", "decoy")
    table("Secrets flagged per context", "contexts", "secret")
    table("Decoys flagged per context", "contexts", "decoy")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Score ovadapt-lint and detect-secrets on the labelled credential set."
    )
    ap.add_argument("--set", type=Path, default=DEFAULT_SET, help="labelled JSON Lines file")
    ap.add_argument(
        "--json", type=Path, metavar="OUT", help="also write the numbers (and record ids) as JSON"
    )
    ap.add_argument(
        "--tools", default=",".join(TOOLS), help="comma-separated: ovadapt-lint, detect-secrets"
    )
    ap.add_argument(
        "--misses", action="store_true", help="list the ids of missed secrets and flagged decoys"
    )
    args = ap.parse_args(argv)
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = [t for t in tools if t not in RUNNERS]
    if unknown or not tools:
        print(
            f"credential_score: unknown tool(s): {', '.join(unknown) or '(none)'}", file=sys.stderr
        )
        return 2
    try:
        records = load_set(args.set)
        results = score_tools(records, tools)
    except (OSError, ValueError, KeyError, ToolError) as exc:
        print(
            f"credential_score: {type(exc).__name__}: {exc if isinstance(exc, ToolError) else 'cannot read the set'}",
            file=sys.stderr,
        )
        return 2
    print(markdown(results))
    if args.misses:
        for t in tools:
            print(f"{t} missed secrets: {' '.join(results[t]['missed_secret_ids']) or '-'}")
            print(f"{t} flagged decoys: {' '.join(results[t]['flagged_decoy_ids']) or '-'}")
    if args.json:
        try:
            args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            print(f"credential_score: cannot write {args.json}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
