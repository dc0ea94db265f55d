"""Issues 25 and 29: a warm run is answered by the cache without building the analysis (rule pack, detectors,
vocabularies, deny list, flow models) or reading a module's flow facts; the cache key still covers every file
the analysis is built from, so a change to one of them lints again."""

# ovadapt: ignore-file

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ovadapt_lint import analysis as analysis_module
from ovadapt_lint import cache as cache_module
from ovadapt_lint import engine, rulepack
from ovadapt_lint.config import RunOptions, find_config
from ovadapt_lint.hierarchy import Configs

from .conftest import run_cli

OLD = 1_600_000_000  # well before the run: files are not "racily clean" for the stat index
# A helper module's process output reaches a public fixture written by another module: a flow across modules.
HELPER = """\
import subprocess


def listing():
    return subprocess.run(["ls"], capture_output=True, text=True).stdout
"""
BUILDER = """\
import json

from .helper import listing


def write(path):
    view = {"schema_version": "openviking_session_memory_adapter_v0", "next_action": listing()}
    with open(path, "w") as out:
        json.dump(view, out)
"""
DENIED = "bluefin"
FILES = 6  # the project's files that are linted (the config and deny list are not)


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "p"
    pkg = project / "pkg"
    pkg.mkdir(parents=True)
    (project / ".ovadapt-lint.toml").write_text('deny-list = ["deny.txt"]\n', encoding="utf-8")
    (project / "deny.txt").write_text(f"{DENIED}\n", encoding="utf-8")
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "helper.py").write_text(HELPER, encoding="utf-8")
    (pkg / "builder.py").write_text(BUILDER, encoding="utf-8")
    (project / "note.public.json").write_text(
        json.dumps({"summary": f"exported from the {DENIED} host"}), encoding="utf-8"
    )
    # Public by what it holds (an attestation key), and a document the roles' prefilter must parse to clear.
    (project / "view.json").write_text(
        json.dumps({"title": "weekly view", "raw_memory_copied": False}), encoding="utf-8"
    )
    (project / "plain.json").write_text(
        json.dumps({"schema_version": "other_v1"}), encoding="utf-8"
    )
    _age(project)
    return project


def _age(project: Path) -> None:
    for path in project.rglob("*"):
        os.utime(path, (OLD, OLD))


class _Counts:
    """How often a run built a part of the analysis from its files, and how many units it linted."""

    def __init__(self, monkeypatch) -> None:
        self.built: list[str] = []
        self.linted: list[str] = []
        for name in ("read_rule_pack", "read_key_vocabulary", "read_deny_list"):
            real = getattr(analysis_module, name)
            monkeypatch.setattr(analysis_module, name, self._counting(name, real))
        real_unit = engine.lint_unit

        def unit(unit, *args, **kwargs):
            self.linted.append(Path(unit.display).name)
            return real_unit(unit, *args, **kwargs)

        monkeypatch.setattr(engine, "lint_unit", unit)

    def _counting(self, name, real):
        def counted(*args, **kwargs):
            self.built.append(name)
            return real(*args, **kwargs)

        return counted

    def clear(self) -> None:
        self.built.clear()
        self.linted.clear()


def _run(project: Path, cache: Path) -> list[tuple[str, int, str]]:
    """A run as the command line makes it: each folder's config, its analysis made lazily with a cache."""
    root = find_config(project)
    assert root is not None
    options = RunOptions(jobs=1, use_cache=True, cache_dir=cache)
    result = engine.run([str(project)], root, configs=Configs(root, lazy=True), options=options)
    return sorted((Path(f.path).name, f.line, f.code) for f in result.findings)


def _fresh(project: Path) -> list[tuple[str, int, str]]:
    root = find_config(project)
    assert root is not None
    result = engine.run([str(project)], root, configs=Configs(root), options=RunOptions(jobs=1))
    return sorted((Path(f.path).name, f.line, f.code) for f in result.findings)


