"""Baselines: write, reformat, re-run (nothing new), change a value (reported again), prune."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json
from pathlib import Path

from .conftest import run_cli

FIXTURE = {
    # One finding per leak (issue 25): the transcript is OVA310, the path OVA501; the stdout only OVA205 sees.
    "session": {
        "session_token": "a81f9c2e7d4b",
        "transcript": "user: hi\nassistant: hello",
        "stdout": "3 tests failed\n  test_login: expected 200, got 500",
    },
    "runtime": {"cwd": "/Users/alice/work/private-project"},
    "summary": "one line",
}


def _write(path: Path, doc: dict, indent: int | None = 2) -> None:
    path.write_text(json.dumps(doc, indent=indent), encoding="utf-8")


def _codes(proc) -> list[str]:
    return sorted(f["code"] for f in json.loads(proc.stdout)["findings"])


def test_baseline_round_trip(tmp_path: Path) -> None:
    fixture = tmp_path / "fixtures" / "a.public.json"  # a published fixture: every rule judges it
    fixture.parent.mkdir()
    _write(fixture, FIXTURE)
    baseline = tmp_path / "baseline.json"
    before = _codes(run_cli("--format", "json", "fixtures", cwd=tmp_path))
    assert len(before) >= 4

    proc = run_cli("--write-baseline", str(baseline), "fixtures", cwd=tmp_path)
    assert proc.returncode == 0 and f"wrote {len(before)} baseline entries" in proc.stderr
    text = baseline.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["schema"] == "ovadapt-lint/baseline/v1" and len(data["entries"]) == len(before)
    for value in ("a81f9c2e7d4b", "alice", "hello"):
        assert value not in text  # identities and salted hashes only

    # Reformatted (other indentation, keys reordered, lines shifted): nothing new.
    reordered = {
        "summary": FIXTURE["summary"],
        "runtime": FIXTURE["runtime"],
        "session": FIXTURE["session"],
    }
    _write(fixture, reordered, indent=None)
    proc = run_cli("--format", "json", "--baseline", str(baseline), "fixtures", cwd=tmp_path)
    assert proc.returncode == 0 and _codes(proc) == []
    assert json.loads(proc.stdout)["summary"]["suppressed"] == len(before)

    # A changed offending value is a new finding; its old entry is now stale (OVA010).
    changed = json.loads(json.dumps(reordered))
    changed["session"]["session_token"] = "f00dbabe1234"
    _write(fixture, changed)
    proc = run_cli("--format", "json", "--baseline", str(baseline), "fixtures", cwd=tmp_path)
    assert proc.returncode == 1 and _codes(proc) == ["OVA010", "OVA201"]
    stale = next(f for f in json.loads(proc.stdout)["findings"] if f["code"] == "OVA010")
    assert "OVA201" in stale["message"] and "session.session_token" in stale["message"]
    assert "a81f9c2e7d4b" not in proc.stdout

    # --baseline-prune drops the stale entry; the new finding stays reported.
    proc = run_cli(
        "--format",
        "json",
        "--baseline",
        str(baseline),
        "--baseline-prune",
        "fixtures",
        cwd=tmp_path,
    )
    assert _codes(proc) == ["OVA201"]
    assert len(json.loads(baseline.read_text(encoding="utf-8"))["entries"]) == len(before) - 1


def test_show_suppressed_lists_what_was_hidden_and_why(tmp_path: Path) -> None:
    fixture = tmp_path / "a.public.json"  # a published fixture: every rule judges it
    _write(fixture, FIXTURE)
    builder = tmp_path / "b.py"
    # A projection builder: the attestation key makes the dict a projection.
    builder.write_text(
        "def build_packet(run):\n"
        '    return {"schema_version": "v0", "raw_output_copied": False, "stdout": run.stdout}'
        "  # ovadapt: ignore[OVA2]\n",
        encoding="utf-8",
    )
    baseline = tmp_path / "baseline.json"
    assert run_cli("--write-baseline", str(baseline), "a.public.json", cwd=tmp_path).returncode == 0
    proc = run_cli(
        "--baseline", str(baseline), "--show-suppressed", "--no-color", ".", cwd=tmp_path
    )
    assert proc.returncode == 0
    assert "Suppressed (" in proc.stdout
    assert (
        "[baseline baseline.json]" in proc.stdout and "[# ovadapt: ignore on line 2]" in proc.stdout
    )
    doc = json.loads(
        run_cli(
            "--format", "json", "--baseline", str(baseline), "--show-suppressed", ".", cwd=tmp_path
        ).stdout
    )
    reasons = {s["suppressed_by"] for s in doc["suppressed"]}
    assert reasons == {"baseline baseline.json", "# ovadapt: ignore on line 2"}
    sarif = json.loads(
        run_cli(
            "--format", "sarif", "--baseline", str(baseline), "--show-suppressed", ".", cwd=tmp_path
        ).stdout
    )
    kinds = {s["kind"] for r in sarif["runs"][0]["results"] for s in r.get("suppressions", [])}
    assert kinds == {"inSource", "external"}


def test_bad_baseline_files_are_usage_errors(tmp_path: Path) -> None:
    fixture = tmp_path / "a.json"
    _write(fixture, {"x": 1})
    missing = run_cli("--baseline", "nope.json", "a.json", cwd=tmp_path)
    assert missing.returncode == 2 and "baseline file not found" in missing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"entries": []}', encoding="utf-8")
    proc = run_cli("--baseline", str(bad), "a.json", cwd=tmp_path)
    assert proc.returncode == 2 and "not an ovadapt-lint baseline" in proc.stderr
    prune = run_cli("--baseline-prune", "a.json", cwd=tmp_path)
    assert prune.returncode == 2 and "--baseline-prune needs --baseline" in prune.stderr


def test_file_level_ignore_in_python(tmp_path: Path) -> None:
    target = tmp_path / "gen.py"
    # A projection builder: the attestation key makes the dict a projection.
    target.write_text(
        "# ovadapt: ignore-file[OVA205, OVA208]\n"
        "def build_packet(run):\n"
        '    return {"schema_version": "v0", "raw_output_copied": False,\n'
        '            "stdout": run.stdout, "cwd": "/Users/a/x"}\n',
        encoding="utf-8",
    )
    proc = run_cli("--format", "json", str(target))
    # The literal path is not ignored; a key name ("cwd") alone never makes a Python finding (issue 25).
    assert _codes(proc) == ["OVA501"]
