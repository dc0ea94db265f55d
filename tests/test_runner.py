"""One unit runner (issue 29): a file and a blob of the same bytes are linted by the same call."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ovadapt_lint.analysis import Analysis
from ovadapt_lint.config import Config
from ovadapt_lint.discover import Target
from ovadapt_lint.engine import Unit, lint_target, lint_unit, map_units

TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"  # built so no scanner flags this file
CASES = {
    "notes.public.json": json.dumps({"title": "t", "notes_ref": "/home/ann/notes.md", "k": TOKEN}),
    "builder.py": f'TOKEN = "{TOKEN}"\n\ndef build(run):\n    return {{"schema_version": "session_runtime_loopx_projection_v0", "summary": run.stderr}}\n',
    "raw.md": "# Working Memory\n\n## Session Title\n\nx\n\n## Current State\n\n[user]: hi\n",
}


def _shown(findings) -> list[tuple]:
    return [(f.code, f.path, f.span, f.message, f.json_path) for f in findings]


@pytest.mark.parametrize("name", sorted(CASES))
def test_bytes_in_memory_are_linted_as_the_file_of_that_name(tmp_path: Path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(CASES[name], encoding="utf-8")
    kind = {"json": "json", "py": "python", "md": "markdown"}[name.rsplit(".", 1)[1]]
    config = Config()
    analysis = Analysis.build(config)
    from_file, _ = lint_target(Target(Path(name), name, kind, name), config, analysis)
    role = "public" if name.endswith(".public.json") else "source"
    data = (tmp_path / name).read_bytes()
    from_bytes, source = lint_unit(Unit(Path(name), name, kind, role, data), config, analysis)
    assert from_file and source is not None and source.data == data
    assert _shown(from_bytes) == _shown(from_file)


def _double(item: int, config: Config, analysis: Analysis, cache) -> tuple[int, int]:
    return item, item * 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_units_come_back_in_order_from_the_workers(jobs):
    config = Config()
    items = iter(range(40))  # a stream, as history's blobs are
    assert list(map_units(_double, items, 40, config, Analysis.build(config), jobs=jobs)) == [
        (n, n * 2) for n in range(40)
    ]


def test_a_unit_fix_cannot_edit_shows_no_edit(tmp_path: Path):
    """A history blob is never edited: its findings must not offer an edit that reports would show."""
    data = json.dumps({"ci": {"env": TOKEN}}).encode("utf-8")
    config = Config()
    analysis = Analysis.build(config)
    unit = Unit(Path("ci.json"), "ci.json", "json", "public", data)
    edited, _ = lint_unit(unit, config, analysis)
    kept, _ = lint_unit(dataclasses.replace(unit, editable=False), config, analysis)
    assert [f.code for f in edited] == [f.code for f in kept] == ["OVA401"]
    assert edited[0].fix_digest is not None and "edit" in edited[0].extra
    assert kept[0].fix_digest is None and "edit" not in kept[0].extra
