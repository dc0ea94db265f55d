"""Survey ovadapt-lint's findings on real projects and draw a sample to label by hand.

Each subfolder of --root is one project (e.g. an unpacked source distribution
of an agent framework). For each one the linter runs as a subprocess, as a
user would run it, and the script reports files, lines, findings, findings per
1,000 lines and wall time; findings by rule family and by code; and findings
per 1,000 lines of test code (where credentials and fake keys are expected).

It then draws a seeded random sample of findings, stratified by rule family,
into --out/sample.md (for a person to label) and --out/sample.jsonl (the same,
machine-readable). Every quoted source line and message is passed through the
linter's own masking first, so the sample never repeats a secret.

    python3 benchmarks/precision_survey.py [--root DIR] [--out DIR]
        [--extra-args "--scope all"] [--sample 150] [--seed 13]

Once the sample is labelled, in a file of lines `S001 real|noise short reason`:

    python3 benchmarks/precision_survey.py --out DIR --labels labels.txt

prints the precision (real / labelled) overall and per rule family.

Standard library only (plus the linter itself, for masking).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path

try:
    from ovadapt_lint.redact import mask, mask_text
except ImportError:  # pragma: no cover - the linter is a hard requirement of this survey
    sys.exit(
        "precision_survey: ovadapt_lint is not importable; install the project (pip install -e .) first"
    )

try:
    from ovadapt_lint.detect.credentials import scan_secrets
    from ovadapt_lint.pack import builtin_pack
except ImportError:  # internals may move: then mask_text alone does the masking
    scan_secrets = None

try:
    # The same folders the linter skips, so the line counts match what it read.
    from ovadapt_lint.discover import SKIP_DIRS
except ImportError:  # the linter's internals may move; keep a copy as a fallback
    SKIP_DIRS = frozenset(
        {
            ".git",
            ".hg",
            ".svn",
            ".bzr",
            "_darcs",
            ".venv",
            "venv",
            ".env",
            "env",
            "node_modules",
            "build",
            "dist",
            "__pycache__",
            ".mypy_cache",
            ".pytest_cache",
            ".ruff_cache",
            ".tox",
            ".nox",
            ".eggs",
            ".ovadapt_cache",
            "site-packages",
            ".ipynb_checkpoints",
            ".hypothesis",
        }
    )

# Built from the temp folder rather than written out, so this file has no
# machine path literal of its own for the linter to flag.
DEFAULT_ROOT = Path(tempfile.gettempdir()) / "realcorpus"
DEFAULT_OUT = Path(tempfile.gettempdir()) / "precision_out"

LINTED_SUFFIXES = (".py", ".json", ".jsonl")  # the linter's default --include globs
FAMILIES = {
    "OVA0": "notices",
    "OVA1": "contract",
    "OVA2": "raw-field",
    "OVA3": "raw-content",
    "OVA4": "credential",
    "OVA5": "local-path",
    "OVA6": "private-url",
    "OVA7": "deny-list",
}
CONTEXT = 3  # source lines shown either side of a sampled finding
MAX_LINE_CHARS = 240  # minified JSON can be one huge line; show a window around the column
MIN_PER_FAMILY = 10


def family_of(code: str) -> str:
    return f"{code[:4]}xx {FAMILIES.get(code[:4], 'other')}"


def is_notice(code: str) -> bool:
    return code.startswith("OVA0")


def is_test_path(rel: str) -> bool:
    """Test code: a tests/test folder component, or a pytest-style file name."""
    parts = rel.replace(os.sep, "/").split("/")
    name = parts[-1]
    return (
        any(p in ("tests", "test") for p in parts[:-1])
        or (name.startswith("test_") and name.endswith(".py"))
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def count_lines(project: Path) -> tuple[int, int, int]:
    """(files, lines, test lines) over the files the linter would read by default."""
    files = lines = test_lines = 0
    for folder, dirs, names in os.walk(project):
        # Prune in place so os.walk does not descend into skipped folders.
        dirs[:] = [
            d
            for d in dirs
            if d not in SKIP_DIRS
            and not d.endswith(".egg-info")
            and not os.path.isfile(os.path.join(folder, d, "pyvenv.cfg"))
        ]
        for name in names:
            if not name.lower().endswith(LINTED_SUFFIXES):
                continue
            full = os.path.join(folder, name)
            if os.path.islink(full):
                continue
            try:
                with open(full, "rb") as handle:
                    n = sum(1 for _ in handle)
            except OSError:
                continue
            files += 1
            lines += n
            if is_test_path(os.path.relpath(full, project)):
                test_lines += n
    return files, lines, test_lines


def run_linter(project: Path, extra: list[str], timeout: float) -> dict:
    """Run the linter on one project; return its report plus timing and errors."""
    # Run from inside the project on "." so reported paths are relative to it.
    cmd = [
        sys.executable,
        "-m",
        "ovadapt_lint",
        "--format",
        "json",
        "--no-cache",
        "--exit-zero",
        "--jobs",
        "2",
        *extra,
        ".",
    ]
    started = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=project, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {
            "error": f"timed out after {timeout:.0f}s",
            "seconds": time.perf_counter() - started,
            "cmd": cmd,
        }
    seconds = time.perf_counter() - started
    result: dict = {
        "seconds": seconds,
        "cmd": cmd,
        "returncode": proc.returncode,
        "stderr": proc.stderr[-2000:],
    }
    try:
        result["report"] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        result["error"] = f"exit {proc.returncode}, no JSON report: {proc.stderr.strip()[-500:]}"
    return result


def finding_fields(item: dict, project: Path) -> dict:
    """The fields used here, tolerant of either naming (start_line or line)."""
    path = item.get("path", "")
    if os.path.isabs(path):
        path = os.path.relpath(path, project)
    return {
        "code": item.get("code", "?"),
        "path": os.path.normpath(path).replace(os.sep, "/"),
        "line": int(item.get("start_line", item.get("line")) or 0),
        "column": int(item.get("start_column", item.get("column")) or 0),
        "message": item.get("message", ""),
    }


def linter_commit() -> str | None:
    """The linter's git commit (with "+dirty" for uncommitted edits), so a table
    can be tied to the source it measured; None outside a git checkout."""
    import ovadapt_lint

    where = Path(ovadapt_lint.__file__).parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=30,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode:
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def per_kloc(count: int, lines: int) -> float:
    return count / lines * 1000 if lines else 0.0


def allocate(available: dict[str, int], total: int) -> dict[str, int]:
    """Proportional allocation with a floor of min(MIN_PER_FAMILY, available) per family.

    The floor keeps small families (a few private-URL findings) from vanishing
    next to a family with thousands; the rest of the budget follows the
    families' share of the findings (largest remainder), capped at what exists.
    """
    alloc = {fam: min(MIN_PER_FAMILY, n) for fam, n in available.items() if n}
    budget = total - sum(alloc.values())
    while budget > 0:
        room = {fam: available[fam] - alloc[fam] for fam in alloc if available[fam] > alloc[fam]}
        if not room:
            break
        weight = sum(room.values())
        shares = {fam: budget * r / weight for fam, r in room.items()}
        step = {fam: min(room[fam], math.floor(s)) for fam, s in shares.items()}
        given = sum(step.values())
        if given < budget:
            # Hand out the leftover one by one to the largest remainders.
            for fam in sorted(
                room, key=lambda f: (shares[f] - math.floor(shares[f]), room[f]), reverse=True
            ):
                if given >= budget:
                    break
                if step[fam] < room[fam]:
                    step[fam] += 1
                    given += 1
        if given == 0:
            break
        for fam, n in step.items():
            alloc[fam] += n
        budget -= given
    return alloc


def _window(text: str, column: int) -> str:
    """At most MAX_LINE_CHARS of a line, centred on column when it is long."""
    if len(text) <= MAX_LINE_CHARS:
        return text
    start = max(0, min(len(text) - MAX_LINE_CHARS, column - 1 - MAX_LINE_CHARS // 2))
    head = "…" if start else ""
    tail = "…" if start + MAX_LINE_CHARS < len(text) else ""
    return f"{head}{text[start : start + MAX_LINE_CHARS]}{tail}"


# A PEM private key's body: the linter's detector span covers only the BEGIN
# line, and its long-token net misses base64 lines (``+`` and ``/`` split them),
# so the whole block, to its END line (or the end of the text), counts as secret.
PEM_BLOCK = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|\Z)",
    re.S,
)


def secret_spans(text: str) -> list[list[int]]:
    """Merged [start, end) spans of secrets in ``text``: the linter's detectors plus PEM blocks."""
    spans = [m.span() for m in PEM_BLOCK.finditer(text)]
    if scan_secrets is not None:
        spans += [
            (h.start, h.end)
            for h in scan_secrets(text, builtin_pack().secrets)
            if h.secret and h.end > h.start
        ]
    return merge_spans(spans)


