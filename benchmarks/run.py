"""Benchmark ovadapt-lint against the secret scanners on one corpus, in one run.

The corpus is built reproducibly in a temporary folder: the running
interpreter's standard library (without test, tests, idlelib, lib2to3,
site-packages) plus 2,000 adapter fixtures derived from the public LoopX
fixture. Each measurement runs --repeat times, alternating the tools; the
table shows medians and the ratios the project targets.

    python3 -m pip install -e '.[bench]'
    python3 benchmarks/run.py [--repeat 3] [--json benchmarks/latest.json]
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
    ROOT.parent / "shared" / "realworld" / "loopx" / "examples" / "fixtures" / "openviking-session-memory-adapter.public.json",
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
        doc.setdefault("generated", {})["index"] = index  # distinct content: the cache cannot share entries
        (out / f"adapter_{index:04d}.public.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return {"python_files": files, "python_lines": lines, "fixtures": fixtures, "fixture_source": source.name}


def measure(command: list[str], cwd: Path) -> tuple[float, int]:
    """(wall seconds, peak RSS in MB of the command and its workers)."""
    probe = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
             "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
             "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *command], cwd=cwd, capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), int(out[1]) // 1024


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "latest.json"))
    args = parser.parse_args()
    lint = [sys.executable, "-m", "ovadapt_lint", "--format", "json", "--exit-zero"]
    with tempfile.TemporaryDirectory(prefix="ovadapt-bench-") as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        corpus.mkdir()
        info = build_corpus(corpus)
        double = work / "double"
        double.mkdir()
        for copy in ("a", "b"):
            shutil.copytree(corpus, double / copy)
        cache = work / "cache"
        one_file = "fixtures/adapter_0000.public.json"
        cases = {
            "cold (--no-cache)": lint + ["--no-cache", "."],
            "cold --jobs 1": lint + ["--no-cache", "--jobs", "1", "."],
            "cold --jobs 2": lint + ["--no-cache", "--jobs", "2", "."],
            "warm (cache filled)": lint + ["--cache-dir", str(cache), "."],
            "one file": lint + ["--no-cache", one_file],
            "double corpus, cold": lint + ["--no-cache", str(double)],
        }
        if tool("detect-secrets"):
            cases["detect-secrets scan --all-files"] = [tool("detect-secrets"), "scan", "--all-files", "."]
        if tool("bandit"):
            cases["bandit -r"] = [tool("bandit"), "-q", "-r", ".", "-f", "json"]
        measure(lint + ["--cache-dir", str(cache), "."], corpus)  # fill the cache for the warm runs
        samples: dict[str, list[tuple[float, int]]] = {name: [] for name in cases}
        for _ in range(args.repeat):
            for name, command in cases.items():  # alternating the tools, so drift hits all alike
                samples[name].append(measure(command, corpus))
    medians = {name: (statistics.median(s[0] for s in runs), max(s[1] for s in runs)) for name, runs in samples.items()}
    cold = medians["cold (--no-cache)"][0]
    ratios = {
        "cold / detect-secrets (target <= 0.5)":
            cold / medians["detect-secrets scan --all-files"][0] if "detect-secrets scan --all-files" in medians else None,
        "warm / cold (target <= 0.1)": medians["warm (cache filled)"][0] / cold,
        "jobs 1 / jobs 2 speed-up (target >= 1.6)": medians["cold --jobs 1"][0] / medians["cold --jobs 2"][0],
        "one file, seconds (target <= 0.5)": medians["one file"][0],
        "peak memory MB, cold (target <= 400)": float(max(m[1] for n, m in medians.items() if n.startswith("cold"))),
        "double corpus / corpus (target <= 2.2)": medians["double corpus, cold"][0] / cold,
    }
    machine = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()}
    slowest = slowest_detectors()
    print(f"corpus: {info}")
    print(f"machine: {machine}")
    print(f"{'measurement':40} {'median s':>9} {'peak MB':>8}")
    for name, (seconds, memory) in medians.items():
        print(f"{name:40} {seconds:9.2f} {memory:8d}")
    print()
    for name, value in ratios.items():
        print(f"{name:45} {'n/a' if value is None else f'{value:.2f}'}")
    print()
    print("slowest detectors on adversarial text (seconds per MB):")
    for name, seconds in slowest:
        print(f"  {name:43} {seconds:.3f}")
    # build_corpus() returns counts; the linter cannot see into it and assumes the temp path flows out.
    Path(args.json).write_text(json.dumps({"corpus": info, "machine": machine, "repeat": args.repeat,  # ovadapt: ignore[OVA504]
                                           "medians": {k: {"seconds": v[0], "peak_mb": v[1]} for k, v in medians.items()},
                                           "ratios": ratios, "slowest_detectors_s_per_mb": dict(slowest),
                                           "date": time.strftime("%Y-%m-%d")}, indent=2) + "\n",
                               encoding="utf-8")


if __name__ == "__main__":
    main()
