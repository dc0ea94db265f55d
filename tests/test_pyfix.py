"""Python fixes written with libcst (issue 31): flows fixed at their sink the way a reviewer would,
applicability (safe, unsafe, none) as Ruff has it, libcst loaded only when a Python fix is planned."""

# ovadapt: ignore-file

from __future__ import annotations

import ast
import contextlib
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ovadapt_lint import Config, cli, lint_paths, redact_value
from ovadapt_lint.registry import all_rules

from .conftest import ROOT, run_cli, sarif_schema_errors

BUILDER = '''\
"""A projection builder."""
import subprocess


def packet(event):
    proc = subprocess.run(["make"], capture_output=True, text=True)
    return {
        "schema_version": "packet_v1", "raw_tool_outputs_copied": False,
        "next_action": event["message"],
        "stdout": proc.stdout,  # make's output
        "run_ref": event["id"],
    }
'''


def _quiet_main(argv: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return cli.main(argv)


def test_a_run_without_fix_does_not_import_libcst(tmp_path: Path) -> None:
    module = tmp_path / "builder.py"
    module.write_text(BUILDER, encoding="utf-8")
    probe = (
        "import sys\n"
        "from ovadapt_lint import cli\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    code = cli.main(sys.argv[1:])\n"
        "print(code, 'libcst' in sys.modules)\n"
    )

    def loaded(*args: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-c", probe, *args, str(module), "--no-cache"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc.stdout.strip()

    for formats in (["--format", "text"], ["--format", "json"], ["--format", "sarif"]):
        assert loaded(*formats) == "1 False"
    # --fix alone plans no Python fix here (both are unsafe): libcst stays out as well.
    assert loaded("--fix").endswith("False")
    assert loaded("--diff", "--unsafe-fixes") == "1 True"
    assert module.read_text(encoding="utf-8") == BUILDER


def test_fix_applies_safe_fixes_only_unless_unsafe_fixes(tmp_path: Path) -> None:
    module = tmp_path / "builder.py"
    module.write_text(BUILDER, encoding="utf-8")
    proc = run_cli("--fix", "--no-cache", str(module))
    assert module.read_text(encoding="utf-8") == BUILDER
    assert "2 hidden fix(es) can be enabled with the `--unsafe-fixes` option" in proc.stderr

    shown = run_cli("--diff", "--unsafe-fixes", "--no-cache", str(module))
    assert module.read_text(encoding="utf-8") == BUILDER
    assert '+        "next_action": redact_value(event["message"]),' in shown.stdout
    assert "+from ovadapt_lint import redact_value" in shown.stdout
    assert (
        '+        "stdout_sha256": hashlib.sha256(str(proc.stdout).encode("utf-8")).hexdigest(),  # make\'s output'
        in shown.stdout
    )

    proc = run_cli("--fix", "--unsafe-fixes", "--no-cache", str(module))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fixed = module.read_text(encoding="utf-8")
    ast.parse(fixed)
    assert '"run_ref": event["id"],' in fixed and fixed.startswith('"""A projection builder."""')
    assert not {f.code for f in lint_paths([str(module)])} & {"OVA208"}
    run_cli("--fix", "--unsafe-fixes", "--no-cache", str(module))
    assert module.read_text(encoding="utf-8") == fixed


def test_a_configured_sanitiser_is_used_and_imported_once(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nsanitizers = ["reviewed_summary", "myproject.text.scrub"]\n',
        encoding="utf-8",
    )
    module = tmp_path / "builder.py"
    module.write_text(BUILDER, encoding="utf-8")
    run_cli("--fix", "--unsafe-fixes", "--no-cache", "builder.py", cwd=tmp_path)
    fixed = module.read_text(encoding="utf-8")
    # The bare name names no module: the first entry that does is the one imported.
    assert fixed.count("from myproject.text import scrub") == 1
    assert '"next_action": scrub(event["message"]),' in fixed
    assert "redact_value" not in fixed


def test_a_name_taken_in_the_module_is_not_shadowed(tmp_path: Path) -> None:
    module = tmp_path / "builder.py"
    source = BUILDER.replace(
        "def packet(event):", "def redact_value(text):\n    return text\n\n\ndef packet(event):"
    )
    module.write_text(source, encoding="utf-8")
    proc = run_cli("--fix", "--unsafe-fixes", "--no-cache", str(module))
    fixed = module.read_text(encoding="utf-8")
    assert '"next_action": event["message"],' in fixed  # not wrapped in the module's own function
    assert "from ovadapt_lint" not in fixed
    assert "the name of the sanitiser 'redact_value' is taken in this module" in proc.stderr


def test_attestation_true_has_no_fix(tmp_path: Path) -> None:
    module = tmp_path / "builder.py"
    source = 'def p(run):\n    return {"schema_version": "evidence_v1", "source_refs": [run.ref_id], "raw_evidence_copied": True, "private_paths_copied": False}\n'
    module.write_text(source, encoding="utf-8")
    proc = run_cli("--fix", "--unsafe-fixes", "--no-cache", str(module))
    assert module.read_text(encoding="utf-8") == source and proc.returncode == 1
    assert all_rules()["OVA207"].applicability == "none"


def test_applicability_is_documented_and_reported() -> None:
    rules = all_rules()
    assert rules["OVA208"].applicability == "unsafe"
    assert rules["OVA401"].applicability == "safe"
    assert rules["OVA101"].applicability == "none"
    listed = json.loads(run_cli("rules", "--format", "json").stdout)
    assert {r["code"]: r["fix_applicability"] for r in listed}["OVA504"] == "unsafe"
    assert "Automatic fix: unsafe" in run_cli("--explain", "OVA208").stdout
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = docs[docs.index("## OVA208") :]
    assert "*Automatic fix:* unsafe" in section[: section.index("\n## ", 5)]


def test_json_and_sarif_carry_the_fix(tmp_path: Path) -> None:
    module = tmp_path / "builder.py"
    module.write_text(
        BUILDER.replace('"run_ref": event["id"],', '"source": "/home/operator/state.json",'),
        encoding="utf-8",
    )
    report = json.loads(run_cli("--format", "json", "--no-cache", str(module)).stdout)
    fixes = {f["code"]: f["fix"] for f in report["findings"]}
    assert fixes["OVA208"]["applicability"] == "unsafe"
    assert fixes["OVA501"]["applicability"] == "safe"
    assert fixes["OVA501"]["edits"][0]["content"] == "[redacted:local-path]"
    sarif = json.loads(run_cli("--format", "sarif", "--no-cache", str(module)).stdout)
    results = {r["ruleId"]: r for r in sarif["runs"][0]["results"]}
    change = results["OVA501"]["fixes"][0]["artifactChanges"][0]
    assert change["replacements"][0]["insertedContent"]["text"] == "[redacted:local-path]"
    # A codemod's edit is computed by --diff, not by a report: only its applicability is said.
    assert "fixes" not in results["OVA208"]
    assert results["OVA208"]["properties"]["fixApplicability"] == "unsafe"
    assert sarif_schema_errors(sarif) == []
    assert "/home/operator" not in json.dumps(sarif)


def test_a_cached_run_reports_the_same_fixes(tmp_path: Path) -> None:
    module = tmp_path / "builder.py"
    module.write_text(
        BUILDER.replace('"run_ref": event["id"],', '"source": "/home/operator/state.json",'),
        encoding="utf-8",
    )
    fresh, cached = (
        json.loads(run_cli("--format", "json", str(module), cwd=tmp_path).stdout)["findings"]
        for _ in range(2)
    )
    assert fresh == cached and any("edits" in f.get("fix", {}) for f in cached)


def test_a_bom_and_a_latin1_file_keep_their_encoding(tmp_path: Path) -> None:
    bom = tmp_path / "bom.py"
    bom.write_bytes(
        b"\xef\xbb\xbfdef packet(event):\n"
        b'    return {"schema_version": "packet_v1", "raw_tool_outputs_copied": False, "next_action": event["message"], '
        b'"where": "/home/al/x"}\n'
    )
    latin = tmp_path / "latin.py"
    latin.write_bytes(
        b"# -*- coding: latin-1 -*-\n"
        b'"""Caf\xe9."""\n\n\ndef packet(event):\n'
        b'    return {"schema_version": "packet_v1", "raw_tool_outputs_copied": False, "note": "caf\xe9", "next_action": event["message"]}\n'
    )
    # Safe fixes alone: the BOM file's literal (a BOM used to make every Python fix "not parse").
    run_cli("--fix", "--no-cache", str(bom))
    assert (
        bom.read_bytes().startswith(b"\xef\xbb\xbfdef")
        and b"[redacted:local-path]" in bom.read_bytes()
    )
    run_cli("--fix", "--unsafe-fixes", "--no-cache", str(bom), str(latin))
    assert b'"next_action": redact_value(event["message"])' in bom.read_bytes()
    fixed = latin.read_bytes()
    assert (
        b'"note": "caf\xe9"' in fixed and b'"next_action": redact_value(event["message"])' in fixed
    )
    assert not [f for f in lint_paths([str(bom), str(latin)]) if f.code == "OVA208"]


def test_redact_value_keeps_the_shape() -> None:
    assert redact_value("failed in /home/bob/work/x.py") == "failed in [redacted:local-path]"
    assert redact_value(["ok", {"k": "sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm"}]) == [
        "ok",
        {"k": "[redacted:credential]"},
    ]
    assert redact_value(3) == 3 and redact_value("3 lanes") == "3 lanes"


# --- property: generated projection builders ------------------------------------------------------

RAW_VALUES = [
    'event["message"]',
    'event["stdout"]',
    "proc.stdout",
    "f\"saw: {event['body']}\"",
    '_short(event["content"].strip())',
    '(\n            event.get("question")\n            or "none"\n        )',
]
KEYS = [
    "next_action",
    "summary_line",
    "stdout",
    "stderr",
    "transcript",
    "raw_notes",
    "log_excerpt",
    "messages",
    "first_agent_todo",
    "diff",
    "home",
    "body",
]


@st.composite
def builders(draw) -> tuple[str, str]:
    keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=6, unique=True))
    one_line = draw(st.booleans())
    entries = ['"schema_version": "packet_v1"', '"raw_tool_outputs_copied": False']
    for key in keys:
        value = draw(st.sampled_from(RAW_VALUES[:5] if one_line else RAW_VALUES))
        entries.append(f'"{key}": {value}')
    if draw(st.booleans()):
        entries.insert(draw(st.integers(1, len(entries))), '"run_ref": event["id"]')
    imported = draw(st.booleans())
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    head = ["import subprocess"] + (["from ovadapt_lint import redact_value"] if imported else [])
    head += [
        "",
        "",
        "def _short(text):",
        "    return str(text)[:80]",
        "",
        "",
        "def packet(event):",
        '    proc = subprocess.run(["make"], capture_output=True, text=True)',
    ]
    if one_line:
        body = ["    return {" + ", ".join(entries) + "}"]
    else:
        body = ["    return {"]
        for index, entry in enumerate(entries):
            if draw(st.booleans()):
                body.append(f"        # about field {index}")
            last = index == len(entries) - 1
            comma = "," if not last or draw(st.booleans()) else ""
            comment = "  # note" if draw(st.booleans()) else ""
            body.append(f"        {entry}{comma}{comment}")
        body.append("    }")
    return "\n".join(head + body).replace("\n", newline) + newline, newline


