"""SARIF output validates against the SARIF 2.1.0 schemas (conftest.validate_sarif) and never holds absolute paths."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import CORPUS, ROOT, run_cli, validate_sarif


def _sarif(*args: str, cwd: Path = ROOT) -> dict:
    proc = run_cli("--format", "sarif", *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_corpus_sarif_validates_against_the_schemas() -> None:
    doc = validate_sarif(_sarif("corpus"))
    run = doc["runs"][0]
    assert len(run["results"]) > 40
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert location["artifactLocation"]["uri"].startswith("corpus/")
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
        assert result["partialFingerprints"]["ovadaptFingerprint/v1"]
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
    notified = {n["descriptor"]["id"] for n in run["invocations"][0]["toolExecutionNotifications"]}
    assert {"OVA001", "OVA002", "OVA005"} <= notified


def _git(*args: str, cwd: Path) -> None:
    if shutil.which("git") is None:
        pytest.fail("git is required for the SARIF source-root tests")
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def test_sarif_has_no_absolute_paths_even_for_absolute_arguments(tmp_path: Path) -> None:
    _git("init", "-q", cwd=tmp_path)  # the repository root the URIs are relative to
    target = tmp_path / "fixtures"
    target.mkdir()
    (target / "a.json").write_text(
        (CORPUS / "OVA104" / "bad_flag_true.json").read_text(), encoding="utf-8"
    )
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    proc = run_cli("--format", "sarif", str(target), cwd=elsewhere)
    text = proc.stdout
    assert str(tmp_path) not in text
    # The rule docs name `/root/…` as an example; a real path under the home folder would continue.
    assert not re.search(re.escape(os.path.expanduser("~")) + r"/[A-Za-z0-9_.]", text)
    uri = json.loads(text)["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"
    ]["uri"]
    assert uri == "fixtures/a.json"


def test_sarif_category() -> None:
    doc = _sarif("--sarif-category", "fixtures", str(CORPUS / "OVA102"))
    assert doc["runs"][0]["automationDetails"]["id"] == "fixtures/"


def test_flow_findings_carry_code_flows(tmp_path: Path) -> None:
    proc = run_cli("--format", "sarif", str(CORPUS / "OVA208" / "bad_flows.py"))
    sarif = validate_sarif(json.loads(proc.stdout))
    flows = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "OVA208"]
    first = next(r for r in flows if "next_action" in r["message"]["text"])
    steps = first["codeFlows"][0]["threadFlows"][0]["locations"]
    lines = [s["location"]["physicalLocation"]["region"]["startLine"] for s in steps]
    # the source, first_line, the helper's return, its call, summary, the published field
    assert lines == [9, 9, 5, 10, 10, 14]
    assert [loc["message"]["text"] for loc in first["relatedLocations"]][
        -1
    ] == 'published field "next_action"'


def test_github_required_fields() -> None:
    sarif = json.loads(run_cli("--format", "sarif", str(CORPUS)).stdout)
    assert sarif["$schema"] and sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    driver = run["tool"]["driver"]
    assert {"name", "version", "semanticVersion", "informationUri", "rules"} <= set(driver)
    for rule in driver["rules"]:
        assert {
            "id",
            "name",
            "shortDescription",
            "fullDescription",
            "help",
            "defaultConfiguration",
            "properties",
        } <= set(rule)
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        tags = rule["properties"]["tags"]
        assert rule["properties"]["precision"]
        if rule["id"].startswith(("OVA2", "OVA3", "OVA4", "OVA5", "OVA6")):
            assert "security" in tags and 0 < float(rule["properties"]["security-severity"]) <= 10
    rule_ids = [r["id"] for r in driver["rules"]]
    for result in run["results"]:
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
        assert "primaryLocationLineHash" not in result.get("partialFingerprints", {})
        assert len(result["locations"]) == 1
    assert "originalUriBaseIds" not in run
    assert run["invocations"][0]["executionSuccessful"] is True


def test_srcroot_only_on_request(tmp_path: Path) -> None:
    proc = run_cli("--format", "sarif", "--sarif-srcroot", str(ROOT), str(CORPUS / "OVA104"))
    root = json.loads(proc.stdout)["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert root.startswith("file://") and root.endswith("/")


def _sample_repository(tmp_path: Path) -> Path:
    """A git repository with fixtures in a subfolder, Python code, an unparsable file and a raw Markdown file."""
    repo = tmp_path / "repo"
    (repo / "fixtures" / "deep").mkdir(parents=True)
    (repo / "src").mkdir()
    (repo / "docs").mkdir()
    _git("init", "-q", cwd=repo)
    for name in (
        "bad_flag_true.json",
        "bad_flag_string.json",
        "bad_flag_zero.json",
        "bad_issue_number_type.json",
    ):
        (repo / "fixtures" / name).write_text(
            (CORPUS / "OVA104" / name).read_text(encoding="utf-8"), encoding="utf-8"
        )
    (repo / "fixtures" / "deep" / "flows.py").write_text(
        (CORPUS / "OVA208" / "bad_flows.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    # Sorted last and of the lowest security-severity: the first to go under the old cap.
    (repo / "fixtures" / "zz_broken.json").write_text('{"schema_version": ', encoding="utf-8")
    (repo / "src" / "home.public.json").write_text(
        (CORPUS / "OVA501" / "bad_home.public.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (repo / "docs" / "memory.overview.md").write_text(
        (CORPUS / "OVA314" / "bad_overview.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return repo


def _uris(sarif: dict) -> list[str]:
    """Every artifact URI in a log: results, related locations, code flows, notifications."""
    found = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if "artifactLocation" in node:
                location = node["artifactLocation"]
                assert location["uriBaseId"] == "%SRCROOT%", location
                found.append(location["uri"])
            for key, value in node.items():
                if key != "tool":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(sarif)
    return found


def _validate(sarif: dict) -> None:
    validate_sarif(sarif)


def test_sarif_uris_are_repository_relative_from_the_root_and_from_a_subfolder(
    tmp_path: Path,
) -> None:
    repo = _sample_repository(tmp_path)
    runs = {
        "root": _sarif("--no-cache", ".", "--include", "*.md", cwd=repo),
        "subfolder": _sarif(
            "--no-cache", ".", "../src", "../docs/memory.overview.md", cwd=repo / "fixtures"
        ),
        "deep": _sarif("--no-cache", "..", "../../src", cwd=repo / "fixtures" / "deep"),
        "absolute": _sarif(
            "--no-cache", str(repo / "fixtures"), str(repo / "src"), cwd=repo / "src"
        ),
    }
    expected = {
        "fixtures/bad_flag_true.json",
        "fixtures/bad_flag_string.json",
        "fixtures/bad_flag_zero.json",
        "fixtures/bad_issue_number_type.json",
        "fixtures/deep/flows.py",
        "fixtures/zz_broken.json",
        "src/home.public.json",
    }
    by_run = {}
    for name, sarif in runs.items():
        _validate(sarif)
        uris = _uris(sarif)
        assert uris, name
        for uri in uris:
            assert not uri.startswith(("/", "../", "file:")) and ".." not in uri.split("/"), (
                name,
                uri,
            )
            assert (repo / uri).is_file(), (name, uri)
        text = json.dumps(sarif)
        assert str(tmp_path) not in text and "originalUriBaseIds" not in text, name
        result_uris = {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]
        }
        assert expected <= result_uris, (name, expected - result_uris)
        by_run[name] = {
            (
                r["ruleId"],
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
                r["partialFingerprints"]["ovadaptFingerprint/v1"],
            )
            for r in sarif["runs"][0]["results"]
        }
        notified = {
            n["descriptor"]["id"]: n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for n in sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
            if "descriptor" in n
        }
        assert notified == {"OVA001": "fixtures/zz_broken.json"}, name
    # The same alerts, fingerprints included, whatever folder ran the linter.
    assert by_run["root"] == by_run["subfolder"]
    md = {item for item in by_run["root"] if item[1].endswith(".md")}
    assert md and {item[1] for item in md} == {"docs/memory.overview.md"}
    assert by_run["deep"] == by_run["absolute"] == by_run["root"] - md


def _uri_of(result: dict) -> str:
    return result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]


def test_sarif_srcroot_rebases_uris_and_files_outside_the_root_get_a_notice(tmp_path: Path) -> None:
    repo = _sample_repository(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "stray.json").write_text(
        (CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    # Rebased on a subfolder: its files are relative to it, the others are outside.
    sarif = _sarif("--no-cache", "--sarif-srcroot", str(repo / "fixtures"), ".", cwd=repo)
    _validate(sarif)
    run = sarif["runs"][0]
    assert (
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        == (repo / "fixtures").resolve().as_uri() + "/"
    )
    uris = set(_uris({"runs": [{**run, "originalUriBaseIds": None}]}))
    assert "bad_flag_true.json" in uris and "deep/flows.py" in uris
    assert all((repo / "fixtures" / uri).is_file() for uri in uris)
    notes = [
        n["message"]["text"]
        for n in run["invocations"][0]["toolExecutionNotifications"]
        if "descriptor" not in n
    ]
    assert any(
        t.startswith("src/home.public.json lies outside the source root (--sarif-srcroot)")
        and "OVA501" in t
        for t in notes
    ), notes

    # A file outside the repository (issue 27): its results are kept, named relative to the root (a ../ URI that
    # resolves against %SRCROOT%, never an absolute path of this machine), and a notice says so.
    sarif = _sarif("--no-cache", "fixtures/bad_flag_true.json", "../elsewhere/stray.json", cwd=repo)
    _validate(sarif)
    run = sarif["runs"][0]
    assert _uris(sarif) and all((repo / uri).is_file() for uri in _uris(sarif))
    assert "../elsewhere/stray.json" in _uris(sarif)
    assert [r["ruleId"] for r in run["results"] if _uri_of(r) == "../elsewhere/stray.json"] == [
        "OVA104"
    ]
    (note,) = [n["message"]["text"] for n in run["invocations"][0]["toolExecutionNotifications"]]
    assert (
        note.startswith("../elsewhere/stray.json lies outside the source root")
        and "OVA104 1" in note
    )
    absolute = _sarif(
        "--no-cache", "fixtures/bad_flag_true.json", str(outside / "stray.json"), cwd=repo
    )
    assert str(tmp_path) not in json.dumps(absolute)
    assert "../elsewhere/stray.json" in _uris(absolute)
    (note,) = [
        n["message"]["text"]
        for n in absolute["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    ]
    assert note.startswith("stray.json lies outside the source root")
    # The text and JSON formats still report it.
    assert run_cli("--no-cache", "../elsewhere/stray.json", cwd=repo).returncode == 1


def test_source_root_falls_back_to_the_config_folder_then_the_working_directory(
    tmp_path: Path, monkeypatch
) -> None:
    from ovadapt_lint.discover import source_root

    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    project = tmp_path / "project"
    (project / "a" / "b").mkdir(parents=True)
    config = project / ".ovadapt-lint.toml"
    config.write_text("", encoding="utf-8")
    monkeypatch.chdir(project / "a")
    assert source_root("b", config) == project.resolve()
    assert source_root("b", None) == (project / "a").resolve()
    _git("init", "-q", cwd=project / "a")
    assert source_root("b", config) == (project / "a").resolve()


def test_notices_survive_the_cap_in_results_and_notifications(tmp_path: Path, monkeypatch) -> None:
    from ovadapt_lint import Config
    from ovadapt_lint.engine import run
    from ovadapt_lint.finalise import run_metadata
    from ovadapt_lint.report.sarif import build_sarif

    repo = _sample_repository(tmp_path)
    monkeypatch.chdir(repo / "fixtures")
    result = run([".", "../src"], Config())
    codes = [f.code for f in result.findings]
    assert "OVA001" in codes and len(codes) > 8
    sarif = build_sarif(result, run_metadata(result, root=True), max_results=3)
    _validate(sarif)
    run_ = sarif["runs"][0]
    kept = [r["ruleId"] for r in run_["results"]]
    assert len(kept) == 3 and "OVA001" in kept
    notes = run_["invocations"][0]["toolExecutionNotifications"]
    assert [n["descriptor"]["id"] for n in notes if "descriptor" in n] == ["OVA001"]
    (cap,) = [n["message"]["text"] for n in notes if "descriptor" not in n]
    left = [c for c in codes]
    for code in kept:
        left.remove(code)
    by_rule = ", ".join(f"{code} {left.count(code)}" for code in sorted(set(left)))
    assert cap.startswith(
        f"{len(left)} less severe result(s) were left out (by rule: {by_rule}):"
    ), cap


def test_results_are_capped_at_the_github_limit_keeping_notices_then_the_most_severe() -> None:
    from ovadapt_lint import Config
    from ovadapt_lint.engine import run
    from ovadapt_lint.finalise import run_metadata
    from ovadapt_lint.report.sarif import build_sarif

    result = run([str(CORPUS)], Config())
    total = len(result.findings)
    notices = [f for f in result.findings if f.code.startswith("OVA0")]
    assert total > 20 and 0 < len(notices) < 20
    sarif = build_sarif(result, run_metadata(result, root=True), max_results=20)
    results = sarif["runs"][0]["results"]
    assert len(results) == 20
    assert sorted(r["ruleId"] for r in results if r["ruleId"].startswith("OVA0")) == sorted(
        f.code for f in notices
    )
    assert all(r["level"] == "error" for r in results if not r["ruleId"].startswith("OVA0"))
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert any(
        n["message"]["text"].startswith(
            f"{total - 20} less severe result(s) were left out (by rule: OVA"
        )
        for n in notes
    )
    validate_sarif(sarif)
