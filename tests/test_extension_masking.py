"""Credential formats an ``extend-rules`` file adds are masked wherever a report quotes text, like the
built-in formats: on a line shown in another finding's code frame or --diff, even with the extension rule ignored;
an extension rule marked blocks_fix stops --fix like a built-in one, and an extension notice is never hidden
by per-file-ignores."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json
from pathlib import Path

from .conftest import run_cli

ZETA_RULE = r"""
[[rule]]
code = "OVA491"
name = "zeta-key"
category = "credential"
severity = "error"
precision = "high"
summary = "A Zeta key."
what = "Reports Zeta keys."
why = "They are live."
example = "zqk_4f9a2c7e1b8d3f6a0c5e9b2d"
fix = "Rotate it."

[[rule.secret]]
id = "zeta-key"
label = "a Zeta key"
needles = ["zqk_"]
regex = '\bzqk_[a-z0-9]{24}\b'
"""
ZETA_KEY = "zqk_4f9a2c7e1b8d3f6a0c5e9b2d"


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["zeta.toml"]\nignore = ["OVA491"]\n', encoding="utf-8"
    )
    (tmp_path / "zeta.toml").write_text(ZETA_RULE, encoding="utf-8")
    # A home path (OVA501) whose frame shows the line holding the extension key.
    (tmp_path / "a.public.json").write_text(
        json.dumps({"sources": ["/Users/operator/work/loopx/state.json", ZETA_KEY]}) + "\n",
        encoding="utf-8",
    )
    return tmp_path


def test_extension_secret_in_another_findings_frame_is_masked(tmp_path: Path) -> None:
    proc = run_cli("a.public.json", cwd=_project(tmp_path))
    assert "OVA501" in proc.stdout, proc.stdout + proc.stderr
    assert ZETA_KEY not in proc.stdout + proc.stderr
    assert "zqk_…[28 chars]" in proc.stdout


def test_extension_secret_on_a_removed_diff_line_is_masked(tmp_path: Path) -> None:
    project = _project(tmp_path)
    openai = "sk-proj-9f8QwLm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm7Qz"
    (project / "a.public.json").write_text(
        json.dumps({"a": openai, "b": ZETA_KEY}) + "\n", encoding="utf-8"
    )
    proc = run_cli("--diff", "a.public.json", cwd=project)
    removed = [
        line
        for line in proc.stdout.splitlines()
        if line.startswith("-") and not line.startswith("---")
    ]
    assert removed, proc.stdout + proc.stderr
    assert all(ZETA_KEY not in line and openai not in line for line in removed)
    assert "zqk_…[28 chars]" in removed[0]


TICKET_RULE = r"""
[[rule]]
code = "OVA390"
name = "ticket-dump"
category = "raw-content"
severity = "error"
precision = "high"
summary = "A ticket export line."
what = "Reports TKT export lines."
why = "They are private."
example = "TKT|123|alice|body"
fix = "Drop it."
blocks_fix = "always"

[[rule.signature]]
id = "ticket-export"
label = "a ticket export line"
needles = ["TKT|"]
all = ['TKT\|\d+\|']
"""


def test_extension_rule_marked_blocks_fix_stops_fix(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["t.toml"]\n', encoding="utf-8"
    )
    (tmp_path / "t.toml").write_text(TICKET_RULE, encoding="utf-8")
    text = (
        json.dumps({"a": "sk-proj-9f8QwLm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm7Qz", "b": "TKT|42|open"})
        + "\n"
    )
    (tmp_path / "a.public.json").write_text(text, encoding="utf-8")
    proc = run_cli("--fix", "a.public.json", cwd=tmp_path)
    assert "OVA390" in proc.stdout, proc.stdout + proc.stderr
    assert "nothing written" in proc.stderr
    assert (tmp_path / "a.public.json").read_text(encoding="utf-8") == text


def test_extension_notice_is_not_hidden_by_per_file_ignores(tmp_path: Path) -> None:
    notice_rule = (
        TICKET_RULE.replace("OVA390", "OVA091")
        .replace("raw-content", "notice")
        .replace('blocks_fix = "always"\n', "")
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["t.toml"]\nper-file-ignores = {"*.json" = ["OVA0"]}\n',
        encoding="utf-8",
    )
    (tmp_path / "t.toml").write_text(notice_rule, encoding="utf-8")
    (tmp_path / "a.public.json").write_text(
        json.dumps({"b": "TKT|42|open"}) + "\n", encoding="utf-8"
    )
    proc = run_cli("--output-format", "concise", "a.public.json", cwd=tmp_path)
    assert "OVA091" in proc.stdout, proc.stdout + proc.stderr