@pytest.mark.slow  # hypothesis: each example lints and fixes a file three times
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=builders())
def test_generated_builders_fix_to_parsing_code_that_stays_fixed(case: tuple[str, str]) -> None:
    source, newline = case
    with tempfile.TemporaryDirectory() as folder:
        module = Path(folder) / "builder.py"
        module.write_bytes(source.encode("utf-8"))
        assert any(f.code == "OVA208" for f in lint_paths([str(module)], Config()))
        _quiet_main([str(module), "--fix", "--unsafe-fixes", "--no-cache"])
        fixed = module.read_bytes()
        ast.parse(fixed)
        assert fixed.count(b"from ovadapt_lint import redact_value") <= 1
        if newline == "\r\n":
            assert fixed.count(b"\n") == fixed.count(b"\r\n")  # no bare line feed
        else:
            assert b"\r" not in fixed
        assert not [f for f in lint_paths([str(module)], Config()) if f.code == "OVA208"]
        assert b'"run_ref": event["id"]' in fixed or b'"run_ref"' not in source.encode()
        # Comment lines are nobody's own: they all stay, in their order (a removed entry takes only the
        # comment on its line).
        above = [line.strip() for line in source.splitlines() if "# about field" in line]
        kept = [line.strip() for line in fixed.decode().splitlines() if "# about field" in line]
        assert kept == above
        _quiet_main([str(module), "--fix", "--unsafe-fixes", "--no-cache"])
        assert module.read_bytes() == fixed


