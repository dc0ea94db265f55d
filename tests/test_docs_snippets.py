"""The README and docs/ work as written: every shell snippet that runs offline is run, and the README's
local pre-commit hook is run by real pre-commit.

A snippet line runs in a scratch copy of the corpus and pyproject.toml, with `ovadapt-lint` and
`python3` on PATH starting the interpreter running these tests. Its exit code must be the one its
comment states (`# exit 1: ...`), else 0. Lines that install from the package index, name a URL or
run this test suite are not run here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CORPUS, ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)
_NOT_OFFLINE = re.compile(r"\bpip install\b|\bpytest\b|://")
_EXIT = re.compile(r"#\s*exit (\d+)")


def _shell_lines() -> list[tuple[str, str]]:
    """(where, command line) for every line of every shell block, continuation lines joined."""
    lines = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for block in _SHELL_BLOCK.finditer(text):
            first = text.count("\n", 0, block.start(1)) + 1
            for offset, line in enumerate(block.group(1).replace("\\\n", " ").splitlines()):
                if line.strip() and not line.lstrip().startswith("#"):
                    lines.append((f"{doc.name}:{first + offset}", line.strip()))
    return lines


SHELL_LINES = _shell_lines()
OFFLINE = [(where, line) for where, line in SHELL_LINES if not _NOT_OFFLINE.search(line)]


def _bin(folder: Path) -> Path:
    """`ovadapt-lint` and `python3` as scripts that start this interpreter (it has this checkout)."""
    folder.mkdir()
    for name, command in (
        ("ovadapt-lint", f'"{sys.executable}" -m ovadapt_lint'),
        ("python3", f'"{sys.executable}"'),
        ("python", f'"{sys.executable}"'),
    ):
        script = folder / name
        script.write_text(f'#!/bin/sh\nexec {command} "$@"\n', encoding="utf-8")
        script.chmod(0o755)
    return folder


def test_the_readme_has_shell_snippets_and_most_run_offline() -> None:
    # The two install commands and the test commands are not run; everything else is.
    assert len(SHELL_LINES) >= 8
    assert len(OFFLINE) >= 5, SHELL_LINES


@pytest.mark.parametrize("where, line", OFFLINE, ids=[where for where, _ in OFFLINE])
def test_shell_snippet_runs_as_written(tmp_path: Path, where: str, line: str) -> None:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    work = tmp_path / "work"
    shutil.copytree(CORPUS, work / "corpus")
    shutil.copy2(ROOT / "pyproject.toml", work / "pyproject.toml")
    env = dict(
        os.environ,
        PATH=f"{_bin(tmp_path / 'bin')}{os.pathsep}{os.environ.get('PATH', '')}",
        NO_COLOR="1",
        XDG_CACHE_HOME=str(tmp_path / "xdg"),
    )
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", line],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    expected = int(m.group(1)) if (m := _EXIT.search(line)) else 0
    assert proc.returncode == expected, (where, line, proc.stdout[-2000:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr


def _first_yaml_block_after(heading: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = _YAML_BLOCK.search(text, text.index(heading))
    assert block, heading
    return block.group(1)


def test_the_readmes_local_pre_commit_hook_runs_as_written(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    import yaml  # PyYAML comes with pre-commit (the test extra)

    config = _first_yaml_block_after("## pre-commit\n")
    assert yaml.safe_load(config)["repos"][0]["repo"] == "local"
    project = tmp_path / "project"
    project.mkdir()
    git_env = dict(
        os.environ,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
    )
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, capture_output=True)
    (project / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    (project / "fixture.json").write_text(
        (CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (project / "notes.md").write_text("# Notes\n", encoding="utf-8")
    subprocess.run(["git", "add", "."], cwd=project, check=True, capture_output=True)
    env = dict(
        git_env,
        PATH=f"{_bin(tmp_path / 'bin')}{os.pathsep}{os.environ.get('PATH', '')}",
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit"),
        NO_COLOR="1",
        XDG_CACHE_HOME=str(tmp_path / "xdg"),
    )
    command = [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"]
    failing = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=300
    )
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert (
        "fixture.json" in failing.stdout
        and "OVA104" in failing.stdout
        and "notes.md" not in failing.stdout
    )

    (project / "fixture.json").write_text(
        '{"schema_version": "unrelated_v1", "summary": "one line"}\n', encoding="utf-8"
    )
    subprocess.run(["git", "add", "."], cwd=project, check=True, capture_output=True)
    passing = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=300
    )
    assert passing.returncode == 0, passing.stdout + passing.stderr
