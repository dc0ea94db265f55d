"""The independent labelled credential set (issue 16) and its scorer.

The set is built from providers' documented token shapes and realistic near-misses by
benchmarks/make_credential_set.py; benchmarks/credential_score.py lints it as JSON string values,
bare JSON values and Python literals. The last test is the issue's acceptance bar for ovadapt-lint.
"""

from __future__ import annotations

import collections
import json
import sys
import zlib

import pytest

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import credential_score  # noqa: E402
import make_credential_set  # noqa: E402
from credential_tokens import BASE62  # noqa: E402

# Issue 16's "done when" bar and the set's size floor.
MIN_RECALL = 0.95
MAX_DECOY_RATE = 0.05
MIN_SECRETS = 330
MIN_DECOYS = 330
MIN_PROVIDERS = 65
CONTEXTS = {"bare", "key", "header", "curl", "url", "prose"}
FIELDS = {"id", "provider", "family", "format", "label", "context", "key", "value", "source"}

SET_PATH = credential_score.DEFAULT_SET


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return credential_score.load_set(SET_PATH)


@pytest.fixture(scope="module")
def ovadapt_score(records) -> dict:
    return credential_score.score_tools(records, ["ovadapt-lint"])["ovadapt-lint"]


def test_every_record_has_the_schema_fields_and_a_known_label_and_context(records) -> None:
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids))
    for r in records:
        assert set(r) == FIELDS, r["id"]
        assert r["label"] in {"secret", "decoy"}, r["id"]
        assert r["context"] in CONTEXTS, r["id"]
        assert r["source"].startswith(("http", "near-miss")) or "docs" in r["source"], r["id"]
        assert (r["key"] is not None) == (r["context"] == "key"), r["id"]
        if r["label"] == "secret":
            assert isinstance(r["value"], str) and r["value"], r["id"]


def test_set_is_large_and_diverse_enough_for_issue_16(records) -> None:
    secrets = [r for r in records if r["label"] == "secret"]
    decoys = [r for r in records if r["label"] == "decoy"]
    assert len(secrets) >= MIN_SECRETS and len(decoys) >= MIN_DECOYS
    assert len({r["provider"] for r in secrets}) >= MIN_PROVIDERS
    assert {r["context"] for r in secrets} == CONTEXTS
    # each decoy family the issue names is present
    assert {
        "placeholder",
        "wrong-shape",
        "identifier",
        "digest",
        "setting",
        "prose",
        "sequence",
        "package-name",
        "colour",
        "encoded-text",
    } <= {r["family"] for r in decoys}
    values = collections.Counter(json.dumps(r["value"]) for r in records)
    assert values.most_common(1)[0][1] == 1, "a value is both in two records"


def test_committed_set_is_exactly_what_the_seeded_generator_writes(records) -> None:
    assert make_credential_set.build(16) == records


def _crc_ok(token: str) -> bool:
    body, check = token[4:-6], token[-6:]
    value = 0
    for ch in check:
        value = value * 62 + BASE62.index(ch)
    return zlib.crc32(body.encode()) == value


def test_github_style_positives_carry_a_valid_crc32_except_the_labelled_mismatches(records) -> None:
    prefixes = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_")
    positives = [
        r
        for r in records
        if r["label"] == "secret"
        and r["context"] in {"key", "bare"}
        and r["value"].startswith(prefixes)
    ]
    valid = [r for r in positives if r["format"] != "pat-checksum-mismatch"]
    assert len(valid) >= 15 and all(_crc_ok(r["value"]) for r in valid)
    # A checksum mismatch must not hide a token (issue 16): these are secrets too, with a wrong CRC32.
    bad_crc = [r for r in positives if r["format"] == "pat-checksum-mismatch"]
    assert bad_crc and not any(_crc_ok(r["value"]) for r in bad_crc)


def test_scorer_prints_tables_and_ids_but_never_a_value(records, tmp_path, capsys) -> None:
    sample = [r for r in records if r["label"] == "secret"][:25] + [
        r for r in records if r["label"] == "decoy"
    ][:25]
    subset = tmp_path / "subset.jsonl"
    subset.write_text("".join(json.dumps(r) + "\n" for r in sample), encoding="utf-8")
    out_json = tmp_path / "score.json"
    assert (
        credential_score.main(
            ["--set", str(subset), "--tools", "ovadapt-lint", "--misses", "--json", str(out_json)]
        )
        == 0
    )
    printed = capsys.readouterr()
    text = printed.out + printed.err + out_json.read_text(encoding="utf-8")
    assert "### Recall per secret family" in printed.out and "| ovadapt-lint |" in printed.out
    for r in sample:
        if isinstance(r["value"], str) and len(r["value"]) >= 12:
            assert r["value"] not in text, r["id"]
    assert json.loads(out_json.read_text())["ovadapt-lint"]["totals"]["secret"]["total"] == 25


def test_scorer_reports_a_broken_set_in_one_line_and_exits_2(tmp_path, capsys) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "x", "label": "secret"\n', encoding="utf-8")
    assert credential_score.main(["--set", str(broken), "--tools", "ovadapt-lint"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.slow  # lints the whole labelled credential set
def test_ovadapt_lint_meets_issue_16_recall_and_decoy_bar(ovadapt_score) -> None:
    missed = ovadapt_score["missed_secret_ids"]
    flagged = ovadapt_score["flagged_decoy_ids"]
    assert ovadapt_score["recall"] >= MIN_RECALL, (
        f"recall {ovadapt_score['recall']:.3f}; missed: {missed[:40]}"
    )
    assert ovadapt_score["decoy_rate"] <= MAX_DECOY_RATE, (
        f"decoy rate {ovadapt_score['decoy_rate']:.3f}: {flagged}"
    )
