"""A configuration holds settings; its analysis (rule pack, scanner, vocabularies) is one value built once per
configuration and passed down, to the workers too (issue 19)."""

from __future__ import annotations

import copy
import dataclasses
import multiprocessing
import pickle
from pathlib import Path

import pytest

from ovadapt_lint import Config, engine, lint_paths
from ovadapt_lint.analysis import Analysis
from ovadapt_lint.config import RunOptions
from ovadapt_lint.hierarchy import Configs

from .test_config import EXTRA_RULES

NAME_NOTE = '{"note": "ask the bluefin team"}\n'


def _project(folder: Path) -> Config:
    (folder / "tickets.toml").write_text(EXTRA_RULES, encoding="utf-8")
    (folder / "deny.txt").write_text("bluefin\n", encoding="utf-8")
    (folder / "a.json").write_text(NAME_NOTE, encoding="utf-8")
    return Config(
        deny_list=[folder / "deny.txt"],
        extend_rules=[folder / "tickets.toml"],
        extend_vocabulary={"exact_raw": {"chatlog": "transcript"}},
    )


def test_a_config_holds_its_settings_and_nothing_built_from_them(tmp_path: Path) -> None:
    config = _project(tmp_path)
    before = copy.deepcopy(config)
    assert [f.code for f in lint_paths([str(tmp_path / "a.json")], config)] == ["OVA701"]
    fields = {f.name for f in dataclasses.fields(Config)}
    assert set(vars(config)) == fields and config == before  # the run left nothing on it
    for built in (
        "rule_pack",
        "string_scanner",
        "key_vocabulary",
        "python_vocabulary",
        "_pack",
        "_scanner",
        "_vocabulary",
    ):
        assert not hasattr(config, built), built


def test_each_configuration_is_analysed_once_for_every_pass_of_a_run(
    tmp_path: Path, monkeypatch
) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (tmp_path / ".ovadapt-lint.toml").write_text('deny-list = ["deny.txt"]\n', encoding="utf-8")
    (tmp_path / "deny.txt").write_text("bluefin\n", encoding="utf-8")
    (sub / ".ovadapt-lint.toml").write_text('scope = "all"\n', encoding="utf-8")
    (tmp_path / "a.json").write_text(NAME_NOTE, encoding="utf-8")
    (sub / "b.json").write_text('{"x": 1, "x": 2}\n', encoding="utf-8")
    built: list[str] = []
    real = Analysis.build.__func__
    monkeypatch.setattr(
        Analysis,
        "build",
        classmethod(lambda cls, config: (built.append(config.scope), real(cls, config))[1]),
    )
    from ovadapt_lint.config import find_config

    root = find_config(tmp_path)
    configs = Configs(root)
    for _ in range(2):  # the --fix loop runs again with the same configurations
        result = engine.run([str(tmp_path)], root, configs=configs)
        assert [(Path(f.path).name, f.code) for f in result.findings] == [
            ("a.json", "OVA701"),
            ("b.json", "OVA112"),
        ]
    assert sorted(built) == ["all", "published"]
    # Each file was checked with its own configuration's analysis.
    assert configs.analysis(configs.for_file(sub / "b.json")).scope == "all"
    assert configs.analysis(root).deny_list


def test_a_shipped_analysis_builds_its_own_scanner_and_finds_the_same(tmp_path: Path) -> None:
    analysis = Analysis.build(_project(tmp_path))
    text = "the bluefin export TKT|42|open for review"
    before = analysis.scanner.scan(text)
    assert {hit.code for hit in before} == {"OVA390", "OVA701"}
    shipped = pickle.loads(pickle.dumps(analysis))
    assert "scanner" not in shipped.__dict__  # built where it is used, with its own string cache
    assert shipped.scanner.scan(text) == before
    assert shipped.keys == analysis.keys and "chatlog" in shipped.keys.exact_raw


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="patches the forked workers"
)
def test_workers_receive_the_analysis_and_never_read_the_configured_files(
    tmp_path: Path, monkeypatch
) -> None:
    config = _project(tmp_path)
    for index in range(engine.PARALLEL_MIN_FILES):
        (tmp_path / f"f{index:02d}.json").write_text(NAME_NOTE, encoding="utf-8")
    alone = lint_paths([str(tmp_path)], config, RunOptions(jobs=1))
    assert {f.code for f in alone} == {"OVA701"} and len(alone) == engine.PARALLEL_MIN_FILES + 1
    real = engine._init_worker
    received = tmp_path / "received"

    def start_worker(*args):
        # The configuration's files are gone once the workers start: what they need came with the analysis.
        (tmp_path / "deny.txt").unlink(missing_ok=True)
        (tmp_path / "tickets.toml").unlink(missing_ok=True)
        received.write_text(" ".join(type(arg).__name__ for arg in args), encoding="utf-8")
        real(*args)

    monkeypatch.setattr(engine, "_init_worker", start_worker)
    parallel = lint_paths([str(tmp_path)], config, RunOptions(jobs=2))
    assert "Analysis" in received.read_text(encoding="utf-8").split()
    assert [(f.path, f.code, f.message) for f in parallel] == [
        (f.path, f.code, f.message) for f in alone
    ]
