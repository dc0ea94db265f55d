"""Bad input becomes a notice, never a traceback, and the run goes on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ovadapt_lint import engine, lint_paths
from ovadapt_lint.config import Config

from .conftest import CORPUS


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path: Path) -> None:
    target = tmp_path / "secret.json"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0)
    try:
        codes = [f.code for f in lint_paths([str(tmp_path)])]
    finally:
        target.chmod(0o600)
    assert codes == ["OVA003"]


def test_unreadable_file_as_root(tmp_path: Path, monkeypatch) -> None:
    """Root reads everything, so simulate the failing open() the way the OS reports it."""
    target = tmp_path / "a.json"
    target.write_text("{}", encoding="utf-8")
    real_open = open

    def failing_open(path, *args, **kwargs):
        if str(path) == str(target):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    real_os_open = os.open

    def failing_os_open(
        path, *args, **kwargs
    ):  # the reader opens with os.open (no blocking on a FIFO)
        if str(path) == str(target):
            raise PermissionError(13, "Permission denied")
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing_open)
    monkeypatch.setattr(os, "open", failing_os_open)
    (finding,) = lint_paths([str(tmp_path)])
    assert finding.code == "OVA003" and "Permission denied" in finding.message


def test_file_removed_during_run(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    (tmp_path / "b.json").write_text("{", encoding="utf-8")
    real = engine.lint_target

    def remove_then_lint(target, config, *args):
        if target.path.name == "a.json":
            target.path.unlink()
        return real(target, config, *args)

    monkeypatch.setattr(engine, "lint_target", remove_then_lint)
    codes = [(Path(f.path).name, f.code) for f in lint_paths([str(tmp_path)])]
    assert codes == [("a.json", "OVA003"), ("b.json", "OVA001")]


def test_internal_error_becomes_notice(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    (tmp_path / "b.json").write_text('{"x": 1, "x": 2}', encoding="utf-8")

    def boom(source, *args, **kwargs):  # the engine also passes the file's role
        if source.path.name == "a.json":
            raise KeyError("bug")
        return real(source, *args, **kwargs)

    real = engine.check_json_source
    monkeypatch.setattr(engine, "check_json_source", boom)
    # The run going on after an internal error is under test, not publication: --scope all judges
    # the duplicate key in the plain b.json.
    findings = lint_paths([str(tmp_path)], Config(scope="all"))
    assert [(Path(f.path).name, f.code) for f in findings] == [
        ("a.json", "OVA009"),
        ("b.json", "OVA112"),
    ]
    assert "KeyError" in findings[0].message


def test_symlink_outside_tree_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("{bad", encoding="utf-8")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.json").symlink_to(outside)
    (tree / "loop").symlink_to(tree, target_is_directory=True)
    assert lint_paths([str(tree)]) == []


def test_whole_corpus_runs_without_internal_errors() -> None:
    assert not [f for f in lint_paths([str(CORPUS)]) if f.code == "OVA009"]


BAD_CONTRACT = (CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8")


def test_folder_walk_lints_ndjson_and_upper_case_extensions(tmp_path: Path) -> None:
    (tmp_path / "events.ndjson").write_text(" ".join(BAD_CONTRACT.split()) + "\n", encoding="utf-8")
    (tmp_path / "UPPER.JSON").write_text(BAD_CONTRACT, encoding="utf-8")
    (tmp_path / "Tool.PY").write_text(
        'X = {"issue_body_copied": "yes", "raw_notes_copied": False}\n', encoding="utf-8"
    )
    linted = {f.path.rsplit(os.sep, 1)[-1] for f in lint_paths([str(tmp_path)])}
    assert {"events.ndjson", "UPPER.JSON"} <= linted
    assert {t.path.name for t in engine.run([str(tmp_path)], Config()).files} == {
        "events.ndjson",
        "UPPER.JSON",
        "Tool.PY",
    }


def test_empty_pyvenv_cfg_does_not_hide_a_folder(tmp_path: Path) -> None:
    for name, cfg in (
        ("looks_like_venv", ""),
        ("real_venv", "home = /usr/bin\ninclude-system-site-packages = false\n"),
    ):
        (tmp_path / name).mkdir()
        (tmp_path / name / "pyvenv.cfg").write_text(cfg, encoding="utf-8")
        (tmp_path / name / "fixture.json").write_text(BAD_CONTRACT, encoding="utf-8")
    files = {t.path.parent.name for t in engine.run([str(tmp_path)], Config()).files}
    assert files == {"looks_like_venv"}


def test_a_run_that_lints_no_file_says_so(tmp_path: Path) -> None:
    from .conftest import run_cli

    (tmp_path / "notes.txt").write_text("nothing to lint\n", encoding="utf-8")
    proc = run_cli("--no-cache", str(tmp_path))
    assert proc.returncode == 0 and "warning: no files were linted" in proc.stderr