def merge_spans(spans) -> list[list[int]]:
    """Sorted, overlapping [start, end) spans merged into disjoint ones."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def redact(text: str, outer: list[list[int]] | None = None) -> str:
    """``text`` with every secret masked, by the linter's own detectors and masking.

    Not ``ovadapt_lint.redact_text``: that rewrites whole JSON/Python documents
    and returns a fragment that does not parse (one source line) unchanged.
    Not ``mask_text`` alone either: where its long-token safety net matches
    inside a detector's span (a JWT whose 43-character signature is masked),
    it keeps the inner span and drops the outer one, so a short JWT's header
    and payload stay readable; and it leaves a PEM key's body lines as they
    are. So each secret span is masked whole here, and ``mask_text`` masks
    what lies between them. ``outer``: spans found in the whole file, already
    clipped to this line (a secret that spans lines is not seen in one line).
    """
    merged = merge_spans(secret_spans(text) + (outer or []))
    out, pos = [], 0
    for start, end in merged:
        out += [mask_text(text[pos:start]), mask(text[start:end])]
        pos = end
    out.append(mask_text(text[pos:]))
    return "".join(out)


@lru_cache(maxsize=8)
def _file_text(file: Path) -> tuple[list[str], list[int], list[list[int]]]:
    """A file's lines, each line's start offset, and its secret spans (scanned once per file)."""
    text = file.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines(keepends=True)
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line)
    return [line.rstrip("\r\n") for line in lines], starts, secret_spans(text)


def context_lines(file: Path, line: int, column: int) -> list[list]:
    """Lines line-CONTEXT..line+CONTEXT, masked before they are cut or written."""
    try:
        lines, starts, spans = _file_text(file)
    except OSError as exc:
        return [[0, f"<unreadable: {type(exc).__name__}>"]]
    out = []
    for n in range(max(1, line - CONTEXT), min(len(lines), line + CONTEXT) + 1):
        begin, text = starts[n - 1], lines[n - 1]
        # Secrets found in the whole file (multi-line ones), clipped to this line.
        clipped = [
            [max(s, begin) - begin, min(e, begin + len(text)) - begin]
            for s, e in spans
            if s < begin + len(text) and e > begin
        ]
        # Mask the whole line first: cutting first could split a secret so the
        # masking no longer recognises it, and the visible half would leak.
        masked = redact(text, clipped)
        out.append([n, _window(masked, column if n == line else 1)])
    return out


def fence_for(lines: list[str]) -> str:
    """A backtick fence longer than any backtick run in the quoted code."""
    longest = max((len(m) for s in lines for m in re.findall(r"`+", s)), default=0)
    return "`" * max(3, longest + 1)


def survey(args: argparse.Namespace) -> None:
    root, out = Path(args.root), Path(args.out)
    # Leading _ or . marks helper folders (e.g. the download cache), not projects.
    projects = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    if not projects:
        sys.exit(f"precision_survey: no project folders in {root}")
    out.mkdir(parents=True, exist_ok=True)
    extra = shlex.split(args.extra_args)

    rows, everything, errors, version = [], [], [], None
    commit = linter_commit()  # before the runs: the source may change while they go
    test_lines_total = 0
    test_counts = Counter()  # "cred+deny" / "other" / "notices" in test code
    nontest_counts = Counter()
    for project in projects:
        files_seen, lines, test_lines = count_lines(project)
        test_lines_total += test_lines
        print(f"… {project.name}: {files_seen} files, {lines:,} lines", file=sys.stderr, flush=True)
        res = run_linter(project, extra, args.timeout)
        report = res.get("report") or {}
        version = version or (report.get("tool") or {}).get("version")
        summary = report.get("summary") or {}
        found = [finding_fields(item, project) for item in report.get("findings", [])]
        for f in found:
            f["project"] = project.name
            bucket = (
                "notices"
                if is_notice(f["code"])
                else ("cred+deny" if f["code"][:4] in ("OVA4", "OVA7") else "other")
            )
            (test_counts if is_test_path(f["path"]) else nontest_counts)[bucket] += 1
        everything += found
        codes = Counter(f["code"] for f in found)
        notices = sum(n for c, n in codes.items() if is_notice(c))
        real = len(found) - notices
        if "error" in res:
            errors.append({"project": project.name, "error": res["error"]})
        rows.append(
            {
                "project": project.name,
                "files": summary.get("files", 0),
                "files_counted": files_seen,
                "lines": lines,
                "test_lines": test_lines,
                "findings": real,
                "notices": notices,
                "internal_errors": codes.get("OVA009", 0),
                "per_kloc": per_kloc(real, lines),
                "seconds": res["seconds"],
                "returncode": res.get("returncode"),
                "error": res.get("error"),
                "by_code": dict(sorted(codes.items())),
            }
        )

    total_lines = sum(r["lines"] for r in rows)
    by_code = Counter(f["code"] for f in everything)
    by_family = Counter(family_of(f["code"]) for f in everything)

    # ---- sample: notices are tool messages, not claims about the code, so they stay out
    population = sorted(
        (f for f in everything if not is_notice(f["code"])),
        key=lambda f: (f["project"], f["path"], f["line"], f["column"], f["code"]),
    )  # sorted first so the same seed draws the same sample whatever the report order
    groups = defaultdict(list)
    for f in population:
        groups[family_of(f["code"])].append(f)
    alloc = allocate({fam: len(items) for fam, items in groups.items()}, args.sample)
    rng = random.Random(args.seed)
    sample = []
    for fam in sorted(alloc):
        sample += rng.sample(groups[fam], alloc[fam])
    sample.sort(key=lambda f: (f["code"], f["project"], f["path"], f["line"]))
    records = []
    for i, f in enumerate(sample, 1):
        records.append(
            {
                "id": f"S{i:03d}",
                "project": f["project"],
                "path": f["path"],
                "line": f["line"],
                "column": f["column"],
                "code": f["code"],
                "family": family_of(f["code"]),
                "message": redact(f["message"]),
                "context": context_lines(root / f["project"] / f["path"], f["line"], f["column"]),
                "label": "",
                "why": "",
            }
        )

    # ---- write everything
    lines_out = render_tables(
        rows,
        by_family,
        by_code,
        total_lines,
        test_lines_total,
        test_counts,
        nontest_counts,
        alloc,
        errors,
        args,
        f"{version} ({commit})" if commit else version,
    )
    table = "\n".join(lines_out) + "\n"
    print(table)
    (out / "table.md").write_text(table, encoding="utf-8")
    (out / "summary.json").write_text(
        json.dumps(
            {
                "linter_version": version,
                "linter_commit": commit,
                # The interpreter's name, not its path: the summary should hold no machine path.
                "command": [
                    "python3",
                    "-m",
                    "ovadapt_lint",
                    "--format",
                    "json",
                    "--no-cache",
                    "--exit-zero",
                    "--jobs",
                    "2",
                    *extra,
                    "<project>",
                ],
                "root": root.name,
                "seed": args.seed,
                "projects": rows,
                "total_lines": total_lines,
                "test_lines": test_lines_total,
                "by_family": dict(sorted(by_family.items())),
                "by_code": dict(sorted(by_code.items())),
                "test_code": {
                    "lines": test_lines_total,
                    "counts": dict(test_counts),
                    "non_test_lines": total_lines - test_lines_total,
                    "non_test_counts": dict(nontest_counts),
                },
                "sample_allocation": alloc,
                "notices_excluded_from_sample": sum(1 for f in everything if is_notice(f["code"])),
                "errors": errors,
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    with open(out / "sample.jsonl", "w", encoding="utf-8") as handle:
        for rec in records:
            handle.write(json.dumps(rec, ensure_ascii=False) + "\n")
    (out / "sample.md").write_text(render_sample(records, args, version), encoding="utf-8")
    print(
        f"wrote {out / 'table.md'}, {out / 'summary.json'}, {out / 'sample.md'}, {out / 'sample.jsonl'}",
        file=sys.stderr,
    )
    if errors:
        # Partial numbers look like real ones in a table: make the failure visible to scripts too.
        sys.exit(f"precision_survey: the linter failed on {len(errors)} project(s); see the table")


def render_tables(
    rows,
    by_family,
    by_code,
    total_lines,
    test_lines,
    test_counts,
    nontest_counts,
    alloc,
    errors,
    args,
    version,
) -> list[str]:
    extra = f" `{args.extra_args}`" if args.extra_args else ""
    md = [
        f"# ovadapt-lint {version or '?'} on {len(rows)} projects{extra}",
        "",
        "Findings exclude OVA0xx tool notices (counted apart); lines are *.py, *.json, *.jsonl "
        "outside the folders the linter skips.",
        "",
        "| project | files | lines | findings | per 1k lines | notices | OVA009 | time (s) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        flag = " (error)" if r["error"] else ""
        md.append(
            f"| {r['project']}{flag} | {r['files']:,} | {r['lines']:,} | {r['findings']:,} | "
            f"{r['per_kloc']:.2f} | {r['notices']:,} | {r['internal_errors']:,} | {r['seconds']:.1f} |"
        )
    tot_f = sum(r["findings"] for r in rows)
    md.append(
        f"| **total** | {sum(r['files'] for r in rows):,} | {total_lines:,} | {tot_f:,} | "
        f"{per_kloc(tot_f, total_lines):.2f} | {sum(r['notices'] for r in rows):,} | "
        f"{sum(r['internal_errors'] for r in rows):,} | {sum(r['seconds'] for r in rows):.1f} |"
    )
    md += [
        "",
        "## By rule family (all projects)",
        "",
        "| family | findings | per 1k lines | sampled |",
        "| --- | ---: | ---: | ---: |",
    ]
    for fam in sorted(by_family):
        sampled = "-" if fam.startswith("OVA0") else str(alloc.get(fam, 0))
        md.append(
            f"| {fam} | {by_family[fam]:,} | {per_kloc(by_family[fam], total_lines):.3f} | {sampled} |"
        )
    md += [
        "",
        "## By code (all projects)",
        "",
        "| code | findings | per 1k lines |",
        "| --- | ---: | ---: |",
    ]
    for code, n in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0])):
        md.append(f"| {code} | {n:,} | {per_kloc(n, total_lines):.3f} |")
    non_test = total_lines - test_lines
    md += [
        "",
        "## Test code vs the rest",
        "",
        "Test code: a `tests`/`test` folder, or test_*.py, *_test.py, conftest.py.",
        "",
        "| where | lines | credential+deny-list (OVA4xx, OVA7xx) | per 1k | everything else | per 1k | notices |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, n_lines, counts in (
        ("test code", test_lines, test_counts),
        ("other code", non_test, nontest_counts),
    ):
        md.append(
            f"| {label} | {n_lines:,} | {counts['cred+deny']:,} | {per_kloc(counts['cred+deny'], n_lines):.3f} | "
            f"{counts['other']:,} | {per_kloc(counts['other'], n_lines):.3f} | {counts['notices']:,} |"
        )
    md += [
        "",
        f"Sample: {sum(alloc.values())} findings (seed {args.seed}, target {args.sample}); "
        f"{sum(by_code[c] for c in by_code if is_notice(c)):,} notices not sampled.",
    ]
    for e in errors:
        md.append(f"\n**error** {e['project']}: {e['error']}")
    return md


def render_sample(records, args, version) -> str:
    md = [
        f"# Precision sample: ovadapt-lint {version or '?'}",
        "",
        f"{len(records)} findings, seed {args.seed}, extra args `{args.extra_args or '(none)'}`. "
        "Source lines and messages are masked by the linter's redaction.",
        "",
        "Label each one `real` (the linter is right: this would leak, or breaks the contract, "
        "in a public fixture) or `noise`, with a short reason. Then write lines "
        "`S001 real|noise reason` to a file and run with `--labels FILE`.",
        "",
    ]
    for rec in records:
        code_lines = [
            f"{'>' if n == rec['line'] else ' '}{n:>5} | {text}" for n, text in rec["context"]
        ]
        fence = fence_for(code_lines)
        md += [
            f"## {rec['id']} {rec['code']} ({rec['family']})",
            "",
            f"- project: {rec['project']}",
            f"- path: {rec['path']}",
            f"- line: {rec['line']}, column {rec['column']}",
            f"- message: {rec['message']}",
            "",
            fence,
            *code_lines,
            fence,
            "",
            "label:",
            "why:",
            "",
        ]
    return "\n".join(md)


def precision(args: argparse.Namespace) -> None:
    """Merge a labels file with sample.jsonl and print precision overall and per family."""
    sample_file = Path(args.out) / "sample.jsonl"
    records = {}
    with open(sample_file, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rec = json.loads(line)
                records[rec["id"]] = rec
    labels, problems = {}, []
    for n, line in enumerate(Path(args.labels).read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"(S\d+)\s+(real|noise)\b\s*(.*)", line, re.IGNORECASE)
        if not m:
            problems.append(f"line {n}: not `S001 real|noise reason`: {line[:60]}")
            continue
        sid = m.group(1).upper()
        if sid not in records:
            problems.append(f"line {n}: {sid} is not in {sample_file}")
            continue
        labels[sid] = (m.group(2).lower(), m.group(3))
    tally = defaultdict(Counter)
    for sid, (label, why) in labels.items():
        records[sid]["label"], records[sid]["why"] = label, why
        for key in ("overall", records[sid]["family"]):
            tally[key][label] += 1
    md = [
        f"Labelled {len(labels)} of {len(records)} sampled findings.",
        "",
        "| family | labelled | real | noise | precision |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for key in [k for k in sorted(tally) if k != "overall"] + ["overall"]:
        c = tally[key]
        n = c["real"] + c["noise"]
        name = f"**{key}**" if key == "overall" else key
        md.append(
            f"| {name} | {n} | {c['real']} | {c['noise']} | {c['real'] / n:.0%} |"
            if n
            else f"| {name} | 0 | 0 | 0 | - |"
        )
    print("\n".join(md))
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    # Keep the merged labels beside the sample so later runs can compare.
    merged = Path(args.out) / "sample.labelled.jsonl"
    with open(merged, "w", encoding="utf-8") as handle:
        for rec in records.values():
            handle.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"wrote {merged}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]),
    )
    parser.add_argument(
        "--root", default=str(DEFAULT_ROOT), help="folder whose subfolders are the projects"
    )
    parser.add_argument(
        "--out", default=str(DEFAULT_OUT), help="where table.md, summary.json and the sample go"
    )
    parser.add_argument(
        "--extra-args", default="", help='more linter arguments, e.g. "--scope all"'
    )
    parser.add_argument("--sample", type=int, default=150, help="about how many findings to sample")
    parser.add_argument("--seed", type=int, default=13, help="random seed for the sample")
    parser.add_argument(
        "--timeout", type=float, default=1800, help="seconds before one project's run is abandoned"
    )
    parser.add_argument(
        "--labels", help="labels file (S001 real|noise reason): print precision and exit"
    )
    args = parser.parse_args()
    if args.labels:
        precision(args)
    else:
        survey(args)


if __name__ == "__main__":
    main()
