"""Configuration: a pyproject with every key, each key's effect, and clear errors (exit 2)."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import ROOT, run_cli

EXTRA_RULES = """
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

[[rule.signature]]
id = "ticket-export"
label = "a ticket export line"
needles = ["TKT|"]
all = ['TKT\\\\|\\\\d+\\\\|']
"""

PYPROJECT = """
[project]
name = "demo"

[tool.ovadapt-lint]
select = ["OVA"]
extend-select = ["OVA390"]
ignore = ["OVA007"]
include = ["*.json", "*.jsonl", "*.py"]
exclude = ["vendor/"]
extend-exclude = ["generated/"]
public-paths = ["fixtures/"]
per-file-ignores = {"fixtures/legacy_*.json" = ["OVA205"], "tools/*.py" = ["OVA5"]}
deny-list = ["deny.txt"]
internal-domains = ["corp.example.net"]
summary-max-length = 40
vocabulary = ["vocab.toml"]
extend-vocabulary = {raw_words = {transcript = ["chatlog"]}, compact_keys = ["stdout_lines_count"]}
projection-functions = ["make_*_view"]
projection-classes = ["*View"]
projection-receivers = ["view"]
sanitizers = ["reviewed_summary"]
extend-rules = ["rules/tickets.toml"]
max-file-size = 100000
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "deny.txt").write_text("bluefin\n", encoding="utf-8")
    (tmp_path / "vocab.toml").write_text('not_raw = ["path"]\n', encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "tickets.toml").write_text(EXTRA_RULES, encoding="utf-8")
    for folder in ("fixtures", "vendor", "generated", "tools"):
        (tmp_path / folder).mkdir()
    fixture = {
        "summary": "a summary that is longer than forty characters for sure",
        "chatlog": "user: hello there",
        "path": "/Users/alice/x",
        "stdout_lines_count": 3,
        "link": "https://wiki.corp.example.net/x",
        "lane": "bluefin lane",
        "export": "TKT|42|open",
    }
    (tmp_path / "fixtures" / "a.json").write_text(json.dumps(fixture, indent=1), encoding="utf-8")
    (tmp_path / "fixtures" / "legacy_1.json").write_text(
        '{"stdout": "collected 3 items\\nok"}', encoding="utf-8"
    )
    for folder in ("vendor", "generated"):
        (tmp_path / folder / "x.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "tools" / "make.py").write_text(
        "def make_issue_view(issue):\n"
        "    view = {}\n"
        "    view['next_action'] = reviewed_summary(issue.body)\n"
        "    view['notes'] = issue.comments\n"
        "    view['home'] = '/Users/alice'\n"
        "    return view\n",
        encoding="utf-8",
    )
    return tmp_path


def _findings(project: Path, *args: str) -> list[tuple[str, str]]:
    proc = run_cli("--format", "json", *args, ".", cwd=project)
    assert proc.returncode in (0, 1), proc.stderr
    return sorted(
        (Path(f["path"]).as_posix(), f["code"]) for f in json.loads(proc.stdout)["findings"]
    )


def test_every_key_takes_effect(project: Path) -> None:
    found = _findings(project)
    assert ("fixtures/a.json", "OVA301") in found  # summary-max-length = 40
    assert ("fixtures/a.json", "OVA202") in found  # extend-vocabulary: chatlog is a transcript word
    assert ("fixtures/a.json", "OVA603") in found  # internal-domains
    assert ("fixtures/a.json", "OVA701") in found  # deny-list
    assert ("fixtures/a.json", "OVA390") in found  # extend-rules
    assert ("fixtures/a.json", "OVA501") in found  # the path literal is still a home path...
    assert (
        "fixtures/a.json",
        "OVA204",
    ) not in found  # ...but vocabulary not_raw = ["path"] drops the field rule
    assert not [
        f for f in found if f[0].startswith(("vendor/", "generated/"))
    ]  # exclude, extend-exclude
    assert not [
        f for f in found if f[0] == "fixtures/legacy_1.json" and f[1] == "OVA205"
    ]  # per-file-ignores
    # projection-functions/-classes/-receivers name projection builders for the --scope all audit only
    # (by default a dict is a projection by its content), so tools/make.py is judged in that run.
    audit = _findings(project, "--scope", "all")
    assert (
        "tools/make.py",
        "OVA208",
    ) in audit  # projection-functions/receivers: notes flow is reported
    assert [c for p, c in audit if p == "tools/make.py"].count(
        "OVA208"
    ) == 1  # the sanitizer stops the other
    assert not [
        f for f in audit if f == ("tools/make.py", "OVA501")
    ]  # per-file-ignores with a prefix


