"""Start-up figure: the CPU seconds a short run costs, where a pre-commit hook or an editor spends them.

Measured, each as a fresh process (user + system CPU of the child, median of --repeat runs):
- ``ovadapt-lint --version``;
- ``ovadapt-lint FILE`` on one adapter fixture (about 7 KB), with a warm result cache (a second run: what
  a hook sees on an unchanged file) and with ``--no-cache`` (the file linted);
- ``detect-secrets scan FILE`` on the same file, the yardstick;
then the top entries of ``python -X importtime`` for ``--version`` and the one-file runs, warm and with
``--no-cache`` (what each imports, by cumulative microseconds; those times are inflated by the measurement
itself, read them as proportions: the ``--no-cache`` run is where the detectors and jsonschema show).

Bytecode is compiled first (into a temporary PYTHONPYCACHEPREFIX), as an installed package has it; the
figures are CPU time, so other work on the machine changes them less than wall time, but not nothing: a
loaded machine reads slower, compare figures taken side by side.

    python3 benchmarks/startup.py [--src DIR] [--fixture FILE] [--repeat 15]

``--src`` measures the package in another source tree (e.g. an older revision unpacked with
``git archive REV | tar -x -C /tmp/old`` and ``--src /tmp/old/src``) with the same interpreter.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = [
    ROOT / "tests" / "data" / "projections" / "session-memory-adapter.public.json",
    ROOT.parent
    / "shared"
    / "realworld"
    / "loopx"
    / "examples"
    / "fixtures"
    / "openviking-session-memory-adapter.public.json",
]
LINT = "import sys; from ovadapt_lint.cli import main; sys.exit(main())"
DETECT_SECRETS = "import sys; from detect_secrets.main import main; sys.exit(main())"


def cpu_seconds(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """User + system CPU seconds of one run of ``argv`` (its children included)."""
    proc = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv[-1]}: exit {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def median_cpu(argv: list[str], env: dict[str, str], cwd: Path, repeat: int) -> float:
    cpu_seconds(argv, env, cwd)  # compiles the bytecode, warms the page cache
    return statistics.median(cpu_seconds(argv, env, cwd) for _ in range(repeat))


def import_times(
    argv: list[str], env: dict[str, str], cwd: Path, top: int
) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of the ``top`` heaviest imports the run makes from its own code
    (importtime's top level: what the program itself asked for, each with what it pulled in)."""
    proc = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    found = []
    for line in proc.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", line)
        if match and not match.group(2).startswith(" "):
            found.append((int(match.group(1)), match.group(2)))
    return sorted(found, reverse=True)[:top]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the package's source tree")
    parser.add_argument(
        "--fixture", type=Path, help="the file to lint (default: an adapter fixture)"
    )
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--top", type=int, default=12, help="importtime entries to show")
    args = parser.parse_args()
    fixture = args.fixture or next((f for f in FIXTURES if f.is_file()), None)
    if fixture is None:
        raise SystemExit("no adapter fixture found: pass --fixture FILE")
    work = Path(tempfile.mkdtemp(prefix="ovadapt-startup-"))
    try:
        shutil.copy(fixture, work / fixture.name)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        env["PYTHONPATH"] = str(args.src.resolve())
        env["XDG_CACHE_HOME"] = str(work / "user-cache")  # the cache key's home: not the user's
        python = [sys.executable, "-c"]
        version = [*python, LINT, "--version"]
        warm = [*python, LINT, fixture.name]
        cold = [*python, LINT, "--no-cache", fixture.name]
        secrets = [*python, DETECT_SECRETS, "scan", fixture.name]
        print(f"{args.src}  fixture {fixture.name} ({fixture.stat().st_size:,} bytes)")
        print(f"CPU seconds, median of {args.repeat} runs (user + system):")
        rows = [
            ("ovadapt-lint --version", version),
            ("ovadapt-lint FILE (warm cache)", warm),
            ("ovadapt-lint --no-cache FILE", cold),
            ("detect-secrets scan FILE", secrets),
        ]
        for label, argv in rows:
            print(f"  {label:<32} {median_cpu(argv, env, work, args.repeat):6.3f}")
        for label, argv in (
            ("--version", version),
            ("FILE (warm cache)", warm),
            ("--no-cache FILE", cold),
        ):
            print(f"python -X importtime, ovadapt-lint {label}: top imports by cumulative us")
            for micros, module in import_times(argv, env, work, args.top):
                print(f"  {micros:>9,}  {module}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
