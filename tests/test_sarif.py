"""SARIF output validates against the official OASIS 2.1.0 schema and never holds absolute paths."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema

from .conftest import CORPUS, ROOT, SARIF_SCHEMA, require_shared, run_cli


def _sarif(*args: str, cwd: Path = ROOT) -> dict:
    proc = run_cli("--format", "sarif", *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_corpus_sarif_validates_against_official_schema() -> None:
    require_shared()
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    doc = _sarif("corpus")
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, errors[0].message
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


def test_sarif_has_no_absolute_paths_even_for_absolute_arguments(tmp_path: Path) -> None:
    target = tmp_path / "fixtures"
    target.mkdir()
    (target / "a.json").write_text((CORPUS / "OVA104" / "bad_flag_true.json").read_text(), encoding="utf-8")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    proc = run_cli("--format", "sarif", str(target), cwd=elsewhere)
    text = proc.stdout
    assert str(tmp_path) not in text
    # The rule docs name `/root/…` as an example; a real path under the home folder would continue.
    assert not re.search(re.escape(os.path.expanduser("~")) + r"/[A-Za-z0-9_.]", text)
    uri = json.loads(text)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "fixtures/a.json"


def test_sarif_category() -> None:
    doc = _sarif("--sarif-category", "fixtures", str(CORPUS / "OVA102"))
    assert doc["runs"][0]["automationDetails"]["id"] == "fixtures/"


def test_flow_findings_carry_code_flows(tmp_path: Path) -> None:
    from jsonschema import Draft4Validator

    proc = run_cli("--format", "sarif", str(CORPUS / "OVA208" / "bad_flows.py"))
    sarif = json.loads(proc.stdout)
    Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(sarif)
    flows = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "OVA208"]
    first = next(r for r in flows if "next_action" in r["message"]["text"])
    steps = first["codeFlows"][0]["threadFlows"][0]["locations"]
    lines = [s["location"]["physicalLocation"]["region"]["startLine"] for s in steps]
    assert lines == [9, 9, 10, 14]  # the source, first_line, summary, the projection field
    assert [loc["message"]["text"] for loc in first["relatedLocations"]][-1] == 'projection field "next_action"'


def test_github_required_fields() -> None:
    sarif = json.loads(run_cli("--format", "sarif", str(CORPUS)).stdout)
    assert sarif["$schema"] and sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    driver = run["tool"]["driver"]
    assert {"name", "version", "semanticVersion", "informationUri", "rules"} <= set(driver)
    for rule in driver["rules"]:
        assert {"id", "name", "shortDescription", "fullDescription", "help", "defaultConfiguration",
                "properties"} <= set(rule)
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


def test_results_are_capped_at_the_github_limit_keeping_the_most_severe() -> None:
    from ovadapt_lint import Config
    from ovadapt_lint.engine import run
    from ovadapt_lint.report.sarif import build_sarif

    result = run([str(CORPUS)], Config())
    total = len(result.findings)
    assert total > 20
    sarif = build_sarif(result, max_results=10)
    results = sarif["runs"][0]["results"]
    assert len(results) == 10
    assert all(r["level"] == "error" for r in results)
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert any(f"{total - 10} less severe result(s) were left out" in n["message"]["text"] for n in notes)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(sarif)
