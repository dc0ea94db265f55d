"""The labelled corpus: every example's findings equal the expectations beside it.

Convention: ``corpus/<CODE>/bad_*`` must trigger ``CODE``; ``corpus/<CODE>/ok_*``
is a near miss. Each example ``X`` has ``X.expect``: ``#`` comments and one
``LINE CODE`` line per expected finding (none for a near miss), and optionally
``X.fixed``: the file as ``--fix`` leaves it, and ``X.unsafe-fixed``: as ``--fix --unsafe-fixes`` leaves it
(a second run of it changes nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ovadapt_lint import cli, lint_paths
from ovadapt_lint.registry import all_rules

from .conftest import CORPUS

# Rules that cannot be shown by a committed file; each is tested elsewhere.
NOT_IN_CORPUS = {
    "OVA003": "an unreadable file cannot be committed (tests/test_robustness.py::test_unreadable_file)",
    "OVA009": "no input is known to trigger an internal error (tests/test_robustness.py::test_internal_error_becomes_notice)",
    "OVA010": "needs a --baseline run (tests/test_baseline.py)",
}

# Sidecars beside an example: its expectations and, optionally, its --fix output.
SIDECARS = (".expect", ".fixed", ".unsafe-fixed")
# Support files (a folder's config, a deny-list) start with "." or "_".
# corpus/flows holds multi-module projects with expectations in the files (tests/test_flow_corpus.py).
EXAMPLES = sorted(
    p
    for p in CORPUS.rglob("*")
    if p.is_file()
    and p.suffix not in SIDECARS
    and not p.name.startswith((".", "_"))
    and p.relative_to(CORPUS).parts[0] != "flows"
)
FIXED = [p for p in EXAMPLES if p.with_name(p.name + ".fixed").is_file()]
UNSAFE_FIXED = [p for p in EXAMPLES if p.with_name(p.name + ".unsafe-fixed").is_file()]


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
        bad = [p for p in folder.glob("bad_*") if p.suffix not in SIDECARS]
        ok = [p for p in folder.glob("ok_*") if p.suffix not in SIDECARS]
        assert bad, f"corpus/{code} has no bad_* example"
        assert ok, f"corpus/{code} has no ok_* near miss"
        for example in bad:
            assert any(c == code for _, c in expected(example)), f"{example} does not expect {code}"
        for example in ok:
            assert not expected(example), f"{example} is a near miss but expects findings"


def test_corpus_exempt_rules_exist() -> None:
    assert set(NOT_IN_CORPUS) <= set(all_rules())


def fixed_bytes(example: Path, folder: Path, *flags: str) -> bytes:
    """``example`` after `ovadapt-lint --fix` (and ``flags``), run on a copy beside copies of its folder's
    support files."""
    for support in example.parent.iterdir():
        if support.is_file() and support.name.startswith((".", "_")):
            (folder / support.name).write_bytes(support.read_bytes())
    copy = folder / example.name
    copy.write_bytes(example.read_bytes())
    cli.main([str(copy), "--fix", "--no-cache", "--format", "concise", *flags])
    return copy.read_bytes()


@pytest.mark.parametrize("example", FIXED, ids=lambda p: str(p.relative_to(CORPUS)))
def test_fix_output_matches_the_fixed_sidecar(example: Path, tmp_path: Path) -> None:
    assert fixed_bytes(example, tmp_path) == example.with_name(example.name + ".fixed").read_bytes()


@pytest.mark.parametrize("example", UNSAFE_FIXED, ids=lambda p: str(p.relative_to(CORPUS)))
def test_unsafe_fix_output_matches_its_sidecar_and_a_second_run_changes_nothing(
    example: Path, tmp_path: Path
) -> None:
    expected = example.with_name(example.name + ".unsafe-fixed").read_bytes()
    assert fixed_bytes(example, tmp_path, "--unsafe-fixes") == expected
    copy = tmp_path / example.name
    cli.main([str(copy), "--fix", "--unsafe-fixes", "--no-cache", "--format", "concise"])
    assert copy.read_bytes() == expected
    if example.suffix == ".py":
        compile(expected, str(example), "exec")  # still Python


def test_credential_and_path_cases_pin_their_fix_output() -> None:
    codes = [
        code for code, rule in all_rules().items() if rule.category in ("credential", "local-path")
    ]
    for example in EXAMPLES:
        if example.parent.name in codes and example.name.startswith("bad_"):
            assert example in FIXED, f"{example.relative_to(CORPUS)} has no .fixed sidecar"
    assert len(FIXED) >= len(codes)
