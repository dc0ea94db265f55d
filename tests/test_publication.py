"""The publication model: what is judged where (classify stage, check catalog, --scope all)."""
# ovadapt: ignore-file  (deliberate samples: paths, loopback URLs and tokens planted in temp files)

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ovadapt_lint import lint_paths
from ovadapt_lint.checks.catalog import CATALOG, judged_where
from ovadapt_lint.classify import PUBLIC, SOURCE, TEST, file_role
from ovadapt_lint.config import Config
from ovadapt_lint.discover import kind_of
from ovadapt_lint.registry import all_rules

from .conftest import CORPUS, SHARED, require_shared, run_cli

LEAKY = {"note": "copied from /home/alice/.ssh/config at http://10.0.0.5:8080/x", "id": "run-1"}
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def _codes(path: Path, config: Config | None = None) -> set[str]:
    return {f.code for f in lint_paths([str(path)], config or Config())}


@pytest.mark.parametrize(
    "rel, role",
    [
        ("fixtures/a.public.json", PUBLIC),
        ("out/x.public.jsonl", PUBLIC),
        ("tests/data/a.json", TEST),
        ("pkg/tests/test_a.py", TEST),
        ("test_a.py", TEST),
        ("a_test.py", TEST),
        ("conftest.py", TEST),
        ("src/builder.py", SOURCE),
        ("config/settings.json", SOURCE),
        ("testimony.py", SOURCE),
    ],
)
def test_file_roles_by_name_and_place(rel: str, role: str) -> None:
    assert file_role(Path(rel), [], [], None) == role


def test_configured_public_and_test_paths() -> None:
    assert file_role(Path("site/data/x.json"), ["site/"], [], None) == PUBLIC
    assert file_role(Path("qa/x.py"), [], ["qa/"], None) == TEST


def test_private_json_is_judged_for_credentials_only(tmp_path: Path) -> None:
    plain = tmp_path / "settings.json"
    plain.write_text(json.dumps({**LEAKY, "token": TOKEN}), encoding="utf-8")
    assert _codes(plain) == {"OVA401"}
    published = tmp_path / "settings.public.json"
    published.write_text(json.dumps(LEAKY), encoding="utf-8")
    assert {"OVA501", "OVA602"} <= _codes(published)
    assert {"OVA501", "OVA602"} <= _codes(plain, Config(scope="all"))


def test_json_that_attests_or_holds_an_adapter_is_public(tmp_path: Path) -> None:
    attesting = tmp_path / "packet.json"
    attesting.write_text(json.dumps({**LEAKY, "raw_trajectory_copied": False}), encoding="utf-8")
    assert {"OVA501", "OVA602"} <= _codes(attesting)


