"""Issue 30: relative paths into local scratch in published values (OVA505): folders the repository's
.gitignore ignores (asked of git, the rule named in the message) and well-known scratch folders."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from ovadapt_lint import lint_paths
from ovadapt_lint.detect.ignored_paths import leading_folders


def _repository(tmp_path: Path, ignore: str | None) -> Path:
    repo = tmp_path / "repo"
    (repo / "fixtures").mkdir(parents=True)
    (repo / "src").mkdir()
    if ignore is not None:
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / ".gitignore").write_text(ignore, encoding="utf-8")
    refs = {
        "metrics_ref": "out/run-0413/metrics.json",  # ignored by `out/`
        "log_ref": "logs/run-0413/agent.txt",  # ignored by `logs/*`
        "public_log": "logs/public/summary.md",  # taken back by `!logs/public/`
        "doc_ref": "docs/guides/setup.md",  # a committed folder
        "scratch_ref": ".local/tmp/run-0413/result.json",  # ignored, and a well-known scratch folder
    }
    (repo / "fixtures" / "ledger.json").write_text(json.dumps(refs, indent=1), encoding="utf-8")
    (repo / "src" / "settings.json").write_text(
        json.dumps({"cache_dir": "out/cache/"}), encoding="utf-8"
    )
    return repo


def _messages(repo: Path) -> dict[str, str]:
    return {f.json_path: f.message for f in lint_paths([str(repo)]) if f.code == "OVA505"}


def test_relative_paths_into_git_ignored_folders_name_the_ignore_rule(tmp_path: Path) -> None:
    repo = _repository(tmp_path, ".local/\nout/\nlogs/*\n!logs/public/\n")
    found = _messages(repo)
    assert found == {
        "metrics_ref": "metrics_ref holds a relative path into a git-ignored folder (ignored by .gitignore:2:out/)",
        "log_ref": "log_ref holds a relative path into a git-ignored folder (ignored by .gitignore:3:logs/*)",
        "scratch_ref": "scratch_ref holds a relative path into a git-ignored folder (ignored by .gitignore:1:.local/)",
    }
    assert not any(
        "run-0413" in message for message in found.values()
    )  # the path itself is never shown


def test_without_a_repository_only_well_known_scratch_folders_are_local(tmp_path: Path) -> None:
    found = _messages(_repository(tmp_path, None))
    assert found == {
        "scratch_ref": "scratch_ref holds a relative path into a well-known scratch folder (.local/)"
    }


def test_a_changed_gitignore_is_not_answered_from_the_cache(tmp_path: Path, xdg: dict) -> None:
    from ovadapt_lint import cli

    repo = _repository(tmp_path, "out/\n")
    (repo / "fixtures" / "ledger.json").write_text(
        json.dumps({"metrics_ref": "out/run/metrics.json"}), encoding="utf-8"
    )
    (repo / ".ovadapt-lint.toml").write_text("", encoding="utf-8")
    args = [
        str(repo / "fixtures"),
        "--format",
        "concise",
        "--config",
        str(repo / ".ovadapt-lint.toml"),
    ]
    assert cli.main(args) == 1
    assert cli.main(args) == 1  # answered by the cache
    (repo / ".gitignore").write_text("build/\n", encoding="utf-8")
    assert (
        cli.main(args) == 0
    )  # the same bytes, another answer: the ignore rules are part of the cache key


def test_leading_folders_of_relative_paths_only() -> None:
    assert leading_folders("see .local/tmp/run-7/out.json and docs/a.md") == [
        ".local/tmp/run-7/",
        "docs/",
    ]
    assert leading_folders("a/b/c/d/e/f.txt") == ["a/b/c/d/"]
    assert (
        leading_folders("https://example.com/tmp/x /home/me/.venv/bin ~/tmp/x ../tmp/x file.tmp")
        == []
    )
    assert leading_folders("./.venv/bin/python") == [".venv/bin/"]
