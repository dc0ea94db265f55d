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
from ovadapt_lint.config import RunOptions
from ovadapt_lint.engine import run
from ovadapt_lint.registry import provider_secrets
from ovadapt_lint.report.github import write_github
from ovadapt_lint.report.json_report import write_json
from ovadapt_lint.report.sarif import write_sarif
from ovadapt_lint.report.text import write_concise, write_statistics_json, write_text

from .conftest import CORPUS, SARIF_SCHEMA, run_cli
from .providers_util import expand

PROVIDERS = provider_secrets()

EXAMPLES = int(os.environ.get("OVADAPT_FUZZ_EXAMPLES", "30"))
ALNUM = string.ascii_letters + string.digits


def _random(draw, size: int, alphabet: str = ALNUM) -> str:
    # A digit and a letter at least, and a body drawn from a seeded generator rather than shrunk by Hypothesis
    # (which drifts toward `000…`): a run of one character is not a secret to the detectors (issue 26's
    # repetition floor), so it would be shown, as it should be.
    body = "".join(random.Random(draw(st.integers(0, 2**32))).choices(alphabet, k=size - 2))
    return (
        draw(st.sampled_from("ABCDEFGHJKLMNPQRSTUVWXYZ")) + body + draw(st.sampled_from("23456789"))
    )


@st.composite
def secrets(draw):
    """(full text to plant, the random material that must never be shown)."""
    kind = draw(
        st.sampled_from(
            [
                "openai",
                "anthropic",
                "github",
                "gitlab",
                "slack",
                "google",
                "npm",
                "aws",
                "jwt",
                "oauth",
                "url",
                "password",
                "bearer",
                "cookie",
                "signed",
                "provider",
                # issue 26: context credentials in other syntaxes, curl userinfo, hex under a credential name
                "creds",
                "envdefault",
                "xml",
                "arrow",
                "curl",
                "curl_token",
                "hex40",
                "api_token_scheme",
                "vault_legacy",  # `s.` + 24 with no Vault name beside it
            ]
        )
    )
    if kind == "provider":  # any format of rules/secrets/providers.toml, a random body of its shape
        entry = draw(st.sampled_from(PROVIDERS))
        token = expand(entry["example"], random.Random(draw(st.integers(0, 2**32))))
        # The format's own matching: some entries match their names in any case (`VAULT_TOKEN=`).
        flags = re.IGNORECASE if entry.get("ignore_case") else 0
        match = re.search(entry["regex"], token, flags)
        assert match is not None, f"{entry['id']}: its example does not match its regex"
        return token, match.group("secret") if "secret" in match.re.groupindex else match.group()
    if kind == "aws":
        material = _random(draw, 16, string.ascii_uppercase + string.digits)
        return f"AKIA{material}", material
    if kind == "jwt":
        material = _random(draw, 43, ALNUM + "-_")
        return f"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.{material}", material
    if kind == "vault_legacy":
        # A lower-case letter too: Vault's 24 characters mix digits and both cases.
        material = _random(draw, 23)
        material = material[0] + draw(st.sampled_from(string.ascii_lowercase)) + material[1:]
        return f"s.{material}", material
    if kind == "hex40":
        material = "".join(
            random.Random(draw(st.integers(0, 2**32))).choices("0123456789abcdef", k=40)
        )
        return f"api_key = {material}", material
    if kind == "signed":
        material = _random(draw, 40, "0123456789abcdef")
        return f"https://bucket.s3.amazonaws.com/x.json?X-Amz-Signature={material}", material
    size = {
        "openai": 40,
        "anthropic": 40,
        "github": 36,
        "gitlab": 20,
        "slack": 24,
        "google": 35,
        "npm": 36,
        "oauth": 54,
        "url": 12,
        "password": 12,
        "bearer": 24,
        "cookie": 16,
        "creds": 24,
        "envdefault": 28,
        "xml": 24,
        "arrow": 30,
        "curl": 16,
        "curl_token": 32,
        "api_token_scheme": 32,
    }[kind]
    material = _random(draw, size)
    template = {
        "openai": "sk-proj-{}",
        "anthropic": "sk-ant-api03-{}",
        "github": "ghp_{}",
        "gitlab": "glpat-{}",
        "slack": "xoxb-204812345678-{}",
        "google": "AIza{}",
        "npm": "npm_{}",
        "oauth": "ovat_{}",
        "url": "postgres://svc:{}@db.example.net/app",
        "password": "password={}",
        "bearer": "Authorization: Bearer {}",
        "cookie": "cookie=sid_{}; secure; httponly",
        # Single quotes only: the planted text also sits inside a double-quoted Python literal.
        "creds": "creds := '{}'",
        "envdefault": "os.getenv('API_TOKEN', '{}')",
        "xml": "<add key='ApiToken' value='{}'/>",
        "arrow": "'secret_key' => '{}',",
        "curl": "curl -u 'ops@example.org:{}' https://api.example.net",
        "curl_token": "curl -u {}: https://api.example.net",
        "api_token_scheme": "Authorization: Api-Token {}",
    }[kind]
    return template.format(material), material


