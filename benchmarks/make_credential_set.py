"""Regenerate the labelled credential set (issue 16) from the documented token shapes.

    python3 benchmarks/make_credential_set.py [--out tests/data/credentials/labelled.jsonl] [--seed 16]

One JSON object per line: id, provider, family, format, label ("secret" | "decoy"), context (bare, key,
header, curl, url, prose), key (the key name for context "key", else null), value (the exact text
the context holds), source (the documentation of the shape, or "near-miss of ..."). Token bodies come
from a seeded RNG, so the same seed writes the same file; the values are fake and were never issued.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from credential_decoys import decoys  # noqa: E402
from credential_positives import POSITIVES, PROSE  # noqa: E402
from credential_tokens import Tokens  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "tests" / "data" / "credentials" / "labelled.jsonl"
DEFAULT_CONTEXTS = ["key", "url", "bare", "header", "key", "curl", "prose"]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")[:24]


def _render(spec: dict, context: str, token: str, t: Tokens, i: int) -> tuple[str, str | None]:
    """(value, key) for one positive: the token as the context would hold it."""
    host = spec["host"]
    if context == "key":
        return token, spec["keys"][i % len(spec["keys"])]
    if context == "header":
        return spec.get("header", "Authorization: Bearer {t}").format(t=token), None
    if context == "curl":
        tmpl = spec.get("curl") or (
            'curl -H "'
            + spec.get("header", "Authorization: Bearer {t}")
            + f'" https://{host}/v1/me'
        )
        return tmpl.format(t=token, sid=t.hex(32)), None
    if context == "url":
        return spec["url"].format(t=token), None
    if context == "prose":
        return PROSE[i % len(PROSE)].format(p=spec["provider"], t=token), None
    return token, None


def positives(t: Tokens) -> list[dict]:
    records = []
    for spec in POSITIVES:
        contexts = spec.get("contexts") or [
            c for c in DEFAULT_CONTEXTS if c != "url" or "url" in spec
        ]
        for i in range(spec["n"]):
            context = contexts[i % len(contexts)]
            token = spec["make"](t)
            value, key = _render(spec, context, token, t, i)
            records.append(
                dict(
                    provider=spec["provider"],
                    family=spec["family"],
                    format=spec["format"],
                    label="secret",
                    context=context,
                    key=key,
                    value=value,
                    source=spec["source"],
                )
            )
    return records


def build(seed: int) -> list[dict]:
    t = Tokens(seed)
    records = positives(t)
    for family, provider, context, key, value, source in decoys(t):
        label, fmt = "decoy", family
        if "not the CRC32" in source:
            # Issue 16: a checksum mismatch must not hide a token (a mistyped or truncated copy is still a leak).
            label, family, fmt = "secret", "source-control", "pat-checksum-mismatch"
            source = (
                "https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/ "
                "(last six characters are not the CRC32 of the body; issue 16: a checksum mismatch must "
                "not hide a token)"
            )
        records.append(
            dict(
                provider=provider,
                family=family,
                format=fmt,
                label=label,
                context=context,
                key=key,
                value=value,
                source=source,
            )
        )
    counters: dict[str, int] = {}
    for rec in records:
        prefix = "s" if rec["label"] == "secret" else "d"
        counters[prefix] = counters.get(prefix, 0) + 1
        rec["id"] = f"{prefix}{counters[prefix]:03d}-{_slug(rec['provider'] + '-' + rec['format'])}"
    order = ["id", "provider", "family", "format", "label", "context", "key", "value", "source"]
    return [{k: rec[k] for k in order} for rec in records]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=16)
    args = ap.parse_args(argv)
    records = build(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    n_pos = sum(r["label"] == "secret" for r in records)
    print(
        f"wrote {len(records)} records ({n_pos} secrets, {len(records) - n_pos} decoys, "
        f"{len({r['provider'] for r in records if r['label'] == 'secret'})} providers) to {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
