from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = ROOT / "corpus"
LOOPX_FIXTURES = SHARED / "realworld" / "loopx" / "examples" / "fixtures"
ADAPTER_FIXTURE = LOOPX_FIXTURES / "openviking-session-memory-adapter.public.json"
SARIF_SCHEMA = SHARED / "schemas" / "sarif-schema-2.1.0.json"


def require_shared() -> None:
    if not SHARED.is_dir():
        pytest.fail(f"test data folder {SHARED} is missing (it sits beside the repository in CI)")


@pytest.fixture
def shared() -> Path:
    require_shared()
    return SHARED


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the real console entry point in a subprocess."""
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "ovadapt_lint", *args],
        cwd=cwd or ROOT, env=full_env, capture_output=True, text=True, timeout=120,
    )
