"""Public adapter fixtures (the project's own sample, and the real LoopX ones when ../shared holds them):
the adapter is clean, each mutation triggers exactly its rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ovadapt_lint import lint_paths

from .conftest import LOOPX_FIXTURES, require_shared

ADAPTER_PATH = ("attention_queue", "items", 0, "openviking_session_memory_adapter")


def _adapter(doc: dict) -> dict:
    node = doc
    for part in ADAPTER_PATH:
        node = node[part]
    return node


def test_public_adapter_fixture_is_clean(adapter_fixture: Path) -> None:
    assert lint_paths([str(adapter_fixture)]) == []


def test_other_loopx_fixtures_get_no_contract_finding() -> None:
    require_shared()
    files = sorted(LOOPX_FIXTURES.rglob("*.json"))
    assert len(files) == 21
    findings = [f for f in lint_paths([str(LOOPX_FIXTURES)]) if f.code.startswith(("OVA0", "OVA1"))]
    assert findings == []


# (rule, mutation, the key whose line must be reported, JSON path suffix)
MUTATIONS = [
    (
        "OVA101",
        lambda a: a.update(schema_version="openviking_session_memory_adapter_v9"),
        "schema_version",
    ),
    ("OVA102", lambda a: a.update(mode="writable_projection"), "mode"),
    ("OVA103", lambda a: a.update(specializes="session_runtime_v0"), "specializes"),
    ("OVA104", lambda a: a["issue_projection"].update(issue_body_copied=True), "issue_body_copied"),
    (
        "OVA105",
        lambda a: a["session_projection"].update(raw_tool_outputs_copied="false"),
        "raw_tool_outputs_copied",
    ),
    (
        "OVA106",
        lambda a: a["memory_projection"].update(live_retrieval_performed=True),
        "live_retrieval_performed",
    ),
    (
        "OVA107",
        lambda a: a["memory_projection"]["candidate_refs"][0].update(score_bucket="very_high"),
        "score_bucket",
    ),
    ("OVA108", lambda a: a["retrieval_gates"][0].update(state="approved"), "state"),
    ("OVA109", lambda a: a["status_projection"].update(quota_state="unlimited"), "quota_state"),
    (
        "OVA110",
        lambda a: a["evidence_projection"].update(private_paths_copied=0),
        "private_paths_copied",
    ),
    (
        "OVA111",
        lambda a: a["truth_contract"].update(tool_output_ingest_allowed=True),
        "tool_output_ingest_allowed",
    ),
]


@pytest.mark.parametrize("code,mutate,key", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_each_mutation_triggers_exactly_its_rule(
    tmp_path: Path, code, mutate, key, adapter_fixture: Path
) -> None:
    doc = json.loads(adapter_fixture.read_text(encoding="utf-8"))
    mutate(_adapter(doc))
    text = json.dumps(doc, indent=2)
    target = tmp_path / "mutated.json"
    target.write_text(text, encoding="utf-8")
    findings = lint_paths([str(target)])
    assert [f.code for f in findings] == [code]
    # The reported line is the line of the mutated key (the first such key after the adapter starts).
    lines = text.splitlines()
    adapter_line = next(
        i for i, s in enumerate(lines) if '"openviking_session_memory_adapter"' in s
    )
    expected_line = (
        next(
            i
            for i, s in enumerate(lines)
            if i > adapter_line and f'"{key}"' in s and (key != "state" or "approved" in s)
        )
        + 1
    )
    assert findings[0].line == expected_line
    assert findings[0].json_path.startswith(
        "attention_queue.items[0].openviking_session_memory_adapter."
    )


def test_issue_body_copied_true_on_the_original_layout(
    tmp_path: Path, adapter_fixture: Path
) -> None:
    """The README's example: one byte-level edit of the file, reported on that exact line."""
    original = adapter_fixture.read_text(encoding="utf-8")
    edited = original.replace('"issue_body_copied": false', '"issue_body_copied": true')
    target = tmp_path / "adapter.json"
    target.write_text(edited, encoding="utf-8")
    findings = lint_paths([str(target)])
    line = next(i for i, s in enumerate(edited.splitlines(), 1) if '"issue_body_copied": true' in s)
    assert [(f.code, f.line, f.col) for f in findings] == [
        ("OVA104", line, edited.splitlines()[line - 1].index("true") + 1)
    ]
    assert "must be false, found true" in findings[0].message
    assert (
        findings[0].json_path
        == "attention_queue.items[0].openviking_session_memory_adapter.issue_projection.issue_body_copied"
    )


def test_duplicate_key_override_is_caught(tmp_path: Path, adapter_fixture: Path) -> None:
    original = adapter_fixture.read_text(encoding="utf-8")
    edited = original.replace(
        '"issue_body_copied": false,', '"issue_body_copied": false,\n"issue_body_copied": true,', 1
    )
    target = tmp_path / "dup.json"
    target.write_text(edited, encoding="utf-8")
    codes = sorted(f.code for f in lint_paths([str(target)]))
    assert codes == ["OVA104", "OVA112"]


def test_adapter_records_in_json_lines(tmp_path: Path, adapter_fixture: Path) -> None:
    adapter = _adapter(json.loads(adapter_fixture.read_text(encoding="utf-8")))
    bad = dict(adapter, mode="live")
    target = tmp_path / "adapters.jsonl"
    target.write_text(
        "\n".join(json.dumps(r) for r in (adapter, bad, adapter)) + "\n", encoding="utf-8"
    )
    findings = lint_paths([str(target)])
    assert [(f.code, f.line, f.json_path) for f in findings] == [("OVA102", 2, "[1].mode")]
