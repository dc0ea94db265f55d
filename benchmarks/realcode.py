"""Measure ovadapt-lint on real code nobody here wrote: findings, CPU cost and a sample to label.

The evidence harness of issue 25 ("Done when"). For each input tree it reports
lines of Python and JSON; findings per code and per 1,000 lines in the default
setting and, when the linter's --help offers `--published`, with
`--published outputs`; the CPU seconds (user+sys of the child, median of
--repeat runs) of

    ovadapt-lint --no-cache --jobs 1 --exit-zero --format json --output /dev/null TREE
    detect-secrets scan --all-files FILE...      (the files the linter reads, named one by one)
    the parse floor: one process that reads every .py module of those files and ast.parse-s it

the ratios ovadapt/detect-secrets and ovadapt/floor, and the warm run (cache
filled by a first run, then --repeat runs with the same cache) and its ratio to
the cold run, beside the CPU of starting the interpreter alone (`python -c pass`,
with the linter's environment: site hooks of the machine included, which every
run pays). It then draws a seeded sample of findings, stratified so that
every code with findings appears, into Markdown for a person to label.

Inputs (defaults): ../shared/realworld/loopx/loopx/control_plane and
../shared/realworld/loopx/examples beside this checkout, and every folder
under ../realcorpus/src (agent and LLM source distributions, fetched once with
the `fetch` command; no network is used after that). Give trees explicitly with
--tree PATH (repeatable), or the distributions' folder with --corpus DIR.

    # once, with network: pip download --no-deps --no-binary :all: NAME, unpacked into CORPUS/src/NAME-VERSION
    python3 benchmarks/realcode.py fetch --corpus DIR langchain-core openai-agents ...
    # the measurement, against any checkout of the linter (PYTHONPATH=SRC for every linter run)
    python3 benchmarks/realcode.py measure --linter-src /path/to/checkout/src --out OUT [--repeat 3]
        [--sample 60] [--seed 25] [--tree PATH ...] [--corpus DIR] [--no-timing]
    # a sample from any JSON report (paths in it relative to TREE, or absolute)
    python3 benchmarks/realcode.py sample --report R.json --tree TREE [--report R2.json --tree TREE2]
        [--n 60] [--seed 25] --out sample.md

`measure` writes OUT/reports/<tree>.<setting>.json (the linter's JSON reports,
run from inside the tree on "." so paths are relative), OUT/summary.md (the
tables), OUT/summary.json (every number), OUT/sample-<setting>-loopx.md and
OUT/sample-<setting>-frameworks.md. Sampled lines are masked with the linter's
own masking when it is importable, so a sample never repeats a secret.

Standard library only; detect-secrets is optional (its columns stay empty
without it). Not used by the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOOPX = ROOT.parent / "shared" / "realworld" / "loopx"
DEFAULT_CORPUS = ROOT.parent / "realcorpus"
DEFAULT_TREES = [LOOPX / "loopx" / "control_plane", LOOPX / "examples"]

PY_SUFFIXES = (".py",)
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
LINTED_SUFFIXES = PY_SUFFIXES + JSON_SUFFIXES + (".ipynb",)  # the linter's default --include globs
# The folders the linter skips in a walk (discover.SKIP_DIRS on main), so counts match what it reads.
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
CONTEXT_BEFORE, CONTEXT_AFTER = 6, 5  # 12 lines: 6 before the finding, its line, 5 after
MAX_LINE_CHARS = 200
RUN_TIMEOUT = 3600

# The floor: read every listed module and parse it, nothing else (interpreter start included,
# as it is in the linter's run).
FLOOR = """
import ast, sys
for name in open(sys.argv[1], encoding="utf-8").read().splitlines():
    try:
        with open(name, "rb") as handle:
            ast.parse(handle.read())
    except (SyntaxError, ValueError, OSError):
        pass
