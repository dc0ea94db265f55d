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


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch) -> dict:
    """An isolated user cache folder (where the cache's HMAC key lives) for this test and its subprocesses."""
    folder = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return {"XDG_CACHE_HOME": str(folder)}


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


def _object_paths(doc: object, path: tuple = ()) -> list[tuple]:
    """Paths of every object in a document (inside and outside the adapter)."""
    out = []
    if isinstance(doc, dict):
        out.append(path)
        for key, value in doc.items():
            out += _object_paths(value, path + (key,))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            out += _object_paths(value, path + (index,))
    return out


def plant_in_adapter(folder: Path, cases: list[tuple[str, object]], seed: int) -> list[tuple[Path, str]]:
    """One copy of the real adapter fixture per (key, value) case, the pair added to an object
    chosen at random (seeded) anywhere in it: (file, key) for each case."""
    import copy
    import json
    import random

    require_shared()
    base = json.loads(ADAPTER_FIXTURE.read_text(encoding="utf-8"))
    holders = _object_paths(base)
    rng = random.Random(seed)
    files = []
    for index, (key, value) in enumerate(cases):
        doc = copy.deepcopy(base)
        holder = doc
        for part in rng.choice(holders):
            holder = holder[part]
        holder[key] = copy.deepcopy(value)
        target = folder / f"case_{seed}_{index:03d}.json"
        target.write_text(json.dumps(doc, indent=2), encoding="utf-8")
        files.append((target, key))
    return files


def config_with_deny_list(folder: Path, entries: str):
    """A default Config whose deny-list file holds ``entries``."""
    from ovadapt_lint import Config

    deny = folder / "deny.txt"
    deny.write_text(entries, encoding="utf-8")
    return Config(deny_list=[deny])
