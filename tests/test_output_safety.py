"""Output safety: generated secrets of every kind, planted at random places in fixtures and
Python files, never appear in any output (text, json, sarif, github, baseline, cache); no output
carries the working directory or home; a run opens no socket and writes only its outputs.

CI runs a bounded number of examples; OVADAPT_FUZZ_EXAMPLES=500 python3 -m pytest
tests/test_output_safety.py runs a longer fuzz."""

# ovadapt: ignore-file

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import socket
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ovadapt_lint import Config
from ovadapt_lint.baseline import Baseline
from ovadapt_lint.engine import run
from ovadapt_lint.registry import provider_secrets
from ovadapt_lint.report.github import write_github
from ovadapt_lint.report.json_report import write_json
from ovadapt_lint.report.sarif import write_sarif
from ovadapt_lint.report.text import write_concise, write_statistics_json, write_text

from .conftest import CORPUS, run_cli
from .providers_util import expand

PROVIDERS = provider_secrets()

EXAMPLES = int(os.environ.get("OVADAPT_FUZZ_EXAMPLES", "30"))
ALNUM = string.ascii_letters + string.digits


def _random(draw, size: int, alphabet: str = ALNUM) -> str:
    # A digit and a letter at least, so no draw degenerates into a placeholder-looking run.
    body = draw(st.text(alphabet=alphabet, min_size=size - 2, max_size=size - 2))
    return draw(st.sampled_from("ABCDEFGHJKLMNPQRSTUVWXYZ")) + body + draw(st.sampled_from("23456789"))


@st.composite
def secrets(draw):
    """(full text to plant, the random material that must never be shown)."""
    kind = draw(st.sampled_from([
        "openai", "anthropic", "github", "gitlab", "slack", "google", "npm", "aws", "jwt", "oauth",
        "url", "password", "bearer", "cookie", "signed", "provider",
    ]))
    if kind == "provider":  # any format of rules/secrets/providers.toml, a random body of its shape
        entry = draw(st.sampled_from(PROVIDERS))
        token = expand(entry["example"], random.Random(draw(st.integers(0, 2**32))))
        match = re.search(entry["regex"], token)
        return token, match.group("secret") if "secret" in match.re.groupindex else match.group()
    if kind == "aws":
        material = _random(draw, 16, string.ascii_uppercase + string.digits)
        return f"AKIA{material}", material
    if kind == "jwt":
        material = _random(draw, 43, ALNUM + "-_")
        return f"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.{material}", material
    if kind == "signed":
        material = _random(draw, 40, "0123456789abcdef")
        return f"https://bucket.s3.amazonaws.com/x.json?X-Amz-Signature={material}", material
    size = {"openai": 40, "anthropic": 40, "github": 36, "gitlab": 20, "slack": 24, "google": 35, "npm": 36,
            "oauth": 54, "url": 12, "password": 12, "bearer": 24, "cookie": 16}[kind]
    material = _random(draw, size)
    template = {
        "openai": "sk-proj-{}", "anthropic": "sk-ant-api03-{}", "github": "ghp_{}", "gitlab": "glpat-{}",
        "slack": "xoxb-204812345678-{}", "google": "AIza{}", "npm": "npm_{}", "oauth": "ovat_{}",
        "url": "postgres://svc:{}@db.example.net/app", "password": "password={}", "bearer": "Authorization: Bearer {}",
        "cookie": "cookie=sid_{}; secure; httponly",
    }[kind]
    return template.format(material), material


def _outputs(folder: Path, files: list[str]) -> str:
    """Everything a run can write: five report formats and the JSON statistics, a baseline, the cache."""
    config = Config(jobs=1, use_cache=True, cache_dir=folder / "cache")
    result = run(files, config)
    parts = []
    for writer in (lambda o: write_text(result, o, False, show_suppressed=True), lambda o: write_json(result, o, True),
                   lambda o: write_sarif(result, o, show_suppressed=True), lambda o: write_github(result, o),
                   lambda o: write_concise(result, o, show_suppressed=True), lambda o: write_statistics_json(result, o)):
        buffer = io.StringIO()
        writer(buffer)
        parts.append(buffer.getvalue())
    baseline = folder / "baseline.json"
    Baseline.from_findings([(f, result.uri(f.path)) for f in result.findings]).write(baseline)
    parts.append(baseline.read_text(encoding="utf-8"))
    parts += [p.read_text(encoding="utf-8") for p in (folder / "cache").rglob("*.json")]
    return "\n".join(parts)