"""


# ---------------------------------------------------------------- inputs


def linted_files(tree: Path) -> list[Path]:
    """The files a default folder walk of the linter reads, sorted."""
    out = []
    for folder, dirs, names in os.walk(tree):
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIP_DIRS
            and not d.endswith(".egg-info")
            and not os.path.isfile(os.path.join(folder, d, "pyvenv.cfg"))
        )
        for name in names:
            full = Path(folder) / name
            if name.lower().endswith(LINTED_SUFFIXES) and not full.is_symlink():
                out.append(full)
    return sorted(out)


def count_lines(files: list[Path]) -> dict:
    counts = Counter()
    for file in files:
        kind = (
            "py"
            if file.suffix.lower() in PY_SUFFIXES
            else ("json" if file.suffix.lower() in JSON_SUFFIXES else "other")
        )
        try:
            with open(file, "rb") as handle:
                counts[f"{kind}_lines"] += sum(1 for _ in handle)
        except OSError:
            continue
        counts[f"{kind}_files"] += 1
    return {
        k: counts.get(k, 0)
        for k in ("py_files", "py_lines", "json_files", "json_lines", "other_files", "other_lines")
    }


def fetch(args: argparse.Namespace) -> None:
    """pip download each sdist once into CORPUS/sdists and unpack it into CORPUS/src."""
    sdists, src = Path(args.corpus) / "sdists", Path(args.corpus) / "src"
    sdists.mkdir(parents=True, exist_ok=True)
    src.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                name,
                "-d",
                str(sdists),
            ],
            capture_output=True,
            text=True,
        )
        # pip names the archive it saved, or the one it already had from an earlier fetch.
        got = re.findall(r"^\s*(?:Saved|File was already downloaded) (.+?)\s*$", proc.stdout, re.M)
        if proc.returncode or not got:
            last = (proc.stderr.strip().splitlines() or ["no archive named in pip's output"])[-1]
            print(f"fetch: {name}: failed ({last[:200]})", file=sys.stderr)
            continue
        for archive in map(Path, got):
            unpack(archive, src)
            print(f"fetch: {name}: {archive.name}", file=sys.stderr)


def unpack(archive: Path, dest: Path) -> None:
    if archive.name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar")):
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data") if hasattr(
                tarfile, "data_filter"
            ) else tar.extractall(dest)
    elif archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)


def default_trees(corpus: Path) -> list[Path]:
    trees = [t for t in DEFAULT_TREES if t.is_dir()]
    src = corpus / "src"
    if src.is_dir():
        trees += sorted(
            p for p in src.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
        )
    return trees


def tree_name(tree: Path) -> str:
    return f"loopx-{tree.name}" if LOOPX in tree.parents else tree.name


# ---------------------------------------------------------------- running


def linter_env(linter_src: str | None) -> dict:
    env = dict(os.environ)
    # An installed linter runs from its bytecode cache; without one, every run would compile the linter's
    # modules again (about 0.3 s, a cost no user pays). The cache goes to a folder of its own, never into
    # the checkout.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "ovadapt-realcode-pycache")
    if linter_src:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(Path(linter_src).resolve()), env.get("PYTHONPATH")) if p
        )
    return env


def lint_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "ovadapt_lint", *args]


def cpu_run(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, int]:
    """(user+sys CPU seconds of the child and the processes it waited for, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=RUN_TIMEOUT,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1) and proc.stderr:
        print(
            f"  ! {Path(cmd[0]).name} {' '.join(cmd[1:3])} exit {proc.returncode}: "
            f"{proc.stderr.decode(errors='replace').strip()[-300:]}",
            file=sys.stderr,
        )
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.returncode


def linter_commit(linter_src: str | None, env: dict) -> str:
    """The git commit of the linter that runs (+dirty for uncommitted edits), or its version."""
    where = Path(linter_src) if linter_src else None
    if where is None:
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import ovadapt_lint, os; print(os.path.dirname(ovadapt_lint.__file__))",
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        where = Path(probe.stdout.strip() or ".")
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=where, capture_output=True, text=True
    )
    if head.returncode:
        return "unknown"
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=where,
        capture_output=True,
        text=True,
    )
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def settings_supported(env: dict) -> dict[str, list[str]]:
    """default always; outputs when the linter's --help offers --published."""
    help_text = subprocess.run(lint_cmd("--help"), env=env, capture_output=True, text=True).stdout
    settings = {"default": []}
    if "--published" in help_text:
        settings["outputs"] = ["--published", "outputs"]
    else:
        print(
            "measure: this linter has no --published option; the `outputs` setting is skipped",
            file=sys.stderr,
        )
    return settings


