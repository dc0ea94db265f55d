"""Warm runs (issue 14): unchanged files are answered from the stat index without being read, a change is
always seen, and what is kept in the user's store cannot be forged."""

# ovadapt: ignore-file

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ovadapt_lint import Config, engine
from ovadapt_lint.cache import Cache
from ovadapt_lint.config import RunOptions

TOKEN = "ghp_Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3V"


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "p"
    project.mkdir()
    (project / "clean.py").write_text("X = 1\n", encoding="utf-8")
    (project / "leak.py").write_text(f'T = "{TOKEN}"\n', encoding="utf-8")
    old = 1_600_000_000  # well before the run: not "racily clean"
    for path in project.iterdir():
        os.utime(path, (old, old))
    return project


def _run(project: Path, cache: Path) -> list[tuple[str, str]]:
    options = RunOptions(cache_dir=cache, use_cache=True)
    result = engine.run([str(project)], Config(), options=options)
    return sorted((Path(f.path).name, f.code) for f in result.findings)


def test_unchanged_files_are_answered_without_reading_them(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    first = _run(project, cache)
    assert first == [("leak.py", "OVA401")]
    reads: list[str] = []
    real = engine._read_bytes
    monkeypatch.setattr(
        engine, "_read_bytes", lambda path, size: (reads.append(path.name), real(path, size))[1]
    )
    assert _run(project, cache) == first
    assert reads == []


def test_a_warm_run_takes_the_entries_from_the_stat_index_without_reading_their_files(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    first = _run(project, cache)
    entries: list[str] = []
    real = Cache.get_entry
    monkeypatch.setattr(
        Cache,
        "get_entry",
        lambda self, key, display: (entries.append(display), real(self, key, display))[1],
    )
    assert _run(project, cache) == first
    assert entries == []  # one file read (the index) answers both files


def test_a_changed_file_is_read_again_even_with_the_same_size_and_time(
    tmp_path: Path, xdg: dict
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    assert _run(project, cache) == [("leak.py", "OVA401")]
    clean, leak = project / "clean.py", project / "leak.py"
    text = leak.read_text(encoding="utf-8")
    clean.write_text(text, encoding="utf-8")  # now a leak too
    leak.write_text("Y = " + "0" * (len(text) - 5) + "\n", encoding="utf-8")  # same size, clean now
    assert leak.stat().st_size == len(text)
    # Same size and the old mtime: the inode's ctime still moved, so the index does not match.
    for path in (clean, leak):
        os.utime(path, (1_600_000_000, 1_600_000_000))
    assert _run(project, cache) == [("clean.py", "OVA401")]


def test_a_file_changed_moments_ago_is_not_trusted_to_the_index(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    fresh = project / "fresh.py"
    fresh.write_text("Z = 2\n", encoding="utf-8")  # mtime: now
    _run(project, cache)
    reads: list[str] = []
    real = engine._read_bytes
    monkeypatch.setattr(
        engine, "_read_bytes", lambda path, size: (reads.append(path.name), real(path, size))[1]
    )
    _run(project, cache)
    assert reads == ["fresh.py"]


def test_a_forged_stat_index_is_ignored(tmp_path: Path, xdg: dict) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    _run(project, cache)
    (index,) = cache.glob("index-*.json")
    doc = json.loads(index.read_text(encoding="utf-8"))
    entries = json.loads(doc["entries"])
    leak_entry = next(v for k, v in entries.items() if k.endswith("leak.py"))
    for name, entry in entries.items():
        if name.endswith("clean.py"):
            entry[4] = leak_entry[4]  # the clean file's key now points at the leak's findings
    doc["entries"] = json.dumps(entries)
    index.write_text(json.dumps(doc), encoding="utf-8")
    assert _run(project, cache) == [("leak.py", "OVA401")]


def _importtime(args: list[str], env: dict) -> str:
    full = dict(os.environ, **env)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "ovadapt_lint", "--no-cache", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    return proc.stderr


def test_detect_secrets_is_not_imported_once_its_table_is_stored(tmp_path: Path, xdg: dict) -> None:
    target = tmp_path / "a.json"
    target.write_text(
        json.dumps({"note": "see ghp_" + "Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3V"}), encoding="utf-8"
    )
    first = _importtime([str(target)], xdg)
    assert "detect_secrets.plugins.base" in first  # the table is built from the installed plugins
    tables = list((Path(xdg["XDG_CACHE_HOME"]) / "ovadapt-lint").glob("detect-secrets-*.json"))
    assert len(tables) == 1
    second = _importtime([str(target)], xdg)
    assert "detect_secrets.plugins.base" not in second and " requests" not in second


def test_a_forged_detect_secrets_table_is_rebuilt(tmp_path: Path, xdg: dict) -> None:
    from ovadapt_lint.detect import credentials

    credentials._detect_secrets_regexes.cache_clear()
    try:
        honest = credentials._detect_secrets_regexes()
        (table,) = (Path(xdg["XDG_CACHE_HOME"]) / "ovadapt-lint").glob("detect-secrets-*.json")
        doc = json.loads(table.read_text(encoding="utf-8"))
        doc["payload"] = json.dumps(
            [["OVA401", "AWS Access Key", "(?!)", 0]]
        )  # a regex that never matches
        table.write_text(json.dumps(doc), encoding="utf-8")
        credentials._detect_secrets_regexes.cache_clear()
        assert [r.pattern for _, _, r in credentials._detect_secrets_regexes()] == [
            r.pattern for _, _, r in honest
        ]
    finally:
        credentials._detect_secrets_regexes.cache_clear()


def test_a_cached_run_fingerprints_and_baselines_a_credential_in_a_json_key_as_a_fresh_run(
    tmp_path: Path, xdg: dict
) -> None:
    # A home path under a key that is a token: its finding's JSON path quotes the token. The cache stores it
    # masked, so a fresh run must carry the same masked path, or fingerprints and baseline entries differ
    # between fresh and cached runs, and a baseline written by a fresh run holds the token.
    from .conftest import run_cli

    project = tmp_path / "p"
    project.mkdir()
    (project / "a.public.json").write_text(
        json.dumps({TOKEN: "/Users/operator/state.json"}) + "\n", encoding="utf-8"
    )
    fresh = run_cli("--output-format", "json", "a.public.json", cwd=project, env=xdg)
    cached = run_cli("--output-format", "json", "a.public.json", cwd=project, env=xdg)
    assert (project / ".ovadapt_cache").is_dir()
    prints = [
        sorted((f["code"], f["json_path"], f["fingerprint"]) for f in json.loads(out)["findings"])
        for out in (fresh.stdout, cached.stdout)
    ]
    assert prints[0] == prints[1] and len(prints[0]) == 2, fresh.stdout + fresh.stderr
    run_cli("--no-cache", "--write-baseline", "b.json", "a.public.json", cwd=project, env=xdg)
    assert TOKEN not in (project / "b.json").read_text(encoding="utf-8")
    covered = run_cli("--baseline", "b.json", "a.public.json", cwd=project, env=xdg)
    assert covered.returncode == 0, covered.stdout + covered.stderr


def test_a_run_the_cache_answers_imports_no_detector(tmp_path: Path, xdg: dict) -> None:
    """The cache's key covers the repository's .gitignore (repository.ignore_digest): keying a warm run's
    results must not import the detectors (detect/: their tables and regular expressions) it never runs."""
    project, cache = _project(tmp_path), tmp_path / "cache"
    args = [sys.executable, "-X", "importtime", "-m", "ovadapt_lint", "--cache-dir", str(cache)]
    args += ["--format", "json"]  # a text report redacts what it quotes, with the detectors
    env = dict(os.environ, **xdg)
    cold = subprocess.run(
        [*args, str(project)], capture_output=True, text=True, env=env, timeout=120
    )
    assert cold.returncode == 1 and "ovadapt_lint.detect" in cold.stderr
    warm = subprocess.run(
        [*args, str(project)], capture_output=True, text=True, env=env, timeout=120
    )
    assert warm.returncode == 1 and json.loads(warm.stdout)["summary"]["by_code"] == {"OVA401": 1}
    assert "ovadapt_lint.cache" in warm.stderr and "ovadapt_lint.detect" not in warm.stderr