def test_public_paths_config_makes_a_folder_public(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    data = tmp_path / "site" / "status.json"
    data.write_text(json.dumps(LEAKY), encoding="utf-8")
    assert _codes(data) == set()
    assert {"OVA501", "OVA602"} <= _codes(
        data, Config(public_paths=["site/"], source=tmp_path / "pyproject.toml")
    )


def test_public_path_flag_and_scope_flag(tmp_path: Path) -> None:
    data = tmp_path / "status.json"
    data.write_text(json.dumps(LEAKY), encoding="utf-8")
    assert run_cli("--no-cache", str(data)).returncode == 0
    assert run_cli("--no-cache", "--public-path", "status.json", str(data)).returncode == 1
    assert run_cli("--no-cache", "--scope", "all", str(data)).returncode == 1


def test_scope_key_is_validated(tmp_path: Path) -> None:
    (tmp_path / ".ovadapt-lint.toml").write_text('scope = "everything"\n', encoding="utf-8")
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    proc = run_cli("--no-cache", "a.json", cwd=tmp_path)
    assert proc.returncode == 2 and "scope" in proc.stderr and "published, all" in proc.stderr


def test_tests_get_credentials_but_not_paths(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    module = tmp_path / "tests" / "test_client.py"
    module.write_text(
        f'BASE = "http://127.0.0.1:1933"\nHOME = "/home/alice/x"\nKEY = "{TOKEN}"\n'
        'def test_x():\n    assert {"raw_output_copied": False, "home": HOME}\n',
        encoding="utf-8",
    )
    assert _codes(module) == {"OVA401"}


def test_python_content_rules_follow_the_published_values(tmp_path: Path) -> None:
    module = tmp_path / "builder.py"
    module.write_text(
        'HOME = "/home/alice/work"\n'
        'HELP = "see http://127.0.0.1:1933 or /home/bob/notes"\n'
        "def build(run):\n"
        '    receipt = {"schema_version": "receipt_v1", "where": "/home/carol/x"}\n'
        '    return {"schema_version": "build_v1", "raw_tool_outputs_copied": False, "workdir": HOME, "ref": run.ref}\n',
        encoding="utf-8",
    )
    found = {(f.line, f.code) for f in lint_paths([str(module)], Config())}
    # The constant that feeds the projection is judged; the help text and the private receipt are not.
    assert found == {(1, "OVA501")}


def test_every_rule_is_claimed_and_documented_with_its_roles() -> None:
    claimed = {code for checks in CATALOG.values() for check in checks for code in check.codes}
    for code in all_rules():
        where = judged_where(code)
        assert where != "not run by any check", code
        if not code.startswith("OVA0") and code != "OVA314":
            assert code in claimed, f"{code} is claimed by no check"
    assert claimed <= set(all_rules()), (
        f"checks declare unknown codes: {claimed - set(all_rules())}"
    )


@pytest.mark.parametrize(
    "example",
    sorted(
        p
        for p in CORPUS.rglob("*")
        if p.is_file()
        and p.suffix not in (".expect", ".fixed")
        and not p.name.startswith((".", "_"))
    ),
    ids=lambda p: str(p.relative_to(CORPUS)),
)
def test_corpus_findings_come_from_checks_that_declare_them(example: Path) -> None:
    kind = kind_of(example.name) or "json"
    declared = {code for check in CATALOG[kind] for code in check.codes}
    for finding in lint_paths([str(example)]):
        assert (
            finding.code in declared or finding.code.startswith("OVA0") or finding.code == "OVA314"
        ), f"{finding.code} in {example.name} comes from no declared check"


def test_realworld_rejects_and_raw_workspace_stay_flagged() -> None:
    require_shared()
    rejects = SHARED / "realworld" / "loopx" / "examples" / "computer-use-runtime-contract-fixtures"
    # Negative cases (`"expect": "reject"`) are test data by default; the audit judges them as published.
    audit = Config(scope="all")
    assert _codes(rejects) == set()
    assert "OVA207" in _codes(rejects / "03_raw_evidence_reject.json", audit)
    assert "OVA405" in _codes(
        rejects / "08_smuggled_cookie_in_session_reference_reject.json", audit
    )
    assert "OVA403" in _codes(rejects / "09_smuggled_credential_in_handle_kind_reject.json", audit)
    workspace = (
        SHARED / "realworld" / "openviking" / "tests" / "integration" / ".tmp_agent_memory_e2e"
    )
    raw = [p for p in workspace.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl")]
    assert raw and all("OVA314" in _codes(p) for p in raw)


def test_notebook_is_linted_with_positions_in_its_json(tmp_path: Path) -> None:
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "source": [
                    "import os\n",
                    'key = "sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm"\n',
                ],
                "outputs": [
                    {"output_type": "stream", "name": "stdout", "text": ["/home/alice/run.log\n"]}
                ],
            }
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    text = json.dumps(notebook, indent=1)
    (tmp_path / "analysis.ipynb").write_text(text, encoding="utf-8")
    found = {f.code: f for f in lint_paths([str(tmp_path)])}
    line_no, line = next((i, s) for i, s in enumerate(text.splitlines(), 1) if "sk-proj-" in s)
    assert set(found) == {
        "OVA401"
    }  # a source file: credentials everywhere, paths only when published
    assert (found["OVA401"].line, found["OVA401"].col) == (line_no, line.index("sk-proj-") + 1)
    assert found["OVA401"].json_path == "cells[0].source[1]"
    published = {f.code for f in lint_paths([str(tmp_path)], Config(public_paths=["*.ipynb"]))}
    assert any(
        code.startswith("OVA5") for code in published
    )  # listed as published: its outputs are judged
