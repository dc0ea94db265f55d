"""The command line: exit codes, formats, selection, rules/explain. Most tests run ``cli.main`` in this
process (conftest.run_cli); the first three start the real console entry point."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import CORPUS, ROOT, run_cli, run_cli_process

BAD = CORPUS / "OVA104" / "bad_flag_true.json"
OK = CORPUS / "OVA103" / "ok_specializes.json"


def test_clean_fixture_exits_0(adapter_fixture: Path) -> None:
    proc = run_cli_process(str(adapter_fixture))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "All checks passed" in proc.stdout


def test_finding_exits_1_with_location_and_frame() -> None:
    proc = run_cli_process(str(BAD.relative_to(ROOT)))
    assert proc.returncode == 1
    line = next(
        i
        for i, text in enumerate(BAD.read_text().splitlines(), 1)
        if '"issue_body_copied": true' in text
    )
    assert f"corpus/OVA104/bad_flag_true.json:{line}:" in proc.stdout
    assert "OVA104" in proc.stdout
    assert '"issue_body_copied": true' in proc.stdout  # the code frame
    assert "1  OVA104  issue-projection" in proc.stdout  # the summary by code
    assert "\x1b[" not in proc.stdout  # no colour when not a terminal
    assert "Traceback" not in proc.stderr


def test_not_json_is_a_notice_without_traceback(tmp_path: Path) -> None:
    target = tmp_path / "notes.json"
    target.write_text("this is not json\n", encoding="utf-8")
    proc = run_cli_process(str(target))
    assert proc.returncode == 1
    assert "OVA001" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_exit_zero_and_statistics() -> None:
    proc = run_cli("--exit-zero", "--statistics", str(CORPUS / "OVA104"))
    assert proc.returncode == 0
    assert proc.stdout.split() == [
        "7",
        "OVA104",
        "issue-projection",
    ]  # 5 in fixtures, 2 in bad_builder.py


def test_select_and_ignore_by_prefix() -> None:
    folder = str(CORPUS / "OVA112")
    both = json.loads(run_cli("--format", "json", folder).stdout)["summary"]["by_code"]
    assert both == {"OVA104": 1, "OVA112": 2}
    only = json.loads(run_cli("--format", "json", "--select", "OVA112", folder).stdout)["summary"][
        "by_code"
    ]
    assert only == {"OVA112": 2}
    ignored = json.loads(run_cli("--format", "json", "--ignore", "OVA11", folder).stdout)[
        "summary"
    ]["by_code"]
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
    assert set(item) == {
        "code",
        "name",
        "category",
        "severity",
        "message",
        "path",
        "start_line",
        "start_column",
        "end_line",
        "end_column",
        "json_path",
        "fingerprint",
        "role",
        "role_reason",
    }
    assert (
        item["code"] == "OVA104" and item["category"] == "contract" and item["severity"] == "error"
    )
    assert item["json_path"] == "issue_projection.issue_body_copied"
    assert len(item["fingerprint"]) == 32


def test_github_format() -> None:
    proc = run_cli("--format", "github", str(BAD.relative_to(ROOT)))
    line, summary = proc.stdout.splitlines()
    assert line.startswith("::error file=corpus/OVA104/bad_flag_true.json,line=")
    assert (
        ",col=" in line
        and ",endLine=" in line
        and ",endColumn=" in line
        and "title=OVA104 issue-projection::" in line
    )
    assert summary == "ovadapt-lint: 1 finding(s) (1 error) in 1 of 1 file(s)"


def test_github_format_titles_every_annotation_and_prints_the_summary_last() -> None:
    proc = run_cli(
        "--format", "github", "--no-cache", "corpus/OVA104", "corpus/OVA001", "corpus/OVA502"
    )
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    annotations, summary = lines[:-1], lines[-1]
    assert len(annotations) > 10 and all(line.startswith("::") for line in annotations)
    for line in annotations:
        code = line.split("title=", 1)[1].split(" ", 1)[0]
        assert re.fullmatch(r"OVA\d{3}", code), line
        name = line.split("title=", 1)[1].split("::", 1)[0].split(" ", 1)[1]
        assert name and "," not in name and line.split("::", 2)[2].startswith(code + " ")
    assert summary.startswith(f"ovadapt-lint: {len(annotations)} finding(s) (")
    assert "GitHub shows 10 annotations of each level per step" in summary


def test_github_format_paths_are_repository_relative_from_a_subfolder() -> None:
    proc = run_cli("--format", "github", "--no-cache", "bad_flag_true.json", cwd=CORPUS / "OVA104")
    assert proc.stdout.startswith("::error file=corpus/OVA104/bad_flag_true.json,")


def test_output_format_is_the_long_name_of_format() -> None:
    assert (
        run_cli("--output-format", "json", str(BAD)).stdout
        == run_cli("--format", "json", str(BAD)).stdout
    )
    assert "--output-format" in run_cli("--help").stdout
    proc = run_cli("--output-format", "yaml", str(BAD))
    assert proc.returncode == 2 and "concise" in proc.stderr


def test_concise_format_is_one_line_per_finding() -> None:
    proc = run_cli("--output-format", "concise", "--no-cache", str(CORPUS / "OVA104"), cwd=ROOT)
    assert proc.returncode == 1
    expected = json.loads(run_cli("--format", "json", "--no-cache", str(CORPUS / "OVA104")).stdout)[
        "findings"
    ]
    lines = proc.stdout.splitlines()
    assert len(lines) == len(expected) == 7
    for line, item in zip(lines, expected):
        assert (
            line
            == f"{item['path']}:{item['start_line']}:{item['start_column']}: {item['code']} {item['message']}"
        )
    assert (
        "|" not in proc.stdout and "^" not in proc.stdout and "Found" not in proc.stdout
    )  # no frame, no summary
    assert run_cli("--output-format", "concise", str(OK)).stdout == ""


def test_rules_code_json_prints_json() -> None:
    proc = run_cli("rules", "OVA104", "--format", "json")
    assert proc.returncode == 0
    rule = json.loads(proc.stdout)
    assert rule["code"] == "OVA104" and rule["name"] == "issue-projection"
    everything = {r["code"]: r for r in json.loads(run_cli("rules", "--format", "json").stdout)}
    assert everything["OVA104"] == rule
    assert json.loads(run_cli("rules", "OVA104", "--output-format", "json").stdout) == rule


NOQA_MODULE = """\
def build_packet():
    return {
        "schema_version": "demo_public_v0",
        "raw_memory_copied": False,
        "a": "/home/alice/notes.md",  # noqa: OVA501
        "b": "/home/alice/notes.md",  # noqa
        "c": "/home/alice/notes.md",  # noqa: E501
        "d": "/home/alice/notes.md",  # noqa:E501,OVA502 OVA501
        "e": "/home/alice/notes.md",  # NOQA: OVA999
        "f": "/home/alice/notes.md",  # ovadapt: ignore[OVA501]
    }