def _leaks(material: str, output: str, control: str) -> list[str]:
    """5-character pieces of the secret in the output (nothing longer than the documented 4-character
    visible prefix may show) that are not in a control run without it (words like "uriBaseId")."""
    pieces = {material[i:i + 5] for i in range(len(material) - 4)}
    return sorted(p for p in pieces if p in output and p not in control)


@pytest.mark.slow  # hypothesis: every format for each generated secret
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(secret=secrets(), before=st.text(alphabet=string.ascii_letters + " ", max_size=30),
       after=st.text(alphabet=string.ascii_letters + " ", max_size=30), key=st.sampled_from(["note", "api_key", "ref"]))
def test_planted_secrets_never_reach_any_output(tmp_path_factory, secret, before, after, key) -> None:
    text, material = secret
    outputs = []
    # The control run plants a different secret of the same shape (rot13 letters, digits + 5).
    shifted = material.translate(str.maketrans(string.ascii_letters + string.digits,
                                               string.ascii_lowercase[13:] + string.ascii_lowercase[:13]
                                               + string.ascii_uppercase[13:] + string.ascii_uppercase[:13]
                                               + string.digits[5:] + string.digits[:5]))
    for planted in (text, text.replace(material, shifted)):
        folder = tmp_path_factory.mktemp("plant")
        fixture = folder / "f.json"
        fixture.write_text(json.dumps({"evidence": {key: f"{before} {planted} {after}", "summary": "one line"}},
                                      indent=2), encoding="utf-8")
        module = folder / "m.py"
        module.write_text(f'TOKEN = "{planted}"\n# {before} {planted} {after}\n'
                          f'def build_packet(x):\n    return {{"schema_version": "v0", "{key}": "{planted}"}}\n',
                          encoding="utf-8")
        outputs.append(_outputs(folder, [str(fixture), str(module)]))
    assert _leaks(material, outputs[0], outputs[1]) == [], text


def test_no_output_carries_the_working_directory_or_home(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "fixtures").mkdir(parents=True)
    (project / "fixtures" / "a.json").write_text((CORPUS / "OVA104" / "bad_flag_true.json").read_text(), encoding="utf-8")
    (project / "fixtures" / "b.py").write_text('X = "/tmp/build/out.json"\n', encoding="utf-8")
    home = os.path.expanduser("~")
    for fmt in ("text", "concise", "json", "sarif", "github"):
        for target in ("fixtures", str(project / "fixtures")):
            proc = run_cli("--format", fmt, "--no-cache", target, cwd=project)
            if fmt in ("text", "concise") and os.path.isabs(target):
                continue  # text prints paths as given
            assert str(project) not in proc.stdout, (fmt, target)
            # (The rule docs name `/root/…` as an example; a real path under home continues with a name.)
            assert not re.search(re.escape(home) + r"/[A-Za-z0-9_.]", proc.stdout), (fmt, target)


@pytest.mark.slow  # lints the reports of the whole corpus in every format
def test_dogfood_on_own_reports_is_clean(tmp_path: Path) -> None:
    for fmt in ("json", "sarif"):
        report = tmp_path / f"report.{fmt}.json"
        run_cli("--format", fmt, "--no-cache", "--output", str(report), str(CORPUS))
        proc = run_cli("--format", "json", "--no-cache", str(report))
        assert json.loads(proc.stdout)["findings"] == [], fmt


def test_a_run_opens_no_socket_and_writes_only_its_outputs(tmp_path: Path, monkeypatch) -> None:
    project = tmp_path / "project"
    project.mkdir()
    for folder in ("OVA208", "OVA401", "OVA314", "OVA602"):
        # Whole folders: a corpus case may sit in a subfolder (corpus/OVA602/tests/ is test-role code).
        shutil.copytree(CORPUS / folder, project / folder)
    before = {p: p.stat().st_mtime_ns for p in project.rglob("*")}

    def refuse(*args, **kwargs):
        raise AssertionError("the linter tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    cache = tmp_path / "cache"
    result = run([str(project)], Config(jobs=1, use_cache=True, cache_dir=cache))
    assert result.findings
    after = {p: p.stat().st_mtime_ns for p in project.rglob("*")}
    assert after == before  # nothing written or touched inside the linted tree
    assert cache.is_dir()


def test_scanned_code_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    module = tmp_path / "evil.py"
    module.write_text(f"open({str(marker)!r}, 'w').write('ran')\n"
                      # A projection builder: the attestation key makes the dict a projection.
                      "def build_packet(x):\n"
                      "    return {'schema_version': 'v0', 'raw_output_copied': False, 'stdout': x.stdout}\n",
                      encoding="utf-8")
    proc = run_cli("--no-cache", str(module))
    assert proc.returncode == 1 and "OVA205" in proc.stdout
    assert not marker.exists()
