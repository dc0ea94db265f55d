"""Rules an ``extend-rules`` file adds are treated like built-in ones in every output and stage (issue 19): JSON and
SARIF reports mask their credential formats and describe their rules, ``history`` reports them, inline directives
suppress their findings but never hide their notices, and the result cache stores them masked and answers a warm
run exactly as the cold one (tests/test_extension_masking.py covers frames, --diff, --fix and per-file-ignores)."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import run_cli
from .test_extension_masking import TICKET_RULE, ZETA_KEY, ZETA_RULE

ZETA_MASK = "zqk_…[28 chars]"
NOTICE_RULE = (
    TICKET_RULE.replace("OVA390", "OVA091")
    .replace("raw-content", "notice")
    .replace('blocks_fix = "always"\n', "")
)


def _zeta_project(tmp_path: Path) -> Path:
    """A Zeta key used as a JSON key: the home-path finding on its value quotes it in its message and JSON path."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["zeta.toml"]\n', encoding="utf-8"
    )
    (tmp_path / "zeta.toml").write_text(ZETA_RULE, encoding="utf-8")
    (tmp_path / "a.public.json").write_text(
        json.dumps({ZETA_KEY: "/Users/operator/work/state.json"}) + "\n", encoding="utf-8"
    )
    return tmp_path


def _home_path_finding(items: list[dict]) -> dict:
    return next(item for item in items if item["code"] == "OVA501")


def test_json_report_masks_an_extension_credential_in_messages_and_json_paths(
    tmp_path: Path,
) -> None:
    proc = run_cli(
        "--no-cache", "--output-format", "json", "a.public.json", cwd=_zeta_project(tmp_path)
    )
    assert ZETA_KEY not in proc.stdout + proc.stderr
    found = _home_path_finding(json.loads(proc.stdout)["findings"])
    assert ZETA_MASK in found["message"] and ZETA_MASK in found["json_path"]


def test_sarif_masks_an_extension_credential_in_messages_and_json_paths(tmp_path: Path) -> None:
    proc = run_cli(
        "--no-cache", "--output-format", "sarif", "a.public.json", cwd=_zeta_project(tmp_path)
    )
    run = json.loads(proc.stdout)["runs"][0]
    # The rule's help quotes its own `example`, as a built-in rule's does; what the run found is masked.
    assert (
        ZETA_KEY
        not in json.dumps(run["results"], ensure_ascii=False)
        + json.dumps(run["invocations"])
        + proc.stderr
    )
    found = next(r for r in run["results"] if r["ruleId"] == "OVA501")
    assert ZETA_MASK in found["message"]["text"] and ZETA_MASK in found["properties"]["jsonPath"]


