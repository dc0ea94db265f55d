"""No secret in any output, the text frame included (issue 15): PEM blocks masked whole on every line,
the masked span is the matched secret, each secret is masked once and the caret spans the finding,
credential-shaped tokens on a frame line are masked like --diff masks them, lone surrogates are
escaped in every format, and a report that cannot be written is one line and exit 2."""

# ovadapt: ignore-file

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from ovadapt_lint.engine import LintResult
from ovadapt_lint.findings import Span, make_finding
from ovadapt_lint.redact import mask_text
from ovadapt_lint.report.text import write_text
from ovadapt_lint.source import SourceFile

from .conftest import run_cli

# Base64 lines with `+` and `/`: no run of 40 token characters, so the long-token safety net alone misses them.
PEM_BODY = [
    "MIIEpAIBAAKCAQEA3Tz2mr7S+iAMfQyuvBjM9Oi0Kn1W/7nQ8c5Zr1mXyVbQ2jA4",
    "b7d9Kx0pLmNoQrStUvWx+z123456789AbCdEfGhIjKlMn/pQrStUvWxYzAbCdEf",
    "Zx9Yw8Vu7Ts6Rq5P+4Nm3Lk2Ji1Hg0FeDcBa9Z8Y/X6W5V4U3T2S1R0Q9P8O7N6",
]


def _pieces(secret: str, size: int = 6) -> set[str]:
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def _text_report(result: LintResult) -> str:
    buffer = io.StringIO()
    write_text(result, buffer, False)
    return buffer.getvalue()


def test_pem_private_key_body_lines_are_masked_in_every_frame() -> None:
    # A multi-line block: a frame shown for any finding on a body line (here a second finding on
    # line 3) must not print the key material.
    data = (
        'KEY = """-----BEGIN RSA PRIVATE KEY-----\n'
        + "\n".join(PEM_BODY)
        + '\n-----END RSA PRIVATE KEY-----"""\n'
    ).encode()
    source = SourceFile(Path("k.py"), "k.py", data)
    result = LintResult(sources={"k.py": source})
    result.findings = [
        make_finding(
            "OVA402",
            "string literal holds a PEM private-key block",
            "k.py",
            Span(1, 10, 1, 41),
            secret_span=True,
        ),
        make_finding("OVA501", "a finding on a body line", "k.py", Span(3, 1, 3, 5)),
        make_finding("OVA501", "a finding on the END line", "k.py", Span(5, 1, 5, 5)),
    ]
    output = _text_report(result)
    assert "    3 | " in output and "    5 | " in output  # the frames are shown
    for line in PEM_BODY:
        assert not _pieces(line) & _pieces(output), output


def test_pem_private_key_on_one_line_is_masked_whole(tmp_path: Path) -> None:
    # A JSON string holds the block with `\n` escapes: one source line, masked from BEGIN to END.
    (tmp_path / "k.public.json").write_text(
        json.dumps(
            {
                "k": "-----BEGIN RSA PRIVATE KEY-----\n"
                + "\n".join(PEM_BODY)
                + "\n-----END RSA PRIVATE KEY-----",
                "p": "/home/alice/x",
            }
        ),
        encoding="utf-8",
    )
    proc = run_cli("--no-cache", "--no-color", str(tmp_path / "k.public.json"))
    assert proc.returncode == 1 and "OVA402" in proc.stdout and "OVA501" in proc.stdout
    for line in PEM_BODY:
        assert not _pieces(line) & _pieces(proc.stdout), proc.stdout


def test_frame_masks_the_matched_secret_not_a_neighbouring_word(tmp_path: Path) -> None:
    # `is_secret = true` beside an Azure key, in a string with escapes: the key is masked, `true` stays.
    key = (
        "AccountKey="
        + "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0hJSktMTU5PUFFS"
    )
    module = tmp_path / "cfg.py"
    module.write_text(
        f'CFG = "[azure]\\nkey = \\"{key}\\"\\nis_secret = true\\n"\n', encoding="utf-8"
    )
    proc = run_cli("--no-cache", "--no-color", str(module))
    assert proc.returncode == 1 and "OVA401" in proc.stdout
    frame = next(line for line in proc.stdout.splitlines() if line.startswith("    1 | "))
    assert "is_secret = true\\n" in frame, frame
    assert key[11:40] not in proc.stdout


