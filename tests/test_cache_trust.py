"""A cache that cannot lie (issue 15): the key covers everything a result depends on (selection,
config, rule pack, detecting dependencies), entries are authenticated with a key kept outside the
repository, --fix never takes edits from the cache, and a cache folder tracked by git is not used."""

# ovadapt: ignore-file

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from ovadapt_lint import Config

from .conftest import CORPUS, run_cli

TOKEN = "ghp_Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3V"


def _findings(proc) -> list:
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def _entries(cache: Path) -> list[Path]:
    """The result entries (``ab/cdef….json``), not the stat index beside them nor what lies beside an entry
    (a module's flow facts ``ab/cdef….facts.json``, a document's role ``ab/cdef….role.json``)."""
    return [p for p in cache.glob("??/*.json") if "." not in p.stem]


def test_cache_key_covers_the_rule_selection(tmp_path: Path, xdg: dict) -> None:
    # Raw storage folds its parts into one OVA314 finding, but only while OVA314 is selected.
    project = tmp_path / "p"
    project.mkdir()
    shutil.copy(CORPUS / "OVA314" / "bad_messages.jsonl", project / "messages.public.jsonl")
    cache = tmp_path / "cache"
    warm = _findings(run_cli("--format", "json", "--cache-dir", str(cache), str(project), env=xdg))
    assert [f["code"] for f in warm] == ["OVA314"]
    for selection in (["--ignore", "OVA314"], ["--select", "OVA30"]):
        uncached = _findings(
            run_cli("--format", "json", "--no-cache", *selection, str(project), env=xdg)
        )
        cached = _findings(
            run_cli(
                "--format", "json", "--cache-dir", str(cache), *selection, str(project), env=xdg
            )
        )
        assert uncached and all(f["code"] != "OVA314" for f in uncached)
        assert cached == uncached, selection


def _salt(config: Config, folder: Path) -> str:
    from ovadapt_lint import engine
    from ovadapt_lint.config import RunOptions

    cache = engine.open_run_cache(RunOptions(use_cache=True, cache_dir=folder), config)
    assert cache is not None
    return cache.key("json:source", b"{}")


def test_cache_key_covers_detector_versions_and_the_config_file(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    from importlib import metadata

    config_file = tmp_path / ".ovadapt-lint.toml"
    config_file.write_text("[tool.ovadapt-lint]\n", encoding="utf-8")
    config = Config(source=config_file)
    before = _salt(config, tmp_path / "cache")
    assert _salt(config, tmp_path / "cache") == before  # stable while nothing changes
    # Another config file (same analysis fields) is another key.
    config_file.write_text("[tool.ovadapt-lint]\n# changed\n", encoding="utf-8")
    assert _salt(config, tmp_path / "cache") != before
    config_file.write_text("[tool.ovadapt-lint]\n", encoding="utf-8")
    # An upgraded detect-secrets must not reuse results computed by the old one. The versions are kept in the
    # user's store under a stamp of the import path's folders, which an install changes (see below).
    from ovadapt_lint import cache as cache_module

    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: "99.0" if name == "detect-secrets" else real(name)
    )
    real_stamp = cache_module._path_stamp
    monkeypatch.setattr(cache_module, "_path_stamp", lambda: [*real_stamp(), ["upgraded", 1]])
    assert _salt(config, tmp_path / "cache") != before


def test_installing_a_package_changes_the_stamp_of_the_remembered_versions(
    tmp_path: Path, monkeypatch
) -> None:
    from ovadapt_lint.cache import _path_stamp

    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    before = _path_stamp()
    assert _path_stamp() == before
    (site / "detect_secrets-9.9.dist-info").mkdir()  # what pip writes for an install or an upgrade
    assert _path_stamp() != before