def _outputs(folder: Path, files: list[str]) -> str:
    """Everything a run can write: five report formats and the JSON statistics, a baseline, the cache."""
    from ovadapt_lint.finalise import run_metadata

    options = RunOptions(jobs=1, use_cache=True, cache_dir=folder / "cache")
    result = run(files, Config(), options=options)
    parts = []
    for writer in (
        lambda o: write_text(result, o, False, show_suppressed=True),
        lambda o: write_json(result, o, True),
        lambda o: write_sarif(result, run_metadata(result, root=True), o, show_suppressed=True),
        lambda o: write_github(result, run_metadata(result, root=True), o),
        lambda o: write_concise(result, o, show_suppressed=True),
        lambda o: write_statistics_json(result, o),
    ):
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
    pieces = {material[i : i + 5] for i in range(len(material) - 4)}
    return sorted(p for p in pieces if p in output and p not in control)


@pytest.mark.slow  # hypothesis: every format for each generated secret
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    secret=secrets(),
    before=st.text(alphabet=string.ascii_letters + " ", max_size=30),
    after=st.text(alphabet=string.ascii_letters + " ", max_size=30),
    key=st.sampled_from(["note", "api_key", "ref"]),
)
def test_planted_secrets_never_reach_any_output(
    tmp_path_factory, secret, before, after, key
) -> None:
    text, material = secret
    outputs = []
    # The control run plants a different secret of the same shape (rot13 letters, digits + 5).
    shifted = material.translate(
        str.maketrans(
            string.ascii_letters + string.digits,
            string.ascii_lowercase[13:]
            + string.ascii_lowercase[:13]
            + string.ascii_uppercase[13:]
            + string.ascii_uppercase[:13]
            + string.digits[5:]
            + string.digits[:5],
        )
    )
    for planted in (text, text.replace(material, shifted)):
        folder = tmp_path_factory.mktemp("plant")
        fixture = folder / "f.json"
        fixture.write_text(
            json.dumps(
                {"evidence": {key: f"{before} {planted} {after}", "summary": "one line"}}, indent=2
            ),
            encoding="utf-8",
        )
        module = folder / "m.py"
        module.write_text(
            f'TOKEN = "{planted}"\n# {before} {planted} {after}\n'
            f'def build_packet(x):\n    return {{"schema_version": "v0", "{key}": "{planted}"}}\n',
            encoding="utf-8",
        )
        outputs.append(_outputs(folder, [str(fixture), str(module)]))
    assert _leaks(material, outputs[0], outputs[1]) == [], text


def test_no_output_carries_the_working_directory_or_home(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "fixtures").mkdir(parents=True)
    (project / "fixtures" / "a.json").write_text(
        (CORPUS / "OVA104" / "bad_flag_true.json").read_text(), encoding="utf-8"
    )
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
    result = run(
        [str(project)], Config(), options=RunOptions(jobs=1, use_cache=True, cache_dir=cache)
    )
    assert result.findings
    after = {p: p.stat().st_mtime_ns for p in project.rglob("*")}
    assert after == before  # nothing written or touched inside the linted tree
    assert cache.is_dir()