def test_sarif_keeps_an_extension_notice_first_under_the_result_cap(tmp_path: Path) -> None:
    from ovadapt_lint.config import load_config
    from ovadapt_lint.engine import run
    from ovadapt_lint.finalise import run_metadata
    from ovadapt_lint.report.sarif import build_sarif

    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["t.toml"]\n', encoding="utf-8"
    )
    (tmp_path / "t.toml").write_text(NOTICE_RULE, encoding="utf-8")
    # Five home paths before the extension notice: a cap of one result must keep the notice, as it keeps a built-in one.
    rows = [f"/Users/operator{n}/state.json" for n in range(5)] + ["TKT|42|open"]
    (tmp_path / "a.public.json").write_text(json.dumps({"rows": rows}) + "\n", encoding="utf-8")
    config = load_config(tmp_path / "pyproject.toml")
    result = run([str(tmp_path / "a.public.json")], config)
    assert sorted({f.code for f in result.findings}) == ["OVA091", "OVA501"]
    kept = build_sarif(result, run_metadata(result, root=True), max_results=1)["runs"][0]["results"]
    assert [r["ruleId"] for r in kept] == ["OVA091"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif"])
def test_history_reports_an_extension_rule_masked_and_described(tmp_path: Path, fmt: str) -> None:
    import subprocess

    project = _zeta_project(tmp_path)
    git = ["git", "-c", "user.name=Ann Example", "-c", "user.email=ann@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "add"], cwd=project, check=True)
    proc = run_cli("history", "--no-cache", "--output-format", fmt, ".", cwd=project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "OVA491" in proc.stdout and ZETA_MASK in proc.stdout
    if fmt != "sarif":
        assert ZETA_KEY not in proc.stdout + proc.stderr
    else:
        run = json.loads(proc.stdout)["runs"][0]
        assert ZETA_KEY not in json.dumps(run["results"], ensure_ascii=False) + proc.stderr
        rules = run["tool"]["driver"]["rules"]
        assert any(
            r["ruleId"] == "OVA491" and rules[r["ruleIndex"]]["id"] == "OVA491"
            for r in run["results"]
        )


def _python_project(tmp_path: Path, source: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["t.toml", "n.toml"]\nscope = "all"\n',
        encoding="utf-8",
    )
    (tmp_path / "t.toml").write_text(TICKET_RULE, encoding="utf-8")
    (tmp_path / "n.toml").write_text(NOTICE_RULE, encoding="utf-8")
    (tmp_path / "a.py").write_text(source, encoding="utf-8")
    return tmp_path


def _lines(proc) -> list[str]:
    return [line for line in proc.stdout.splitlines() if line.startswith("a.py:")]


def test_inline_directives_suppress_an_extension_rules_finding(tmp_path: Path) -> None:
    project = _python_project(
        tmp_path,
        'A = "TKT|42|open"  # ovadapt: ignore[OVA390]\n'
        'B = "TKT|43|open"  # noqa: OVA390\n'
        'C = "TKT|44|open"\n',
    )
    proc = run_cli(
        "--no-cache", "--output-format", "concise", "--ignore", "OVA091", "a.py", cwd=project
    )
    assert _lines(proc) == [
        "a.py:3:5: OVA390 string literal holds a ticket export line [ticket-export]"
    ], proc.stdout + proc.stderr


def test_inline_directives_never_hide_an_extension_notice(tmp_path: Path) -> None:
    # Like a built-in notice (a file that could not be checked): a directive cannot hide it.
    project = _python_project(
        tmp_path,
        'A = "TKT|42|open"  # ovadapt: ignore[OVA091]\n'
        'B = "TKT|43|open"  # noqa: OVA091\n'
        'C = "TKT|44|open"  # ovadapt: ignore\n'
        "# ovadapt: ignore-file[OVA0]\n",
    )
    proc = run_cli(
        "--no-cache", "--output-format", "concise", "--select", "OVA091", "a.py", cwd=project
    )
    assert [
        line.split(": ")[0] + ": " + line.split(": ")[1].split()[0] for line in _lines(proc)
    ] == ["a.py:1:6: OVA091", "a.py:2:6: OVA091", "a.py:3:6: OVA091"], proc.stdout + proc.stderr


def test_cache_stores_extension_credentials_masked_and_a_warm_run_prints_the_cold_runs_output(
    tmp_path: Path, xdg: dict
) -> None:
    project = _zeta_project(tmp_path)
    for fmt in ("text", "json", "sarif"):
        shutil.rmtree(project / ".ovadapt_cache", ignore_errors=True)
        cold = run_cli("--output-format", fmt, "a.public.json", cwd=project, env=xdg)
        entries = list((project / ".ovadapt_cache").rglob("*.json"))
        assert entries and not any(ZETA_KEY in e.read_text(encoding="utf-8") for e in entries)
        warm = run_cli("--output-format", fmt, "a.public.json", cwd=project, env=xdg)
        assert (warm.returncode, warm.stdout, warm.stderr) == (
            cold.returncode,
            cold.stdout,
            cold.stderr,
        )
        assert ZETA_MASK in cold.stdout and (
            fmt == "sarif" or ZETA_KEY not in cold.stdout
        )  # SARIF: the rule's example


def test_cache_key_covers_the_extension_rule_files(tmp_path: Path, xdg: dict) -> None:
    project = _zeta_project(tmp_path)
    first = run_cli("--output-format", "concise", "a.public.json", cwd=project, env=xdg)
    assert "[zeta-key]" in first.stdout, first.stdout + first.stderr
    # Another name and severity for the same format: a warm run must not answer with the old rule's findings.
    (project / "zeta.toml").write_text(
        ZETA_RULE.replace('name = "zeta-key"', 'name = "zeta-token"').replace(
            'severity = "error"', 'severity = "warning"'
        ),
        encoding="utf-8",
    )
    second = run_cli("--output-format", "json", "a.public.json", cwd=project, env=xdg)
    zeta = [f for f in json.loads(second.stdout)["findings"] if f["code"] == "OVA491"]
    assert zeta and all(f["name"] == "zeta-token" and f["severity"] == "warning" for f in zeta)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_review_mode_shows_an_extension_notice_in_a_changed_file_on_any_line(
    tmp_path: Path,
) -> None:
    # Like a built-in notice without review_by_line (a changed file that could not be checked).
    import subprocess

    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["t.toml"]\n', encoding="utf-8"
    )
    (tmp_path / "t.toml").write_text(NOTICE_RULE, encoding="utf-8")
    document = tmp_path / "a.public.json"
    document.write_text('{\n  "b": "TKT|42|open",\n  "c": "one"\n}\n', encoding="utf-8")
    git = ["git", "-c", "user.name=Ann Example", "-c", "user.email=ann@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "add"], cwd=tmp_path, check=True)
    document.write_text('{\n  "b": "TKT|42|open",\n  "c": "two"\n}\n', encoding="utf-8")
    proc = run_cli(
        "--no-cache",
        "--output-format",
        "concise",
        "--diff-base",
        "HEAD",
        "a.public.json",
        cwd=tmp_path,
        env={"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)},
    )
    assert "a.public.json:2:" in proc.stdout and "OVA091" in proc.stdout, proc.stdout + proc.stderr


def test_a_nested_configs_extension_notice_is_not_hidden_by_its_per_file_ignores(
    tmp_path: Path,
) -> None:
    # The run's first config (the root's) has no extension: the folder's own rule pack says what is a notice.
    (tmp_path / "pyproject.toml").write_text("[tool.ovadapt-lint]\n", encoding="utf-8")
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["t.toml"]\nper-file-ignores = {"*.json" = ["OVA0"]}\n',
        encoding="utf-8",
    )
    (folder / "t.toml").write_text(NOTICE_RULE, encoding="utf-8")
    (folder / "a.public.json").write_text(json.dumps({"b": "TKT|42|open"}) + "\n", encoding="utf-8")
    proc = run_cli("--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert "OVA091" in proc.stdout, proc.stdout + proc.stderr


def test_reports_describe_and_mask_a_nested_configs_extension_rules(tmp_path: Path) -> None:
    # The root config has no extension; the folder's config adds the Zeta format.
    (tmp_path / "pyproject.toml").write_text("[tool.ovadapt-lint]\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    _zeta_project(tmp_path / "sub")
    sarif = run_cli("--no-cache", "--output-format", "sarif", ".", cwd=tmp_path)
    assert sarif.returncode == 1 and sarif.stderr == "", sarif.stderr
    run = json.loads(sarif.stdout)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert any(
        r["ruleId"] == "OVA491" and rules[r["ruleIndex"]]["id"] == "OVA491" for r in run["results"]
    )
    text = run_cli("--no-cache", ".", cwd=tmp_path)
    assert "OVA491" in text.stdout and ZETA_KEY not in text.stdout + text.stderr, (
        text.stdout + text.stderr
    )


def test_sarif_describes_where_an_extension_rule_is_judged_and_links_no_builtin_docs(
    tmp_path: Path,
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["zeta.toml", "t.toml"]\n', encoding="utf-8"
    )
    (tmp_path / "zeta.toml").write_text(ZETA_RULE, encoding="utf-8")
    (tmp_path / "t.toml").write_text(TICKET_RULE, encoding="utf-8")
    (tmp_path / "a.public.json").write_text(
        json.dumps({"a": ZETA_KEY, "b": "TKT|42|open"}) + "\n", encoding="utf-8"
    )
    proc = run_cli("--no-cache", "--output-format", "sarif", "a.public.json", cwd=tmp_path)
    rules = {r["id"]: r for r in json.loads(proc.stdout)["runs"][0]["tool"]["driver"]["rules"]}

    def judged(code: str) -> str:
        return next(
            line
            for line in rules[code]["help"]["text"].splitlines()
            if line.startswith("Judged in:")
        )

    # A credential format is judged like the built-in credentials, a text signature like the built-in ones.
    assert judged("OVA491") == judged("OVA401") and judged("OVA390") == judged("OVA302")
    assert "not run by any check" not in judged("OVA491") + judged("OVA390")
    # docs/rules.md documents the built-in rules only.
    assert (
        "helpUri" in rules["OVA401"]
        and "helpUri" not in rules["OVA491"]
        and "helpUri" not in rules["OVA390"]
    )