def test_a_warm_run_builds_no_analysis_and_gives_the_cold_findings(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    cold = _fresh(project)
    codes = {code for _, _, code in cold}
    assert "OVA701" in codes and any(name == "builder.py" for name, _, _ in cold), cold
    counts = _Counts(monkeypatch)
    assert _run(project, cache) == cold  # fills the cache
    assert counts.built and counts.linted
    counts.clear()
    assert _run(project, cache) == cold
    assert counts.built == [] and counts.linted == []


def test_a_change_to_what_the_analysis_reads_lints_again(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    counts = _Counts(monkeypatch)
    first = _run(project, cache)
    assert ("note.public.json", 1, "OVA701") in first
    # The deny list: the name is no longer denied.
    (project / "deny.txt").write_text("another-name\n", encoding="utf-8")
    _age(project)
    counts.clear()
    assert ("note.public.json", 1, "OVA701") not in _run(project, cache)
    assert "read_deny_list" in counts.built and "note.public.json" in counts.linted
    # The configuration file: a setting the analysis is built from.
    (project / ".ovadapt-lint.toml").write_text(
        'deny-list = ["deny.txt"]\ninternal-domains = ["corp.example.net"]\n',
        encoding="utf-8",
    )
    _age(project)
    counts.clear()
    _run(project, cache)
    assert "read_rule_pack" in counts.built and len(counts.linted) == FILES
    # Unchanged since: answered again.
    counts.clear()
    _run(project, cache)
    assert counts.built == [] and counts.linted == []


def test_a_change_to_the_rule_pack_or_the_flow_models_lints_again(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    pack = tmp_path / "rules"
    shutil.copytree(Path(str(rulepack.pack_root())), pack)
    monkeypatch.setattr(rulepack, "pack_root", lambda: pack)
    project, cache = _project(tmp_path), tmp_path / "cache"
    counts = _Counts(monkeypatch)
    first = _run(project, cache)
    for edited in (pack / "flow" / "models.toml", pack / "rules.toml"):
        counts.clear()
        assert _run(project, cache) == first
        assert counts.linted == []  # warm
        with edited.open("a", encoding="utf-8") as out:
            out.write("\n# edited\n")
        counts.clear()
        assert _run(project, cache) == first
        assert "read_rule_pack" in counts.built and len(counts.linted) == FILES, edited.name


def test_a_warm_run_reads_no_flow_facts_and_lints_a_module_again_when_they_are_gone(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    project, cache = _project(tmp_path), tmp_path / "cache"
    cold = _fresh(project)
    assert _run(project, cache) == cold
    facts = sorted(cache.glob("??/*.facts.json"))
    assert len(facts) >= 3  # each module's flow facts in a file of their own
    for path in facts:
        path.unlink()
    counts = _Counts(monkeypatch)
    # Unchanged modules: the joined flow findings answer, no module's facts are needed.
    assert _run(project, cache) == cold
    assert counts.linted == []
    # A changed builder: the helper's facts are needed to resolve the flow again, and are gone.
    builder = project / "pkg" / "builder.py"
    builder.write_text(BUILDER + "\nVERSION = 2\n", encoding="utf-8")
    _age(project)
    counts.clear()
    assert _run(project, cache) == _fresh(project)
    assert "helper.py" in counts.linted
    assert any(name == "builder.py" and code.startswith("OVA") for name, _, code in _fresh(project))


def test_dependency_versions_are_remembered_for_each_import_path(
    tmp_path: Path, xdg: dict, monkeypatch
) -> None:
    asked: list[int] = []
    real = cache_module._installed_versions
    monkeypatch.setattr(cache_module, "_installed_versions", lambda: (asked.append(1), real())[1])
    stamps = iter([[["/a", 1]], [["/b", 2]]] * 3)
    monkeypatch.setattr(cache_module, "_path_stamp", lambda: next(stamps))
    answers = [cache_module.dependency_versions() for _ in range(6)]
    # Runs from two folders (the import path starts with the working directory) alternate: each asks once.
    assert len(asked) == 2 and all(answer == answers[0] for answer in answers)


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_a_warm_command_line_run_imports_no_detector_check_or_rule_pack(
    tmp_path: Path, xdg: dict, fmt: str
) -> None:
    _project(tmp_path)
    # The run's folders exist before the first run: the import path's stamp (the working directory's time)
    # stays as the first run left it, so the second finds its dependencies' versions stored.
    (tmp_path / "cache").mkdir()
    Path(xdg["XDG_CACHE_HOME"]).mkdir()
    program = (
        "import sys\n"
        "from ovadapt_lint.cli import main\n"
        "try:\n"
        f"    main(['--format', {fmt!r}, '--jobs', '1', '--cache-dir', {str(tmp_path / 'cache')!r}, 'p'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write('\\n' + '\\n'.join(sorted(sys.modules)))\n"
    )
    env = dict(os.environ, **xdg)
    for name in ("GIT_DIR", "GIT_WORK_TREE"):  # git would be asked of the cache folder
        env.pop(name, None)

    def run() -> tuple[str, set[str]]:
        proc = subprocess.run(
            [sys.executable, "-c", program],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        return proc.stdout, set(proc.stderr.splitlines())

    first, _ = run()
    assert "OVA701" in first
    if fmt == "json":
        # view.json is public by content; plain.json, parsed to tell, is not.
        assert json.loads(first)["summary"]["roles"] == {"public": 2, "source": 4, "test": 0}
    second, loaded = run()
    assert second == first  # findings and each file's role, as the cold run reported them
    assert "ovadapt_lint.engine" in loaded  # the probe ran
    # Text output quotes code frames, masked with the credential formats; JSON output quotes none.
    heavy = {"ovadapt_lint.detect.credentials"} if fmt == "json" else set()
    heavy |= {
        "ovadapt_lint.pack",
        "ovadapt_lint.detect.scanner",
        "ovadapt_lint.checks.catalog",
        "ovadapt_lint.checks.python_projections",
        "ovadapt_lint.flow.resolve",
        "ovadapt_lint.flow.models",
        "jsonschema",
        "libcst",
        "detect_secrets",
        "tree_sitter",
        "rich",
        "importlib.metadata",
        # Issue 25: nor the JSON reader (a JSON file's kind is told by name), a subprocess (no repository
        # holds the cache folder: git is not asked) or the key maker (the key exists).
        "ovadapt_lint.frontends.json_tree",
        "subprocess",
        "secrets",
    }
    assert sorted(heavy & loaded) == []


def test_a_vocabulary_value_of_the_wrong_shape_is_a_configuration_error(
    tmp_path: Path, xdg: dict
) -> None:
    (tmp_path / ".ovadapt-lint.toml").write_text(
        'extend-vocabulary = { raw_words = ["chatlog"] }\n', encoding="utf-8"
    )
    (tmp_path / "a.json").write_text("{}\n", encoding="utf-8")
    for cached in ((), ("--no-cache",)):
        proc = run_cli(*cached, ".", cwd=tmp_path, env=xdg)
        assert proc.returncode == 2, proc.stderr
        assert "error: bad vocabulary" in proc.stderr and "internal error" not in proc.stderr
