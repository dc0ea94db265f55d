"""Run a caller-declared check command; only its exit code is kept."""

from __future__ import annotations

import shlex
import subprocess


def run_check(command: str, timeout: int) -> int:
    argv = shlex.split(command)
    if not argv:
        raise ValueError("check command must not be empty")
    return subprocess.run(argv, capture_output=True, timeout=timeout).returncode
