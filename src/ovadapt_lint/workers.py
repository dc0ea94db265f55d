"""Worker processes that never outlive the run that started them.

A worker whose parent is killed (SIGKILL included) would keep the parent's stdout open and
hang a pipeline; on Linux the kernel signals it (PR_SET_PDEATHSIG), elsewhere a thread
polls the parent's pid.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1
_POLL_SECONDS = 0.5


def _kernel_lifeline() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where that is unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # here: only a worker asks, and a short run starts none
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_POLL_SECONDS)
    os._exit(1)


def bind_to_parent(parent: int) -> None:
    """Make this worker exit when process ``parent`` dies. Called first thing in the worker."""
    # Ctrl-C reaches the whole process group: the parent handles it and ends the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    kernel = _kernel_lifeline()
    if os.getppid() != parent:  # the parent died before the lifeline was in place
        os._exit(1)
    if not kernel:
        threading.Thread(
            target=_watch, args=(parent,), name="ovadapt-parent-watch", daemon=True
        ).start()


def end_pool(pool) -> None:
    """Stop a ProcessPoolExecutor now: pending work cancelled, running workers killed; only the pool's manager
    thread is awaited (it winds down at once, waiting for no work)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() drops both
    calls = getattr(pool, "_call_queue", None)
    # Shut down before killing: the manager thread then drops the cancelled work before it sees a dead
    # worker. The other order lets it mark a cancelled future broken, and Python < 3.12 prints that thread's
    # InvalidStateError ("CANCELLED: <Future ...>") on stderr whenever it wins the race.
    pool.shutdown(wait=False, cancel_futures=True)
    if calls is not None:
        # Work too large for the pipe (history's blobs) leaves the queue's writer thread blocked on a pipe no
        # killed worker reads; the interpreter would join it at exit and never end.
        calls.cancel_join_thread()
    for process in processes:
        try:
            process.kill()
        except (OSError, AttributeError, ValueError):
            pass
    if manager is not None:
        # While `pool` is alive: a collected executor makes the manager skip dropping the cancelled work.
        manager.join()
