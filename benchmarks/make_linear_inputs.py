"""Inputs for the linear-time checks of issue 15, written to DIR (seeded, reproducible).

    python3 benchmarks/make_linear_inputs.py DIR [SCALE]

hash_line.py    one Python line holding 16k*SCALE "#" literals
many_keys.public.json   750k*SCALE keys in one object (about 9 MB at SCALE 1)
minified.public.json    32k*SCALE findings (home paths) in one minified line
invalid_many_keys.public.json   many_keys with a trailing comma (invalid: read with tree-sitter's recovery)
many.public.jsonl       37.5k*SCALE JSON Lines records of 20 keys (about 10.8 MB at SCALE 1)
Time and peak memory: /usr/bin/time -v python3 -m ovadapt_lint --no-cache DIR/FILE
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the inputs to")
    parser.add_argument("scale", type=float, nargs="?", default=1.0)
    args = parser.parse_args(argv)
    out, scale = args.out, args.scale
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(15)
    n = int(16_000 * scale)
    (out / "hash_line.py").write_text("X = [" + ", ".join(['"#"'] * n) + "]\n")
    keys = int(750_000 * scale)
    many_keys = json.dumps(
        {f"k{i:07d}": rng.randrange(10**6) for i in range(keys)}, separators=(",", ":")
    )
    (out / "many_keys.public.json").write_text(many_keys)
    (out / "invalid_many_keys.public.json").write_text(many_keys[:-1] + ",}")
    del many_keys
    findings = int(32_000 * scale)
    (out / "minified.public.json").write_text(
        json.dumps(
            [{"p": f"/home/user{rng.randrange(10**6)}/.ssh/id_rsa"} for _ in range(findings)],
            separators=(",", ":"),
        )
    )
    records = int(37_500 * scale)
    (out / "many.public.jsonl").write_text(
        "".join(
            json.dumps({f"k{j}": rng.randrange(10**6) for j in range(20)}) + "\n"
            for _ in range(records)
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