def report_run(tree: Path, extra: list[str], out_file: Path, env: dict) -> dict:
    """The JSON report of one default-cache-free run, from inside the tree on "."."""
    out_file.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        lint_cmd(
            "--no-cache",
            "--jobs",
            "1",
            "--exit-zero",
            "--format",
            "json",
            "--output",
            str(out_file),
            *extra,
            ".",
        ),
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    try:
        return json.loads(out_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        print(
            f"  ! no JSON report for {tree.name} ({' '.join(extra) or 'default'}): exit {proc.returncode} "
            f"{proc.stderr.strip()[-300:]}",
            file=sys.stderr,
        )
        return {"findings": [], "error": f"exit {proc.returncode}"}


def is_notice(code: str) -> bool:
    return code.startswith("OVA0")


def timings(tree: Path, files: list[Path], env: dict, repeat: int, work: Path) -> dict:
    """Median CPU seconds of the linter cold, detect-secrets, the floor, and the linter warm."""
    file_list = work / "files.txt"
    py_list = work / "py.txt"
    file_list.write_text("\n".join(str(f) for f in files) + "\n", encoding="utf-8")
    py_list.write_text(
        "\n".join(str(f) for f in files if f.suffix == ".py") + "\n", encoding="utf-8"
    )
    common = ["--jobs", "1", "--exit-zero", "--format", "json", "--output", os.devnull]
    cases = {
        "ovadapt": (lint_cmd("--no-cache", *common, str(tree)), env),
        "floor": ([sys.executable, "-c", FLOOR, str(py_list)], None),
        # What starting the interpreter alone costs here (site hooks included): context for the warm
        # run, most of which can be start-up on a machine whose site-packages run code at start.
        "interpreter": ([sys.executable, "-c", "pass"], env),
    }
    ds = shutil.which("detect-secrets")
    if ds and files:
        cases["detect_secrets"] = ([ds, "scan", "--all-files", *map(str, files)], None)
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, (
            cmd,
            run_env,
        ) in cases.items():  # alternating, so drift in machine load hits all alike
            samples[name].append(cpu_run(cmd, tree, run_env)[0])
    cache = work / "cache"
    warm_cmd = lint_cmd("--cache-dir", str(cache), *common, str(tree))
    fill = cpu_run(warm_cmd, tree, env)[0]  # the first run with the cache fills it
    warm = [cpu_run(warm_cmd, tree, env)[0] for _ in range(repeat)]
    result = {name: statistics.median(s) for name, s in samples.items()}
    result["warm"] = statistics.median(warm)
    result["cache_fill"] = fill
    result["runs"] = {**samples, "warm": warm}
    return result


# ---------------------------------------------------------------- sampling


def _masker(linter_src: str | None):
    """The linter's mask_text when importable (from linter_src first), else a fallback for long tokens."""
    if linter_src:
        sys.path.insert(0, str(Path(linter_src).resolve()))
    try:
        from ovadapt_lint.redact import mask_text

        return mask_text
    except Exception:  # the linter's internals may move; then a plain net for key-like tokens
        token = re.compile(r"[A-Za-z0-9_\-+/=.]{24,}")
        return lambda text: token.sub(lambda m: m.group(0)[:4] + "…(masked)", text)


def _finding(item: dict) -> dict:
    return {
        "code": item.get("code", "?"),
        "message": item.get("message", ""),
        "path": item.get("path", ""),
        "line": int(item.get("start_line", item.get("line")) or 0),
    }


def draw(population: list[dict], n: int, seed: int) -> list[dict]:
    """n findings at random (seeded), stratified by code: one of every code first, then the rest
    in proportion to each code's share (largest remainder), capped at what each code has."""
    population = sorted(
        population, key=lambda f: (f["tree"], f["path"], f["line"], f["code"], f["message"])
    )
    by_code: dict[str, list[dict]] = {}
    for f in population:
        by_code.setdefault(f["code"], []).append(f)
    alloc = {code: 1 for code in by_code}
    budget = n - len(alloc)
    while budget > 0:
        room = {c: len(items) - alloc[c] for c, items in by_code.items() if len(items) > alloc[c]}
        if not room:
            break
        weight = sum(room.values())
        shares = {c: budget * r / weight for c, r in room.items()}
        step = {c: min(room[c], int(s)) for c, s in shares.items()}
        given = sum(step.values())
        for c in sorted(room, key=lambda c: (shares[c] - int(shares[c]), room[c], c), reverse=True):
            if given >= budget:
                break
            if step[c] < room[c]:
                step[c] += 1
                given += 1
        for c, k in step.items():
            alloc[c] += k
        budget -= given
    rng = random.Random(seed)
    picked = []
    for code in sorted(alloc):
        picked += rng.sample(by_code[code], alloc[code])
    return sorted(picked, key=lambda f: (f["code"], f["tree"], f["path"], f["line"]))


def context(file: Path, line: int, mask) -> list[str]:
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        return [f"<unreadable: {type(exc).__name__}>"]
    out = []
    for n in range(max(1, line - CONTEXT_BEFORE), min(len(lines), line + CONTEXT_AFTER) + 1):
        text = mask(lines[n - 1])  # masked whole before it is cut, so no half-secret shows
        if len(text) > MAX_LINE_CHARS:
            text = text[:MAX_LINE_CHARS] + "…"
        out.append(f"{'>' if n == line else ' '}{n:6d}  {text}")
    return out


def write_sample(
    pairs: list[tuple[Path, Path, str]], n: int, seed: int, out: Path, mask, title: str
) -> int:
    """pairs: (report, tree, tree name). Notices (OVA0xx) are tool messages, not claims, and stay out."""
    population = []
    for report, tree, name in pairs:
        try:
            doc = json.loads(report.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"sample: cannot read {report.name}: {type(exc).__name__}", file=sys.stderr)
            continue
        for item in doc.get("findings", []):
            f = _finding(item)
            if is_notice(f["code"]):
                continue
            full = Path(f["path"]) if os.path.isabs(f["path"]) else tree / f["path"]
            f["path"] = os.path.relpath(full, tree).replace(os.sep, "/")
            f["tree"], f["root"] = name, tree
            population.append(f)
    sample = draw(population, n, seed)
    codes = Counter(f["code"] for f in population)
    lines = [
        f"# {title}",
        "",
        f"{len(sample)} of {len(population)} findings, seed {seed}, stratified by code "
        f"(every code with findings appears). Codes in the population: "
        + ", ".join(f"{c} {k}" for c, k in sorted(codes.items()))
        + ".",
        "",
        "Label each: `real` (a value that should not be published reaches a published place) "
        "or `not real`, with a short reason.",
        "",
    ]
    for i, f in enumerate(sample, 1):
        body = context(f["root"] / f["path"], f["line"], mask)
        fence = "`" * max(
            3, 1 + max((len(m) for s in body for m in re.findall(r"`+", s)), default=0)
        )
        lines += [
            f"## S{i:03d} {f['code']} — {f['tree']}/{f['path']}:{f['line']}",
            "",
            f"message: {mask(f['message'])}",
            "",
            fence,
            *body,
            fence,
            "",
            "label: real / not real — reason: ",
            "",
        ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines), encoding="utf-8")
    return len(sample)


