"""The second-round labelled credential set (issue 26): the groups the issue names, written for ovadapt-lint
(benchmarks/make_credential_round2.py, seeded), scored like the first set (benchmarks/credential_score.py)."""

from __future__ import annotations

import collections
import sys

import pytest

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import credential_score  # noqa: E402
import make_credential_round2  # noqa: E402

SET_PATH = ROOT / "tests" / "data" / "credentials" / "round2.jsonl"
# Issue 26's "done when" bar, overall, and the size it asks for.
MIN_RECALL = 0.98
MAX_DECOY_RATE = 0.01
MIN_RECORDS = 150
SECRET_GROUPS = {
    "context-name",
    "hex-under-name",
    "curl-userinfo",
    "provider-format",
    "filter-hidden",
}
DECOY_GROUPS = SECRET_GROUPS | {
    "repetition-sequence",
    "word-made",
    "file-name",
    "csrf-public",
    "header-template",
}


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return credential_score.load_set(SET_PATH)


def test_committed_set_is_what_the_seeded_generator_writes(records) -> None:
    assert make_credential_round2.build(26) == records
    # The hold-out set (written after the rules were settled; scored in the closing note, not held to a bar here).
    holdout = credential_score.load_set(SET_PATH.with_name("round2_holdout.jsonl"))
    assert make_credential_round2.build_holdout(27) == holdout


def test_set_covers_every_group_of_the_issue_with_positives_and_decoys(records) -> None:
    assert len(records) >= MIN_RECORDS and len({r["id"] for r in records}) == len(records)
    groups = collections.Counter((r["label"], r["family"]) for r in records)
    assert {f for label, f in groups if label == "secret"} == SECRET_GROUPS
    assert {f for label, f in groups if label == "decoy"} == DECOY_GROUPS
    assert len({r["value"] for r in records}) == len(records)


def test_ovadapt_lint_meets_issue_26_recall_and_decoy_bar(records) -> None:
    score = credential_score.score_tools(records, ["ovadapt-lint"])["ovadapt-lint"]
    assert score["recall"] >= MIN_RECALL, score["missed_secret_ids"]
    assert score["decoy_rate"] <= MAX_DECOY_RATE, score["flagged_decoy_ids"]
