"""The labelled corpus: every example's findings equal the expectations beside it.

Convention: ``corpus/<CODE>/bad_*`` must trigger ``CODE``; ``corpus/<CODE>/ok_*``
is a near miss. Each example ``X`` has ``X.expect``: ``#`` comments and one
``LINE CODE`` line per expected finding (none for a near miss).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ovadapt_lint import lint_paths
from ovadapt_lint.registry import all_rules

from .conftest import CORPUS

# Rules that cannot be shown by a committed file; each is tested elsewhere.
NOT_IN_CORPUS = {
    "OVA003": "an unreadable file cannot be committed (tests/test_robustness.py::test_unreadable_file)",
    "OVA009": "no input is known to trigger an internal error (tests/test_robustness.py::test_internal_error_becomes_notice)",
    "OVA010": "needs a --baseline run (tests/test_baseline.py)",
}

# Support files (a folder's config, a deny-list) start with "." or "_".
EXAMPLES = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix != ".expect" and not p.name.startswith((".", "_")))


def expected(example: Path) -> set[tuple[int, str]]:
    sidecar = example.with_name(example.name + ".expect")
    assert sidecar.is_file(), f"{example} has no {sidecar.name}"
    out = set()
    for line in sidecar.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            number, code = line.split()
            out.add((int(number), code))
    return out


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_example_matches_expectations(example: Path) -> None:
    found = {(f.line, f.code) for f in lint_paths([str(example)])}
    assert found == expected(example)


def test_every_rule_has_a_positive_and_a_near_miss() -> None:
    for code in all_rules():
        if code in NOT_IN_CORPUS:
            continue
        folder = CORPUS / code
        bad = [p for p in folder.glob("bad_*") if p.suffix != ".expect"]
        ok = [p for p in folder.glob("ok_*") if p.suffix != ".expect"]
        assert bad, f"corpus/{code} has no bad_* example"
        assert ok, f"corpus/{code} has no ok_* near miss"
        for example in bad:
            assert any(c == code for _, c in expected(example)), f"{example} does not expect {code}"
        for example in ok:
            assert not expected(example), f"{example} is a near miss but expects findings"


def test_corpus_exempt_rules_exist() -> None:
    assert set(NOT_IN_CORPUS) <= set(all_rules())
