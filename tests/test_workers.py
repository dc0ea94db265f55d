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

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads /proc to find the workers"
)


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
    run = subprocess.Popen(
        [sys.executable, "-m", "ovadapt_lint", "--no-cache", "-j", "2", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As from a terminal: a suite started as a background job of a non-interactive shell ignores SIGINT,
        # and an ignored disposition is inherited (Python then installs no KeyboardInterrupt handler).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
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


@pytest.mark.slow  # starts a run and kills it: seconds of waiting
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


@pytest.mark.slow
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


@pytest.mark.skipif(
    "fork" not in __import__("multiprocessing").get_all_start_methods(), reason="forks its workers"
)
def test_ending_a_pool_with_cancelled_work_prints_nothing(monkeypatch) -> None:
    """Ctrl-C cancels the pending work (the pool's map does) before end_pool kills the workers. If the pool's
    manager thread saw a dead worker before the shutdown, it would mark a cancelled future broken and print
    ``InvalidStateError: CANCELLED`` from its thread (Python < 3.12): each kill here waits for that thread."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from ovadapt_lint.workers import end_pool

    errors: list = []
    monkeypatch.setattr(threading, "excepthook", errors.append)
    # Workers stuck in their initializer never take work: the pool's queue of calls fills and stays full,
    # so the work behind it stays pending in the pool, as it does in a long run, until it is cancelled.
    pool = ProcessPoolExecutor(
        max_workers=2,
        mp_context=multiprocessing.get_context("fork"),
        initializer=time.sleep,
        initargs=(60,),
    )
    futures = [pool.submit(time.sleep, 60) for _ in range(10)]
    deadline = time.monotonic() + 60
    while (
        sum(f.running() for f in futures) < 3 and time.monotonic() < deadline
    ):  # 2 workers + 1 extra call
        time.sleep(0.01)
    manager = pool._executor_manager_thread
    processes = list(pool._processes.values())
    for process in processes:

        def kill_and_let_the_pool_see_it(process=process, kill=process.kill) -> None:
            kill()
            manager.join(timeout=60)

        monkeypatch.setattr(process, "kill", kill_and_let_the_pool_see_it)
    assert sum(f.cancel() for f in futures) == 7
    end_pool(pool)
    manager.join(timeout=60)
    assert not manager.is_alive()
    assert [e.exc_value for e in errors] == []
    assert _wait_gone({p.pid for p in processes}) == set()


_STUCK_HISTORY_SCAN = """
import os, signal, sys, threading, time
from pathlib import Path
from ovadapt_lint.analysis import Analysis
from ovadapt_lint.config import Config, RunOptions
from ovadapt_lint.engine import PARALLEL_MIN_FILES, Unit, map_units

def stuck(item, config, analysis, cache):  # a blob whose linting never ends
    time.sleep(3600)

signal.signal(signal.SIGINT, signal.default_int_handler)
units = [
    (f"{n:040x}", Unit(Path(f"f{n}.json"), f"f{n}.json", "json", "source", b"{}", what="blob"))
    for n in range(PARALLEL_MIN_FILES)
]
config = Config()
scan = map_units(stuck, iter(units), len(units), config, Analysis.build(config), jobs=2)
threading.Timer(2, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    next(scan)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.skipif(
    "fork" not in __import__("multiprocessing").get_all_start_methods(), reason="forks its workers"
)
@pytest.mark.slow
def test_ctrl_c_ends_a_history_scans_workers_without_waiting_for_their_work() -> None:
    # Workers ignore Ctrl-C: a pool that is merely shut down waits for every blob handed to it (here, forever).
    run = subprocess.Popen(
        [sys.executable, "-c", _STUCK_HISTORY_SCAN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = run.communicate(timeout=120)  # a guard against the hang, not a measurement
    finally:
        workers = _children(run.pid)
        run.kill()
        for worker in workers:
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)
    assert (run.returncode, out, err) == (0, "interrupted\n", "")


def test_main_called_in_process_leaves_sigterm_as_it_found_it(tmp_path: Path) -> None:
    """main() turns SIGTERM into an unwinding exit for its own run only; a program (or a test runner)
    that calls it keeps the default behaviour afterwards."""
    from ovadapt_lint.cli import main

    (tmp_path / "a.json").write_text('{"ok": 1}\n')
    before = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        assert (
            main(
                [
                    "--no-cache",
                    "--exit-zero",
                    "--format",
                    "json",
                    "--output",
                    str(tmp_path / "r.json"),
                    str(tmp_path / "a.json"),
                ]
            )
            == 0
        )
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, before)
