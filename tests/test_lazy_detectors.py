"""Start-up (issue 29): a detector's regular expressions are compiled only when a text can meet them, and what
a run on one JSON file never uses is not imported. Pinned by what gets compiled and imported, never by time."""

# ovadapt: ignore-file

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ovadapt_lint.detect import credentials, signatures
from ovadapt_lint.detect.credentials import LazyRegex, _detect_secrets_regexes, _DetectSecretsIndex
from ovadapt_lint.detect.needles import prefix_map
from ovadapt_lint.detect.scanner import StringScanner
from ovadapt_lint.pack import RulePack
from ovadapt_lint.registry import all_rules

ROOT = Path(__file__).resolve().parents[1]
PLAIN = "the quarterly report lists nine open items"  # no needle of any built-in signature


def _fresh_pack() -> RulePack:
    # Not builtin_pack(): other tests share (and compile) its detectors.
    return RulePack(rules=all_rules())


def test_a_signature_whose_needles_are_absent_is_never_compiled() -> None:
    pack = _fresh_pack()
    scanner = StringScanner(pack)
    scanner.scan(PLAIN)
    scanner.scan(PLAIN, prose=True, raw_content=False)
    compiled = [s for s in pack.text_signatures if "patterns" in s.__dict__]
    guarded = [s for s in pack.text_signatures if s.needles]
    assert len(guarded) >= 20
    # Only signatures without needles were tried (they run on every text); the rest wait for a needle.
    assert all(not s.needles or any(n in PLAIN.lower() for n in s.needles) for s in compiled)
    assert sum(1 for s in guarded if "patterns" not in s.__dict__) >= 20

    target = next(s for s in guarded if s.in_prose and not s.whole_value)
    assert "patterns" not in target.__dict__
    scanner.scan(f"{PLAIN} {target.needles[0]} and more")
    assert "patterns" in target.__dict__  # its needle occurred: now it was tried


def test_a_lazily_compiled_signature_finds_what_an_eager_one_finds() -> None:
    pack = _fresh_pack()
    for signature in pack.text_signatures:
        eager = tuple(
            re.compile(p, re.IGNORECASE if signature.ignore_case else 0) for p in signature.sources
        )
        assert [p.pattern for p in signature.patterns] == [p.pattern for p in eager]
        assert [p.flags for p in signature.patterns] == [p.flags for p in eager]


def test_a_pickled_signature_ships_without_its_compiled_patterns() -> None:
    import pickle

    pack = _fresh_pack()
    signature = next(s for s in pack.text_signatures if s.needles)
    signature.patterns  # compiled here
    copy = pickle.loads(pickle.dumps(signature))
    assert "patterns" not in copy.__dict__
    assert [p.pattern for p in copy.patterns] == [p.pattern for p in signature.patterns]


def test_one_needle_index_serves_every_plan_of_a_signature_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[int] = []

    class Counting(signatures.Needles):
        def __init__(self, needles, prefixes=None) -> None:
            built.append(len(needles))
            super().__init__(needles, prefixes)

    monkeypatch.setattr(signatures, "Needles", Counting)
    sigs = _fresh_pack().text_signatures
    for raw_content in (True, False):
        for prose in (True, False):
            signatures.scan_text(PLAIN, sigs, prose=prose, raw_content=raw_content)
    # One index of the needles as written and one of the case-folded ones, not one pair per plan.
    assert len(built) == 2


def _fresh_index() -> tuple[tuple[str, str, LazyRegex], ...]:
    return tuple(
        (code, kind, LazyRegex(regex.pattern, regex.flags))
        for code, kind, regex in _detect_secrets_regexes()
    )


def test_a_detect_secrets_regex_is_compiled_only_when_its_literals_occur() -> None:
    rows = _fresh_index()
    index = _DetectSecretsIndex(rows)
    chosen = index.candidates(PLAIN)
    compiled = [regex for _, _, regex in rows if regex._compiled is not None]
    # What the text can meet is compiled (and handed out compiled); nothing else is.
    assert [r for _, _, r in chosen] == [regex._compiled for regex in compiled]
    assert len(compiled) < len(rows) // 2

    aws = next(regex for _, kind, regex in rows if kind == "AWS Access Key")
    assert aws._compiled is None
    key_id = "AKIA" + "Q7W2E9R4T6Y1U3I5"
    found = index.candidates(f"id {key_id} here")
    assert any(r is aws._compiled and r.search(key_id) for _, _, r in found)


def test_the_prefix_map_names_every_needle_a_needle_starts_with() -> None:
    needles = {"s", "sk", "sk-", "sk-ant-", "k", "-", "ghp_", "gh"}
    found = prefix_map(needles)
    for needle in needles:
        assert set(found[needle]) == {m for m in needles if needle.startswith(m)}


def test_a_no_cache_run_on_an_adapter_fixture_imports_neither_difflib_nor_gitleaks(
    tmp_path: Path,
) -> None:
    fixture = ROOT / "tests" / "data" / "projections" / "session-memory-adapter.public.json"
    target = tmp_path / fixture.name
    target.write_bytes(fixture.read_bytes())
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "ovadapt_lint", "--no-cache", str(target)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()}
    assert "jsonschema" in imported  # the adapter was validated
    # difflib judges only a schema_version no contract names exactly; gitleaks only extension rule files.
    assert "difflib" not in imported
    assert "ovadapt_lint.detect.gitleaks" not in imported


def test_detect_secrets_gates_are_read_once_then_taken_from_the_users_store(
    xdg: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ovadapt_lint.detect import required_literals as literals

    rows = _fresh_index()
    calls: list[str] = []
    real = literals.required_literals

    def counting(pattern: str, flags: int = 0):
        calls.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(literals, "required_literals", counting)
    first = credentials._stored_gates(rows)
    assert len(calls) == len(rows)  # read off every parse tree, then stored
    second = credentials._stored_gates(rows)
    assert len(calls) == len(rows)  # the second index reads none
    assert second == first == [real(r.pattern, r.flags) for _, _, r in rows]

    # A table of the wrong shape is not trusted: the literals are read again.
    (stored,) = (Path(xdg["XDG_CACHE_HOME"]) / "ovadapt-lint").glob(
        "literals-of-detect-secrets-*.json"
    )
    name = stored.name
    from ovadapt_lint import userstore

    userstore.write_table(name, [["", True]] * len(rows))
    assert credentials._stored_gates(rows) == first
    assert len(calls) == 2 * len(rows)
