"""Speed against the parse floor in instructions, which a shared machine's load does not change.

CPU seconds on a shared two-core machine drift by a third within an hour (the floor alone read 0.59-0.94 s),
so the ratio the issue sets (a cold ``--jobs 1`` run at most 4x the floor of reading every module and
running ``ast.parse`` on it) is judged here in instructions counted by ``valgrind --tool=callgrind``, with
PYTHONHASHSEED=0: repeated runs count the same to a few parts in a million.

    python3 benchmarks/instructions.py [--tree DIR] [--src DIR] [--out PREFIX]

``--tree``: the Python tree to lint (default ../shared/realworld/loopx/loopx/control_plane); ``--src``: the
package's source tree to measure (default this checkout's ``src``; an older revision unpacked with
``git archive REV src rules | tar -x -C /tmp/old`` is measured with ``--src /tmp/old/src``). Prints the two
counts and their ratio; the callgrind files are kept under ``--out`` for ``callgrind_annotate``.

The linter is measured as a user runs it once installed: its bytecode compiled (an installed package has its
``.pyc`` files; with PYTHONDONTWRITEBYTECODE set, every run would compile the package's source again, about
1.1 G instructions on control_plane) and its user store filled, both by one unmeasured run first, into a
temporary PYTHONPYCACHEPREFIX and XDG_CACHE_HOME. ``--source-compile`` measures a run that compiles the
package's source, as a checkout run with PYTHONDONTWRITEBYTECODE does.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import realcode  # this folder is on the path when the script runs

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TREE = ROOT.parent / "shared" / "realworld" / "loopx" / "loopx" / "control_plane"
# The floor: read every listed module and parse it, nothing else (the same program as realcode.py's).
FLOOR = realcode.FLOOR
_TOTAL = re.compile(r"^(?:summary|totals):\s*(\d+)", re.MULTILINE)


def counted(command: list[str], out: Path, cwd: Path, env: dict[str, str]) -> int:
    """Instructions the command executes (the whole process, interpreter start included)."""
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
        cwd=cwd,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    found = _TOTAL.search(out.read_text(encoding="utf-8", errors="replace"))
    if found is None:
        raise SystemExit(f"no instruction total in {out}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=DEFAULT_TREE)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--out", type=Path, default=None, help="prefix of the callgrind files kept")
    parser.add_argument(
        "--source-compile",
        action="store_true",
        help="measure a run that compiles the package's source (no bytecode written or read)",
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing measured", file=sys.stderr)
        return 2
    tree = args.tree.resolve()
    if not tree.is_dir():
        print(f"no such tree: {args.tree}", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="ovadapt-instructions-"))
    prefix = args.out or work / "run"
    modules = sorted(str(p) for p in tree.rglob("*.py"))
    listing = work / "modules.txt"
    listing.write_text("\n".join(modules) + "\n", encoding="utf-8")
    # sys.executable, not a launcher script: valgrind must count the interpreter itself.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # The user store is filled by the first run, not the user's.
    env.update(
        PYTHONHASHSEED="0",
        PYTHONPATH=str(args.src.resolve()),
        XDG_CACHE_HOME=str(work / "user-cache"),
    )
    if args.source_compile:
        # No prefix: the standard library's own __pycache__ is read (a prefix would compile it too).
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    common = ["--jobs", "1", "--exit-zero", "--format", "json", "--output", os.devnull]
    lint_cmd = realcode.lint_cmd("--no-cache", *common, ".")  # as realcode.py times it
    subprocess.run(lint_cmd, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
    floor = counted(
        [sys.executable, "-c", FLOOR, str(listing)], Path(f"{prefix}.floor.cg"), tree, env
    )
    lint = counted(lint_cmd, Path(f"{prefix}.lint.cg"), tree, env)
    print(
        f"{len(modules)} modules under {args.tree}; the package "
        + ("compiled from source" if args.source_compile else "run from bytecode, as installed")
    )
    print(f"linter {lint / 1e9:.3f} G instructions, floor {floor / 1e9:.3f} G: {lint / floor:.3f}x")
    print(f"callgrind files: {prefix}.lint.cg, {prefix}.floor.cg")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