def test_cli_overrides_config(project: Path) -> None:
    found = _findings(project, "--select", "OVA7")
    assert {code for _, code in found} == {"OVA701"}
    found = _findings(project, "--max-file-size", "10")
    assert {code for _, code in found} == {"OVA004"}


@pytest.mark.parametrize(
    "line,message",
    [
        ("colour = true", "unknown key 'colour'"),
        ('select = "OVA1"', "'select' must be a list of strings"),
        ("max-file-size = -1", "'max-file-size' must be a non-negative integer"),
        ("summary-max-length = true", "'summary-max-length' must be a non-negative integer"),
        ('ignore = ["OVA999"]', "unknown rule code or prefix 'OVA999'"),
        ('per-file-ignores = {"a.json" = ["NOPE1"]}', "unknown rule code or prefix 'NOPE1'"),
        ('per-file-ignores = {"a.json" = "OVA1"}', "must map to a list of rule codes"),
        ('per-file-ignores = ["a.json"]', "'per-file-ignores' must be a table"),
        ('extend-vocabulary = {raw_words = {sekrit = ["x"]}}', "unknown category sekrit"),
        ("extend-vocabulary = {colour = 1}", "unknown key(s) colour"),
        ('extend-rules = ["missing.toml"]', "cannot read extend-rules file"),
        ('deny-list = ["missing.txt"]', "cannot read deny-list"),
    ],
)
def test_config_errors_name_the_file_and_key(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.ovadapt-lint]\n{line}\n", encoding="utf-8")
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    proc = run_cli("a.json", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_bad_extension_rule_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text('[[rule]]\ncode = "OVA101"\nname = "dup"\n', encoding="utf-8")
    (tmp_path / ".ovadapt-lint.toml").write_text('extend-rules = ["x.toml"]\n', encoding="utf-8")
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    proc = run_cli("a.json", cwd=tmp_path)
    assert proc.returncode == 2 and "bad extend-rules file" in proc.stderr
    # The failed extension does not leak into later runs in the same process.
    from ovadapt_lint import Config, lint_paths

    assert lint_paths([str(tmp_path / "a.json")], Config()) == []


def test_extension_contract_is_enforced(tmp_path: Path) -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:demo:ticket_projection_v0",
        "x-ova-contract": {
            "schema_version": "ticket_projection_v0",
            "container_keys": ["ticket_projection"],
        },
        "x-ova-code": "OVA113",
        "type": "object",
        "required": ["schema_version", "mode"],
        "properties": {
            "schema_version": {"const": "ticket_projection_v0"},
            "mode": {"x-ova-code": "OVA102", "const": "read_only_projection"},
        },
    }
    (tmp_path / "ticket.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / ".ovadapt-lint.toml").write_text(
        'extend-rules = ["ticket.schema.json"]\n', encoding="utf-8"
    )
    (tmp_path / "a.json").write_text(
        '{"schema_version": "ticket_projection_v0", "mode": "live"}', encoding="utf-8"
    )
    proc = run_cli("--format", "json", "a.json", cwd=tmp_path)
    assert [f["code"] for f in json.loads(proc.stdout)["findings"]] == ["OVA102"]


LEAK = '{"note": "deploy with sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm now"}\n'


