"""Benchmark ovadapt-lint against the secret scanners on two corpora, in one run.

Both corpora are built reproducibly in a temporary folder:
- stdlib: the running interpreter's standard library (without test, tests,
  idlelib, lib2to3, site-packages) plus 2,000 adapter fixtures derived from
  the public LoopX fixture; the projection analysis rarely runs here;
- projection: real agent-framework source distributions you unpacked
  (``--sdists DIR``: each subfolder one project; their .py/.json/.jsonl files
  are copied) plus as many generated projection-builder modules
  (``make_projection_corpus.py``: 3 KB to 800 KB each), so that at least half
  of the modules need the projection analysis.
Each measurement runs --repeat times, alternating the tools; the table shows
medians and the ratios the project targets, and a size-vs-time table of the
projection corpus's modules (in-process, one module at a time).

    python3 -m pip install -e '.[bench]'
    python3 benchmarks/run.py [--repeat 3] [--sdists /path/to/unpacked] [--json benchmarks/latest.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.test_regex_safety import ADVERSARIAL  # noqa: E402  (the same strings as the regex-safety test)

FIXTURE_CANDIDATES = [
    ROOT.parent
    / "shared"
    / "realworld"
    / "loopx"
    / "examples"
    / "fixtures"
    / "openviking-session-memory-adapter.public.json",
    ROOT / "corpus" / "OVA104" / "ok_clean_adapter.json",
]
SKIP = {"test", "tests", "idlelib", "lib2to3", "site-packages", "__pycache__"}


def build_corpus(folder: Path, fixtures: int = 2000) -> dict:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    lib = folder / "stdlib"
    files = lines = 0
    for path in sorted(stdlib.rglob("*.py")):
        rel = path.relative_to(stdlib)
        if SKIP & set(rel.parts):
            continue
        target = lib / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        files += 1
        lines += len(path.read_bytes().splitlines())
    source = next((p for p in FIXTURE_CANDIDATES if p.is_file()), None)
    if source is None:
        sys.exit("no adapter fixture found to derive fixtures from")
    base = json.loads(source.read_text(encoding="utf-8"))
    out = folder / "fixtures"
    out.mkdir()
    for index in range(fixtures):
        doc = json.loads(json.dumps(base))
        doc.setdefault("generated", {})["index"] = (
            index  # distinct content: the cache cannot share entries
        )
        (out / f"adapter_{index:04d}.public.json").write_text(
            json.dumps(doc, indent=2), encoding="utf-8"
        )
    return {
        "python_files": files,
        "python_lines": lines,
        "fixtures": fixtures,
        "fixture_source": source.name,
    }


def build_projection_corpus(folder: Path, sdists: Path | None, seed: int = 7) -> dict:
    import random

    from benchmarks.make_projection_corpus import module_text

    copied = 0
    if sdists is not None:
        for path in sorted(sdists.rglob("*")):
            if (
                path.suffix in (".py", ".json", ".jsonl")
                and path.is_file()
                and not (SKIP_SDIST & set(path.parts))
            ):
                target = folder / "sdists" / path.relative_to(sdists)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
                copied += path.suffix == ".py"
    rng = random.Random(seed)
    generated = max(100, copied)
    out = folder / "builders"
    out.mkdir(parents=True)
    size = 0
    for index in range(generated):
        # Mostly small modules, one in fifty large (each builder pair is about 1.4 KB).
        builders = rng.choice([2, 4, 8, 16, 30]) if index % 50 else rng.choice([80, 200, 400, 560])
        text = module_text(f"view{index:04d}", builders, rng)
        (out / f"projection_view_{index:04d}.py").write_text(text, encoding="utf-8")
        size += len(text)
    return {
        "sdist_python_files": copied,
        "generated_modules": generated,
        "generated_mb": round(size / 1e6, 1),
    }


SKIP_SDIST = {".git", "node_modules", "__pycache__", "build", "dist", "_dl"}


def size_time_table(folder: Path, repeat: int = 3) -> dict:
    """Lint each Python module in-process and time it: the per-100 KB bound and linearity. Each module's
    time is the best of ``repeat`` runs, each with a fresh analysis (so no string is answered from the
    previous run's scanner cache): a 3 KB module costs a few milliseconds, and one scheduler pause on a
    shared machine would otherwise decide its figure."""
    from ovadapt_lint.analysis import Analysis
    from ovadapt_lint.config import Config
    from ovadapt_lint.discover import discover
    from ovadapt_lint.engine import lint_target

    rows = []
    for target in discover([str(folder)], ["*.py"], []):
        best = float("inf")
        for _ in range(repeat):
            config = Config()
            analysis = Analysis.build(config)
            analysis.scanner
            started = time.process_time()
            lint_target(target, config, analysis)
            best = min(best, time.process_time() - started)
        # A repository-relative file URI of the benchmark corpus, not a record's private URI.
        rows.append((target.path.stat().st_size, best, target.uri))  # ovadapt: ignore[OVA605]
    buckets = [
        (0, 10_000),
        (10_000, 50_000),
        (50_000, 100_000),
        (100_000, 300_000),
        (300_000, 10**9),
    ]
    table = []
    for low, high in buckets:
        inside = [r for r in rows if low <= r[0] < high]
        if inside:
            per = [t / max(size, 1) * 100_000 for size, t, _ in inside]
            table.append(
                {
                    "size": f"{low // 1000}-{high // 1000 if high < 10**9 else 'max'} KB",
                    "modules": len(inside),
                    "median_s_per_100kb": round(statistics.median(per), 3),
                    "max_s_per_100kb": round(max(per), 3),
                }
            )
    worst = max(rows, key=lambda r: r[1] / max(r[0], 1), default=None)
    return {
        "buckets": table,
        "worst": {
            "uri": worst[2],
            "kb": worst[0] // 1000,
            "s_per_100kb": round(worst[1] / max(worst[0], 1) * 100_000, 3),
        }
        if worst
        else None,
    }


def measure(command: list[str], cwd: Path) -> tuple[float, int, float]:
    """(wall seconds, peak RSS in MB of the command and its workers, CPU seconds of the command and its workers)."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(time.perf_counter() - t, u.ru_maxrss, u.ru_utime + u.ru_stime)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *command], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), int(out[1]) // 1024, float(out[2])


def slowest_detectors(top: int = 5) -> list[tuple[str, float]]:
    """Seconds per MB of each pattern on adversarial text (long runs of what patterns repeat)."""
    from tests.test_regex_safety import _patterns

    text = "".join(chunk[:40_000] for chunk in ADVERSARIAL)
    megabytes = len(text.encode("utf-8")) / 1e6
    timings = []
    for name, pattern in _patterns():
        started = time.perf_counter()
        for _ in pattern.finditer(text):
            pass
        timings.append((name, (time.perf_counter() - started) / megabytes))
    return sorted(timings, key=lambda t: -t[1])[:top]


def tool(name: str) -> str | None:
    found = shutil.which(name)
    return found


def run_cases(corpus: Path, work: Path, repeat: int, one_file: str, changed: str) -> dict:
    lint = [sys.executable, "-m", "ovadapt_lint", "--format", "json", "--exit-zero"]
    cache = work / f"cache-{corpus.name}"
    cases = {
        "cold (--no-cache)": lint + ["--no-cache", "."],
        "cold --jobs 1": lint + ["--no-cache", "--jobs", "1", "."],
        "warm (cache filled)": lint + ["--cache-dir", str(cache), "."],
        "warm, one file changed": lint + ["--cache-dir", str(cache), "."],
        "one file": lint + ["--no-cache", one_file],
    }
    if tool("detect-secrets"):
        cases["detect-secrets scan --all-files"] = [
            tool("detect-secrets"),
            "scan",
            "--all-files",
            ".",
        ]
    if tool("bandit"):
        cases["bandit -r"] = [tool("bandit"), "-q", "-r", ".", "-f", "json"]
    measure(lint + ["--cache-dir", str(cache), "."], corpus)  # fill the cache for the warm runs
    samples: dict[str, list[tuple[float, int]]] = {name: [] for name in cases}
    for round_ in range(repeat):
        for name, command in cases.items():  # alternating the tools, so drift hits all alike
            if name == "warm, one file changed":
                target = corpus / changed
                target.write_text(
                    target.read_text(encoding="utf-8") + f"\n# edit {round_}\n", encoding="utf-8"
                )
            samples[name].append(measure(command, corpus))
    medians = {
        name: (
            statistics.median(s[0] for s in runs),
            max(s[1] for s in runs),
            statistics.median(s[2] for s in runs),
        )
        for name, runs in samples.items()
    }
    cold = medians["cold (--no-cache)"][0]
    ds = medians.get("detect-secrets scan --all-files", (None, 0, None))[0]
    ds_cpu = medians.get("detect-secrets scan --all-files", (None, 0, None))[2]
    ratios = {
        "cold / detect-secrets (target <= 0.3)": cold / ds if ds else None,
        "cold CPU / detect-secrets CPU (target <= 0.3)": medians["cold (--no-cache)"][2] / ds_cpu
        if ds_cpu
        else None,
        "cold --jobs 1 / detect-secrets": medians["cold --jobs 1"][0] / ds if ds else None,
        "warm / cold (target <= 0.05)": medians["warm (cache filled)"][0] / cold,
        "one changed file in a warm tree, s (target <= 0.3)": medians["warm, one file changed"][0],
        "one file, s (target <= 0.15)": medians["one file"][0],
        "peak memory MB per process (target <= 300)": float(max(m[1] for m in medians.values())),
    }
    return {"medians": medians, "ratios": ratios}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--sdists",
        type=Path,
        help="folder of unpacked source distributions for the projection corpus",
    )
    parser.add_argument("--corpus", choices=("stdlib", "projection", "both"), default="both")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "latest.json"))
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="ovadapt-bench-") as tmp:
        work = Path(tmp)
        if args.corpus in ("stdlib", "both"):
            corpus = work / "stdlib-corpus"
            corpus.mkdir()
            info = build_corpus(corpus)
            results["stdlib"] = {
                "corpus": info,
                **run_cases(
                    corpus,
                    work,
                    args.repeat,
                    "fixtures/adapter_0000.public.json",
                    "stdlib/json/decoder.py",
                ),
            }
        if args.corpus in ("projection", "both"):
            corpus = work / "projection-corpus"
            corpus.mkdir()
            info = build_projection_corpus(corpus, args.sdists)
            results["projection"] = {
                "corpus": info,
                "size_vs_time": size_time_table(corpus / "builders"),
                **run_cases(
                    corpus,
                    work,
                    args.repeat,
                    "builders/projection_view_0001.py",
                    "builders/projection_view_0002.py",
                ),
            }
    machine = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    print(f"machine: {machine}")
    for name, result in results.items():
        print(f"\n== {name} corpus: {result['corpus']}")
        print(f"{'measurement':40} {'median s':>9} {'CPU s':>8} {'peak MB':>8}")
        for case, (seconds, memory, cpu) in result["medians"].items():
            print(f"{case:40} {seconds:9.2f} {cpu:8.2f} {memory:8d}")
        for label, value in result["ratios"].items():
            print(f"{label:55} {'n/a' if value is None else f'{value:.2f}'}")
        if "size_vs_time" in result:
            print("size vs time (CPU seconds per 100 KB, one module at a time):")
            for row in result["size_vs_time"]["buckets"]:
                print(
                    f"  {row['size']:>12} {row['modules']:6d} modules  median {row['median_s_per_100kb']:.3f}  "
                    f"max {row['max_s_per_100kb']:.3f}"
                )
            print(f"  worst module: {result['size_vs_time']['worst']}")
    slowest = slowest_detectors()
    print("\nslowest detectors on adversarial text (seconds per MB):")
    for name, seconds in slowest:
        print(f"  {name:43} {seconds:.3f}")
    document = {
        "machine": machine,
        "repeat": args.repeat,
        "date": time.strftime("%Y-%m-%d"),
        "slowest_detectors_s_per_mb": dict(slowest),
        "corpora": {
            name: {
                "corpus": r["corpus"],
                "ratios": r["ratios"],
                "size_vs_time": r.get("size_vs_time"),
                "medians": {
                    k: {"seconds": v[0], "peak_mb": v[1], "cpu_seconds": v[2]}
                    for k, v in r["medians"].items()
                },
            }
            for name, r in results.items()
        },
    }
    Path(args.json).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
