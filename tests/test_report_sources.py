"""Reporters print from the result alone (issue 19 item 3): the code frame quotes the bytes that were
linted, even when the file changes between the run and the report, and the result keeps the text of the
files with findings to show, no other."""

# ovadapt: ignore-file

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from ovadapt_lint import Config, engine
from ovadapt_lint.config import RunOptions, find_config
from ovadapt_lint.report.text import write_text

TOKEN = "ghp_Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3V"
LINTED = f'T = "{TOKEN}"  # the linted line\n'
EDITED = f'T = "{TOKEN}"  # edited after the run\n'


def _project(tmp_path: Path) -> Path:
    # More files than engine.PARALLEL_MIN_FILES, so a run with jobs=2 lints them in worker processes.
    project = tmp_path / "p"
    project.mkdir()
    for index in range(engine.PARALLEL_MIN_FILES + 2):
        (project / f"clean{index:02d}.py").write_text(f"X = {index}\n", encoding="utf-8")
    (project / "leak.py").write_text(LINTED, encoding="utf-8")
    old = 1_600_000_000  # well before the run, so the stat index trusts it on a warm run
    for path in project.iterdir():
        os.utime(path, (old, old))
    return project


def _frame_after_edit(project: Path, config: Config, options: RunOptions) -> str:
    result = engine.run([str(project)], config, options=options)
    (project / "leak.py").write_text(EDITED, encoding="utf-8")  # between the run and the report
    buffer = io.StringIO()
    write_text(result, buffer, False)
    return buffer.getvalue()


@pytest.mark.parametrize("jobs", [1, 2], ids=["in-process", "workers"])
def test_frame_shows_the_linted_line_when_the_file_changes_before_the_report(
    tmp_path: Path, jobs: int
) -> None:
    output = _frame_after_edit(_project(tmp_path), Config(), RunOptions(jobs=jobs))
    assert "# the linted line" in output
    assert "edited after the run" not in output


def test_warm_run_answered_by_the_cache_shows_the_line_as_read_by_the_run(
    tmp_path: Path, xdg: dict
) -> None:
    project = _project(tmp_path)
    options = RunOptions(jobs=1, use_cache=True, cache_dir=tmp_path / "cache")
    engine.run(
        [str(project)], Config(), options=options
    )  # fills the cache: the next run reads no file
    output = _frame_after_edit(project, Config(), options)
    assert "# the linted line" in output
    assert "edited after the run" not in output


def test_result_keeps_the_text_of_files_with_findings_to_show_only(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "hidden.py").write_text(LINTED, encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nper-file-ignores = {"hidden.py" = ["OVA4"]}\n', encoding="utf-8"
    )
    config = find_config(project)
    assert config is not None
    result = engine.run([str(project)], config, options=RunOptions(jobs=1))
    assert {Path(f.path).name for f in result.findings} == {"leak.py"}
    assert any(Path(s.finding.path).name == "hidden.py" for s in result.suppressed)
    assert [Path(p).name for p in result.sources] == ["leak.py"]