def test_what_libcst_cannot_parse_is_refused_with_a_reason_and_literals_still_fixed(
    tmp_path: Path, monkeypatch
) -> None:
    import libcst

    from ovadapt_lint.pyfix import codemods

    module = tmp_path / "builder.py"
    module.write_text(
        BUILDER.replace('"run_ref": event["id"],', '"source": "/home/operator/state.json",'),
        encoding="utf-8",
    )

    def unparsable(*args, **kwargs):
        raise libcst.ParserSyntaxError("no", lines=["x"], raw_line=1, raw_column=0)

    monkeypatch.setattr(codemods.cst, "parse_module", unparsable)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert cli.main([str(module), "--fix", "--unsafe-fixes", "--no-cache"]) == 1
    fixed = module.read_text(encoding="utf-8")
    assert '"source": "[redacted:local-path]",' in fixed  # the literal, as bytes
    assert '"next_action": event["message"],' in fixed
    assert "OVA208 not fixed: libcst cannot parse this file" in err.getvalue()


def test_a_failing_codemod_leaves_the_file_and_says_so(tmp_path: Path, monkeypatch) -> None:
    from ovadapt_lint.pyfix import codemods

    module = tmp_path / "builder.py"
    module.write_text(BUILDER, encoding="utf-8")

    def broken(*args, **kwargs):
        raise KeyError("bug")

    monkeypatch.setattr(codemods, "rewrite", broken)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        cli.main([str(module), "--fix", "--unsafe-fixes", "--no-cache"])
    assert module.read_text(encoding="utf-8") == BUILDER
    assert "a Python fix failed (KeyError); nothing written" in err.getvalue()
    assert "Traceback" not in err.getvalue()


