"""Review mode (--diff-base / --since) and history scanning (`ovadapt-lint history`) on a real git repository.

The repository: a clean fixture; then a commit adding a raw OpenViking `messages.jsonl` and a leaked home
path in a `*.public.json` fixture; then a commit deleting them; then an unrelated change.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import CORPUS, run_cli, validate_sarif

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

CLEAN_STATUS = """{
  "title": "status",
  "summary": "all good",
  "notes_ref": "docs/notes.md"
}
"""
LEAKED_STATUS = CLEAN_STATUS.replace('"docs/notes.md"', '"/home/alice/notes.md"')


def _git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ann Example",
        "GIT_AUTHOR_EMAIL": "ann@example.com",
        "GIT_COMMITTER_NAME": "Ann Example",
        "GIT_COMMITTER_EMAIL": "ann@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo.parent),
    }
    proc = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return proc.stdout.strip()


def _commit(repo: Path, message: str) -> str:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "fixtures").mkdir()
    (root / "fixtures" / "status.public.json").write_text(CLEAN_STATUS, encoding="utf-8")
    commits = {"clean": _commit(root, "clean fixture")}
    shutil.copy(CORPUS / "OVA314" / "bad_messages.jsonl", root / "fixtures" / "messages.jsonl")
    (root / "fixtures" / "status.public.json").write_text(LEAKED_STATUS, encoding="utf-8")
    commits["leak"] = _commit(root, "add a session export")
    (root / "fixtures" / "messages.jsonl").unlink()
    (root / "fixtures" / "status.public.json").write_text(CLEAN_STATUS, encoding="utf-8")
    commits["remove"] = _commit(root, "remove the session export")
    (root / "util.py").write_text("VALUE = 1\n", encoding="utf-8")
    commits["unrelated"] = _commit(root, "an unrelated change")
    return root, commits


def lint(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli(*args, "--no-cache", cwd=repo, env={"GIT_CEILING_DIRECTORIES": str(repo.parent)})


# ------------------------------------------------------------------------------------------- review mode


def test_review_reports_exactly_the_added_findings(repo):
    root, commits = repo
    _git(root, "checkout", "-q", commits["leak"])
    proc = lint(root, "--diff-base", commits["clean"], "--format", "json")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    found = sorted((f["code"], f["path"], f["start_line"]) for f in doc["findings"])
    assert found == [
        ("OVA314", "fixtures/messages.jsonl", 1),
        ("OVA501", "fixtures/status.public.json", 4),
    ]
    assert doc["summary"]["unchanged_not_shown"] == 0
    # --since is the same option
    again = lint(root, "--since", commits["clean"], "--format", "json")
    assert json.loads(again.stdout)["findings"] == doc["findings"]
    # Against a base after the leak's removal nothing is added.
    _git(root, "checkout", "-q", "main")
    clean = lint(root, "--diff-base", commits["clean"])
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "0 findings on unchanged lines not shown" in clean.stdout


def test_review_counts_findings_on_unchanged_lines_in_every_format(repo):
    root, commits = repo
    _git(root, "checkout", "-q", commits["leak"])
    status = root / "fixtures" / "status.public.json"
    status.write_text(LEAKED_STATUS.replace('"status"', '"status, reviewed"'), encoding="utf-8")
    text = lint(root, "--diff-base", "HEAD")
    assert text.returncode == 0, text.stdout + text.stderr
    assert "1 finding on unchanged lines not shown" in text.stdout
    doc = json.loads(lint(root, "--diff-base", "HEAD", "--format", "json").stdout)
    assert doc["findings"] == [] and doc["summary"]["unchanged_not_shown"] == 1
    sarif = json.loads(lint(root, "--diff-base", "HEAD", "--format", "sarif").stdout)
    assert sarif["runs"][0]["results"] == []
    assert sarif["runs"][0]["properties"]["unchangedLinesNotShown"] == 1
    github = lint(root, "--diff-base", "HEAD", "--format", "github")
    assert "1 finding on unchanged lines not shown" in github.stdout
    # A new leak on a changed line of the same file is reported; the old one is still only counted.
    status.write_text(
        LEAKED_STATUS.replace('"all good"', '"see /home/bob/todo.md"'), encoding="utf-8"
    )
    doc = json.loads(lint(root, "--diff-base", "HEAD", "--format", "json").stdout)
    assert [(f["code"], f["start_line"]) for f in doc["findings"]] == [("OVA501", 3)]
    assert doc["summary"]["unchanged_not_shown"] == 1


def test_review_untracked_files_count_as_added(repo):
    root, _ = repo
    (root / "new.public.json").write_text('{"cwd_ref": "/home/alice/work"}\n', encoding="utf-8")
    doc = json.loads(lint(root, "--diff-base", "HEAD", "--format", "json").stdout)
    assert doc["findings"] and {f["path"] for f in doc["findings"]} == {"new.public.json"}
    doc = json.loads(lint(root, "--diff-base", "HEAD", "--no-untracked", "--format", "json").stdout)
    assert doc["findings"] == [] and doc["summary"]["files"] == 0
    # Paths narrow the review to what lies inside them.
    doc = json.loads(lint(root, "--diff-base", "HEAD", "fixtures", "--format", "json").stdout)
    assert doc["findings"] == []


def test_review_fix_touches_only_changed_lines(repo):
    root, commits = repo
    _git(root, "checkout", "-q", commits["leak"])
    status = root / "fixtures" / "status.public.json"
    status.write_text(
        LEAKED_STATUS.replace('"all good"', '"see /home/bob/todo.md"'), encoding="utf-8"
    )
    proc = lint(root, "--diff-base", "HEAD", "--fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = status.read_text(encoding="utf-8")
    assert "/home/bob/" not in text and "[redacted:local-path]" in text
    assert '"/home/alice/notes.md"' in text  # on an unchanged line: left for a separate clean-up


def test_review_exit_2_outside_a_repository_and_for_an_unknown_ref(repo, tmp_path):
    root, _ = repo
    outside = tmp_path / "plain"
    outside.mkdir()
    (outside / "a.json").write_text("{}\n", encoding="utf-8")
    proc = run_cli(
        "--diff-base",
        "main",
        "--no-cache",
        cwd=outside,
        env={"GIT_CEILING_DIRECTORIES": str(tmp_path)},
    )
    assert proc.returncode == 2
    assert "not inside a git repository" in proc.stderr
    proc = lint(root, "--diff-base", "no-such-branch")
    assert proc.returncode == 2
    assert "unknown git revision 'no-such-branch'" in proc.stderr
    proc = lint(root, "--no-untracked")
    assert proc.returncode == 2 and "--no-untracked needs --diff-base" in proc.stderr
    for stream in (proc.stdout, proc.stderr):
        assert str(tmp_path) not in stream


# ------------------------------------------------------------------------------------------- history


def test_history_reports_each_leaked_blob_once_with_its_commits(repo):
    root, commits = repo
    before = _git(root, "status", "--porcelain", "--ignored")
    proc = lint(root, "history", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert "blobs/s" in proc.stderr
    doc = json.loads(proc.stdout)
    found = sorted(
        (f["code"], f["path"], f["properties"]["commit"], f["properties"]["removedIn"])
        for f in doc["findings"]
    )
    leak, removed = commits["leak"][:12], commits["remove"][:12]
    assert found == [
        ("OVA314", "fixtures/messages.jsonl", leak, removed),
        ("OVA501", "fixtures/status.public.json", leak, removed),
    ]
    for finding in doc["findings"]:
        assert finding["properties"]["presentAtHead"] is False
        assert finding["properties"]["status"] == f"removed in {removed}"
        assert "author" not in finding["properties"]
    # Four distinct blobs: the clean fixture (committed twice, linted once), the two leaks, util.py.
    assert doc["history"]["blobs"] == 4 and doc["history"]["commits"] == 4
    assert str(root) not in proc.stdout + proc.stderr
    # Nothing was written into the repository.
    assert _git(root, "status", "--porcelain", "--ignored") == before


def test_history_text_groups_by_commit_and_authors_on_request(repo):
    root, commits = repo
    proc = lint(root, "history")
    assert proc.returncode == 1
    leak = commits["leak"][:12]
    assert f"commit {leak}" in proc.stdout
    assert f"removed in {commits['remove'][:12]}" in proc.stdout
    assert proc.stdout.count(f"commit {leak}") == 1
    assert "Ann Example" not in proc.stdout
    assert "Ann Example" in lint(root, "history", "--show-authors").stdout
    concise = lint(root, "history", "--format", "concise").stdout.splitlines()
    assert len(concise) == 2 and all(f"[commit {leak}, removed in" in line for line in concise)


def test_history_sarif_carries_commits_and_provenance(repo):
    root, commits = repo
    proc = lint(root, "history", "--format", "sarif")
    sarif = json.loads(proc.stdout)
    run = sarif["runs"][0]
    assert run["versionControlProvenance"][0]["revisionId"] == commits["unrelated"]
    assert {r["properties"]["commit"] for r in run["results"]} == {commits["leak"][:12]}
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    } == {"fixtures/messages.jsonl", "fixtures/status.public.json"}
    assert str(root) not in proc.stdout
    validate_sarif(sarif)


def test_history_range_options(repo):
    root, commits = repo
    doc = json.loads(lint(root, "history", "--since", commits["leak"], "--format", "json").stdout)
    assert doc["findings"] == [] and doc["history"]["commits"] == 2
    doc = json.loads(lint(root, "history", "--max-commits", "1", "--format", "json").stdout)
    assert doc["history"]["commits"] == 1 and doc["history"]["blobs"] == 1
    # A path narrows the scan, even to a file that no longer exists at HEAD.
    doc = json.loads(lint(root, "history", "fixtures/messages.jsonl", "--format", "json").stdout)
    assert [f["code"] for f in doc["findings"]] == ["OVA314"]
    # A leak only on another branch is found with --all-refs.
    _git(root, "checkout", "-q", "-b", "side")
    (root / "side.public.json").write_text('{"cwd_ref": "/home/alice/side"}\n', encoding="utf-8")
    _commit(root, "side leak")
    _git(root, "checkout", "-q", "main")
    doc = json.loads(lint(root, "history", "--format", "json").stdout)
    assert "side.public.json" not in {f["path"] for f in doc["findings"]}
    doc = json.loads(lint(root, "history", "--all-refs", "--format", "json").stdout)
    assert "side.public.json" in {f["path"] for f in doc["findings"]}


def test_history_baseline(repo):
    root, _ = repo
    baseline = root.parent / "history-baseline.json"
    proc = lint(root, "history", "--write-baseline", str(baseline))
    assert proc.returncode == 0, proc.stderr
    proc = lint(root, "history", "--baseline", str(baseline))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 suppressed" in proc.stdout


def test_history_workers_match_in_process(repo):
    root, _ = repo
    for number in range(24):
        (root / "fixtures" / f"item{number}.public.json").write_text(
            json.dumps({"title": f"item {number}", "notes_ref": f"/home/user{number}/n.md"}) + "\n",
            encoding="utf-8",
        )
    _commit(root, "many fixtures")
    one = json.loads(lint(root, "history", "--jobs", "1", "--format", "json").stdout)
    two = json.loads(lint(root, "history", "--jobs", "2", "--format", "json").stdout)
    assert len(one["findings"]) == 26
    assert one["findings"] == two["findings"]


def test_history_exit_2(repo, tmp_path):
    root, _ = repo
    outside = tmp_path / "plain"
    outside.mkdir()
    proc = run_cli(
        "history", "--no-cache", cwd=outside, env={"GIT_CEILING_DIRECTORIES": str(tmp_path)}
    )
    assert proc.returncode == 2 and "not inside a git repository" in proc.stderr
    proc = lint(root, "history", "--since", "no-such-tag")
    assert proc.returncode == 2 and "unknown git revision 'no-such-tag'" in proc.stderr
    proc = lint(root, "history", "--fix")
    assert proc.returncode == 2
    proc = lint(root, "history", "--since", "HEAD", "--max-commits", "3")
    assert proc.returncode == 2 and "not both" in proc.stderr


def test_review_missing_key_counts_when_the_object_changed(repo):
    root, _ = repo
    adapter = root / "fixtures" / "adapter.json"
    body = {
        "schema_version": "openviking_session_memory_adapter_v0",
        "title": "adapter",
        "summary": "short",
    }
    adapter.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    _commit(root, "an incomplete adapter")
    assert (
        json.loads(lint(root, "--diff-base", "HEAD", "--format", "json").stdout)["summary"]["files"]
        == 0
    )
    adapter.write_text(
        json.dumps({**body, "summary": "shorter"}, indent=2) + "\n", encoding="utf-8"
    )
    doc = json.loads(lint(root, "--diff-base", "HEAD", "--format", "json").stdout)
    missing = [f for f in doc["findings"] if "missing required key" in f["message"]]
    assert missing and all(
        f["start_line"] == 1 for f in missing
    )  # the object starts on an unchanged line


def test_history_cache_lives_outside_the_work_tree(repo):
    root, _ = repo
    before = _git(root, "status", "--porcelain", "--ignored")
    env = {"GIT_CEILING_DIRECTORIES": str(root.parent)}
    first = run_cli("history", "--format", "json", cwd=root, env=env)
    second = run_cli("history", "--format", "json", cwd=root, env=env)
    assert json.loads(first.stdout)["findings"] == json.loads(second.stdout)["findings"]
    assert json.loads(second.stdout)["history"]["blobs_from_cache"] == 4
    assert (root / ".git" / "ovadapt_cache").is_dir()
    assert _git(root, "status", "--porcelain", "--ignored") == before


def test_history_streams_batches_through_the_workers(repo, monkeypatch):
    """More blobs than one batch: cat-file keeps streaming while forked workers lint (no hang at the end)."""
    from ovadapt_lint import Config, engine, history
    from ovadapt_lint.config import RunOptions

    root, _ = repo
    for number in range(30):
        (root / "fixtures" / f"n{number}.public.json").write_text(
            json.dumps({"title": f"n {number}", "notes_ref": f"/home/u{number}/n.md"}) + "\n",
            encoding="utf-8",
        )
    _commit(root, "many fixtures")
    monkeypatch.setattr(engine, "UNITS_PER_BATCH", 8)
    monkeypatch.chdir(root)
    scan = history.scan_history(["."], Config(), options=RunOptions(jobs=2))
    assert len(scan.blobs) == 34
    assert sum(f.code == "OVA501" for f in scan.result.findings) == 31