def sample_cmd(args: argparse.Namespace) -> None:
    if len(args.report) != len(args.tree):
        sys.exit("realcode: give one --tree per --report")
    pairs = [
        (Path(r), Path(t).resolve(), Path(t).resolve().name) for r, t in zip(args.report, args.tree)
    ]
    got = write_sample(
        pairs, args.n, args.seed, Path(args.out), _masker(args.linter_src), "Findings to label"
    )
    print(f"sample: {got} findings written to {args.out}")


# ---------------------------------------------------------------- measuring


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def fmt(x, digits: int = 2) -> str:
    if x is None:
        return "–"
    return f"{x:,}" if isinstance(x, int) else f"{x:.{digits}f}"


def measure(args: argparse.Namespace) -> None:
    env = linter_env(args.linter_src)
    trees = (
        [Path(t).resolve() for t in args.tree] if args.tree else default_trees(Path(args.corpus))
    )
    trees = [t for t in trees if t.is_dir()]
    if not trees:
        sys.exit("realcode: no input trees (see --tree, --corpus and the fetch command)")
    out = Path(args.out)
    (out / "reports").mkdir(parents=True, exist_ok=True)
    commit = args.label or linter_commit(args.linter_src, env)
    settings = settings_supported(env)
    rows = []
    with tempfile.TemporaryDirectory(prefix="realcode-") as tmp:
        for tree in trees:
            name = tree_name(tree)
            files = linted_files(tree)
            row = {"tree": name, **count_lines(files)}
            row["lines"] = row["py_lines"] + row["json_lines"]
            print(
                f"… {name}: {len(files)} files, {row['py_lines']:,} Python + {row['json_lines']:,} JSON lines",
                file=sys.stderr,
                flush=True,
            )
            for setting, extra in settings.items():
                report = report_run(tree, extra, out / "reports" / f"{name}.{setting}.json", env)
                codes = Counter(item.get("code", "?") for item in report.get("findings", []))
                found = sum(k for c, k in codes.items() if not is_notice(c))
                row[setting] = {
                    "findings": found,
                    "notices": sum(codes.values()) - found,
                    "per_kloc": found / row["lines"] * 1000 if row["lines"] else None,
                    "by_code": dict(sorted(codes.items())),
                    "error": report.get("error"),
                }
            if not args.no_timing:
                work = Path(tmp) / name
                work.mkdir()
                row["cpu"] = timings(tree, files, env, args.repeat, work)
                cpu = row["cpu"]
                row["ratios"] = {
                    "ovadapt/detect_secrets": ratio(cpu["ovadapt"], cpu.get("detect_secrets")),
                    "ovadapt/floor": ratio(cpu["ovadapt"], cpu["floor"]),
                    "warm/cold": ratio(cpu["warm"], cpu["ovadapt"]),
                }
                print(
                    f"  cpu ovadapt {cpu['ovadapt']:.2f}s, detect-secrets {fmt(cpu.get('detect_secrets'))}s, "
                    f"floor {cpu['floor']:.2f}s, warm {cpu['warm']:.2f}s, bare interpreter {cpu['interpreter']:.3f}s",
                    file=sys.stderr,
                    flush=True,
                )
            rows.append(row)
            write_summary(
                out, rows, settings, commit, args, {}
            )  # after each tree, so a stopped run keeps its numbers

    mask = _masker(args.linter_src)
    samples = {}
    loopx = [(r, t) for r, t in zip(rows, trees) if r["tree"].startswith("loopx-")]
    others = [(r, t) for r, t in zip(rows, trees) if not r["tree"].startswith("loopx-")]
    for setting in settings:
        for group, members in (("loopx", loopx), ("frameworks", others)):
            if not members:
                continue
            pairs = [
                (out / "reports" / f"{r['tree']}.{setting}.json", t, r["tree"]) for r, t in members
            ]
            target = out / f"sample-{setting}-{group}.md"
            samples[target.name] = write_sample(
                pairs,
                args.sample,
                args.seed,
                target,
                mask,
                f"Findings to label: {group}, setting {setting}, linter {commit}",
            )

    table = write_summary(out, rows, settings, commit, args, samples)
    print(table)