def test_each_secret_is_masked_once_and_the_caret_spans_it(tmp_path: Path) -> None:
    fixture = tmp_path / "c.public.json"
    fixture.write_text(
        '{"h": "cookie=sid_Ab3dEf6hIj9kLm; secure", "PASSWORD": ["pass", "word"]}\n',
        encoding="utf-8",
    )
    module = tmp_path / "env.py"
    module.write_text(
        'import os\nT = os.environ["GITHUB_TOKEN"]\nP = "/home/bob/x"\n'
        'def build_packet(x):\n    return {"schema_version": "v0", "raw_output_copied": False, '
        '"where": os.environ["GITHUB_TOKEN"], "p": "/home/bob/y"}\n',
        encoding="utf-8",
    )
    proc = run_cli("--no-cache", "--no-color", str(fixture), str(module))
    lines = proc.stdout.splitlines()
    frames = [
        (lines[i], lines[i + 1])
        for i in range(len(lines) - 1)
        if " | " in lines[i] and lines[i + 1].strip().startswith("|")
    ]
    assert frames, proc.stdout
    for frame, _caret in frames:
        assert frame.count("chars]") <= frame.count("…["), frame  # never a mask of a mask
        assert "chars] chars]" not in frame
    cookie = next((f, c) for f, c in frames if "cookie=" in f)
    assert "Ab3dEf6hIj9kLm" not in proc.stdout
    masked = cookie[0][cookie[0].index("cookie=") + len("cookie=") :].split(";")[0]
    start = cookie[0].index(masked)
    assert cookie[1][start : start + len(masked)] == "^" * len(masked), (
        cookie
    )  # the caret spans the masked secret
    # Neither the array of words nor an environment lookup is a secret: shown as written.
    assert '"PASSWORD": ["pass", "word"]' in proc.stdout
    assert 'os.environ["GITHUB_TOKEN"]' in proc.stdout


def test_a_credential_on_the_frame_line_of_another_finding_is_masked(tmp_path: Path) -> None:
    fixture = tmp_path / "cmd.public.json"
    fixture.write_text(
        '{"cmd": "curl -u elastic:P@ssw0rdXk92Lq http://localhost:9200/_cat"}\n', encoding="utf-8"
    )
    proc = run_cli("--no-cache", "--no-color", str(fixture))
    assert proc.returncode == 1 and "OVA602" in proc.stdout
    assert "ssw0rdXk92" not in proc.stdout


def test_a_uuid_assigned_to_a_credential_name_is_masked_in_another_findings_frame(
    tmp_path: Path,
) -> None:
    # No detector reports `SNYK_TOKEN := "<uuid>"` (UUIDs are ids too); the frame shown for the path on the
    # same line masks the value, and only the value.
    value = "9f3c2a71-5b8e-4d06-a1c4-7e2b9d58f0a3"
    fixture = tmp_path / "snyk.public.json"
    fixture.write_text(
        json.dumps({"k": f'SNYK_TOKEN := "{value}" see /home/alice/x'}) + "\n", encoding="utf-8"
    )
    proc = run_cli("--no-cache", "--no-color", str(fixture))
    assert proc.returncode == 1 and "OVA501" in proc.stdout
    assert not _pieces(value[4:]) & _pieces(proc.stdout), proc.stdout
    assert 'SNYK_TOKEN := \\"9f3c…[36 chars]\\" see /home/alice/x' in proc.stdout, proc.stdout


def test_redaction_masks_a_whole_jwt_when_the_safety_net_matches_its_signature() -> None:
    # Header and payload are each under the safety net's 40 characters, the signature over.
    header, payload = "eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiJhbGljZSJ9"
    token = f"{header}.{payload}.4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4"
    shown = mask_text(f"token: {token}")
    assert header not in shown and payload not in shown, shown
    assert shown == f"token: {token[:4]}…[{len(token)} chars]"


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github"])
def test_a_lone_surrogate_in_a_key_is_escaped_in_every_format(tmp_path: Path, fmt: str) -> None:
    fixture = tmp_path / "s.public.json"
    fixture.write_text('{"a\\ud800": "/home/bob/x"}\n', encoding="utf-8")
    for output in (None, tmp_path / f"report.{fmt}"):
        args = ["--no-cache", "--format", fmt, str(fixture)] + (
            ["--output", str(output)] if output else []
        )
        args += ["--sarif-srcroot", str(tmp_path)] if fmt == "sarif" else []
        proc = run_cli(*args)
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr and "UnicodeEncodeError" not in proc.stderr
        written = output.read_text(encoding="utf-8") if output else proc.stdout
        assert "\\ud800" in written or "\\\\ud800" in written, written
        if fmt in ("json", "sarif"):
            json.loads(written)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_report_to_a_full_disk_is_one_line_and_exit_2(tmp_path: Path) -> None:
    fixture = tmp_path / "p.public.json"
    fixture.write_text('{"p": "/home/bob/x"}\n', encoding="utf-8")
    proc = run_cli("--no-cache", "--output", "/dev/full", str(fixture))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and "/dev/full" in proc.stderr, proc.stderr