def test_every_counterpart_names_a_raw_key_and_a_sanitised_template() -> None:
    """rules/fixes.toml: a counterpart is used only for a raw-named key, and its value must stop the flow
    (else a second --fix would find the field again)."""
    import libcst

    from ovadapt_lint.keyclass import vocabulary
    from ovadapt_lint.pyfix.choose import counterparts, fix_data

    assert counterparts()
    for raw, (new, template, _) in counterparts().items():
        verdict = vocabulary().classify(raw)
        assert verdict.category is not None, raw
        assert new != raw and "{value}" in template
        libcst.parse_expression(template.replace("{value}", "x"))
    assert fix_data()["sanitizer"]["default"] == "ovadapt_lint.redact_value"


def test_a_codemod_never_lands_on_a_field_other_than_the_one_linted(tmp_path: Path) -> None:
    from ovadapt_lint.fix import edit

    module = tmp_path / "builder.py"
    module.write_text(BUILDER, encoding="utf-8")
    findings = [f for f in lint_paths([str(module)]) if f.code == "OVA208"]
    # The same length, another field at the linted position: the edit would land on the wrong entry.
    changed = BUILDER.replace('"next_action": event["message"]', '"next_actiom": event["message"]')
    from ovadapt_lint.pyfix.choose import FixOptions

    planned = edit(
        module, "builder.py", "python", changed.encode(), findings, options=FixOptions(True)
    )
    assert b'"next_actiom": event["message"]' in planned.after
    assert any(f.unfixable == "the file changed since it was linted (run again)" for f in findings)