def write_summary(
    out: Path,
    rows: list[dict],
    settings: dict,
    commit: str,
    args: argparse.Namespace,
    samples: dict,
) -> str:
    table = render(rows, settings, commit, args)
    (out / "summary.md").write_text(table, encoding="utf-8")
    (out / "summary.json").write_text(
        json.dumps(
            {
                "linter_commit": commit,
                "python": sys.version.split()[0],
                "repeat": args.repeat,
                "seed": args.seed,
                "settings": {k: v for k, v in settings.items()},
                "samples": samples,
                "command": "ovadapt-lint --no-cache --jobs 1 --exit-zero --format json --output /dev/null TREE",
                "trees": rows,
                "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    return table


def render(rows: list[dict], settings: dict, commit: str, args: argparse.Namespace) -> str:
    timed = not args.no_timing
    head = ["tree", "py lines", "json lines", "findings", "per 1k"]
    if "outputs" in settings:
        head += ["findings (outputs)", "per 1k (outputs)"]
    if timed:
        head += [
            "CPU ovadapt s",
            "CPU detect-secrets s",
            "CPU floor s",
            "ovadapt/d-s",
            "ovadapt/floor",
            "CPU warm s",
            "warm/cold",
            "CPU bare interpreter s",
        ]
    out = [
        f"# ovadapt-lint on real code (linter {commit})",
        "",
        (f"CPU: user+sys seconds of the child, median of {args.repeat}; " if timed else "")
        + "`per 1k`: findings (notices OVA0xx excluded) per 1,000 lines of Python and JSON.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    total = Counter()
    for r in rows:
        cells = [
            r["tree"],
            fmt(r["py_lines"]),
            fmt(r["json_lines"]),
            fmt(r["default"]["findings"]),
            fmt(r["default"]["per_kloc"]),
        ]
        total.update(
            {
                "py": r["py_lines"],
                "json": r["json_lines"],
                "lines": r["lines"],
                "default": r["default"]["findings"],
            }
        )
        if "outputs" in settings:
            cells += [fmt(r["outputs"]["findings"]), fmt(r["outputs"]["per_kloc"])]
            total["outputs"] += r["outputs"]["findings"]
        if timed:
            c, q = r["cpu"], r["ratios"]
            cells += [
                fmt(c["ovadapt"]),
                fmt(c.get("detect_secrets")),
                fmt(c["floor"]),
                fmt(q["ovadapt/detect_secrets"]),
                fmt(q["ovadapt/floor"]),
                fmt(c["warm"]),
                fmt(q["warm/cold"], 3),
                fmt(c.get("interpreter"), 3),
            ]
        out.append("| " + " | ".join(cells) + " |")
    cells = [
        "**all**",
        fmt(total["py"]),
        fmt(total["json"]),
        fmt(total["default"]),
        fmt(total["default"] / total["lines"] * 1000 if total["lines"] else None),
    ]
    if "outputs" in settings:
        cells += [
            fmt(total["outputs"]),
            fmt(total["outputs"] / total["lines"] * 1000 if total["lines"] else None),
        ]
    if timed:
        cells += [""] * 8
    out.append("| " + " | ".join(cells) + " |")
    for setting in settings:
        out += ["", f"Findings by code ({setting}):", "", "| tree | by code |", "|---|---|"]
        for r in rows:
            codes = r[setting]["by_code"]
            out.append(
                f"| {r['tree']} | "
                + (", ".join(f"{c} {k}" for c, k in codes.items()) or "none")
                + (f" (run error: {r[setting]['error']})" if r[setting].get("error") else "")
                + " |"
            )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "fetch", help="download and unpack source distributions (needs network, once)"
    )
    p.add_argument("names", nargs="+")
    p.add_argument("--corpus", default=str(DEFAULT_CORPUS), help="folder for sdists/ and src/")
    p.set_defaults(run=fetch)
    p = sub.add_parser("measure", help="findings, CPU and samples on every input tree")
    p.add_argument("--linter-src", help="run the linter with PYTHONPATH=PATH (a checkout's src/)")
    p.add_argument(
        "--tree", action="append", default=[], help="an input tree (repeatable; default: see above)"
    )
    p.add_argument(
        "--corpus", default=str(DEFAULT_CORPUS), help="folder whose src/ holds unpacked sdists"
    )
    p.add_argument("--out", required=True, help="folder for reports, summary and samples")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--sample", type=int, default=60, help="findings per sample (default 60)")
    p.add_argument("--seed", type=int, default=25)
    p.add_argument("--no-timing", action="store_true", help="findings and samples only")
    p.add_argument(
        "--label",
        help="names the linter in the summary (default: git commit of --linter-src, "
        "+dirty for uncommitted edits)",
    )
    p.set_defaults(run=measure)
    p = sub.add_parser(
        "sample", help="a seeded, stratified sample of a JSON report, as Markdown to label"
    )
    p.add_argument("--report", action="append", required=True)
    p.add_argument(
        "--tree", action="append", required=True, help="the tree each --report was run on"
    )
    p.add_argument("--n", type=int, default=60)
    p.add_argument("--seed", type=int, default=25)
    p.add_argument("--out", required=True)
    p.add_argument("--linter-src", help="where to import the linter's masking from")
    p.set_defaults(run=sample_cmd)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
