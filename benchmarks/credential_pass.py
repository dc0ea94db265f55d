"""Time the credential pass alone on the standard library (issue 16: within 10% of before).

Every string literal and comment of the interpreter's standard library (without its tests) goes
through the string scanner with only credentials and the deny-list on (``content=False``), as in
a run over ordinary code. The strings are collected first, so parsing is not timed; the scanner's
result cache is off (each string is scanned once per repetition). Prints CPU seconds (best of
``--repeat``), strings, megabytes and hits, so two checkouts can be compared side by side:

    PYTHONPATH=OLD/src python3 benchmarks/credential_pass.py --strings /tmp/strings.json
    PYTHONPATH=NEW/src python3 benchmarks/credential_pass.py --strings /tmp/strings.json
"""

from __future__ import annotations

import argparse
import sysconfig
import time
from pathlib import Path

SKIP = {"test", "tests", "idlelib", "lib2to3", "site-packages"}


def strings(limit: int | None = None) -> list[tuple[str, bool]]:
    from ovadapt_lint.frontends.python_text import parse_text
    from ovadapt_lint.source import read_source

    root = Path(sysconfig.get_paths()["stdlib"])
    out: list[tuple[str, bool]] = []
    for path in sorted(root.rglob("*.py"))[:limit]:
        if SKIP & set(path.relative_to(root).parts):
            continue
        source, _ = read_source(path, str(path), 10**8, "python")
        module = parse_text(source)[0] if source is not None else None
        if module is None:
            continue
        out += [
            (lit.value, lit.what == "docstring") for lit in module.literals if len(lit.value) >= 3
        ]
        out += [(comment.text, True) for comment in module.comments]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--strings",
        type=Path,
        help="read the strings from this JSON file, or write them there "
        "when it does not exist: two checkouts then scan exactly the same strings",
    )
    args = parser.parse_args()
    import json

    from ovadapt_lint.detect.scanner import StringScanner
    from ovadapt_lint.pack import builtin_pack

    if args.strings is not None and args.strings.exists():
        texts = [tuple(item) for item in json.loads(args.strings.read_text(encoding="utf-8"))]
    else:
        texts = strings()
        if args.strings is not None:
            args.strings.write_text(json.dumps(texts), encoding="utf-8")
    megabytes = sum(len(text.encode("utf-8", "replace")) for text, _ in texts) / 1e6
    best, hits = float("inf"), 0
    for _ in range(args.repeat):
        scanner = StringScanner(builtin_pack())
        scanner.scan(
            "warm up: sk-" + "a" * 30, secrets=True, content=False
        )  # compile what is compiled lazily
        started = time.process_time()
        hits = sum(
            len(scanner._scan(text, None, True, prose, True, False, False)) for text, prose in texts
        )
        best = min(best, time.process_time() - started)
    print(
        f"credential pass: {best:.2f} s CPU for {len(texts):,} strings ({megabytes:.1f} MB), {hits} hits"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
