"""Worker processes end with the run: killed parent, SIGTERM, Ctrl-C (issue 15)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc to find the workers")


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start_with_workers(tmp_path: Path) -> tuple[subprocess.Popen, set[int]]:
    # Enough slow files that the run is still busy when it is signalled.
    for index in range(24):
        rows = [{"p": f"/home/user{index}-{n}/.ssh/id_rsa"} for n in range(20_000)]
        (tmp_path / f"f{index}.public.json").write_text(json.dumps(rows, separators=(",", ":")))
    run = subprocess.Popen([sys.executable, "-m", "ovadapt_lint", "--no-cache", "-j", "2", str(tmp_path)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(_children(run.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)  # workers past their start-up
    workers = _children(run.pid)
    assert len(workers) >= 2, "the run started no worker processes"
    return run, workers


def _wait_gone(workers: set[int], seconds: float = 15) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    return {w for w in workers if _alive(w)}


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_workers_exit_when_the_parent_is_killed_or_terminated(tmp_path: Path, signum: int) -> None:
    run, workers = _start_with_workers(tmp_path)
    try:
        os.kill(run.pid, signum)
        run.communicate(timeout=30)
        assert run.returncode == (-signum if signum == signal.SIGKILL else 128 + signum)
        assert _wait_gone(workers) == set()
    finally:
        for worker in workers:
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)


def test_ctrl_c_exits_130_with_one_line_and_ends_the_workers(tmp_path: Path) -> None:
    run, workers = _start_with_workers(tmp_path)
    try:
        os.kill(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=30)
        assert run.returncode == 130
        assert err == "ovadapt-lint: interrupted\n"
        assert _wait_gone(workers) == set()
    finally:
        for worker in workers:
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)


def test_main_called_in_process_leaves_sigterm_as_it_found_it(tmp_path: Path) -> None:
    """main() turns SIGTERM into an unwinding exit for its own run only; a program (or a test runner)
    that calls it keeps the default behaviour afterwards."""
    from ovadapt_lint.cli import main

    (tmp_path / "a.json").write_text('{"ok": 1}\n')
    before = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        assert main(["--no-cache", "--exit-zero", "--format", "json", "--output", str(tmp_path / "r.json"),
                     str(tmp_path / "a.json")]) == 0
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, before)
