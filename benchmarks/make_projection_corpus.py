"""Generate projection-builder modules for the benchmark: code that needs the projection analysis.

Real agent frameworks rarely build public projections, so a benchmark made of
them never runs the expensive part of the linter. These modules are written in
the style of ``corpus/``: dicts with ``schema_version``, ``*_copied: False``
attestations, nested section builders, module helpers whose results are stored
into projections, private receipts beside them, and a few real leaks (a path
or a free-text field reaching a projection). Sizes range from a few KB to
several hundred KB per module. Deterministic for a given seed.

    python3 benchmarks/make_projection_corpus.py OUT_DIR [--modules 120] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SECTION = '''

def _{name}_section_{n}(record, limit=80):
    """Section {n} of the {name} projection."""
    summary = compact_text(record.get("title", ""), limit)
    refs = [item["id"] for item in record.get("items", [])][:5]
    return {{
        "summary": summary,
        "refs": refs,
        "count": len(refs),
        "raw_body_copied": False,
        "state": "future_gated" if not refs else "preview_only",
    }}
'''

BUILDER = '''

def build_{name}_{n}(record, run):
    """Builds the public {name} projection {n} and a private receipt."""
    projection = {{
        "schema_version": "{name}_projection_v{v}",
        "run_ref": run["id"],
        "raw_transcripts_copied": False,
        "raw_tool_outputs_copied": False,
        "sections": [_{name}_section_{n}(item) for item in record.get("parts", [])],
        "status": {{"waiting_on": "none", "gate_state": "clear", "quota_state": "eligible", "memory_state": "disabled"}},
        "totals": {{"parts": len(record.get("parts", [])), "sha256": digest(record)}},
    }}
    receipt = {{"schema_version": "receipt_v1", "workdir": str(Path.cwd()), "messages": record.get("messages")}}
    cache_key = json.dumps({{"schema_version": "cache_v1", "roots": [str(p) for p in run.get("roots", [])]}})
    projection["next_action"] = redact_text(record.get("next", ""))
    {leak}
    return projection, receipt, cache_key
'''

LEAKS = [
    'projection["debug_location"] = str(Path.home() / ".cache" / run["id"])',
    'projection["first_agent_todo"] = record["question"][:300]',
    'projection["operator_note"] = run.get("message", "")',
    "pass",
    "pass",
    "pass",
]

HEADER = '''"""Generated projection builders ({name}): benchmark input for ovadapt-lint."""
import hashlib
import json
from pathlib import Path

SCHEMA = "{name}_projection_v1"


def compact_text(text, limit=80):
    return " ".join(str(text).split())[:limit]


def redact_text(text):
    return "[redacted]" if text else ""


def digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()
'''


def module_text(name: str, builders: int, rng: random.Random) -> str:
    parts = [HEADER.format(name=name)]
    for n in range(builders):
        parts.append(SECTION.format(name=name, n=n))
        parts.append(BUILDER.format(name=name, n=n, v=rng.randint(0, 3), leak=rng.choice(LEAKS)))
    return "".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--modules", type=int, default=120)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    for index in range(args.modules):
        # Mostly small modules, some large ones (each builder pair is about 1.4 KB).
        builders = rng.choice([2, 5, 10, 20, 40]) if index % 10 else rng.choice([80, 200, 400, 560])
        text = module_text(f"view{index:03d}", builders, rng)
        (args.out / f"projection_view_{index:03d}.py").write_text(text, encoding="utf-8")
        total += len(text)
    print(f"{args.modules} modules, {total / 1e6:.1f} MB in {args.out}")


if __name__ == "__main__":
    main()
