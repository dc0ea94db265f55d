"""The pre-commit hook, run by real pre-commit (installed from the registry by the test extra)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CORPUS, ROOT


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


@pytest.mark.slow
def test_hook_fails_on_a_bad_fixture_and_passes_on_a_clean_one(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.fail("git is required for the pre-commit test")
    if not (ROOT / ".git").exists():
        pytest.skip("the checkout is not a git repository (pre-commit try-repo needs one)")
    project = tmp_path / "project"
    project.mkdir()
    _git("init", "-q", cwd=project)
    fixture = project / "fixture.json"
    fixture.write_text((CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8"), encoding="utf-8")
    _git("add", "fixture.json", cwd=project)
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com", NO_COLOR="1")
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "ovadapt-lint", "--files", "fixture.json",
               "--color", "never"]
    failing = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=1200)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "OVA104" in failing.stdout and "Failed" in failing.stdout

    fixture.write_text('{"schema_version": "unrelated_v1", "summary": "one line"}\n', encoding="utf-8")
    _git("add", "fixture.json", cwd=project)
    passing = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=1200)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
