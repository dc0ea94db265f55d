"""The Python flow analysis (issue 25) beyond the corpus: facts that survive the cache, modules re-checked
when a helper changes, traces in every output, and the configuration of sinks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ovadapt_lint import Config, engine, lint_paths
from ovadapt_lint.analysis import Analysis
from ovadapt_lint.config import RunOptions, load_config
from ovadapt_lint.errors import ConfigError
from ovadapt_lint.flow import facts as flow_facts
from ovadapt_lint.source import SourceFile

from .conftest import CORPUS

HELPER_CLEAN = """import hashlib


def describe(exc: Exception) -> str:
    return hashlib.sha256(str(exc).encode()).hexdigest()[:12]
"""
HELPER_RAW = """def describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"
"""
STATUS = """from .helpers import describe


def status(run) -> dict:
    try:
        run()
    except OSError as exc:
        return {"schema_version": "status_v1", "stdout_captured": False, "error": describe(exc)}
    return {"schema_version": "status_v1", "stdout_captured": False, "error": None}
"""
OTHER = """def unrelated() -> dict:
    return {"kind": "other"}
"""


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "proj" / "pkg"
    project.mkdir(parents=True)
    (project / "__init__.py").write_text("", encoding="utf-8")
    (project / "helpers.py").write_text(HELPER_CLEAN, encoding="utf-8")
    (project / "status.py").write_text(STATUS, encoding="utf-8")
    (project / "other.py").write_text(OTHER, encoding="utf-8")
    old = 1_600_000_000  # well before the run: the stat index trusts the files
    for path in project.iterdir():
        os.utime(path, (old, old))
    return project


def test_a_changed_helper_is_read_again_and_its_importers_findings_follow(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    config, options = Config(), RunOptions(cache_dir=cache, use_cache=True, jobs=1)
    assert [
        f
        for f in engine.run([str(project.parent)], config, options=options).findings
        if f.code == "OVA208"
    ] == []

    analysed: list[str] = []
    real = engine._check_python
    monkeypatch.setattr(
        engine,
        "_check_python",
        lambda source, analysis, role: (
            analysed.append(Path(source.display).name),
            real(source, analysis, role),
        )[1],
    )
    (project / "helpers.py").write_text(HELPER_RAW, encoding="utf-8")
    os.utime(project / "helpers.py", (1_600_000_100, 1_600_000_100))
    found = [
        f
        for f in engine.run([str(project.parent)], config, options=options).findings
        if f.code == "OVA208"
    ]
    # Only the changed helper was parsed again; its importer's finding comes from its cached facts.
    assert analysed == ["helpers.py"]
    assert [(Path(f.path).name, f.line) for f in found] == [("status.py", 8)]
    assert any(
        "helpers.py" in step.path for step in found[0].trace
    )  # the trace runs through the helper

    analysed.clear()  # a new clean helper (the first one's bytes would be answered by the cache)
    (project / "helpers.py").write_text(HELPER_CLEAN + "# reviewed\n", encoding="utf-8")
    os.utime(project / "helpers.py", (1_600_000_200, 1_600_000_200))
    assert [
        f
        for f in engine.run([str(project.parent)], config, options=options).findings
        if f.code == "OVA208"
    ] == []
    assert analysed == ["helpers.py"]


def test_an_unchanged_run_reads_its_flow_findings_without_decoding_any_modules_facts(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    (project / "helpers.py").write_text(HELPER_RAW, encoding="utf-8")
    os.utime(project / "helpers.py", (1_600_000_000, 1_600_000_000))
    config, options = Config(), RunOptions(cache_dir=cache, use_cache=True, jobs=1)

    def shown(findings) -> list[tuple]:
        return [(Path(f.path).name, f.line, f.code, f.message, f.trace) for f in findings]

    first = shown(engine.run([str(project.parent)], config, options=options).findings)
    assert [(name, line, code) for name, line, code, _, _ in first] == [("status.py", 8, "OVA208")]

    decoded: list[str] = []
    real = flow_facts.from_json
    monkeypatch.setattr(
        flow_facts,
        "from_json",
        lambda data, display: (decoded.append(Path(display).name), real(data, display))[1],
    )
    # Nothing changed: the joined result is read back, trace and all; no module's facts are decoded.
    assert shown(engine.run([str(project.parent)], config, options=options).findings) == first
    assert decoded == []
    # An unrelated module changed: the run's flows are joined again, from every module's cached facts.
    (project / "other.py").write_text(OTHER + "# reviewed\n", encoding="utf-8")
    os.utime(project / "other.py", (1_600_000_100, 1_600_000_100))
    assert shown(engine.run([str(project.parent)], config, options=options).findings) == first
    assert sorted(decoded) == ["__init__.py", "helpers.py", "status.py"]


def test_a_sibling_read_for_its_helpers_before_its_own_turn_is_parsed_once(
    tmp_path: Path, monkeypatch
) -> None:
    import ast
    import shutil

    project = tmp_path / "p"
    shutil.copytree(
        CORPUS / "flows" / "contract_values" / "ok_constants_and_section_helpers", project
    )
    parsed: list[bytes] = []
    real = ast.parse

    def counting(source, *args, **kwargs):
        parsed.append(source if isinstance(source, bytes) else source.encode("utf-8"))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    engine.run([str(project)], Config(), options=RunOptions(jobs=1))
    package = project / "ovadapter"
    # adapter.py, linted first, follows the helpers of gates.py and sections.py: their trees serve their own turn.
    for name in ("gates.py", "sections.py"):
        assert parsed.count((package / name).read_bytes()) == 1, name


def test_facts_round_trip_through_json_and_follow_a_renamed_file(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "helpers.py").write_text(HELPER_RAW, encoding="utf-8")
    analysis = Analysis.build(Config())
    modules = []
    for name in ("helpers.py", "status.py"):
        path = project / name
        findings, facts = engine._check_python(
            SourceFile(path, str(path), path.read_bytes()), analysis, "source"
        )
        modules.append(facts)
    again = [
        flow_facts.from_json(json.loads(json.dumps(flow_facts.to_json(m))), m.display)
        for m in modules
    ]
    assert again == modules
    moved = flow_facts.from_json(flow_facts.to_json(modules[1]), "elsewhere/status.py")
    assert moved.display == "elsewhere/status.py"
    assert "status.py" not in json.dumps(flow_facts.to_json(moved)).replace(
        "elsewhere/status.py", ""
    )
    before = engine.flow_findings(modules, analysis)
    after = engine.flow_findings(again, analysis)
    assert (
        [(f.path, f.line, f.message) for f in before]
        == [(f.path, f.line, f.message) for f in after]
        != []
    )


def test_text_output_prints_the_trace_across_modules(tmp_path: Path, capsys) -> None:
    from ovadapt_lint import cli

    project = _project(tmp_path)
    (project / "helpers.py").write_text(HELPER_RAW, encoding="utf-8")
    cli.main([str(project.parent), "--no-cache", "--no-color"])
    out = capsys.readouterr().out
    lines = [line.strip() for line in out.splitlines()]
    source = next(line for line in lines if line.startswith("source "))
    assert "status.py:7:" in source  # the except clause that bound the exception
    assert any(line.startswith("sink ") and 'published field "error"' in line for line in lines)
    assert any("helpers.py:2:" in line for line in lines)  # the helper's return


def test_json_report_carries_the_trace_across_modules(tmp_path: Path, capsys) -> None:
    from ovadapt_lint import cli

    project = _project(tmp_path)
    (project / "helpers.py").write_text(HELPER_RAW, encoding="utf-8")
    cli.main([str(project.parent), "--no-cache", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    (flow,) = [f for f in report["findings"] if f["code"] == "OVA208"]
    steps = flow["trace"]
    assert {"path", "line", "column", "message"} == set(steps[0])
    assert (Path(steps[0]["path"]).name, steps[0]["line"]) == ("status.py", 7)  # the except clause
    assert any(Path(s["path"]).name == "helpers.py" and s["line"] == 2 for s in steps)
    assert steps[-1]["message"] == 'published field "error"'
    assert (steps[-1]["path"], steps[-1]["line"]) == (flow["path"], flow["start_line"])
    assert not [f for f in report["findings"] if f["code"] != "OVA208" and "trace" in f]


def test_a_process_stream_read_is_process_output_not_file_content(tmp_path: Path) -> None:
    # L4 read "file content" on a child process's stdout read in a framework's example runner.
    (tmp_path / "runner.py").write_text(
        "import json\nimport subprocess\n\n\ndef run(cmd):\n"
        "    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)\n"
        "    head = proc.stderr.read(80)\n"
        "    with open(cmd[0]) as fh:\n"
        "        body = fh.read()\n"
        "    print(json.dumps({'ok': False, 'stderr_head': head, 'script': body}))\n",
        encoding="utf-8",
    )
    found = lint_paths([str(tmp_path)], Config(published="outputs"))
    kinds = sorted(f.message.split(" '")[0] for f in found if f.code == "OVA208")
    assert kinds == ["file content", "process output"]


def test_sarif_code_flow_names_each_steps_file(tmp_path: Path, capsys) -> None:
    from ovadapt_lint import cli

    project = _project(tmp_path)
    (project / "helpers.py").write_text(HELPER_RAW, encoding="utf-8")
    cli.main(
        [str(project.parent), "--no-cache", "--format", "sarif", "--sarif-srcroot", str(tmp_path)]
    )
    sarif = json.loads(capsys.readouterr().out)
    result = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "OVA208")
    steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
    uris = [s["location"]["physicalLocation"]["artifactLocation"]["uri"] for s in steps]
    assert "proj/pkg/helpers.py" in uris and "proj/pkg/status.py" in uris
    assert not any(u.startswith(("/", "file:")) for u in uris)
    assert steps[0]["kinds"] == ["taint"] and steps[-1]["kinds"] == ["danger"]


def test_published_outputs_is_a_setting_and_an_option(tmp_path: Path) -> None:
    case = CORPUS / "flows" / "other_outputs" / "bad_cli_failure_payload"
    with_config = {f.code for f in lint_paths([str(case)])}
    assert {"OVA208", "OVA504"} <= with_config
    copy = tmp_path / "goalctl"
    copy.mkdir()
    for path in (case / "goalctl").iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    assert not [f for f in lint_paths([str(tmp_path)], Config()) if f.code in ("OVA208", "OVA504")]
    assert {"OVA208", "OVA504"} <= {
        f.code for f in lint_paths([str(tmp_path)], Config(published="outputs"))
    }


def test_a_status_dict_published_as_output_is_named_an_output_not_a_projection(
    tmp_path: Path,
) -> None:
    # It repeats a flag without naming a schema: the published thing is the command's output (published =
    # "outputs", or --scope all), not a document; a dict that names its schema_version stays a projection.
    case = CORPUS / "flows" / "other_outputs" / "bad_status_dict_as_output"
    (finding,) = [f for f in lint_paths([str(case)]) if f.code == "OVA504"]
    assert finding.message.endswith(
        'a machine-readable output (published = "outputs"; it repeats "raw_artifacts_copied")'
    )
    copy = tmp_path / "rtsync"
    copy.mkdir()
    status = (case / "rtsync" / "status.py").read_text(encoding="utf-8")
    (copy / "status.py").write_text(status, encoding="utf-8")
    (audit,) = [f for f in lint_paths([str(tmp_path)], Config(scope="all")) if f.code == "OVA504"]
    assert audit.message.endswith('(--scope all; it repeats "raw_artifacts_copied")')
    (copy / "status.py").write_text(
        status.replace(
            '"raw_artifacts_copied": False',
            '"raw_artifacts_copied": False, "schema_version": "rt_v1"',
        ),
        encoding="utf-8",
    )
    (document,) = [f for f in lint_paths([str(tmp_path)]) if f.code == "OVA504"]
    assert document.message.endswith('a projection (it attests "raw_artifacts_copied")')


def test_the_envelope_of_an_output_is_published_with_it_under_outputs_only(tmp_path: Path) -> None:
    # A result that carries an output (a status repeating a flag) is printed with it: its other fields are
    # output too, and the finding names the field that made it so. Without the setting, nothing.
    case = CORPUS / "flows" / "output_envelopes" / "bad_nested_literal_envelope"
    found = [f for f in lint_paths([str(case)]) if f.code == "OVA504"]
    assert [(f.line, f.message.rsplit(": ", 1)[-1]) for f in found] == [
        (
            11,
            'a machine-readable output (published = "outputs"; it holds "archive", which is published)',
        ),
        (
            15,
            'a machine-readable output (published = "outputs"; it holds "archive", which is published)',
        ),
    ]
    stored = CORPUS / "flows" / "output_envelopes" / "bad_item_store_envelope"
    assert {f.message.rsplit("; ", 1)[-1] for f in lint_paths([str(stored)])} == {
        'it holds "archive", which is published)'
    }
    copy = tmp_path / "snapx"
    copy.mkdir()
    (copy / "export.py").write_text(
        (case / "snapx" / "export.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert [f.code for f in lint_paths([str(tmp_path)])] == []
    audit = lint_paths([str(tmp_path)], Config(scope="all"))
    assert not any("it holds" in f.message for f in audit)


def test_a_store_into_a_projection_names_why_the_receiver_is_published(tmp_path: Path) -> None:
    (tmp_path / "status.py").write_text(
        "def status(run):\n"
        "    doc = {'schema_version': 'run_status_projection_v1', 'ok': True}\n"
        "    try:\n"
        "        run()\n"
        "    except OSError as exc:\n"
        "        doc['error'] = str(exc)\n"
        "    return doc\n",
        encoding="utf-8",
    )
    (finding,) = [f for f in lint_paths([str(tmp_path)]) if f.code == "OVA208"]
    assert finding.message.endswith(
        'published field "error": a projection (schema_version "run_status_projection_v1"), by a store into it'
    )


@pytest.mark.parametrize(
    "entry", ["board_upsert", "pkg.board:", "pkg board:upsert", "pkg.board:upsert card"]
)
def test_a_malformed_public_sink_is_a_configuration_error(tmp_path: Path, entry: str) -> None:
    path = tmp_path / ".ovadapt-lint.toml"
    path.write_text(f"public-sinks = [{json.dumps(entry)}]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="public-sinks"):
        load_config(path)


def test_an_unknown_published_setting_is_a_configuration_error(tmp_path: Path) -> None:
    path = tmp_path / ".ovadapt-lint.toml"
    path.write_text('published = "everything"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="projections, outputs"):
        load_config(path)


def test_a_module_judged_with_a_siblings_constants_is_not_answered_from_the_cache(
    tmp_path: Path, xdg: dict
) -> None:
    import shutil

    case = CORPUS / "flows" / "contract_values" / "bad_schema_version_constant"
    project = tmp_path / "p"
    shutil.copytree(case, project)
    old = 1_600_000_000
    for path in project.rglob("*.py"):
        os.utime(path, (old, old))
    config, options = Config(), RunOptions(cache_dir=tmp_path / "cache", use_cache=True, jobs=1)
    assert [f.code for f in engine.run([str(project)], config, options=options).findings] == [
        "OVA101"
    ]
    constants = project / "ovadapter" / "constants.py"
    constants.write_text(
        constants.read_text(encoding="utf-8").replace("_adaptor_v0", "_adapter_v0"),
        encoding="utf-8",
    )
    os.utime(constants, (old + 100, old + 100))
    # adapter.py did not change, but what it is judged with did: its finding goes with the typo.
    assert [f.code for f in engine.run([str(project)], config, options=options).findings] == []


def test_a_long_access_path_keeps_what_was_taken_out_and_its_outer_keys() -> None:
    from ovadapt_lint.flow.facts import MAX_PATH, TAKEN, clip, store

    marks = (TAKEN + "*", TAKEN + "status")
    deep = tuple(f"k{i}" for i in range(MAX_PATH)) + marks
    clipped = clip(deep)
    assert len(clipped) == MAX_PATH
    assert clipped[-2:] == marks  # only the item's status was taken: the item's text stays behind
    assert clipped[0] == "k0"  # still published under its outermost key
    atom = ("p", 0, deep[1:], (), None)
    (stored,) = store({"a": atom}, "top", None).values()
    assert stored[2][0] == "top" and stored[2][-2:] == marks


def test_a_receipt_published_as_output_by_a_store_of_its_flag_is_named_an_output(
    tmp_path: Path,
) -> None:
    # A write receipt made by a helper, then given a copy flag and the target folder by item stores (LoopX's
    # shared runtime refresh, L5): published only under `published = "outputs"`, and named so.
    (tmp_path / "receipts.py").write_text(
        "from pathlib import Path\n"
        "\n"
        "\n"
        "def write_receipt(root: Path, name: str) -> dict:\n"
        '    target = root / f"{name}.json"\n'
        '    target.write_text("{}", encoding="utf-8")\n'
        '    return {"name": name}\n'
        "\n"
        "\n"
        "def refresh(shared_root: Path, name: str) -> dict:\n"
        "    result = write_receipt(shared_root, name)\n"
        '    result["shared_root"] = str(shared_root.resolve())\n'
        '    result["raw_artifacts_copied"] = False\n'
        "    return result\n",
        encoding="utf-8",
    )
    assert not [f for f in lint_paths([str(tmp_path)]) if f.code == "OVA504"]
    (finding,) = [
        f for f in lint_paths([str(tmp_path)], Config(published="outputs")) if f.code == "OVA504"
    ]
    assert finding.line == 12
    assert finding.message.endswith(
        'a machine-readable output (published = "outputs"; a store into a dict that repeats '
        '"raw_artifacts_copied")'
    )
    # The audit sees at least what outputs sees (its name-based pre-check alone skipped this module).
    (audit,) = [f for f in lint_paths([str(tmp_path)], Config(scope="all")) if f.code == "OVA504"]
    assert audit.message.endswith(
        '(--scope all; a store into a dict that repeats "raw_artifacts_copied")'
    )


def test_a_value_at_its_atom_bound_keeps_the_source_that_joins_it_last(tmp_path: Path) -> None:
    # A summary line joined from many parameters (each a symbolic atom, up to facts.MAX_ATOMS), then the
    # exception text: the source used to be dropped once the bound was reached, silently.
    params = ", ".join(f"part{i}: str" for i in range(30))
    joined = ", ".join(f"part{i}" for i in range(30))
    (tmp_path / "status.py").write_text(
        "import subprocess\n"
        "\n"
        "\n"
        f"def status_line({params}) -> dict:\n"
        f'    line = " ".join([{joined}])\n'
        "    try:\n"
        '        subprocess.run(["git", "fetch"], check=True)\n'
        "    except OSError as exc:\n"
        '        line = line + " " + str(exc)\n'
        '    return {"schema_version": "sync_status_v1", "line": line, "raw_output_copied": False}\n',
        encoding="utf-8",
    )
    found = [(f.code, f.line) for f in lint_paths([str(tmp_path)])]
    assert found == [("OVA208", 10)], found


def test_a_variable_holding_a_function_is_called_as_each_function_it_may_hold(
    tmp_path: Path,
) -> None:
    # `render = render_full if full else render_brief` (imported from a sibling module): the call is followed
    # into both; a variable holding something else (a library function) is not followed.
    package = tmp_path / "cards"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "render.py").write_text(
        "def render_brief(where: str) -> str:\n"
        '    return "see the log"\n'
        "\n"
        "\n"
        "def render_full(where: str) -> str:\n"
        '    return f"the full log is in {where}"\n',
        encoding="utf-8",
    )
    (package / "card.py").write_text(
        "import os\n"
        "from pathlib import Path\n"
        "\n"
        "from .render import render_brief, render_full\n"
        "\n"
        "\n"
        "def card(log: Path, full: bool) -> dict:\n"
        "    render = render_full if full else render_brief\n"
        "    base = os.path.basename\n"
        "    where = str(log.resolve())\n"
        "    return {\n"
        '        "schema_version": "log_card_v1",\n'
        '        "text": render(where),\n'
        '        "name": base(where),\n'
        '        "log_path_included": False,\n'
        "    }\n",
        encoding="utf-8",
    )
    found = [(Path(f.path).name, f.code, f.line) for f in lint_paths([str(tmp_path)])]
    assert found == [("card.py", "OVA504", 13)], found
