"""The key classifier agrees with LoopX's pinned cases; the value decides; real reject fixtures are flagged."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json

import pytest

from ovadapt_lint import Config, lint_paths
from ovadapt_lint.keyclass import split_words, vocabulary

from .conftest import SHARED, require_shared

# (key, expected category or None) from the convention in DESIGN.md.
PINNED = [
    # exact compact keys win first
    ("session_id", None),
    ("event_id", None),
    ("trace_id", None),
    ("conversation_id", None),
    ("message_id", None),
    ("tool_call_id", None),
    ("log_count", None),
    ("prompt_tokens", None),
    ("kind", None),
    ("status", None),
    ("summary", None),
    ("next_action", None),
    ("title", None),
    ("created_at", None),
    # exact raw keys
    ("token", "credential"),
    ("access_token", "credential"),
    ("auth_token", "credential"),
    ("api_token", "credential"),
    ("bearer_token", "credential"),
    ("refresh_token", "credential"),
    ("id_token", "credential"),
    ("session_token", "credential"),
    ("api_key", "credential"),
    ("apikey", "credential"),
    ("private_key", "credential"),
    ("secret_key", "credential"),
    ("access_key", "credential"),
    ("authorization", "credential"),
    ("cookie", "credential"),
    ("cookies", "credential"),
    ("content", "raw-output"),
    ("body", "raw-output"),
    ("request_body", "raw-output"),
    ("response_body", "raw-output"),
    ("message", "transcript"),
    ("output", "raw-output"),
    ("output_text", "raw-output"),
    ("tool_output", "raw-output"),
    ("tool_result", "raw-output"),
    # raw words by category
    ("client_credentials", "credential"),
    ("db_password", "credential"),
    ("passphrase", "credential"),
    ("chat_transcript", "transcript"),
    ("messages", "transcript"),
    ("system_prompt", "transcript"),
    ("conversation", "transcript"),
    ("error_logs", "log"),
    ("stacktrace", "log"),
    ("traceback", "log"),
    ("file_path", "local-path"),
    ("cwd", "local-path"),
    ("workdir", "local-path"),
    ("filename", "local-path"),
    ("raw_payload", "raw-output"),
    ("stdout", "raw-output"),
    ("stderr", "raw-output"),
    ("diff", "raw-output"),
    ("patch", "raw-output"),
    ("dump", "raw-output"),
    # raw evidence beats a pointer suffix
    ("transcript_id", "transcript"),
    ("api_key_id", "credential"),
    # compact suffixes
    ("memory_ref_id", None),
    ("linked_todo_ids", None),
    ("outcome_refs", None),
    ("retry_count", None),
    ("completed_at", None),
    ("cached_tokens", None),
    # whole words only
    ("catalog_id", None),
    ("login_at", None),
    ("dialog_id", None),
    ("changelog", None),
    ("backlog", None),
    ("tokenizer", None),
    ("tracer", None),
    ("rawhide", None),
    # camelCase and kebab-case
    ("session_cookie", "credential"),
    ("cookie_jar", "credential"),
    ("rawToolOutput", "raw-output"),
    ("accessToken", "credential"),
    ("stack-trace", "log"),
    # embeddings (our extension)
    ("embedding", "embedding"),
    ("embeddings", "embedding"),
    ("vector", "embedding"),
    ("vectors", "embedding"),
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
    target.write_text(
        '{"raw_trajectory_copied": false, "raw_material_detected": true, "transcript": null,'
        ' "stdout": "", "traceback": 0, "messages": []}',
        encoding="utf-8",
    )
    assert lint_paths([str(target)]) == []


def test_raw_copy_reject_fixture_is_flagged() -> None:
    require_shared()
    reject = (
        SHARED
        / "realworld/loopx/examples/computer-use-runtime-contract-fixtures/03_raw_evidence_reject.json"
    )
    # A negative case (`"expect": "reject"`): test data by default, its trap found by the audit.
    assert lint_paths([str(reject)]) == []
    assert [f.code for f in lint_paths([str(reject)], Config(scope="all"))] == ["OVA207"]


def test_clean_loopx_fixtures_get_no_raw_field_finding() -> None:
    require_shared()
    findings = lint_paths([str(SHARED / "realworld/loopx/examples/fixtures")])
    assert [f for f in findings if f.code.startswith("OVA2")] == []


# Beyond LoopX's convention (which leaves these unclassified): body words, strong with a
# source qualifier, judged by value shape alone; pointer suffixes still win.
BEYOND = [
    ("issue_body", "raw-output", False),
    ("comment_text", "raw-output", False),
    ("llm_output", "raw-output", False),
    ("memory_content", "raw-output", False),
    ("chat_history", "raw-output", False),
    ("text", None, False),
    ("history", "raw-output", True),
    ("payload", "raw-output", True),
    ("body_sha256", None, False),
    ("comment_count", None, False),
    ("content_kind", None, False),
    ("description", None, False),
    ("details", None, False),
]


@pytest.mark.parametrize("key,category,weak", BEYOND)
def test_beyond_the_convention(key: str, category, weak: bool) -> None:
    verdict = vocabulary().classify(key)
    assert (verdict.category, verdict.weak if category else False) == (category, weak)


def test_body_words_judge_values(tmp_path) -> None:
    target = tmp_path / "f.public.json"  # a published fixture: raw fields are judged there
    target.write_text(
        json.dumps(
            {
                "issue_body": "Login fails on Safari since the cookie change.",
                "text": "Every staged health check passed.\nAnd a second line of documentation.",
                "history": {"window": "compact_latest_runs"},
                "comments": [{"author": "bob", "body": "same here"}],
                "body_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            }
        ),
        encoding="utf-8",
    )
    assert sorted((f.json_path, f.code) for f in lint_paths([str(target)])) == [
        ("comments", "OVA205"),
        ("issue_body", "OVA205"),
    ]


# Issue 25, item 6: a raw-named key is judged with its value. Each shape that cannot carry material, under
# keys of every raw category, beside the same key holding a sentence.
INERT_VALUES = [
    pytest.param(
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", id="sha256-hex"
    ),
    pytest.param(
        "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
        id="prefixed-digest",
    ),
    pytest.param("3f2a9c1", id="short-commit"),
    pytest.param("t_42", id="id"),
    pytest.param("5f0c2a3e-8b1d-4c6f-9a7e-2d4b6c8e0f13", id="uuid"),
    pytest.param("remote_command_file_bridge_agent_operations", id="enum-token"),
    pytest.param("debug", id="one-word-enum"),
    pytest.param(True, id="boolean"),
    pytest.param(3, id="number"),
    pytest.param({"applied": False, "attempts": 2, "state": "not_applied"}, id="object-of-those"),
    pytest.param(["tr_1", "tr_2", 7, None], id="list-of-those"),
    pytest.param([{"ok": True, "ref": "r_1"}], id="list-of-objects-of-those"),
    pytest.param("[redacted:raw-content]", id="redaction-placeholder"),
    pytest.param("viking://resources/runs/42/summary.md", id="one-uri"),
]
RAW_KEYS = [
    "stdout",
    "stdout_sha256",
    "resource_cap_patch",
    "tool_output",
    "transcript_id",
    "prompt_source",
    "trajectory",
    "trace_kind",
    "logs",
    "traceback",
]


@pytest.mark.parametrize("value", INERT_VALUES)
def test_values_that_cannot_carry_material_are_clean_under_raw_keys(tmp_path, value) -> None:
    target = tmp_path / "f.public.json"
    target.write_text(json.dumps({key: value for key in RAW_KEYS}), encoding="utf-8")
    assert [(f.json_path, f.code) for f in lint_paths([str(target)])] == []


@pytest.mark.parametrize(
    "value",
    [
        "3 tests failed\n  test_login: expected 200, got 500",
        "the operator typed the goal by hand",
        {"applied": False, "reason": "raised by hand after the run"},
        ["tr_1", "opened settings and changed the retry limit"],
        "[redacted:raw-content] and the rest of the log",
        "sha256 of the stdout was not recorded",
    ],
    ids=[
        "multi-line",
        "sentence",
        "object-with-sentence",
        "list-with-sentence",
        "placeholder-and-text",
        "sentence-under-digest-key",
    ],
)
def test_the_same_keys_holding_text_are_reported(tmp_path, value) -> None:
    target = tmp_path / "f.public.json"
    target.write_text(json.dumps({key: value for key in RAW_KEYS}), encoding="utf-8")
    assert sorted(
        f.json_path for f in lint_paths([str(target)]) if f.code.startswith("OVA2")
    ) == sorted(RAW_KEYS)


def test_issue_examples(tmp_path) -> None:
    target = tmp_path / "f.public.json"
    target.write_text(
        json.dumps(
            {
                "stdout_sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "transcript_id": "t_42",
                "trace_kind": "remote_command_file_bridge_agent_operations",
                "resource_cap_patch": {"applied": False},
                "stdout": "3 tests failed\n  test_login: expected 200, got 500",
            }
        ),
        encoding="utf-8",
    )
    assert [(f.json_path, f.code) for f in lint_paths([str(target)])] == [("stdout", "OVA205")]


def test_credential_keys_keep_their_own_test(tmp_path) -> None:
    # Hex and id shapes are what credentials look like: under a credential key they are still reported.
    target = tmp_path / "f.public.json"
    target.write_text(
        json.dumps(
            {
                "receipt": {
                    "client_secret": "k7Hq2mWx",
                    "cookie": ["not_set", "x9Fq2LmZ"],
                    "authorization": {"value": "qZ8vN2kLp0"},
                    "auth_token": "not_configured",
                    "api_key": "[redacted:credential]",
                    "password": {"required": True},
                }
            }
        ),
        encoding="utf-8",
    )
    assert sorted(f.json_path for f in lint_paths([str(target)]) if f.code == "OVA201") == [
        "receipt.authorization",
        "receipt.client_secret",
        "receipt.cookie",
    ]


# One leak, one finding: a raw field whose value a content rule reports is not reported again.
ONE_LEAK = {
    "stdout": 'Traceback (most recent call last):\n  File "run.py", line 3, in <module>\nValueError: bad',
    "transcript": "user: can you fix the login bug?\nassistant: sure, the cookie path is wrong.",
    "session_token": "a81f9c0e7d2b4411",
    "cwd": "/Users/alice/src/private-project",
}


def _one_leak_file(tmp_path):
    target = tmp_path / "leak.public.json"
    target.write_text(json.dumps(ONE_LEAK, indent=2), encoding="utf-8")
    return target


def test_one_leak_is_one_finding(tmp_path) -> None:
    found = sorted((f.json_path, f.code) for f in lint_paths([str(_one_leak_file(tmp_path))]))
    assert found == [
        ("cwd", "OVA501"),
        ("session_token", "OVA409"),
        ("stdout", "OVA307"),
        ("transcript", "OVA310"),
    ]


def test_the_field_finding_returns_when_the_content_rule_is_not_selected(tmp_path) -> None:
    from ovadapt_lint.config import Config

    target = _one_leak_file(tmp_path)
    found = sorted(
        (f.json_path, f.code) for f in lint_paths([str(target)], Config(ignore=["OVA3", "OVA409"]))
    )
    assert found == [
        ("cwd", "OVA501"),
        ("session_token", "OVA201"),
        ("stdout", "OVA205"),
        ("transcript", "OVA202"),
    ]


def test_one_finding_holds_on_a_warm_cache(tmp_path) -> None:
    from ovadapt_lint.config import Config, RunOptions

    target = _one_leak_file(tmp_path)
    config, options = Config(), RunOptions(use_cache=True, cache_dir=tmp_path / "cache")
    cold = sorted((f.json_path, f.code) for f in lint_paths([str(target)], config, options))
    warm = sorted((f.json_path, f.code) for f in lint_paths([str(target)], config, options))
    assert any((tmp_path / "cache").rglob("*")) and warm == cold == [
        ("cwd", "OVA501"),
        ("session_token", "OVA409"),
        ("stdout", "OVA307"),
        ("transcript", "OVA310"),
    ]


def test_a_field_is_covered_only_when_all_its_material_is(tmp_path) -> None:
    # A path inside a longer stdout is one leak (fixable on its own), the rest of the stdout another; one of
    # two log lines is a traceback, the other is still raw: both fields are still reported. The stderr that
    # is a traceback as a whole, and the list of two tracebacks, are not.
    traceback = (
        'Traceback (most recent call last):\n  File "run.py", line 3, in <module>\nValueError: bad'
    )
    target = tmp_path / "f.public.json"
    target.write_text(
        json.dumps(
            {
                "stdout": "3 tests failed\n  see /home/alice/proj/test_login.py line 12",
                "logs": [traceback, "worker 3 restarted after an out-of-memory kill"],
                "stderr": traceback,
                "tracebacks": [traceback, traceback],
            }
        ),
        encoding="utf-8",
    )
    assert sorted((f.json_path, f.code) for f in lint_paths([str(target)])) == [
        ("logs", "OVA203"),
        ("logs[0]", "OVA307"),
        ("stderr", "OVA307"),
        ("stdout", "OVA205"),
        ("stdout", "OVA501"),
        ("tracebacks[0]", "OVA307"),
        ("tracebacks[1]", "OVA307"),
    ]


def test_deeply_nested_values_under_raw_keys_are_judged_without_recursion(tmp_path) -> None:
    depth = 5000  # deeper than the analysis goes (OVA006): the value judgement must not overflow the stack
    target = tmp_path / "deep.public.json"
    target.write_text(
        '{"stdout": '
        + "[" * depth
        + '"a b"'
        + "]" * depth
        + ', "token": '
        + '{"a":' * depth
        + '"k7Hq2mWx"'
        + "}" * depth
        + "}",
        encoding="utf-8",
    )
    assert [f.code for f in lint_paths([str(target)])] == ["OVA006"]
