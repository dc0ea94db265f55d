"""The program ends without tearing the interpreter down (cli.run): its report still arrives whole, on a
pipe and in an --output file, and its exit code is main()'s."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ovadapt_lint import cli

ROOT = Path(__file__).resolve().parents[1]
FLOWS = ROOT / "corpus" / "flows"
ARGS = ["--no-cache", "--format", "json", "--scope", "all", str(FLOWS)]

# The program as the console script runs it, with an exit handler that normal teardown would run.
PROGRAM = """\
import atexit, sys
atexit.register(lambda: sys.stderr.write("torn down\\n"))
from ovadapt_lint.cli import run
sys.argv = ["ovadapt-lint", *sys.argv[1:]]
run()
"""


def _in_process(tmp_path: Path) -> tuple[int, list]:
    out = tmp_path / "in-process.json"
    code = cli.main([*ARGS, "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))["findings"]


def test_report_on_a_pipe_is_whole_and_teardown_is_skipped(tmp_path: Path) -> None:
    code, findings = _in_process(tmp_path)
    assert code == cli.EXIT_FINDINGS and len(findings) > 20  # a report of many findings, buffered
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, *ARGS], capture_output=True, text=True, check=False
    )
    assert proc.returncode == code
    assert json.loads(proc.stdout)["findings"] == findings
    assert "torn down" not in proc.stderr  # exit handlers (teardown) did not run


def test_report_in_an_output_file_is_whole(tmp_path: Path) -> None:
    code, findings = _in_process(tmp_path)
    out = tmp_path / "program.json"
    proc = subprocess.run(
        [sys.executable, "-m", "ovadapt_lint", *ARGS, "--output", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == code and proc.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["findings"] == findings


def test_usage_errors_still_exit_through_argparse() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ovadapt_lint", "--no-such-option"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == cli.EXIT_ERROR
    assert "unrecognized arguments" in proc.stderr and "Traceback" not in proc.stderr
