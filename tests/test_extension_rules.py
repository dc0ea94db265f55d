"""Rules an ``extend-rules`` file adds are treated like built-in ones in every output and stage (issue 19): JSON and
SARIF reports mask their credential formats and describe their rules, ``history`` reports them, inline directives
suppress their findings but never hide their notices, and the result cache stores them masked and answers a warm
run exactly as the cold one (tests/test_extension_masking.py covers frames, --diff, --fix and per-file-ignores)."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json
from pathlib import Path

from .conftest import run_cli
from .test_extension_masking import TICKET_RULE, ZETA_KEY, ZETA_RULE

ZETA_MASK = "zqk_…[28 chars]"
NOTICE_RULE = TICKET_RULE.replace("OVA390", "OVA091").replace("raw-content", "notice").replace('blocks_fix = "always"\n', "")


def _zeta_project(tmp_path: Path) -> Path:
    """A Zeta key used as a JSON key: the home-path finding on its value quotes it in its message and JSON path."""
    (tmp_path / "pyproject.toml").write_text('[tool.ovadapt-lint]\nextend-rules = ["zeta.toml"]\n', encoding="utf-8")
    (tmp_path / "zeta.toml").write_text(ZETA_RULE, encoding="utf-8")
    (tmp_path / "a.public.json").write_text(json.dumps({ZETA_KEY: "/Users/operator/work/state.json"}) + "\n",
                                            encoding="utf-8")
    return tmp_path


def _home_path_finding(items: list[dict]) -> dict:
    return next(item for item in items if item["code"] == "OVA501")


def test_json_report_masks_an_extension_credential_in_messages_and_json_paths(tmp_path: Path) -> None:
    proc = run_cli("--no-cache", "--output-format", "json", "a.public.json", cwd=_zeta_project(tmp_path))
    assert ZETA_KEY not in proc.stdout + proc.stderr
    found = _home_path_finding(json.loads(proc.stdout)["findings"])
    assert ZETA_MASK in found["message"] and ZETA_MASK in found["json_path"]
