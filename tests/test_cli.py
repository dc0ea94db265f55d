"""The command line, run as a real subprocess: exit codes, formats, selection, rules/explain."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import ADAPTER_FIXTURE, CORPUS, ROOT, require_shared, run_cli

BAD = CORPUS / "OVA104" / "bad_flag_true.json"
OK = CORPUS / "OVA103" / "ok_specializes.json"


def test_clean_fixture_exits_0() -> None:
    require_shared()
    proc = run_cli(str(ADAPTER_FIXTURE))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "All checks passed" in proc.stdout


def test_finding_exits_1_with_location_and_frame() -> None:
    proc = run_cli(str(BAD.relative_to(ROOT)))
    assert proc.returncode == 1
    line = next(i for i, l in enumerate(BAD.read_text().splitlines(), 1) if '"issue_body_copied": true' in l)
    assert f"corpus/OVA104/bad_flag_true.json:{line}:" in proc.stdout
    assert "OVA104" in proc.stdout
    assert '"issue_body_copied": true' in proc.stdout  # the code frame
    assert "1  OVA104  issue-projection" in proc.stdout  # the summary by code
    assert "\x1b[" not in proc.stdout  # no colour when not a terminal
    assert "Traceback" not in proc.stderr


def test_not_json_is_a_notice_without_traceback(tmp_path: Path) -> None:
    target = tmp_path / "notes.json"
    target.write_text("this is not json\n", encoding="utf-8")
    proc = run_cli(str(target))
    assert proc.returncode == 1
    assert "OVA001" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_exit_zero_and_statistics() -> None:
    proc = run_cli("--exit-zero", "--statistics", str(CORPUS / "OVA104"))
    assert proc.returncode == 0
    assert proc.stdout.split() == ["7", "OVA104", "issue-projection"]  # 5 in fixtures, 2 in bad_builder.py


def test_select_and_ignore_by_prefix() -> None:
    folder = str(CORPUS / "OVA112")
    both = json.loads(run_cli("--format", "json", folder).stdout)["summary"]["by_code"]
    assert both == {"OVA104": 1, "OVA112": 2}
    only = json.loads(run_cli("--format", "json", "--select", "OVA112", folder).stdout)["summary"]["by_code"]
    assert only == {"OVA112": 2}
    ignored = json.loads(run_cli("--format", "json", "--ignore", "OVA11", folder).stdout)["summary"]["by_code"]
    assert ignored == {"OVA104": 1}
    proc = run_cli("--ignore", "OVA1", folder)
    assert proc.returncode == 0


def test_unknown_code_and_missing_path_exit_2(tmp_path: Path) -> None:
    proc = run_cli("--select", "XYZ1", str(OK))
    assert proc.returncode == 2 and "unknown rule code" in proc.stderr
    proc = run_cli(str(tmp_path / "nope"))
    assert proc.returncode == 2 and "no such file or directory" in proc.stderr
    proc = run_cli("--format", "yaml", str(OK))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def test_json_format_schema() -> None:
    proc = run_cli("--format", "json", str(BAD))
    doc = json.loads(proc.stdout)
    assert doc["schema"] == "ovadapt-lint/findings/v1"
    (item,) = doc["findings"]
    assert set(item) == {"code", "name", "category", "severity", "message", "path", "start_line", "start_column",
                         "end_line", "end_column", "json_path", "fingerprint"}
    assert item["code"] == "OVA104" and item["category"] == "contract" and item["severity"] == "error"
    assert item["json_path"] == "issue_projection.issue_body_copied"
    assert len(item["fingerprint"]) == 32


def test_github_format() -> None:
    proc = run_cli("--format", "github", str(BAD.relative_to(ROOT)))
    (line,) = proc.stdout.splitlines()
    assert line.startswith("::error file=corpus/OVA104/bad_flag_true.json,line=")
    assert ",col=" in line and ",endLine=" in line and ",endColumn=" in line and "title=OVA104 issue-projection::" in line


def test_output_file(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    proc = run_cli("--format", "json", "--output", str(out), str(BAD))
    assert proc.returncode == 1 and proc.stdout == ""
    assert json.loads(out.read_text())["summary"]["findings"] == 1


def test_rules_list_and_explain() -> None:
    proc = run_cli("rules")
    assert proc.returncode == 0
    assert any(line.startswith("OVA104  issue-projection") for line in proc.stdout.splitlines())
    explain = run_cli("rules", "OVA104")
    assert explain.returncode == 0 and "How to fix" in explain.stdout
    assert run_cli("--explain", "ova104").stdout == explain.stdout
    assert run_cli("--explain", "OVA999").returncode == 2


def test_docs_rules_md_is_generated_from_the_registry() -> None:
    proc = run_cli("rules", "--format", "markdown")
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == proc.stdout, \
        "docs/rules.md is stale: run `ovadapt-lint rules --format markdown > docs/rules.md`"


def test_version_and_help() -> None:
    from ovadapt_lint import __version__

    assert run_cli("--version").stdout.strip() == f"ovadapt-lint {__version__}"
    help_text = run_cli("--help").stdout
    for option in ("--format", "--output", "--select", "--ignore", "--config", "--deny-list", "--exit-zero",
                   "--statistics", "--no-color", "--explain", "--include", "--exclude"):
        assert option in help_text


def test_config_file_select_and_errors(tmp_path: Path) -> None:
    (tmp_path / "fixture.json").write_text(BAD.read_text(), encoding="utf-8")
    (tmp_path / ".ovadapt-lint.toml").write_text('ignore = ["OVA104"]\n', encoding="utf-8")
    assert run_cli(str(tmp_path)).returncode == 0  # found by walking up from the path
    assert run_cli("--select", "OVA104", str(tmp_path)).returncode == 1  # CLI overrides
    (tmp_path / ".ovadapt-lint.toml").write_text('colour = true\n', encoding="utf-8")
    proc = run_cli(str(tmp_path))
    assert proc.returncode == 2 and "unknown key 'colour'" in proc.stderr
    (tmp_path / ".ovadapt-lint.toml").write_text('ignore = "OVA104"\n', encoding="utf-8")
    assert "must be a list of strings" in run_cli(str(tmp_path)).stderr
    (tmp_path / ".ovadapt-lint.toml").write_text('ignore = [\n', encoding="utf-8")
    assert "invalid TOML" in run_cli(str(tmp_path)).stderr


def test_deny_list_file_is_parsed(tmp_path: Path) -> None:
    deny = tmp_path / "deny.txt"
    deny.write_text("# internal names\nbluefin\n\nre:proj-[0-9]+\n", encoding="utf-8")
    from ovadapt_lint.detect.denylist import DenyList

    entries = DenyList.from_files([deny]).entries
    assert [(e.kind, e.where) for e in entries] == [("plain", "deny.txt:2"), ("regex", "deny.txt:4")]
    assert run_cli("--deny-list", str(deny), str(OK)).returncode == 0
    proc = run_cli("--deny-list", str(tmp_path / "missing.txt"), str(OK))
    assert proc.returncode == 2 and "cannot read deny-list" in proc.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("re:proj-[\n", encoding="utf-8")
    proc = run_cli("--deny-list", str(bad), str(OK))
    assert proc.returncode == 2 and "bad.txt:1" in proc.stderr and "Traceback" not in proc.stderr


def test_default_walk_skips_tool_folders(tmp_path: Path) -> None:
    for folder in (".git", "node_modules", ".venv", "build", "__pycache__"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "x.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("{bad", encoding="utf-8")
    doc = json.loads(run_cli("--format", "json", str(tmp_path)).stdout)
    assert [f["path"].replace("\\", "/").rsplit("/", 2)[-2:] for f in doc["findings"]] == [["real", "x.json"]]


def test_dogfooding_own_sources_and_rule_pack_are_clean() -> None:
    # The linter's own code is full of detector regexes and docs about credentials and raw
    # material: it must pass its own rules. Test modules that carry deliberate samples say so
    # with `# ovadapt: ignore-file`; corpus/ is the labelled bad examples.
    proc = run_cli("--format", "github", "--no-cache", "src", "./rules", "tests", "docs", "benchmarks")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == ""


def test_no_rule_reports_its_own_documented_near_miss(tmp_path: Path) -> None:
    """Each rule's `ok` snippet that is JSON (alone or wrapped in braces) is not reported by that rule."""
    from ovadapt_lint import Config, lint_paths
    from ovadapt_lint.registry import all_rules

    checked = 0
    for code, rule in all_rules().items():
        doc = None
        for candidate in (rule.ok, "{" + rule.ok + "}"):
            try:
                doc = json.loads(candidate)
                break
            except ValueError:
                continue
        if not rule.ok or doc is None:
            continue
        target = tmp_path / f"{code}.json"
        target.write_text(json.dumps(doc), encoding="utf-8")
        assert code not in {f.code for f in lint_paths([str(target)], Config())}, (code, rule.ok)
        checked += 1
    assert checked >= 25