def test_a_config_applies_to_its_own_tree_only(tmp_path: Path) -> None:
    from ovadapt_lint import lint_paths

    for folder in ("quiet", "quiet/strict", "other"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.json").write_text(LEAK, encoding="utf-8")
    (tmp_path / "quiet" / ".ovadapt-lint.toml").write_text('ignore = ["OVA4"]\n', encoding="utf-8")
    (tmp_path / "quiet" / "strict" / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nselect = ["OVA4"]\n', encoding="utf-8"
    )
    expected = {"other/x.json", "quiet/strict/x.json"}  # the nearest config above each file decides
    proc = run_cli("--no-cache", "--format", "json", "quiet", "other", cwd=tmp_path)
    assert {f["path"].replace("\\", "/") for f in json.loads(proc.stdout)["findings"]} == expected
    api = lint_paths([str(tmp_path / "quiet"), str(tmp_path / "other")])
    assert {Path(f.path).relative_to(tmp_path).as_posix() for f in api} == expected
    # --config: one file for every file.
    pinned = run_cli(
        "--no-cache", "--config", "quiet/.ovadapt-lint.toml", "quiet", "other", cwd=tmp_path
    )
    assert pinned.returncode == 0, pinned.stdout


def test_docs_configuration_md_is_generated_from_the_keys() -> None:
    from ovadapt_lint.configdocs import configuration_markdown

    assert (ROOT / "docs" / "configuration.md").read_text(
        encoding="utf-8"
    ) == configuration_markdown(), (
        "docs/configuration.md is stale: run "
        "`python -m ovadapt_lint.configdocs > docs/configuration.md`"
    )


def test_the_table_of_keys_fills_every_setting_and_names_real_flags() -> None:
    import dataclasses

    from ovadapt_lint.cli import build_parser
    from ovadapt_lint.config import KEYS, Config, RunOptions

    per_path = {f.name for f in dataclasses.fields(Config)} - {"source", "run_options"}
    assert {k.attr for k in KEYS if not k.run} == per_path
    assert {k.attr for k in KEYS if k.run} == {f.name for f in dataclasses.fields(RunOptions)}
    flags = {flag for action in build_parser()._actions for flag in action.option_strings}
    assert {k.flag for k in KEYS if k.flag} <= flags
    # Every key a config file may hold is documented, and the page names no key the loader rejects.
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### `([a-z-]+)`$", page, re.M))
    assert documented == {k.name for k in KEYS if k.name is not None}


def test_a_configuration_is_a_value_that_the_command_line_does_not_change(tmp_path: Path) -> None:
    import dataclasses

    from ovadapt_lint.config import Overrides, RunOptions, load_config

    path = tmp_path / ".ovadapt-lint.toml"
    path.write_text('ignore = ["OVA4"]\nforce-include = true\n', encoding="utf-8")
    config = load_config(path)
    assert config is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.ignore = ()  # type: ignore[misc]
    changed = Overrides(ignore=("ova5",), extend={"include": ("*.md",)}).apply(config)
    assert changed.ignore == ("OVA4", "OVA5") and "*.md" in changed.include
    assert config.ignore == ("OVA4",) and "*.md" not in config.include
    # force-include is a run option: it goes to the run, not to the per-path settings.
    assert not hasattr(config, "force_include") and RunOptions.of(config).force_include


def test_only_the_first_paths_config_sets_the_run_options(tmp_path: Path) -> None:
    for folder in ("plain", "forced"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "node_modules").mkdir()
        (tmp_path / folder / "node_modules" / "x.json").write_text(LEAK, encoding="utf-8")
    (tmp_path / "forced" / ".ovadapt-lint.toml").write_text(
        "force-include = true\n", encoding="utf-8"
    )
    named = ("plain/node_modules/x.json", "forced/node_modules/x.json")

    def linted(*paths: str) -> set[str]:
        proc = run_cli("--no-cache", "--format", "json", *paths, cwd=tmp_path)
        return {f["path"].replace("\\", "/") for f in json.loads(proc.stdout)["findings"]}

    assert linted(*named) == set()  # the first path's folder has no config: nothing forced
    assert linted(*reversed(named)) == set(named)  # forced/'s config decides for the whole run
