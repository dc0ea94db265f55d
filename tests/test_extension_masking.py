"""Credential formats an ``extend-rules`` file adds are masked wherever a report quotes text, like the
built-in formats: on a line shown in another finding's code frame, even with the extension rule ignored."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json
from pathlib import Path

from .conftest import run_cli

ZETA_RULE = r'''
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
'''
ZETA_KEY = "zqk_4f9a2c7e1b8d3f6a0c5e9b2d"


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["zeta.toml"]\nignore = ["OVA491"]\n', encoding="utf-8")
    (tmp_path / "zeta.toml").write_text(ZETA_RULE, encoding="utf-8")
    # A home path (OVA501) whose frame shows the line holding the extension key.
    (tmp_path / "a.public.json").write_text(
        json.dumps({"sources": ["/Users/operator/work/loopx/state.json", ZETA_KEY]}) + "\n", encoding="utf-8")
    return tmp_path


def test_extension_secret_in_another_findings_frame_is_masked(tmp_path: Path) -> None:
    proc = run_cli("a.public.json", cwd=_project(tmp_path))
    assert "OVA501" in proc.stdout, proc.stdout + proc.stderr
    assert ZETA_KEY not in proc.stdout + proc.stderr
    assert "zqk_…[28 chars]" in proc.stdout

