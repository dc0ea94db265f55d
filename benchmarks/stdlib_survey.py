"""Run ovadapt-lint on the running interpreter's standard library (tests excluded).

Code that builds no projections should get very few findings: this prints the
files, lines, wall time, internal errors and findings per 1,000 lines by rule.

    python3 benchmarks/stdlib_survey.py [--limit N]
"""

from __future__ import annotations

import argparse
import sysconfig
import time
from collections import Counter
from pathlib import Path

from ovadapt_lint import Config
from ovadapt_lint.engine import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (0: all)")
    args = parser.parse_args()
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(
        p
        for p in stdlib.rglob("*.py")
        if not {"test", "tests", "idle_test", "site-packages", "lib2to3"}
        & set(p.relative_to(stdlib).parts)
    )
    if args.limit:
        files = files[: args.limit]
    lines = sum(len(p.read_bytes().splitlines()) for p in files)
    started = time.perf_counter()
    result = run([str(p) for p in files], Config())
    elapsed = time.perf_counter() - started
    counts = Counter(f.code for f in result.findings)
    print(f"stdlib: {stdlib}")
    print(
        f"files: {len(files)}  lines: {lines:,}  time: {elapsed:.1f}s  ({lines / elapsed:,.0f} lines/s)"
    )
    print(f"internal errors (OVA009): {counts.get('OVA009', 0)}")
    print(
        f"findings: {len(result.findings)}  per 1,000 lines: {len(result.findings) / lines * 1000:.3f}"
    )
    for code, count in counts.most_common():
        print(f"  {code}  {count:>6}  {count / lines * 1000:.3f}/kloc")


if __name__ == "__main__":
    main()
