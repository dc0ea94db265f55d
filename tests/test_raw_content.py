"""Raw content (OVA3xx) on real data: raw OpenViking files, clean LoopX fixtures,
and planted raw values/fields nested anywhere in the real adapter fixture."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ovadapt_lint import Config, lint_paths
from ovadapt_lint.detect.signatures import scan_text
from ovadapt_lint.pack import builtin_pack

from .conftest import LOOPX_FIXTURES, SHARED, plant_in_adapter, require_shared, run_cli

OPENVIKING_INTEGRATION = SHARED / "realworld" / "openviking" / "tests" / "integration"
RAW_FILES = (
    sorted(
        p
        for p in OPENVIKING_INTEGRATION.rglob("*")
        if p.is_file() and p.suffix in (".json", ".jsonl", ".md")
    )
    if OPENVIKING_INTEGRATION.is_dir()
    else []
)


def test_the_raw_openviking_files_are_all_there() -> None:
    require_shared()
    assert len(RAW_FILES) == 10


@pytest.mark.parametrize("path", RAW_FILES, ids=lambda p: p.name)
def test_every_raw_openviking_file_is_reported_once_as_raw(path: Path) -> None:
    findings = lint_paths([str(path)])
    assert [f.code for f in findings] == ["OVA314"], [(f.code, f.message) for f in findings]


def test_markdown_is_linted_in_folders_only_when_included() -> None:
    require_shared()
    default = lint_paths([str(OPENVIKING_INTEGRATION)], Config())
    assert all(not f.path.endswith(".md") for f in default)
    assert len(default) == 5
    config = Config(include=[*Config().include, "*.md"])
    included = lint_paths([str(OPENVIKING_INTEGRATION)], config)
    assert len(included) == 10 and {f.code for f in included} == {"OVA314"}


def test_cli_include_markdown(shared: Path) -> None:
    proc = run_cli("--format", "json", "--include", "*.md", str(OPENVIKING_INTEGRATION))
    assert proc.returncode == 1
    names = sorted(Path(f["path"]).name for f in json.loads(proc.stdout)["findings"])
    assert ".overview.md" in names and len(names) == 10


def test_ignoring_the_file_rule_unfolds_the_inner_findings(shared: Path) -> None:
    messages = next(p for p in RAW_FILES if p.name == "messages.jsonl")
    # The file sits under tests/ (a test-role file) and the unfolding is under test, not publication:
    # --scope all judges its raw content once the file rule is ignored.
    config = Config(ignore=["OVA314"], scope="all")
    codes = {f.code for f in lint_paths([str(messages)], config)}
    assert "OVA302" in codes and "OVA314" not in codes


def test_clean_loopx_fixtures_get_no_raw_content_finding() -> None:
    require_shared()
    findings = [
        f for f in lint_paths([str(LOOPX_FIXTURES)]) if f.code.startswith(("OVA2", "OVA3", "OVA6"))
    ]
    assert findings == []


def test_prose_that_mentions_raw_material_is_not_raw() -> None:
    for text in [
        "bodies, comment text, trajectories and tool outputs stay in their owning systems",
        "Issue bodies and comment bodies are read only behind the gate; tool output is never ingested.",
        "The adapter keeps memory_refs; working memory, transcripts and embeddings stay private.",
        "user: alice",
        "See PR #12 (diff stats: 3 files changed).",
        "Run `pytest -q` and check that the tests pass.",
    ]:
        assert scan_text(text, builtin_pack().text_signatures) == [], text


# --- planted raw material: a held-out style check --------------------------

RAW_VALUES = {
    "transcript": "user: the deploy failed again\nassistant: I will check the logs",
    "traceback": 'Traceback (most recent call last):\n  File "/srv/app/main.py", line 9, in run\n    go()\nKeyError: x',
    "ansi": "\x1b[1;32mPASSED\x1b[0m",
    "diff": "@@ -10,7 +10,8 @@ def handler():\n-    return None\n+    return body",
    "working_memory": "# Working Memory\n\n## Session Title\nDeploy fix\n\n## Current State\nBlocked.",
    "memory_doc": 'User prefers dark mode.\n\n<!-- MEMORY_FIELDS\n{"memory_type": "preferences"}\n-->',
    "chatlog": "2026-06-05 (Friday) ChatLog:\n[user]: please deploy\n[assistant]: done",
    "recall": '<openviking-context session="s1">\nprefers tea\n</openviking-context>',
    "tool_stub": "[OpenViking tool result externalized]\nTool: run_shell\nSample:\ntotal 48",
    "tool_call": "[tool_call: run_shell(cmd=ls)] total 48 drwxr-xr-x",
    "comment": "> It crashes when I log in\n\n@carol this looks like the cookie bug again, can you confirm and reopen?",
    "pytest": "============================= test session starts ==============================\nplatform linux",
    "shell": "$ git push origin main\nremote: Permission denied",
    "viking_user": "viking://user/u_8812/memories/preferences/theme.md",
    "viking_session": "viking://session/0b7c2e1a/history/archive_003",
    "message_json": '{"id": "msg_5e06da8a4fb14f61a480df344642829c", "role": "assistant", "parts": [{"type": "text", "text": "hi"}]}',
    "long_summary": None,  # planted under a compact slot below
}
RAW_OBJECTS = {
    "message": {
        "id": "msg_1bdd2952b5ab4398962a3bf23fab6a48",
        "role": "user",
        "parts": [{"type": "text", "text": "cancel it"}],
    },
    "tool_part": {
        "type": "tool",
        "tool_name": "search",
        "tool_input": {"q": "flights"},
        "tool_output": "3 results",
    },
    "memory_op": {
        "uri": "viking://user/u1/memories/events/e.md",
        "memory_type": "events",
        "deleted_content": "Summary: old",
    },
    "vector": [round(random.Random(7).uniform(-1, 1), 4) for _ in range(64)],
}
RAW_FIELDS = {
    "transcript": "see session",  # any string under a transcript key
    # A value under a raw-named key must be able to carry material (issue 25): "ok" alone is a token.
    "raw_stdout": "ok\n3 passed in 0.41s",
    "api_key": "sk-live-51Hx9sQ2",
    "embedding": [0.1, 0.2],
    "traceback": "KeyError: x",
    "cwd": "/Users/alice/work/secret-project",
    "session_cookie": {"sid": "s3ss10n-8f2a"},
    "prompt": "Summarize the user's last 10 emails",
    "conversation": [{"speaker": "a", "text": "can you look at the failing build"}],
    "stderr_lines": ["warning: x"],
}
NEAR_MISSES = {
    "conversation_id": "conv_42",
    "prompt_tokens": 28659,
    "raw_tool_outputs_copied": False,
    "raw_material_detected": True,
    "catalog_id": "cat-1",
    "login_at": "2026-06-05T07:19:32Z",
    "changelog": "v0.2: faster discovery",
    "backlog": ["triage", "docs"],
    "tokenizer": "cl100k",
    "commit": "4726a6f0c8e1d2b3a4f5e6d7c8b9a0f1e2d3c4b5",
    "digest_ref": "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "uuid": "7fd97a9e-b826-43a1-8f55-189dbf91b43b",
    "note": "Bodies, comment text, trajectories and tool outputs stay in their owning systems.",
    "candidate_refs": [f"viking://resources/reward-memory/candidate-{i}" for i in range(40)],
    "summary": "Session memory adapter is read only; 3 candidates wait for review.",
    "message_count": 9,
    "output": "5 lanes",
    "path": "docs/guides/getting-started.md",
    "scores": [0.9, 0.8, 0.75],
    "trace_id": "t_42",
    "log_count": 3,
}


def _plants() -> list[tuple[str, object]]:
    """(key, value) cases: each raw value as a string and nested one level deeper in a list."""
    cases: list[tuple[str, object]] = []
    for name, value in RAW_VALUES.items():
        if value is None:
            cases.append(("summary", "Steps:\n1. open the app\n2. click login\n3. it fails"))
        else:
            cases.append((f"note_{name}", value))
            cases.append((f"items_{name}", [value]))
    cases += [(f"record_{name}", value) for name, value in RAW_OBJECTS.items()]
    cases += list(RAW_FIELDS.items())
    return cases


def test_planted_raw_material_is_caught(tmp_path: Path, adapter_fixture: Path) -> None:
    files = plant_in_adapter(tmp_path, _plants(), seed=20261130, fixture=adapter_fixture)
    missed = []
    for target, key in files:
        # A value a content rule reports is that rule's one finding, not also a raw field's (issue 25).
        findings = [
            f
            for f in lint_paths([str(target)])
            if f.code.startswith(("OVA2", "OVA3", "OVA4", "OVA5", "OVA6"))
        ]
        if not findings:
            missed.append(key)
    caught = 1 - len(missed) / len(files)
    assert caught >= 0.9, f"caught {caught:.0%}; missed {missed}"
    assert missed == [], missed  # today every planted case is caught; keep it that way


def test_near_misses_planted_anywhere_are_clean(tmp_path: Path, adapter_fixture: Path) -> None:
    for seed in (1, 2, 3):
        for target, key in plant_in_adapter(
            tmp_path, list(NEAR_MISSES.items()), seed=seed, fixture=adapter_fixture
        ):
            findings = lint_paths([str(target)])
            assert findings == [], (key, [(f.code, f.message) for f in findings])


# --- the vocabulary can be extended from the configuration ----------------


def test_vocabulary_file_extends_and_removes_words(tmp_path: Path) -> None:
    fixture = tmp_path / "f.public.json"  # a published fixture: raw fields are judged there
    # A path no OVA5xx rule reports (a home directory would be OVA501's one finding, issue 25).
    fixture.write_text(
        json.dumps({"chatlog": "hello there", "path": "/opt/agent/x"}), encoding="utf-8"
    )
    assert [f.code for f in lint_paths([str(fixture)], Config()) if f.code.startswith("OVA2")] == [
        "OVA204"
    ]
    vocab = tmp_path / "vocab.toml"
    vocab.write_text(
        'not_raw = ["path"]\n[raw_words]\ntranscript = ["chatlog"]\n', encoding="utf-8"
    )
    proc = run_cli("--format", "json", "--vocabulary", str(vocab), str(fixture))
    codes = [f["code"] for f in json.loads(proc.stdout)["findings"] if f["code"].startswith("OVA2")]
    assert codes == ["OVA202"]
    config_file = tmp_path / ".ovadapt-lint.toml"
    config_file.write_text('vocabulary = ["vocab.toml"]\n', encoding="utf-8")
    proc = run_cli("--format", "json", str(fixture))
    assert [
        f["code"] for f in json.loads(proc.stdout)["findings"] if f["code"].startswith("OVA2")
    ] == ["OVA202"]


def test_bad_vocabulary_file_is_a_usage_error(tmp_path: Path) -> None:
    fixture = tmp_path / "f.json"
    fixture.write_text("{}", encoding="utf-8")
    vocab = tmp_path / "vocab.toml"
    vocab.write_text('[raw_words]\nsecretish = ["x"]\n', encoding="utf-8")
    proc = run_cli("--vocabulary", str(vocab), str(fixture))
    assert proc.returncode == 2 and "unknown category secretish" in proc.stderr
    assert "Traceback" not in proc.stderr