def test_a_planted_or_edited_cache_entry_is_a_miss(tmp_path: Path, xdg: dict) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "m.py").write_text(f'TOKEN = "{TOKEN}"\n', encoding="utf-8")
    cache = tmp_path / "cache"
    first = _findings(run_cli("--format", "json", "--cache-dir", str(cache), str(project), env=xdg))
    assert [f["code"] for f in first] == ["OVA401"]
    entries = _entries(cache)
    assert entries
    for forged in ("[]", json.dumps({"findings": "[]", "mac": "0" * 64})):
        for entry in entries:
            entry.write_text(forged, encoding="utf-8")
        again = _findings(
            run_cli("--format", "json", "--cache-dir", str(cache), str(project), env=xdg)
        )
        assert [f["code"] for f in again] == ["OVA401"], forged


def test_the_cache_key_lives_outside_the_repository_with_mode_0600(
    tmp_path: Path, xdg: dict
) -> None:
    project = tmp_path / "p"
    shutil.copytree(CORPUS / "OVA401", project)
    run_cli("--format", "json", str(project), cwd=tmp_path, env=xdg)
    key = Path(xdg["XDG_CACHE_HOME"]) / "ovadapt-lint" / "cache-key"
    assert key.is_file()
    if os.name == "posix":
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    secret = key.read_bytes()
    assert len(secret) >= 32
    assert (tmp_path / ".ovadapt_cache").is_dir()
    for path in (tmp_path / ".ovadapt_cache").rglob("*"):
        if path.is_file():
            assert secret not in path.read_bytes()


def test_fix_never_takes_edits_from_the_cache(tmp_path: Path, xdg: dict) -> None:
    project = tmp_path / "p"
    project.mkdir()
    module = project / "m.py"
    module.write_text(f'TOKEN = "{TOKEN}"\n', encoding="utf-8")
    cache = tmp_path / "cache"
    run_cli("--format", "json", "--cache-dir", str(cache), str(project), env=xdg)
    evil = "__import__('os').system('touch pwned')"
    key = Path(xdg["XDG_CACHE_HOME"]) / "ovadapt-lint" / "cache-key"
    for entry in _entries(cache):
        data = json.loads(entry.read_text(encoding="utf-8"))
        if isinstance(data, list):  # an unauthenticated entry
            for item in data:
                item["fix"] = [0, len(module.read_bytes()), evil]
            entry.write_text(json.dumps(data), encoding="utf-8")
        else:  # even an entry forged with the user's own key carries no edit that --fix would use
            from ovadapt_lint.cache import Cache

            stored = json.loads(data["findings"])
            # A Python module's entry holds its findings beside its flow facts; the run's joined flow
            # findings are an entry of their own, each finding with its file.
            if isinstance(stored, dict):
                items = (
                    stored["findings"]
                    if "findings" in stored
                    else [item for _, item in stored["flow"]]
                )
            else:
                items = stored
            for item in items:
                item["fix"] = [0, len(module.read_bytes()), evil]
            payload = json.dumps(stored)
            name = entry.parent.name + entry.stem
            entry.write_text(
                json.dumps(
                    {
                        "findings": payload,
                        "mac": Cache(cache, "", key.read_bytes())._mac(name, payload),
                    }
                ),
                encoding="utf-8",
            )
    proc = run_cli("--fix", "--cache-dir", str(cache), str(project), env=xdg)
    text = module.read_text(encoding="utf-8")
    assert "__import__" not in text, text
    assert "[redacted:credential]" in text and TOKEN not in text, (text, proc.stderr)


def test_a_cache_folder_tracked_by_git_is_not_used(tmp_path: Path, xdg: dict) -> None:
    if shutil.which("git") is None:
        pytest.skip("needs git")
    project = tmp_path / "repo"
    project.mkdir()
    (project / "m.py").write_text(f'TOKEN = "{TOKEN}"\n', encoding="utf-8")
    cache = project / ".ovadapt_cache"
    run_cli("--format", "json", str(project), cwd=project, env=xdg)
    assert _entries(cache)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-f", ".ovadapt_cache"], check=True)
    for entry in _entries(cache):  # a committed cache that hides the secret
        entry.write_text("[]", encoding="utf-8")
    proc = run_cli("--format", "json", str(project), cwd=project, env=xdg)
    assert [f["code"] for f in _findings(proc)] == ["OVA401"]
    assert "tracked by git" in proc.stderr
