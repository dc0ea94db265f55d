"""The key classifier agrees with LoopX's pinned cases; the value decides; real reject fixtures are flagged."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json

import pytest

from ovadapt_lint import lint_paths
from ovadapt_lint.keyclass import split_words, vocabulary

from .conftest import SHARED, require_shared

# (key, expected category or None) from the convention in DESIGN.md.
PINNED = [
    # exact compact keys win first
    ("session_id", None), ("event_id", None), ("trace_id", None), ("conversation_id", None),
    ("message_id", None), ("tool_call_id", None), ("log_count", None), ("prompt_tokens", None),
    ("kind", None), ("status", None), ("summary", None), ("next_action", None), ("title", None),
    ("created_at", None),
    # exact raw keys
    ("token", "credential"), ("access_token", "credential"), ("auth_token", "credential"),
    ("api_token", "credential"), ("bearer_token", "credential"), ("refresh_token", "credential"),
    ("id_token", "credential"), ("session_token", "credential"), ("api_key", "credential"),
    ("apikey", "credential"), ("private_key", "credential"), ("secret_key", "credential"),
    ("access_key", "credential"), ("authorization", "credential"), ("cookie", "credential"),
    ("cookies", "credential"), ("content", "raw-output"), ("body", "raw-output"),
    ("request_body", "raw-output"), ("response_body", "raw-output"), ("message", "transcript"),
    ("output", "raw-output"), ("output_text", "raw-output"), ("tool_output", "raw-output"),
    ("tool_result", "raw-output"),
    # raw words by category
    ("client_credentials", "credential"), ("db_password", "credential"), ("passphrase", "credential"),
    ("chat_transcript", "transcript"), ("messages", "transcript"), ("system_prompt", "transcript"),
    ("conversation", "transcript"), ("error_logs", "log"), ("stacktrace", "log"), ("traceback", "log"),
    ("file_path", "local-path"), ("cwd", "local-path"), ("workdir", "local-path"), ("filename", "local-path"),
    ("raw_payload", "raw-output"), ("stdout", "raw-output"), ("stderr", "raw-output"), ("diff", "raw-output"),
    ("patch", "raw-output"), ("dump", "raw-output"),
    # raw evidence beats a pointer suffix
    ("transcript_id", "transcript"), ("api_key_id", "credential"),
    # compact suffixes
    ("memory_ref_id", None), ("linked_todo_ids", None), ("outcome_refs", None), ("retry_count", None),
    ("completed_at", None), ("cached_tokens", None),
    # whole words only
    ("catalog_id", None), ("login_at", None), ("dialog_id", None), ("changelog", None), ("backlog", None),
    ("tokenizer", None), ("tracer", None), ("rawhide", None),
    # camelCase and kebab-case
    ("session_cookie", "credential"), ("cookie_jar", "credential"),
    ("rawToolOutput", "raw-output"), ("accessToken", "credential"), ("stack-trace", "log"),
    # embeddings (our extension)
    ("embedding", "embedding"), ("embeddings", "embedding"), ("vector", "embedding"), ("vectors", "embedding"),
    ("sparse_vector", "embedding"),
]


@pytest.mark.parametrize("key,category", PINNED, ids=[k for k, _ in PINNED])
def test_classifier_agrees_with_the_convention(key: str, category: str | None) -> None:
    assert vocabulary().classify(key).category == category


def test_split_words() -> None:
    assert split_words("rawToolOutput") == ["raw", "tool", "output"]
    assert split_words("HTTPResponse_body") == ["http", "response", "body"]
    assert split_words("api-key.id") == ["api", "key", "id"]


def test_flags_and_counters_under_raw_names_are_not_raw_fields(tmp_path) -> None:
    target = tmp_path / "flags.json"
    target.write_text('{"raw_trajectory_copied": false, "raw_material_detected": true, "transcript": null,'
                      ' "stdout": "", "traceback": 0, "messages": []}', encoding="utf-8")
    assert lint_paths([str(target)]) == []


def test_raw_copy_reject_fixture_is_flagged() -> None:
    require_shared()
    reject = SHARED / "realworld/loopx/examples/computer-use-runtime-contract-fixtures/03_raw_evidence_reject.json"
    assert [f.code for f in lint_paths([str(reject)])] == ["OVA207"]


def test_clean_loopx_fixtures_get_no_raw_field_finding() -> None:
    require_shared()
    findings = lint_paths([str(SHARED / "realworld/loopx/examples/fixtures")])
    assert [f for f in findings if f.code.startswith("OVA2")] == []


# Beyond LoopX's convention (which leaves these unclassified): body words, strong with a
# source qualifier, judged by value shape alone; pointer suffixes still win.
BEYOND = [
    ("issue_body", "raw-output", False), ("comment_text", "raw-output", False), ("llm_output", "raw-output", False),
    ("memory_content", "raw-output", False), ("chat_history", "raw-output", False),
    ("text", None, False), ("history", "raw-output", True), ("payload", "raw-output", True),
    ("body_sha256", None, False), ("comment_count", None, False), ("content_kind", None, False),
    ("description", None, False), ("details", None, False),
]


@pytest.mark.parametrize("key,category,weak", BEYOND)
def test_beyond_the_convention(key: str, category, weak: bool) -> None:
    verdict = vocabulary().classify(key)
    assert (verdict.category, verdict.weak if category else False) == (category, weak)


def test_body_words_judge_values(tmp_path) -> None:
    target = tmp_path / "f.public.json"  # a published fixture: raw fields are judged there
    target.write_text(json.dumps({
        "issue_body": "Login fails on Safari since the cookie change.",
        "text": "Every staged health check passed.\nAnd a second line of documentation.",
        "history": {"window": "compact_latest_runs"},
        "comments": [{"author": "bob", "body": "same here"}],
        "body_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    }), encoding="utf-8")
    assert sorted((f.json_path, f.code) for f in lint_paths([str(target)])) == [
        ("comments", "OVA205"), ("issue_body", "OVA205")]
