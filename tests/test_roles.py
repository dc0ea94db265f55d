"""Issue 30: fixtures as users lay them out. A `fixtures/` folder is published (outside test paths), every
run says what it judged (the text summary counts files by role), `--show-roles` says why, and JSON and SARIF
name the role of each file with findings."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema

from ovadapt_lint import Config, lint_paths

from .conftest import CORPUS, SARIF_SCHEMA, require_shared, run_cli

# A status fixture with transcript turns in a compact slot, a home path and a shell session: raw material in
# plain keys, no contract object, no attestation key, no `*.public.json` name.
LEAKY_STATUS = {
    "next_action": "user: can you rerun it\nassistant: rerunning the suite now",
    "notes_path": "/home/dana/notes/status.md",
    "stdout": "$ make check\nok 14 tests\n$ git push\nEverything up-to-date",
}


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for folder in ("src", "fixtures", "tests/fixtures", "docs/fixtures"):
        (repo / folder).mkdir(parents=True)
    (repo / "fixtures" / "status.json").write_text(
        json.dumps(LEAKY_STATUS, indent=1), encoding="utf-8"
    )
    (repo / "docs" / "fixtures" / "status.json").write_text(
        json.dumps(LEAKY_STATUS, indent=1), encoding="utf-8"
    )
    (repo / "tests" / "fixtures" / "status.json").write_text(
        json.dumps(LEAKY_STATUS, indent=1), encoding="utf-8"
    )
    (repo / "src" / "settings.json").write_text(
        json.dumps({"log_dir": "/home/dana/logs"}), encoding="utf-8"
    )
    (repo / "src" / "view.json").write_text(
        json.dumps({"summary": "ok", "raw_log_copied": False}), encoding="utf-8"
    )
    (repo / "src" / "build.py").write_text("VERSION = 1\n", encoding="utf-8")
    adapter = (CORPUS / "OVA106" / "ok_future_gated.json").read_text(encoding="utf-8")
    (repo / "out").mkdir()
    (repo / "out" / "adapter.json").write_text(adapter, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def test_a_fixtures_folder_is_published_at_any_depth_but_not_under_tests(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    found = lint_paths([str(repo)])
    by_file: dict[str, set[str]] = {}
    for finding in found:
        by_file.setdefault(Path(finding.path).relative_to(repo).as_posix(), set()).add(finding.code)
    for published in ("fixtures/status.json", "docs/fixtures/status.json"):
        assert {"OVA310", "OVA501", "OVA313"} <= by_file.get(published, set()), by_file
    assert "tests/fixtures/status.json" not in by_file  # test data: credentials and names only
    assert (
        "src/settings.json" not in by_file
    )  # a private settings file: its home path is not judged


def test_public_paths_can_take_the_fixtures_default_back_out(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    (repo / ".ovadapt-lint.toml").write_text(
        'public-paths = ["!docs/fixtures/"]\n', encoding="utf-8"
    )
    files = {Path(f.path).relative_to(repo).as_posix() for f in lint_paths([str(repo)])}
    assert "fixtures/status.json" in files and "docs/fixtures/status.json" not in files


def test_show_roles_lists_each_file_with_its_role_and_why(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    proc = run_cli("--show-roles", "src", "fixtures", "tests", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "public  fixtures/status.json  (folder fixtures/)" in lines
    assert "public  src/view.json  (attestation key raw_log_copied)" in lines
    assert "source  src/settings.json  (no public name, folder or content)" in lines
    assert "source  src/build.py  (no public name, folder or content)" in lines
    assert "test    tests/fixtures/status.json  (test path tests/)" in lines
    assert lines[-1] == "5 file(s): 2 public, 2 source, 1 test"
    doc = json.loads(run_cli("--show-roles", "--format", "json", ".", cwd=repo).stdout)
    assert doc["schema"] == "ovadapt-lint/roles/v1"
    assert doc["summary"] == {"public": 4, "source": 2, "test": 1}
    assert {
        "path": "out/adapter.json",
        "role": "public",
        "why": "contract object openviking_session_memory_adapter_v0",
    } in doc["files"]
    proc = run_cli("--show-roles", "--public-path", "out/", "out", cwd=repo)
    assert proc.stdout.splitlines()[0] == "public  out/adapter.json  (config public-paths out/)"
    assert {
        "path": "docs/fixtures/status.json",
        "role": "public",
        "why": "folder fixtures/",
    } in doc["files"]


def test_the_text_summary_counts_files_by_role_and_says_what_private_files_are_judged_for(
    tmp_path: Path,
) -> None:
    repo = _repository(tmp_path)
    proc = run_cli("--no-cache", "src", "fixtures", "tests", cwd=repo)
    assert proc.returncode == 1
    assert (
        "5 file(s): 2 public, 2 source, 1 test; files that are not public are judged for credentials and "
        "internal names only"
    ) in proc.stdout
    clean = run_cli("--no-cache", "src/build.py", "src/settings.json", cwd=repo)
    assert clean.returncode == 0
    assert "2 file(s): 0 public, 2 source, 0 test; files that are not public" in clean.stdout
    audit = run_cli("--no-cache", "--scope", "all", "src", cwd=repo)
    assert "every rule ran on every file (--scope all)" in audit.stdout


def test_json_and_sarif_name_the_role_of_each_file_with_findings(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    doc = json.loads(run_cli("--no-cache", "--format", "json", "fixtures", "src", cwd=repo).stdout)
    assert doc["summary"]["roles"] == {"public": 2, "source": 2, "test": 0}
    assert {(f["path"], f["role"], f["role_reason"]) for f in doc["findings"]} == {
        ("fixtures/status.json", "public", "folder fixtures/")
    }
    sarif = json.loads(
        run_cli("--no-cache", "--format", "sarif", "fixtures", "src", cwd=repo).stdout
    )
    require_shared()
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(sarif)
    assert sarif["runs"][0]["artifacts"] == [
        {
            "location": {"uri": "fixtures/status.json", "uriBaseId": "%SRCROOT%"},
            "roles": ["analysisTarget"],
            "properties": {"role": "public", "roleReason": "folder fixtures/"},
        }
    ]


# A negative case as contract test suites write them (LoopX's `*_reject.json`): the traps are the point.
NEGATIVE_CASE = {
    "case_id": "copied_log_reject",
    "expect": "reject",
    "receipt": {"summary": "ok", "raw_log_copied": True, "log_path": "/home/dana/run/log.txt"},
}
# A generated-looking token (synthetic), reported in test data as anywhere.
TOKEN = "ghp_" + "Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3V"


def _cases(tmp_path: Path) -> Path:
    repo = tmp_path / "cases"
    (repo / "fixtures").mkdir(parents=True)
    (repo / "fixtures" / "copied_log_reject.json").write_text(
        json.dumps(NEGATIVE_CASE, indent=1), encoding="utf-8"
    )
    positive = {k: v for k, v in NEGATIVE_CASE.items() if k != "expect"}
    (repo / "fixtures" / "copied_log.json").write_text(
        json.dumps(positive, indent=1), encoding="utf-8"
    )
    (repo / "out").mkdir()
    for name, rows in {
        # every record declares itself a negative case / one record does not
        "rejects.jsonl": [NEGATIVE_CASE, {**NEGATIVE_CASE, "expected_result": "denied"}],
        "mixed.jsonl": [NEGATIVE_CASE, positive],
    }.items():
        (repo / "out" / name).write_text(
            "".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8"
        )
    (repo / "out" / "token_reject.json").write_text(
        json.dumps({"expected": "Invalid", "raw_log_copied": True, "auth": TOKEN}), encoding="utf-8"
    )
    return repo


def test_a_document_that_declares_itself_a_negative_case_is_test_data(tmp_path: Path) -> None:
    repo = _cases(tmp_path)
    by_file: dict[str, set[str]] = {}
    for finding in lint_paths([str(repo)]):
        by_file.setdefault(Path(finding.path).relative_to(repo).as_posix(), set()).add(finding.code)
    # The same document without its declaration is a leaky fixture: raw copy flag and a home path.
    assert {"OVA207", "OVA501"} <= by_file["fixtures/copied_log.json"], by_file
    assert "fixtures/copied_log_reject.json" not in by_file, by_file
    assert "out/rejects.jsonl" not in by_file, by_file
    assert {"OVA207", "OVA501"} <= by_file["out/mixed.jsonl"], by_file
    # Credentials are judged in test data too: the token is reported, the copy flag is not.
    assert by_file["out/token_reject.json"] == {"OVA401"}, by_file
    audit = {Path(f.path).name for f in lint_paths([str(repo)], Config(scope="all"))}
    assert "copied_log_reject.json" in audit and "rejects.jsonl" in audit


def test_show_roles_says_a_negative_case_is_test_data_cold_and_warm(tmp_path: Path) -> None:
    repo = _cases(tmp_path)
    expected = {
        'test    fixtures/copied_log_reject.json  (negative case expect "reject")',
        "public  fixtures/copied_log.json  (folder fixtures/)",
        'test    out/rejects.jsonl  (negative case expect "reject")',
        "public  out/mixed.jsonl  (attestation key raw_log_copied)",
        'test    out/token_reject.json  (negative case expected "invalid")',
    }
    assert set(run_cli("--show-roles", ".", cwd=repo).stdout.splitlines()[:-1]) == expected
    cache = tmp_path / "cache"
    for _ in range(2):  # the second run reads each document's role from the cache
        doc = json.loads(
            run_cli(
                "--cache-dir", str(cache), "--format", "json", "--exit-zero", ".", cwd=repo
            ).stdout
        )
        assert doc["summary"]["roles"] == {"public": 2, "source": 0, "test": 3}
        assert {(f["path"], f["role"], f["role_reason"]) for f in doc["findings"]} >= {
            ("out/token_reject.json", "test", 'negative case expected "invalid"')
        }
