"""Benchmark `ovadapt-lint history` on a synthetic repository.

Builds a git repository in a temporary folder with `git fast-import` (default: 5,000 commits and
about 20,000 distinct lintable blobs: adapter fixtures, published JSON, JSON Lines and Python
modules, with a few leaks that are later deleted), then times a cold run (`--no-cache`) of
`ovadapt-lint history` on it and prints blobs per second.

    python3 benchmarks/history_bench.py [--commits 5000] [--blobs 20000] [--jobs N] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON_TEMPLATE = '''"""Module {n}: builds the status projection for feature {feature}."""

from __future__ import annotations

import json
from dataclasses import dataclass

SCHEMA_VERSION = "feature_{feature}_status_v{version}"
LIMIT = {limit}


@dataclass
class Item{n}:
    name: str
    count: int = 0

    def describe(self) -> str:
        return f"{{self.name}} ({{self.count}})"


def load_{n}(path: str) -> list[Item{n}]:
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return [Item{n}(entry["name"], int(entry.get("count", 0))) for entry in data[:LIMIT]]


def summarise_{n}(items: list[Item{n}]) -> dict:
    total = sum(item.count for item in items)
    return {{"schema_version": SCHEMA_VERSION, "items": len(items), "total": total, "revision": {version}}}
'''


def fixture(n: int, version: int, leak: bool) -> str:
    doc = {
        "title": f"fixture {n} revision {version}",
        "summary": f"compact summary for fixture {n}, revision {version}",
        "next_action": "review the gates",
        "refs": {"session_ref": f"session-{n}-{version}", "issue_ref": f"issue-{n}"},
        "counts": {"turn_count": version % 17, "memory_count": n % 11},
        "raw_memory_copied": False,
        # A deliberate leak in about 1% of the revisions, for the history scan to find.
        "notes_ref": (
            f"/home/dev{n}/notes-{version}.md"  # ovadapt: ignore[OVA501]
            if leak
            else f"docs/notes-{n}.md"
        ),
    }
    return json.dumps(doc, indent=2) + "\n"


def messages(n: int, version: int) -> str:
    lines = []
    for turn in range(4):
        role = "user" if turn % 2 == 0 else "assistant"
        lines.append(
            json.dumps(
                {
                    "id": f"msg_{n:08x}{version:08x}{turn:016x}",
                    "role": role,
                    "parts": [{"type": "text", "text": f"turn {turn} of session {n}.{version}"}],
                    "created_at": "2026-06-05T07:19:32Z",
                }
            )
        )
    return "\n".join(lines) + "\n"


def content(path: str, n: int, version: int, rng: random.Random) -> str:
    if path.endswith(".py"):
        return PYTHON_TEMPLATE.format(
            n=n, feature=n % 97, version=version, limit=rng.randint(5, 500)
        )
    if path.endswith("messages.jsonl"):
        return messages(n, version)
    return fixture(n, version, leak=rng.random() < 0.01)


def build(repo: Path, commits: int, blobs: int, seed: int = 7) -> int:
    """Write the repository with git fast-import; return the number of distinct blobs written."""
    rng = random.Random(seed)
    per_commit = max(1, round(blobs / commits))
    paths = []
    for n in range(max(50, blobs // 12)):
        folder = f"pkg{n % 40}"
        kind = n % 10
        if kind < 5:
            paths.append(f"src/{folder}/module_{n}.py")
        elif kind < 9:
            paths.append(f"fixtures/{folder}/status_{n}.public.json")
        else:
            paths.append(f"fixtures/{folder}/adapter_{n}.json")
    versions = {path: 0 for path in paths}
    indices = {path: number for number, path in enumerate(paths)}
    live: set[str] = set()
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    stream = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=repo, stdin=subprocess.PIPE)
    assert stream.stdin is not None
    write = stream.stdin.write
    when = 1_700_000_000
    written = 0
    for number in range(commits):
        lines = []
        for _ in range(per_commit):
            path = rng.choice(paths)
            index = indices[path]
            versions[path] += 1
            text = content(path, index, versions[path], rng).encode("utf-8")
            lines.append(f"M 100644 inline {path}\ndata {len(text)}\n".encode() + text + b"\n")
            live.add(path)
            written += 1
        if number % 50 == 25:  # a raw session export, deleted a few commits later
            path = f"sessions/s{number}/messages.jsonl"
            text = messages(number, 1).encode("utf-8")
            lines.append(f"M 100644 inline {path}\ndata {len(text)}\n".encode() + text + b"\n")
            written += 1
        if number % 50 == 30:
            lines.append(f"D sessions/s{number - 5}/messages.jsonl\n".encode())
        message = f"change {number}\n".encode()
        header = (
            f"commit refs/heads/main\nmark :{number + 1}\n"
            f"author Bench Author <bench@example.com> {when + number * 60} +0000\n"
            f"committer Bench Author <bench@example.com> {when + number * 60} +0000\n"
            f"data {len(message)}\n"
        ).encode() + message
        if number:
            header += f"from :{number}\n".encode()
        write(header + b"".join(lines) + b"\n")
    stream.stdin.close()
    if stream.wait() != 0:
        raise SystemExit("git fast-import failed")
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, check=True)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=5000)
    parser.add_argument(
        "--blobs", type=int, default=20000, help="about this many distinct lintable blobs"
    )
    parser.add_argument(
        "--jobs", type=int, default=0, help="ovadapt-lint --jobs (default: one per core)"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the generated repository and print where it is"
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ovadapt-history-bench-"))
    try:
        repo = folder / "repo"
        started = time.monotonic()
        written = build(repo, args.commits, args.blobs)
        built = time.monotonic() - started
        print(f"built {args.commits:,} commits, {written:,} blob writes in {built:.1f} s")
        command = [
            sys.executable,
            "-m",
            "ovadapt_lint",
            "history",
            "--no-cache",
            "--exit-zero",
            "--format",
            "json",
            "--output",
            str(folder / "report.json"),
        ]
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        started = time.monotonic()
        proc = subprocess.run(command, cwd=repo, capture_output=True, text=True)
        elapsed = time.monotonic() - started
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            return proc.returncode
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        history = report["history"]
        removed = sum(1 for f in report["findings"] if not f["properties"]["presentAtHead"])
        match = re.search(r"([\d,]+) blobs/s", proc.stderr)
        print(
            f"ovadapt-lint history: {history['blobs']:,} distinct blobs from {history['commits']:,} commits, "
            f"{len(report['findings']):,} findings ({removed:,} in content no longer at HEAD)"
        )
        print(
            f"wall time {elapsed:.1f} s (scan {history['seconds']:.1f} s): {history['blobs'] / elapsed:,.0f} blobs/s "
            f"end to end, {match.group(1) if match else '?'} blobs/s reported; "
            f"Python {platform.python_version()}, {os.cpu_count()} cores"
        )
        if args.keep:
            print(f"repository kept in {repo}")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