def test_scanned_code_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    module = tmp_path / "evil.py"
    module.write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n"
        # A projection builder: the attestation key makes the dict a projection.
        "def build_packet(x):\n"
        "    return {'schema_version': 'v0', 'raw_output_copied': False, 'stdout': x.stdout}\n",
        encoding="utf-8",
    )
    proc = run_cli("--no-cache", str(module))
    assert proc.returncode == 1 and "OVA208" in proc.stdout  # x.stdout flows into the projection
    assert not marker.exists()


# ------------------------------------------------------------------ issue 27: hostile file names and values

HOSTILE_NAMES = [
    "x\n::error file=a.py,line=1::planted.public.json",  # a workflow command on a line of its own
    "t\x1b]0;owned\x07\x1b[2J.public.json",  # OSC title, clear screen
    "c\r::warning::carriage.public.json",
    "u\u2028::notice::separator.public.json",
    "bidi\u202e\u2066nosj.public.json",
]


def _hostile_tree(tmp_path: Path) -> Path:
    import subprocess

    root = tmp_path / "repo"
    root.mkdir()
    for name in HOSTILE_NAMES:
        (root / name).write_text('{"cwd_ref": "/home/alice/x"}\n', encoding="utf-8")
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "A\x1b[2J\n::error::author",
        "GIT_AUTHOR_EMAIL": "a@example.com",
        "GIT_COMMITTER_NAME": "A",
        "GIT_COMMITTER_EMAIL": "a@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(tmp_path),
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "names"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
    return root


def _unsafe_lines(output: str) -> list[str]:
    """Lines a terminal or GitHub Actions would act on: a workflow command we did not write, an escape
    sequence, a carriage return, a Unicode line separator or a bidirectional override."""
    bad = []
    for line in output.split("\n"):
        if re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]", line):
            bad.append(line)
        elif line.startswith("::") and not re.match(r"::(error|warning|notice) file=", line):
            bad.append(line)
    return bad


def test_file_names_cannot_speak_to_the_terminal_or_to_ci(tmp_path: Path) -> None:
    root = _hostile_tree(tmp_path)
    runs = {
        fmt: run_cli("--no-cache", "--format", fmt, ".", cwd=root)
        for fmt in ("text", "concise", "github", "json", "sarif")
    }
    runs["suppressed"] = run_cli(
        "--no-cache",
        "--format",
        "concise",
        "--show-suppressed",
        "--ignore",
        "OVA204",
        ".",
        cwd=root,
    )
    runs["fix"] = run_cli("--no-cache", "--diff", ".", cwd=root)
    for kind in ("text", "concise", "json", "sarif"):
        runs[f"history-{kind}"] = run_cli(
            "history",
            "--no-cache",
            "--show-authors",
            "--format",
            kind,
            cwd=root,
            env={"GIT_CEILING_DIRECTORIES": str(tmp_path)},
        )
    for name, proc in runs.items():
        assert proc.returncode in (0, 1), (name, proc.stderr)
        assert not _unsafe_lines(proc.stdout) and not _unsafe_lines(proc.stderr), (
            name,
            _unsafe_lines(proc.stdout),
        )
        if name.endswith(("json", "sarif")):
            json.loads(proc.stdout)  # escaped by JSON itself
    # Every file is still reported, under a name a reader can recognise.
    assert runs["concise"].stdout.count("OVA501") == len(HOSTILE_NAMES)
    assert "x\\n::error file=a.py,line=1::planted.public.json:1:" in runs["concise"].stdout
    assert "t\\x1b]0;owned\\x07\\x1b[2J.public.json" in runs["text"].stdout
    assert (
        "A\\x1b[2J::error::author" in runs["history-text"].stdout
    )  # git itself drops the line break


def test_a_stale_baseline_entry_with_a_hostile_path_is_printed_escaped(tmp_path: Path) -> None:
    (tmp_path / "a.public.json").write_text("{}\n", encoding="utf-8")
    entry = {
        "code": "OVA501",
        "path": "gone\n::error file=x::y.json",
        "location": "\x1b[2Jnote",
        "hash": "abcd",
    }
    (tmp_path / "base.json").write_text(
        json.dumps({"schema": "ovadapt-lint/baseline/v1", "salt": "00" * 16, "entries": [entry]}),
        encoding="utf-8",
    )
    for fmt in ("text", "concise", "github"):
        proc = run_cli(
            "--no-cache", "--format", fmt, "--baseline", "base.json", "a.public.json", cwd=tmp_path
        )
        assert "OVA010" in proc.stdout and not _unsafe_lines(proc.stdout), (fmt, proc.stdout)


