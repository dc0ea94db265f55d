"""Parallel runs and the result cache behave like a serial, uncached run (no timing here:
speed is measured by benchmarks/run.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .conftest import CORPUS, run_cli


def _findings(proc) -> list:
    return json.loads(proc.stdout)["findings"]


def test_jobs_do_not_change_the_report(tmp_path: Path) -> None:
    serial = run_cli("--format", "json", "--no-cache", "--jobs", "1", str(CORPUS))
    parallel = run_cli("--format", "json", "--no-cache", "--jobs", "2", str(CORPUS))
    assert serial.returncode == parallel.returncode == 1
    assert _findings(serial) == _findings(parallel)
    text = run_cli("--no-color", "--no-cache", "--jobs", "2", str(CORPUS / "OVA104"))
    assert "|" in text.stdout  # code frames are read back for files linted by workers


def test_cache_round_trip(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS / "OVA409", corpus)
    cache = tmp_path / "cache"
    first = run_cli("--format", "json", "--cache-dir", str(cache), str(corpus))
    assert (
        (cache / "CACHEDIR.TAG")
        .read_text(encoding="utf-8")
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    entries = [p for p in cache.rglob("*.json")]
    assert entries
    second = run_cli("--format", "json", "--cache-dir", str(cache), str(corpus))
    assert _findings(first) == _findings(second)
    stored = "".join(p.read_text(encoding="utf-8") for p in entries)
    for secret in ("hunter2", "correcthorsebatterystaple", "abc123def"):
        assert secret not in stored
    # A changed file is analysed again.
    bad = corpus / "bad_assignments.json"
    bad.write_text('{"notes": ["nothing to see"]}', encoding="utf-8")
    third = run_cli("--format", "json", "--cache-dir", str(cache), str(corpus))
    assert not [f for f in _findings(third) if f["path"].endswith("bad_assignments.json")]


def test_no_cache_writes_nothing_and_machine_formats_have_no_progress(tmp_path: Path) -> None:
    shutil.copytree(CORPUS / "OVA104", tmp_path / "c")
    proc = run_cli("--format", "json", "--no-cache", "c", cwd=tmp_path)
    assert not (tmp_path / ".ovadapt_cache").exists()
    assert proc.stderr == ""
    run_cli("c", cwd=tmp_path)
    assert (tmp_path / ".ovadapt_cache" / "CACHEDIR.TAG").is_file()
    assert (
        (tmp_path / ".ovadapt_cache" / ".gitignore")
        .read_text(encoding="utf-8")
        .strip()
        .endswith("*")
    )
