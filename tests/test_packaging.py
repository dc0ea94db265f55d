"""The rule pack ships inside the wheel and is found through importlib.resources."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ovadapt_lint import rulepack

from .conftest import ROOT


def test_rule_pack_is_read_through_importlib_resources() -> None:
    root = rulepack.pack_root()
    assert (root / "rules.toml").is_file()
    assert "openviking_session_memory_adapter_v0.schema.json" in rulepack.list_dir("contracts")
    assert "session_runtime_loopx_projection_v0.schema.json" in rulepack.list_dir("contracts")


@pytest.mark.slow  # builds a wheel with pip
def test_wheel_contains_rule_pack(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("ovadapt_lint-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "ovadapt_lint/rules/rules.toml",
        "ovadapt_lint/rules/redaction.toml",
        "ovadapt_lint/rules/fixes.toml",
        "ovadapt_lint/pyfix/codemods.py",
        "ovadapt_lint/rules/contracts/openviking_session_memory_adapter_v0.schema.json",
        "ovadapt_lint/rules/contracts/session_runtime_loopx_projection_v0.schema.json",
        "ovadapt_lint/cli.py",
    ):
        assert expected in names
    assert not any(n.startswith(("corpus/", "tests/")) for n in names)


def test_built_in_contracts_are_valid_json_schema() -> None:
    """Runs no longer check the shipped schemas against the meta-schema (it cost 0.14 s a run): this does."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    names = [n for n in rulepack.list_dir("contracts") if n.endswith(".schema.json")]
    assert len(names) >= 2
    for name in names:
        Draft202012Validator.check_schema(rulepack.load_json("contracts", name))
    broken = dict(rulepack.load_json("contracts", names[0]), type="objekt")
    try:
        Draft202012Validator.check_schema(broken)
    except SchemaError:
        pass
    else:
        raise AssertionError("check_schema accepted a schema with an unknown type")