"""


def test_noqa_with_codes_is_an_alias_of_ovadapt_ignore_and_bare_noqa_is_not(tmp_path: Path) -> None:
    module = tmp_path / "packet.py"
    module.write_text(NOQA_MODULE, encoding="utf-8")
    doc = json.loads(
        run_cli("--format", "json", "--show-suppressed", "--no-cache", str(module)).stdout
    )
    reported = sorted((f["start_line"], f["code"]) for f in doc["findings"])
    # Line 6: a bare noqa; line 7: only another tool's code; line 9: an unknown OVA code (OVA008).
    assert reported == [(6, "OVA501"), (7, "OVA501"), (9, "OVA008"), (9, "OVA501")]
    hidden = {f["start_line"]: f["suppressed_by"] for f in doc["suppressed"]}
    assert hidden == {
        5: "# noqa on line 5",
        8: "# noqa on line 8",
        10: "# ovadapt: ignore on line 10",
    }
    sarif = json.loads(
        run_cli(
            "--format", "sarif", "--show-suppressed", "--no-cache", str(module), cwd=tmp_path
        ).stdout
    )
    kinds = {
        r["locations"][0]["physicalLocation"]["region"]["startLine"]: r["suppressions"][0]["kind"]
        for r in sarif["runs"][0]["results"]
        if "suppressions" in r
    }
    assert kinds == {5: "inSource", 8: "inSource", 10: "inSource"}


def test_extend_exclude_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "a.json").write_text(BAD.read_text(), encoding="utf-8")
    (tmp_path / "b.json").write_text(BAD.read_text(), encoding="utf-8")
    (tmp_path / "c.json").write_text(OK.read_text(), encoding="utf-8")
    (tmp_path / ".ovadapt-lint.toml").write_text('exclude = ["b.json"]\n', encoding="utf-8")
    assert run_cli("--no-cache", ".", cwd=tmp_path).returncode == 1
    proc = run_cli(
        "--no-cache", "--extend-exclude", "generated/", "--format", "json", ".", cwd=tmp_path
    )
    assert proc.returncode == 0, (
        proc.stdout
    )  # the configured exclude still applies, and the extension too
    assert json.loads(proc.stdout)["summary"]["files"] == 1
    assert "--extend-exclude" in run_cli("--help").stdout


def test_statistics_with_json_prints_json() -> None:
    proc = run_cli("--exit-zero", "--statistics", "--format", "json", str(CORPUS / "OVA104"))
    assert proc.returncode == 0
    doc = json.loads(proc.stdout)
    assert doc["schema"] == "ovadapt-lint/statistics/v1"
    assert doc["statistics"] == [{"code": "OVA104", "name": "issue-projection", "count": 7}]
    assert doc["findings"] == 7 and doc["files"] == 8
    concise = run_cli(
        "--exit-zero", "--statistics", "--output-format", "concise", str(CORPUS / "OVA104")
    )
    assert concise.stdout.split() == ["7", "OVA104", "issue-projection"]
    proc = run_cli("--statistics", "--format", "sarif", str(CORPUS / "OVA104"))
    assert proc.returncode == 2 and "--statistics works with" in proc.stderr and proc.stdout == ""


def test_negative_max_file_size_is_a_usage_error() -> None:
    proc = run_cli("--max-file-size", "-1", str(OK))
    assert (
        proc.returncode == 2 and "--max-file-size" in proc.stderr and "Traceback" not in proc.stderr
    )
    assert run_cli("--max-file-size", "lots", str(OK)).returncode == 2
    assert run_cli("--max-file-size", "0", str(OK)).returncode == 0  # 0: no limit


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
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == proc.stdout, (
        "docs/rules.md is stale: run `ovadapt-lint rules --format markdown > docs/rules.md`"
    )


def test_version_and_help() -> None:
    from ovadapt_lint import __version__

    assert run_cli("--version").stdout.strip() == f"ovadapt-lint {__version__}"
    help_text = run_cli("--help").stdout
    for option in (
        "--format",
        "--output",
        "--select",
        "--ignore",
        "--config",
        "--deny-list",
        "--exit-zero",
        "--statistics",
        "--no-color",
        "--explain",
        "--include",
        "--exclude",
        "--output-format",
        "--extend-exclude",
    ):
        assert option in help_text


def test_readme_documents_every_command_line_option_and_format() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    help_text = run_cli("--help").stdout
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", help_text)) - {"--help"}
    table = readme.split("| option | meaning |", 1)[1].split("\n\n", 1)[0]
    assert sorted(o for o in options if o not in table) == []
    for fmt in ("text", "concise", "json", "sarif", "github"):
        assert f"**{fmt}**" in readme
    assert "`path:line:col: CODE message`" in readme


def test_readme_rule_table_is_in_code_order() -> None:
    from ovadapt_lint.registry import all_rules

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    codes = re.findall(r"^\| (OVA\d{3}) \|", readme, re.MULTILINE)
    assert codes == sorted(codes) and len(codes) == len(set(codes))
    assert set(codes) <= set(all_rules())


def test_config_file_select_and_errors(tmp_path: Path) -> None:
    (tmp_path / "fixture.json").write_text(BAD.read_text(), encoding="utf-8")
    (tmp_path / ".ovadapt-lint.toml").write_text('ignore = ["OVA104"]\n', encoding="utf-8")
    assert run_cli(str(tmp_path)).returncode == 0  # found by walking up from the path
    assert run_cli("--select", "OVA104", str(tmp_path)).returncode == 1  # CLI overrides
    (tmp_path / ".ovadapt-lint.toml").write_text("colour = true\n", encoding="utf-8")
    proc = run_cli(str(tmp_path))
    assert proc.returncode == 2 and "unknown key 'colour'" in proc.stderr
    (tmp_path / ".ovadapt-lint.toml").write_text('ignore = "OVA104"\n', encoding="utf-8")
    assert "must be a list of strings" in run_cli(str(tmp_path)).stderr
    (tmp_path / ".ovadapt-lint.toml").write_text("ignore = [\n", encoding="utf-8")
    assert "invalid TOML" in run_cli(str(tmp_path)).stderr


def test_tool_table_in_ovadapt_lint_toml_gets_a_hint(tmp_path: Path) -> None:
    (tmp_path / "fixture.json").write_text(BAD.read_text(), encoding="utf-8")
    (tmp_path / ".ovadapt-lint.toml").write_text(
        '[tool.ovadapt-lint]\nignore = ["OVA104"]\n', encoding="utf-8"
    )
    proc = run_cli(str(tmp_path))
    assert proc.returncode == 2
    assert (
        "unknown key 'tool'" in proc.stderr
        and "top level" in proc.stderr
        and "pyproject.toml only" in proc.stderr
    )
    (tmp_path / ".ovadapt-lint.toml").write_text('ignore = ["OVA104"]\n', encoding="utf-8")
    assert run_cli(str(tmp_path)).returncode == 0


def test_deny_list_file_is_parsed(tmp_path: Path) -> None:
    deny = tmp_path / "deny.txt"
    deny.write_text("# internal names\nbluefin\n\nre:proj-[0-9]+\n", encoding="utf-8")
    from ovadapt_lint.detect.denylist import DenyList

    entries = DenyList.from_files([deny]).entries
    assert [(e.kind, e.where) for e in entries] == [
        ("plain", "deny.txt:2"),
        ("regex", "deny.txt:4"),
    ]
    assert run_cli("--deny-list", str(deny), str(OK)).returncode == 0
    proc = run_cli("--deny-list", str(tmp_path / "missing.txt"), str(OK))
    assert proc.returncode == 2 and "cannot read deny-list" in proc.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("re:proj-[\n", encoding="utf-8")
    proc = run_cli("--deny-list", str(bad), str(OK))
    assert proc.returncode == 2 and "bad.txt:1" in proc.stderr and "Traceback" not in proc.stderr


def test_deny_list_decode_error_names_the_file_and_the_byte_offset(tmp_path: Path) -> None:
    deny = tmp_path / "deny-latin1.txt"
    deny.write_bytes("bluefin\nnightjar caf\u00e9\n".encode("latin-1"))
    proc = run_cli("--deny-list", str(deny), str(OK))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert (
        "deny-latin1.txt" in proc.stderr
        and "byte offset 20" in proc.stderr
        and "line 2" in proc.stderr
    )
    assert "nightjar" not in proc.stderr  # the names themselves are not echoed


def test_default_walk_skips_tool_folders(tmp_path: Path) -> None:
    for folder in (".git", "node_modules", ".venv", "build", "__pycache__"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "x.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("{bad", encoding="utf-8")
    doc = json.loads(run_cli("--format", "json", str(tmp_path)).stdout)
    assert [f["path"].replace("\\", "/").rsplit("/", 2)[-2:] for f in doc["findings"]] == [
        ["real", "x.json"]
    ]


@pytest.mark.slow  # lints the whole checkout
def test_dogfooding_own_sources_and_rule_pack_are_clean() -> None:
    # The linter's own code is full of detector regexes and docs about credentials and raw
    # material: it must pass its own rules. Test modules that carry deliberate samples say so
    # with `# ovadapt: ignore-file`; corpus/ is the labelled bad examples.
    proc = run_cli(
        "--format", "github", "--no-cache", "src", "./rules", "tests", "docs", "benchmarks"
    )
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
