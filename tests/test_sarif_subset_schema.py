"""The SARIF subset schema the tests carry (tests/data/sarif/) accepts ovadapt-lint's logs and rejects
the mistakes it stands guard against when the official schema in ../shared is absent."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from .conftest import CORPUS, OWN_SARIF_SCHEMA, SARIF_SCHEMA, run_cli


def _errors(schema_path, doc: dict) -> list[str]:
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return [e.message for e in jsonschema.validators.validator_for(schema)(schema).iter_errors(doc)]


@pytest.fixture(scope="module")
def sarif() -> dict:
    proc = run_cli(
        "--format",
        "sarif",
        "--no-cache",
        str(CORPUS / "OVA208"),
        str(CORPUS / "OVA104"),
        str(CORPUS / "OVA001"),
    )
    return json.loads(proc.stdout)


def _first_result(doc: dict) -> dict:
    return doc["runs"][0]["results"][0]


MISTAKES = {
    "version": lambda d: d.update(version="2.0.0"),
    "no runs": lambda d: d.pop("runs"),
    "line 0": lambda d: _first_result(d)["locations"][0]["physicalLocation"]["region"].update(
        startLine=0
    ),
    "unknown level": lambda d: _first_result(d).update(level="fatal"),
    "no message": lambda d: _first_result(d).pop("message"),
    "message without text": lambda d: _first_result(d).update(message={"txt": "x"}),
    "rule without id": lambda d: d["runs"][0]["tool"]["driver"]["rules"][0].pop("id"),
    "typo in a location": lambda d: _first_result(d)["locations"][0]["physicalLocation"].update(
        artifactLocaton={}
    ),
    "fingerprint not a string": lambda d: _first_result(d).update(partialFingerprints={"v1": 3}),
    "suppression kind": lambda d: _first_result(d).update(suppressions=[{"kind": "ignored"}]),
    "empty thread flow": lambda d: _first_result(d).update(codeFlows=[{"threadFlows": []}]),
    "no executionSuccessful": lambda d: d["runs"][0]["invocations"][0].pop("executionSuccessful"),
}


def test_the_subset_schema_accepts_the_linters_log(sarif: dict) -> None:
    assert (
        sarif["runs"][0]["results"]
        and sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    )
    assert _errors(OWN_SARIF_SCHEMA, sarif) == []


@pytest.mark.parametrize("mistake", MISTAKES, ids=list(MISTAKES))
def test_the_subset_schema_rejects_a_broken_log(sarif: dict, mistake: str) -> None:
    broken = copy.deepcopy(sarif)
    MISTAKES[mistake](broken)
    assert _errors(OWN_SARIF_SCHEMA, broken)
    if SARIF_SCHEMA.is_file():  # the official schema agrees that each is a mistake
        assert _errors(SARIF_SCHEMA, broken)
