from __future__ import annotations

import io
import os
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = ROOT / "corpus"
LOOPX_FIXTURES = SHARED / "realworld" / "loopx" / "examples" / "fixtures"
ADAPTER_FIXTURE = LOOPX_FIXTURES / "openviking-session-memory-adapter.public.json"
SARIF_SCHEMA = SHARED / "schemas" / "sarif-schema-2.1.0.json"
# The project's own stand-ins for the real-world data, so a clone without ../shared tests the same behaviour.
OWN_ADAPTER_FIXTURE = ROOT / "tests" / "data" / "projections" / "session-memory-adapter.public.json"
OWN_SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif" / "sarif-2.1.0-subset.schema.json"


def require_shared() -> None:
    """Skip (with the reason) when the real-world data beside the repository is absent: a fresh clone has
    no ../shared. Each such test's behaviour is also checked on data the repository carries."""
    if not SHARED.is_dir():
        pytest.skip("real-world data ../shared is absent (CI lays it beside the clone)")


@pytest.fixture
def shared() -> Path:
    require_shared()
    return SHARED


@pytest.fixture(params=["own", "realworld"])
def adapter_fixture(request) -> Path:
    """A clean public fixture with the adapter nested in it: the project's own sample, and LoopX's
    real one when ../shared holds it."""
    if request.param == "realworld":
        require_shared()
        return ADAPTER_FIXTURE
    return OWN_ADAPTER_FIXTURE


def sarif_schema_errors(sarif: dict) -> list[str]:
    """What the project's SARIF subset schema, and the official OASIS schema when ../shared holds it,
    find wrong in ``sarif`` (the first few messages, with where)."""
    import json

    import jsonschema

    errors = []
    for path in (OWN_SARIF_SCHEMA, SARIF_SCHEMA):
        if not path.is_file():
            continue
        schema = json.loads(path.read_text(encoding="utf-8"))
        validator = jsonschema.validators.validator_for(schema)(schema)
        found = sorted(validator.iter_errors(sarif), key=lambda e: list(e.path))
        errors += [f"{path.name}: {list(e.path)}: {e.message}" for e in found[:3]]
    return errors


def validate_sarif(sarif: dict) -> dict:
    errors = sarif_schema_errors(sarif)
    assert not errors, errors
    return sarif


@pytest.fixture
def secret_scans(monkeypatch) -> list[str]:
    """The texts the string scanner passes to scan_secrets during the test, in call order."""
    from ovadapt_lint.detect import scanner

    calls: list[str] = []
    real = scanner.scan_secrets

    def counting(text, *args, **kwargs):
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(scanner, "scan_secrets", counting)
    return calls


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch) -> dict:
    """An isolated user cache folder (where the cache's HMAC key lives) for this test and its subprocesses."""
    folder = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return {"XDG_CACHE_HOME": str(folder)}


# OVADAPT_TEST_SUBPROCESS=1 makes every run_cli start a real process (to compare the two runners).
_ALWAYS_SUBPROCESS = os.environ.get("OVADAPT_TEST_SUBPROCESS", "") not in ("", "0")


def _cli_env(env: dict | None) -> dict:
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    return full_env


def run_cli(
    *args: str, cwd: Path | None = None, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run the command line as the console entry point would, but in this process: ``cli.main`` with
    this environment, working folder and captured streams (a new interpreter costs about 0.3 s a call).
    The end-to-end tests use run_cli_process."""
    if _ALWAYS_SUBPROCESS:
        return run_cli_process(*args, cwd=cwd, env=env)
    from ovadapt_lint import cli

    argv = [str(arg) for arg in args]
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_out, saved_err = sys.stdout, sys.stderr
    out, err = (
        io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in range(2)
    )
    try:
        os.environ.clear()
        os.environ.update(_cli_env(env))
        os.chdir(cwd or ROOT)
        sys.stdout, sys.stderr = out, err
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse's usage errors, --help, --version
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):
                err.write(exc.code + "\n")
        except Exception:  # what the interpreter would print before exiting 1
            traceback.print_exc(file=err)
            code = 1
    finally:
        sys.stdout, sys.stderr = saved_out, saved_err
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["ovadapt-lint", *argv], code, _text(out), _text(err))


def _text(stream: io.TextIOWrapper) -> str:
    """What ``subprocess.run(text=True)`` reads back: the bytes decoded, newlines made universal."""
    stream.flush()
    raw = stream.buffer.getvalue()  # type: ignore[attr-defined]
    return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", newline=None).read()


def run_cli_process(
    *args: str, cwd: Path | None = None, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run the real console entry point in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "ovadapt_lint", *args],
        cwd=cwd or ROOT,
        env=_cli_env(env),
        capture_output=True,
        text=True,
        timeout=120,
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


def plant_in_adapter(
    folder: Path, cases: list[tuple[str, object]], seed: int, fixture: Path = OWN_ADAPTER_FIXTURE
) -> list[tuple[Path, str]]:
    """One copy of a clean adapter fixture per (key, value) case, the pair added to an object
    chosen at random (seeded) anywhere in it: (file, key) for each case."""
    import copy
    import json
    import random

    base = json.loads(fixture.read_text(encoding="utf-8"))
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
