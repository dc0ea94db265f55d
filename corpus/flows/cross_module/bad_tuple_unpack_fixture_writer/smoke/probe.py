"""Run the adapter's smoke probe."""

from __future__ import annotations

import subprocess


def run_probe(argv: list[str]) -> tuple[int, str, str]:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    return proc.returncode, proc.stdout, proc.stderr
