"""Issue 27, hardening round three: baselines, --fix and the cache stay inside their bounds, user patterns
cannot hang the run, blocking files are never read, and the history scan stays bounded. (File names and
quoted values in outputs: test_output_safety.py.)"""

# ovadapt: ignore-file

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import run_cli

DEEP = "[" * 450 + '"x"' + "]" * 450 + "\n"  # past the nesting limit: only OVA006 ("not analysed")


def _baseline(entries: list, salt: object = "00" * 16, **extra) -> str:
    doc = {"schema": "ovadapt-lint/baseline/v1", "entries": entries, **extra}
    if salt is not None:
        doc["salt"] = salt
    return json.dumps(doc)


# ------------------------------------------------------------------------------------------ 1: notices


def test_a_hand_written_baseline_cannot_hide_a_notice(tmp_path: Path) -> None:
    (tmp_path / "deep.public.json").write_text(DEEP, encoding="utf-8")
    # Computable without knowing anything in the file: the location of a notice is its first line.
    import hashlib

    salt = "ab" * 16
    digest = hashlib.sha256("\x1f".join([salt, "OVA006", "deep.public.json", "L1", ""]).encode()).hexdigest()
    entries = [{"code": "OVA006", "path": "deep.public.json", "location": "L1", "hash": h} for h in (digest, digest[:4])]
    (tmp_path / "base.json").write_text(_baseline(entries, salt), encoding="utf-8")
    proc = run_cli("--no-cache", "--format", "json", "--baseline", "base.json", "deep.public.json", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    assert [f["code"] for f in doc["findings"] if f["code"] == "OVA006"] == ["OVA006"]
    assert doc["summary"]["suppressed"] == 0


# ---------------------------------------------------------------------------------- 11: bad baselines


@pytest.mark.parametrize("text, why", [
    (_baseline([{"code": "OVA501", "path": [], "hash": "ab" * 32}]), "must be strings"),
    (_baseline([{"code": "OVA501", "path": "a.json", "hash": "ab" * 32}], salt=None), "salt"),
    (_baseline([{"code": "OVA501", "path": "a.json", "hash": "ab" * 32}], salt=["x"]), "salt"),
    (_baseline([{"code": "OVA501", "path": "a.json", "hash": {"x": 1}}]), "must be strings"),
    (_baseline([{"code": "OVA501", "path": "a.json", "location": 7, "hash": "ab" * 32}]), "must be strings"),
    (_baseline([{"code": "OVA501", "path": "a.json", "hash": "not hex"}]), "hexadecimal"),
    ('{"schema": ' * 5000 + "1" + "}" * 5000, "nested too deeply"),
], ids=["path-list", "no-salt", "salt-list", "hash-object", "location-int", "hash-not-hex", "deep"])
def test_a_malformed_baseline_is_one_clear_line(tmp_path: Path, text: str, why: str) -> None:
    (tmp_path / "a.public.json").write_text('{"cwd_ref": "/home/alice/x"}\n', encoding="utf-8")
    (tmp_path / "base.json").write_text(text, encoding="utf-8")
    proc = run_cli("--no-cache", "--baseline", "base.json", "a.public.json", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("ovadapt-lint: error: cannot use baseline base.json:"), proc.stderr
    assert why in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