def test_contract_messages_name_masked_values_by_kind(tmp_path: Path) -> None:
    # The project's own adapter fixture: a clone without ../shared runs this too.
    from .conftest import OWN_ADAPTER_FIXTURE

    doc = json.loads(OWN_ADAPTER_FIXTURE.read_text(encoding="utf-8"))
    adapter = doc["attention_queue"]["items"][0]["openviking_session_memory_adapter"]
    adapter["mode"] = "/home/user/zq-hidden-proj"
    adapter["status_projection"]["quota_state"] = "zqvault rollout"
    (tmp_path / "a.public.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    (tmp_path / "deny.txt").write_text("zqvault\n", encoding="utf-8")
    outputs = {
        fmt: run_cli(
            "--no-cache", "--deny-list", "deny.txt", "--format", fmt, "a.public.json", cwd=tmp_path
        ).stdout
        for fmt in ("concise", "json", "sarif", "github")
    }  # text frames show the line itself
    for fmt, output in outputs.items():
        assert "zq-hidden-proj" not in output and "zqvault" not in output.lower(), fmt
    messages = {f["code"]: f["message"] for f in json.loads(outputs["json"])["findings"]}
    assert "a home-directory path (OVA501), not quoted" in messages["OVA102"]
    assert "an internal name (OVA701), not quoted" in messages["OVA109"]
    assert {"OVA501", "OVA701"} <= set(messages)  # still reported by their own rules


def test_sarif_uris_are_uri_references(tmp_path: Path) -> None:
    import subprocess
    from urllib.parse import unquote_to_bytes

    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    names = [
        "with space.public.json",
        "hash#frag.public.json",
        "q?x=1.public.json",
        "pct%41.public.json",
        "c:colon.public.json",
        "caf\u00e9.public.json",
    ]
    for name in names:
        (root / name).write_text('{"cwd_ref": "/home/alice/x"}\n', encoding="utf-8")
    raw = os.fsencode(root) + b"/bad\xff.public.json"
    try:
        with open(raw, "w", encoding="utf-8") as handle:
            handle.write('{"cwd_ref": "/home/alice/x"}\n')
    except OSError:
        raw = None  # a file system that wants UTF-8 names
    sarif = json.loads(run_cli("--no-cache", "--format", "sarif", ".", cwd=root).stdout)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in sarif["runs"][0]["results"]
    }
    for uri in uris:
        assert (
            re.fullmatch(r"[A-Za-z0-9\-._~/%!$&'()*+,;=@]*", uri) and ":" not in uri.split("/")[0]
        ), uri
    decoded = {unquote_to_bytes(u) for u in uris}
    assert {n.encode("utf-8") for n in names} <= decoded
    if raw is not None:
        assert b"bad\xff.public.json" in decoded
    if SARIF_SCHEMA.is_file():
        import jsonschema

        jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(
            sarif
        )


def test_files_outside_the_root_keep_their_results_everywhere(tmp_path: Path) -> None:
    import subprocess

    root, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "in.public.json").write_text('{"cwd_ref": "/home/alice/x"}\n', encoding="utf-8")
    (elsewhere / "in.public.json").write_text('{"cwd_ref": "/home/bob/x"}\n', encoding="utf-8")
    sarif = json.loads(
        run_cli(
            "--no-cache", "--format", "sarif", ".", str(elsewhere / "in.public.json"), cwd=root
        ).stdout
    )
    run = sarif["runs"][0]
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    ]
    assert uris.count("../elsewhere/in.public.json") == uris.count("in.public.json") >= 1, uris
    assert str(tmp_path) not in json.dumps(sarif)
    assert any(
        "lies outside the source root" in n["message"]["text"]
        for n in run["invocations"][0]["toolExecutionNotifications"]
    )
    github = run_cli(
        "--no-cache", "--format", "github", ".", str(elsewhere / "in.public.json"), cwd=root
    ).stdout
    assert "file=../elsewhere/in.public.json," in github and str(tmp_path) not in github
