"""Issue 29: a short run imports only what it uses (a lazy package face), and reporters only format: one
registry of formats, each reporter handed the finalised, masked result and the run's metadata, with flow
traces and history marks as typed fields of the finding."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ovadapt_lint"
ADAPTER = ROOT / "tests" / "data" / "projections" / "session-memory-adapter.public.json"
LEAKY_BUILDER = """\
import json
import subprocess


def build(path):
    out = subprocess.run(["ls"], capture_output=True).stdout
    view = {"schema_version": "openviking_session_memory_adapter_v0", "next_action": out}
    json.dump(view, open(path, "w"))
"""


def _modules_after(argv: list[str], cwd: Path = ROOT) -> set[str]:
    """The modules loaded once ``ovadapt-lint argv`` has run, in a fresh interpreter."""
    program = (
        "import sys\n"
        "from ovadapt_lint.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write('\\n'.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", program], cwd=cwd, capture_output=True, text=True, check=False
    )
    return set(proc.stderr.splitlines())


def test_version_imports_no_engine_rule_pack_detector_or_reporter() -> None:
    loaded = _modules_after(["--version"])
    assert "ovadapt_lint.cli" in loaded  # the probe ran
    heavy = {
        "ovadapt_lint.engine",
        "ovadapt_lint.config",
        "ovadapt_lint.analysis",
        "ovadapt_lint.pack",
        "ovadapt_lint.detect",
        "ovadapt_lint.fix",
        "ovadapt_lint.report.text",
        "rich",
        "jsonschema",
        "detect_secrets",
        "tree_sitter",
    }
    assert sorted(heavy & loaded) == []


def test_a_run_on_json_without_colour_imports_neither_rich_nor_the_flow_analysis(
    tmp_path: Path,
) -> None:
    # Text without colour is written plain, and JSON fixtures' shapes alone resolve no flow.
    (tmp_path / "a.public.json").write_bytes(ADAPTER.read_bytes())
    loaded = _modules_after(["--no-color", "a.public.json"], cwd=tmp_path)
    assert "ovadapt_lint.report.text" in loaded  # the probe linted and reported
    assert sorted(m for m in loaded if m == "rich" or m.startswith("rich.")) == []
    assert "ovadapt_lint.flow.resolve" not in loaded


def test_the_package_face_still_gives_its_public_names() -> None:
    import ovadapt_lint

    assert set(ovadapt_lint.__all__) <= set(dir(ovadapt_lint))
    from ovadapt_lint import Config, ConfigError, Finding, Span, lint_paths, redact_text
    from ovadapt_lint.engine import lint_paths as engine_lint_paths

    assert lint_paths is engine_lint_paths
    assert Config().scope == "published"
    assert issubclass(ConfigError, Exception)
    assert Finding.__name__ == "Finding" and Span(1, 1, 1, 2).end_col == 2
    assert callable(redact_text)
    with pytest.raises(AttributeError):
        ovadapt_lint.no_such_name  # noqa: B018


def test_plain_text_drops_the_control_codes_rich_drops() -> None:
    from rich.control import STRIP_CONTROL_CODES

    from ovadapt_lint.report.text import STRIP_CONTROL

    assert sorted(STRIP_CONTROL) == sorted(STRIP_CONTROL_CODES)


def test_plain_and_rich_consoles_print_the_same_text(tmp_path: Path) -> None:
    # Without colour the report is written without rich; it must read exactly as rich printed it.
    import io

    from rich.console import Console

    from ovadapt_lint.report.text import _PlainConsole, _RichConsole

    lines = ["Found 3 finding(s) (3 errors) in 1 of 2 file(s).", "", "x\ry\x07z  é 漢字"]
    plain, rich_out = io.StringIO(), io.StringIO()
    rich = _RichConsole(
        Console(file=rich_out, highlight=False, soft_wrap=True, emoji=False, markup=False)
    )
    for text in lines:
        _PlainConsole(plain).line(text, "bold")
        rich.line(text, "bold")
    assert plain.getvalue() == rich_out.getvalue()


def test_every_format_is_one_registry_entry_and_the_cli_offers_those() -> None:
    from ovadapt_lint import cli
    from ovadapt_lint.report.registry import REPORTERS

    assert cli.FORMATS == tuple(REPORTERS)
    assert set(cli.HISTORY_FORMATS) < set(REPORTERS) and set(cli.STATISTICS_FORMATS) < set(
        REPORTERS
    )
    for reporter in REPORTERS.values():
        module = (PACKAGE / "report" / f"{reporter.module}.py").read_text(encoding="utf-8")
        assert f"def {reporter.function}(" in module, reporter
    # One place picks the reporter: no format ladder is left in the command line.
    source = (PACKAGE / "cli.py").read_text(encoding="utf-8")
    for writer in ("write_sarif", "write_github", "write_json", "write_text", "write_history"):
        assert writer not in source, writer


def _report_modules() -> list[Path]:
    return sorted((PACKAGE / "report").glob("*.py"))


def test_reporters_never_mask_ask_git_or_call_version_control() -> None:
    # What a reporter is told is gathered before it is called (finalise.run_metadata); the text it prints
    # was masked as the run was finalised (finalise.mask_quoted).
    reached = []
    for path in _report_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                top = node.module.split(".")[0]
                if top in ("vcs", "discover", "engine", "finalise", "cache", "detect"):
                    reached.append(f"{path.name} imports {node.module}")
                if (
                    path.name != "text.py" and top == "redact"
                ):  # text masks the lines its frames show
                    reached.append(f"{path.name} imports {node.module}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                # Code frames mask the source lines they show with the run's credential formats.
                allowed = {"secret_patterns"} if path.name == "text.py" else set()
                if node.func.attr in {"quoted", "source_root", "secret_patterns"} - allowed:
                    reached.append(f"{path.name} calls .{node.func.attr}")
            if isinstance(node, ast.Attribute) and node.attr == "extra":
                reached.append(f"{path.name} reads Finding.extra")
    assert reached == []


def test_flow_trace_is_typed_and_survives_the_cache(tmp_path: Path) -> None:
    from ovadapt_lint import Config
    from ovadapt_lint.config import RunOptions
    from ovadapt_lint.engine import run
    from ovadapt_lint.findings import FlowStep

    (tmp_path / "builder.py").write_text(LEAKY_BUILDER, encoding="utf-8")
    options = RunOptions(jobs=1, use_cache=True, cache_dir=tmp_path / "cache")
    cold = run([str(tmp_path)], Config(), options=options)
    warm = run([str(tmp_path)], Config(), options=options)
    flows = [f for f in cold.findings if f.trace]
    assert flows, [f.code for f in cold.findings]
    assert all(isinstance(step, FlowStep) for step in flows[0].trace)
    assert flows[0].trace[0].message.startswith("'subprocess.run(")
    assert flows[0].trace[-1].message == 'published field "next_action"'
    assert [f.trace for f in warm.findings if f.trace] == [f.trace for f in flows]


def test_history_marks_are_typed_and_reported_as_properties(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
            cwd=tmp_path,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    (tmp_path / "a.public.json").write_text('{"note": "/home/alice/notes.txt"}\n', encoding="utf-8")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    (tmp_path / "a.public.json").write_text('{"note": "clean"}\n', encoding="utf-8")
    git("commit", "-q", "-am", "two")
    proc = run_cli("history", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    document = json.loads(proc.stdout)
    (finding,) = document["findings"]
    assert finding["code"] == "OVA501"
    assert finding["properties"]["presentAtHead"] is False
    assert finding["properties"]["status"].startswith("removed in ")
    assert set(finding["properties"]) == {
        "commit",
        "commitDate",
        "pathAtCommit",
        "blob",
        "presentAtHead",
        "removedIn",
        "status",
    }
    assert document["summary"]["blobs"] == 2 and document["history"]["commits"] == 2
    sarif = json.loads(
        run_cli("history", "--no-cache", "--format", "sarif", ".", cwd=tmp_path).stdout
    )
    run_ = sarif["runs"][0]
    assert (
        run_["versionControlProvenance"][0]["repositoryUri"] == "urn:ovadapt-lint:local-repository"
    )
    assert run_["results"][0]["properties"]["removedIn"] == finding["properties"]["removedIn"]


def test_the_rule_pack_is_parsed_once_and_read_back_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ovadapt_lint import rulepack

    # The module rulepack parses with (imported where it parses): tomli on Python 3.10.
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = rulepack.read_text("rules.toml")
    first = rulepack._parsed_toml("rules.toml", text)
    assert (tmp_path / "ovadapt-lint" / "parsed-rules.toml.json").is_file()
    parses: list[int] = []
    real = tomllib.loads
    monkeypatch.setattr(tomllib, "loads", lambda t: parses.append(1) or real(t))
    assert rulepack._parsed_toml("rules.toml", text) == first == real(text)
    assert parses == []  # read back from the store
    edited = text + "\n# edited\n"
    assert rulepack._parsed_toml("rules.toml", edited) == first
    assert parses == [1]  # another text is parsed again
