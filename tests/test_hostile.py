"""Hostile and broken input: each gives a clear finding or notice with file and position,
never a traceback, and the rest of the run is unaffected."""

# ovadapt: ignore-file

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ovadapt_lint import Config, lint_paths

from .conftest import CORPUS, run_cli

BIG = 50 * 1024 * 1024

CASES = {
    # name: (bytes, expected codes in that file)
    "invalid_utf8.json": (b'{"a": "\xff\xfe"}', {"OVA002"}),
    "utf16_bom.json": ('{"a": 1}'.encode("utf-16"), {"OVA002"}),
    "utf16_no_bom.json": ('{"a": 1}'.encode("utf-16-le"), {"OVA002"}),
    "nul.json": (b'{"a": 1}\x00\x00\x00', {"OVA005"}),
    "binary.py": (bytes(range(256)) * 4, {"OVA005"}),
    "empty.json": (b"", {"OVA007"}),
    "empty.py": (b"", set()),
    "nan.json": (b'{"a": NaN, "b": Infinity}', {"OVA001"}),
    "huge_int.json": (b'{"count": ' + b"9" * 6000 + b"}", set()),
    "duplicate.json": (
        b'{"issue_body_copied": false, "issue_body_copied": true}',
        {"OVA112", "OVA207"},
    ),
    "lone_surrogate.json": (
        b'{"note": "\\ud800 and \\udfff", "token": "ab\\ud800cdefgh"}',
        {"OVA201"},
    ),
    # The home directory under `cwd` is one finding, OVA501's (issue 25: one leak, one finding).
    "broken.jsonl": (b'{"a": 1}\n\n{"b": \n{"cwd": "/Users/alice/x"}\n', {"OVA001", "OVA501"}),
    "crlf.json": (b'{"a": 1,\r\n "b": 2,\n "session_token": "abc123456"}\r\n', {"OVA201"}),
    "syntax.py": (b"def f(:\n    pass\n", {"OVA001"}),
    "python2.py": (b'print "hello"\n', {"OVA001"}),
    "tabs.py": (b"if True:\n\tx = 1\n        y = 2\n", {"OVA001"}),
    "deep_expr.py": (b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n", {"OVA001"}),
    "deep.json": (b"[" * 100_000 + b"]" * 100_000, {"OVA006"}),
    "one_long_line.json": (b'{"summary": "' + b"x" * 5_000_000 + b'"}', {"OVA301"}),
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    for name, (data, _) in CASES.items():
        (folder / name).write_bytes(data)
    big = folder / "big.json"
    with open(big, "wb") as handle:  # sparse: 50 MB without writing them
        handle.truncate(BIG)
    (folder / "loop_a.json").symlink_to(folder / "loop_b.json")
    (folder / "loop_b.json").symlink_to(folder / "loop_a.json")
    (folder / "sub").mkdir()
    (folder / "sub" / "back").symlink_to(folder)  # a folder loop
    (folder / "good.json").write_text(
        (CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return folder


@pytest.fixture(scope="module")
def findings(hostile: Path) -> dict[str, set[str]]:
    by_file: dict[str, set[str]] = {}
    # Reading hostile bytes is under test, not publication: --scope all judges the planted
    # raw fields, paths and summaries in these plain files too.
    for finding in lint_paths(
        [str(hostile)], Config(include=["*.json", "*.jsonl", "*.py"], scope="all")
    ):
        by_file.setdefault(Path(finding.path).name, set()).add(finding.code)
    return by_file


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_hostile_input(findings: dict[str, set[str]], name: str) -> None:
    assert findings.get(name, set()) == CASES[name][1]
    assert "OVA009" not in findings.get(name, set())


def test_oversized_file_is_a_notice(findings: dict[str, set[str]]) -> None:
    assert findings["big.json"] == {"OVA004"}


def test_the_rest_of_the_run_is_unaffected(findings: dict[str, set[str]]) -> None:
    assert findings["good.json"] == {"OVA104"}
    assert not {"loop_a.json", "loop_b.json"} & set(findings)  # symlink loops are skipped


def test_positions_are_given(hostile: Path) -> None:
    # Positions are under test, not publication: --scope all judges the raw field in the plain crlf.json.
    found = {
        Path(f.path).name: f
        for f in lint_paths(
            [str(hostile / "crlf.json"), str(hostile / "syntax.py")], Config(scope="all")
        )
    }
    assert (found["crlf.json"].line, found["crlf.json"].col) == (3, 2)
    assert found["syntax.py"].line == 1


@pytest.mark.slow  # a 50 MB sparse file and a 5 MB line through every format
def test_cli_over_the_hostile_folder_has_no_traceback(hostile: Path) -> None:
    proc = run_cli("--no-cache", "--no-color", str(hostile))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    for fmt in ("json", "sarif", "github", "concise"):
        proc = run_cli("--no-cache", "--format", fmt, str(hostile))
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        if fmt not in ("github", "concise"):
            json.loads(proc.stdout)
        if fmt == "concise":  # one line per finding, whatever the input holds
            assert all(
                re.match(r"^.+:\d+:\d+: OVA\d{3} ", line) for line in proc.stdout.splitlines()
            )


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli(str(tmp_path / "nope"))
    assert (
        proc.returncode == 2
        and "no such file or directory" in proc.stderr
        and "Traceback" not in proc.stderr
    )
