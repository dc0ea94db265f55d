"""The pre-commit hook, run by real pre-commit (installed from the registry by the test extra)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CORPUS, ROOT


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


_IDENTITY = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory) -> tuple[Path, str, dict]:
    """This checkout as it is now (uncommitted edits too), committed once into a scratch repository, and
    one pre-commit home for the whole run: pre-commit builds the hook's environment once (15-40 s), not
    once per call as `pre-commit try-repo` does (it keeps its store in a new temporary folder)."""
    if shutil.which("git") is None:
        pytest.fail("git is required for the pre-commit test")
    if not (ROOT / ".git").exists():
        pytest.skip("the checkout is not a git repository (pre-commit try-repo needs one)")
    base = tmp_path_factory.mktemp("pre-commit")
    copy = base / "hooks"
    copy.mkdir()
    files = _git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT).split(
        "\0"
    )
    for name in filter(None, files):
        source = ROOT / name
        if source.is_symlink() or source.is_file():  # src/ovadapt_lint/rules is a link to rules/
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name, follow_symlinks=False)
    env = dict(os.environ, PRE_COMMIT_HOME=str(base / "cache"), NO_COLOR="1", **_IDENTITY)
    env.pop(
        "PYTHONPATH", None
    )  # the hook must run the copy pre-commit installed, not this checkout's src
    _git("init", "-q", cwd=copy)
    _git("add", "-A", cwd=copy)
    subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", "hooks"],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
    )
    return copy, _git("rev-parse", "HEAD", cwd=copy).strip(), env


def _use_hooks(project: Path, hook_repo: tuple[Path, str, dict], *hook_ids: str) -> dict:
    """The project's .pre-commit-config.yaml, as the README shows it, naming the scratch hook repository."""
    import yaml  # PyYAML comes with pre-commit (the test extra)

    hooks, rev, env = hook_repo
    config = {
        "repos": [{"repo": str(hooks), "rev": rev, "hooks": [{"id": hook} for hook in hook_ids]}]
    }
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    _git("add", ".pre-commit-config.yaml", cwd=project)
    return env


@pytest.mark.slow
@pytest.mark.xdist_group("pre-commit")  # one worker builds the shared hook environment
def test_hook_fails_on_a_bad_fixture_and_passes_on_a_clean_one(tmp_path: Path, hook_repo) -> None:
    project = tmp_path / "project"
    project.mkdir()
    _git("init", "-q", cwd=project)
    fixture = project / "fixture.json"
    fixture.write_text(
        (CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    _git("add", "fixture.json", cwd=project)
    env = _use_hooks(project, hook_repo, "ovadapt-lint")
    command = [
        sys.executable,
        "-m",
        "pre_commit",
        "run",
        "--files",
        "fixture.json",
        "--color",
        "never",
    ]
    failing = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=1200
    )
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "OVA104" in failing.stdout and "Failed" in failing.stdout

    fixture.write_text(
        '{"schema_version": "unrelated_v1", "summary": "one line"}\n', encoding="utf-8"
    )
    _git("add", "fixture.json", cwd=project)
    passing = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=1200
    )
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout


def test_hook_definitions_run_serially_and_offer_a_markdown_hook() -> None:
    import yaml  # PyYAML comes with pre-commit (the test extra)

    hooks = {
        hook["id"]: hook
        for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    }
    assert set(hooks) == {"ovadapt-lint", "ovadapt-lint-md"}
    for hook in hooks.values():
        # The linter runs its own worker pool: pre-commit must not run batches of it in parallel.
        assert (
            hook["require_serial"] is True
            and hook["language"] == "python"
            and hook["entry"] == "ovadapt-lint"
        )
    for name in ("a.json", "b.jsonl", "c.ndjson", "d.py", "e.pyi"):
        assert re.search(hooks["ovadapt-lint"]["files"], name) and re.search(
            hooks["ovadapt-lint-md"]["files"], name
        )
    assert not re.search(hooks["ovadapt-lint"]["files"], "notes.md")
    assert re.search(hooks["ovadapt-lint-md"]["files"], "notes.md")


@pytest.mark.slow
@pytest.mark.xdist_group("pre-commit")
def test_both_hooks_run_with_real_pre_commit(tmp_path: Path, hook_repo) -> None:
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    _git("init", "-q", cwd=project)
    (project / "fixture.json").write_text(
        '{"schema_version": "unrelated_v1", "summary": "one line"}\n', encoding="utf-8"
    )
    (project / "docs" / "memory.overview.md").write_text(
        (CORPUS / "OVA314" / "bad_overview.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (project / "README.md").write_text(
        "# A project\n\nIt publishes compact projections.\n", encoding="utf-8"
    )
    _git("add", ".", cwd=project)
    env = _use_hooks(project, hook_repo, "ovadapt-lint", "ovadapt-lint-md")
    command = [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"]
    proc = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=1200
    )
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    lines = {line.split(".", 1)[0].strip(): line for line in out.splitlines() if "..." in line}
    # The plain hook sees only fixture.json (clean); the Markdown hook also sees the raw memory file.
    assert lines["ovadapt-lint"].endswith("Passed"), out
    assert lines["ovadapt-lint (with Markdown)"].endswith("Failed"), out
    assert "hook id: ovadapt-lint-md" in out and "docs/memory.overview.md:1:1: OVA314" in out
    assert "README.md" not in out.split("hook id: ovadapt-lint-md", 1)[1]  # ordinary prose passes


def test_builtin_skips_apply_to_named_files_unless_force_include(tmp_path: Path) -> None:
    # pre-commit names every staged file; a vendored node_modules or a committed venv is not the project's.
    from .conftest import run_cli

    bad = (CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8")
    (tmp_path / "node_modules" / "pkg").mkdir(parents=True)
    (tmp_path / "node_modules" / "pkg" / "fixture.json").write_text(bad, encoding="utf-8")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (tmp_path / ".venv" / "fixture.json").write_text(bad, encoding="utf-8")
    named = ["node_modules/pkg/fixture.json", ".venv/fixture.json"]
    proc = run_cli("--no-cache", *named, cwd=tmp_path)
    assert proc.returncode == 0 and "2 named file(s) left out: in skipped folders" in proc.stderr
    forced = run_cli("--no-cache", "--force-include", "--format", "concise", *named, cwd=tmp_path)
    assert forced.returncode == 1 and {
        line.split(":")[0] for line in forced.stdout.splitlines()
    } == set(named)


def test_hooks_match_notebooks_and_upper_case_extensions() -> None:
    import yaml

    hooks = {
        h["id"]: h
        for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    }
    for name in ("analysis.ipynb", "DATA.JSON", "Tool.PY", "events.NDJSON"):
        assert re.search(hooks["ovadapt-lint"]["files"], name) and re.search(
            hooks["ovadapt-lint-md"]["files"], name
        )
