"""Credentials found by their context (issue 16): command-line flags, URL passwords, compound and
suffixed credential names with high-entropy values, UUIDs under credential names; the look-alike names,
bare high-entropy strings and placeholders that must stay quiet; GitHub's CRC32 and per-result precision."""

# This module holds deliberate samples of what the linter catches (secrets) and near misses.
# ovadapt: ignore-file

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from ovadapt_lint import lint_paths
from ovadapt_lint.detect.keynames import credential_name

from .conftest import run_cli

# 38 random-looking base62 characters: above detect-secrets' base64 entropy limit (4.5).
HIGH = "00aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
UUID_VALUE = "3f2b8c1e-9a7d-4e6b-8f0a-1c2d3e4f5a6b"


def _codes(folder: Path, name: str, text: str) -> list[tuple[str, str]]:
    target = folder / name
    target.write_text(text, encoding="utf-8")
    return [
        (f.code, f.message.rsplit("[", 1)[-1].rstrip("]"))
        for f in lint_paths([str(target)])
        if f.code.startswith("OVA4")
    ]


def _in_text(folder: Path, text: str) -> dict[str, list[tuple[str, str]]]:
    """The text as a published JSON value and as an ordinary Python string constant."""
    return {
        "public-json": _codes(folder, "note.public.json", json.dumps({"note": text})),
        "private-python": _codes(folder, "note.py", f"NOTE = {text!r}\n"),
    }


CONTEXT_SHAPES = {
    "curl-u": ("curl -u admin:Xk9mQ2vL7pRt https://api.example.net", "OVA404"),
    "curl-user": ("curl --user deploy:9fQ2w7LmZ3xK https://api.example.net", "OVA404"),
    "url-empty-user": ("https://:Xk9mQ2vL7pRt@host.example.net/", "OVA404"),
    "mysql-p": ("mysql -u root -pXk9mQ2vL7pRt appdb", "OVA409"),
    "camel-case-name": (f'oktaApiToken = "{HIGH}"', "OVA409"),
    "numeric-suffix": (f'some_api_token_123 = "{HIGH}"', "OVA409"),
    "environment-suffix": (f"API_KEY_PROD={HIGH}", "OVA409"),
    "flag": (f"--stripe-secret-key {HIGH}", "OVA409"),
    "uuid-under-api-key": (f"HEROKU_API_KEY={UUID_VALUE}", "OVA409"),
}


@pytest.mark.parametrize("text,code", list(CONTEXT_SHAPES.values()), ids=list(CONTEXT_SHAPES))
def test_credentials_in_context_are_reported(tmp_path: Path, text: str, code: str) -> None:
    for context, found in _in_text(tmp_path, text).items():
        assert code in {c for c, _ in found}, context


QUIET_CONTEXT = {
    "curl-placeholder-password": "curl -u admin:password https://api.example.net",
    "curl-variables": 'curl -u "$USER:$PASS" https://api.example.net',
    "docker-uid-gid": "docker run -u 1000:1000 image",
    "mysql-prompt": "mysql -u root -p appdb",
    "mysql-variable": "mysql -u root -p$MYSQL_PWD appdb",
}


@pytest.mark.parametrize("text", list(QUIET_CONTEXT.values()), ids=list(QUIET_CONTEXT))
def test_context_look_alikes_are_not_reported(tmp_path: Path, text: str) -> None:
    assert _in_text(tmp_path, text) == {"public-json": [], "private-python": []}


@pytest.mark.parametrize(
    "name",
    [
        "oktaApiToken",
        "stripeSecretKey",
        "clientSecret",
        "some_api_token_123",
        "API_KEY_PROD",
        "GITHUB_TOKEN_2",
        "HEROKU_API_KEY",
        "db_password",
        "x-api-key",
    ],
)
def test_compound_credential_names(name: str) -> None:
    assert credential_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "token_count",
        "max_tokens",
        "secretRef",
        "PasswordType",
        "credentialScope",
        "tokenizer",
        "keyboard",
        "monkey",
        "primary_key",
        "next_page_token",
        "bos_token",
        "content_sha256",
        "digest",
        "key",
        "password_hash",
        "request_id",
    ],
)
def test_names_that_are_not_credentials(name: str) -> None:
    assert not credential_name(name)


def test_high_entropy_values_under_credential_names_in_json_and_python(tmp_path: Path) -> None:
    document = {
        "oktaApiToken": HIGH,
        "stripeSecretKey": "rk" + HIGH,
        "heroku_api_key": UUID_VALUE,
        "max_tokens": HIGH,
        "secretRef": HIGH,
        "primary_key": HIGH,
        "request_id": UUID_VALUE,
        "content_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    }
    found = _codes(tmp_path, "config.json", json.dumps(document, indent=1))
    assert found == [("OVA409", "credential-field")] * 3
    module = "\n".join(f"{name} = {value!r}" for name, value in document.items()) + "\n"
    module += f"client = Client(client_secret={HIGH!r}, model={HIGH!r})\n"
    assert _codes(tmp_path, "config.py", module) == [("OVA409", "credential-field")] * 4


@pytest.mark.parametrize(
    "value",
    [
        HIGH[:20],
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "d41d8cd98f00b204e9800998ecf8427e",
        UUID_VALUE,
    ],
)
def test_bare_high_entropy_strings_without_context_are_quiet(tmp_path: Path, value: str) -> None:
    assert _in_text(tmp_path, f"checksum {value} for the artifact") == {
        "public-json": [],
        "private-python": [],
    }
    assert (
        _codes(tmp_path, "ids.json", json.dumps({"id": value, "sha256": value, "etag": value}))
        == []
    )


PLACEHOLDERS = {
    "ghp-mask": "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "glpat-mask": "glpat-XXXXXXXXXXXXXXXXXXXX",
    "slack-mask": "xoxb-xxxxxxxxxxxx-xxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx",
    "aws-mask": "AKIAXXXXXXXXXXXXXXXX",
    "aws-example": "AKIAIOSFODNN7EXAMPLE",
    "example-word": f"API_KEY_PROD=EXAMPLE{HIGH}",
    "sample-word": f'oktaApiToken = "sample{HIGH}"',
    "dummy-word": f"GITHUB_TOKEN_2=dummy{HIGH}",
    "fake-word": f"--client-token fake{HIGH}",
    "changeme": "API_KEY_PROD=changeme",
    "your-here": "some_api_token_123 = your_api_token_here",
    "shell-template": "API_KEY_PROD=${API_KEY_PROD}",
    "ci-template": "GITHUB_TOKEN_2: ${{ secrets.GITHUB_TOKEN_2 }}",
    "angle": "oktaApiToken = <TOKEN>",
    "percent": "oktaApiToken = %(token)s",
    "redacted": "oktaApiToken = [REDACTED]",
    "empty": 'api_key = ""',
    "repeated": "API_KEY_PROD=aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
}


@pytest.mark.parametrize("text", list(PLACEHOLDERS.values()), ids=list(PLACEHOLDERS))
def test_placeholders_are_not_reported(tmp_path: Path, text: str) -> None:
    assert _in_text(tmp_path, text) == {"public-json": [], "private-python": []}


@pytest.mark.parametrize(
    "text", ["TODAYINASIAASACKOFRICEFELLOVER", "ACGTACGTTGCAAKIAGCTAGCTAGCTAGCTAGGAT"]
)
def test_aws_key_ids_are_not_read_inside_longer_words(tmp_path: Path, text: str) -> None:
    assert _in_text(tmp_path, text) == {"public-json": [], "private-python": []}


def _github_token(body: str) -> str:
    """A classic token whose last 6 characters are the base62 CRC32 of its 30-character body."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    number, digits = zlib.crc32(body.encode()), ""
    while number:
        number, digit = divmod(number, 62)
        digits = alphabet[digit] + digits
    return "ghp_" + body + digits.rjust(6, "0")


def _sarif_results(folder: Path, text: str) -> list[dict]:
    target = folder / "tokens.json"
    target.write_text(json.dumps({"note": text}), encoding="utf-8")
    proc = run_cli("--no-cache", "--select", "OVA4", "--format", "sarif", str(target), cwd=folder)
    return json.loads(proc.stdout)["runs"][0]["results"]


def test_github_checksum_match_raises_precision_and_mismatch_still_reports(tmp_path: Path) -> None:
    valid = _github_token("aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1")
    broken = valid[:-1] + ("A" if valid[-1] != "A" else "B")
    [matched] = _sarif_results(tmp_path, valid)
    [mismatched] = _sarif_results(tmp_path, broken)
    assert matched["ruleId"] == mismatched["ruleId"] == "OVA401"
    assert matched["properties"]["precision"] == "very-high"
    assert "precision" not in mismatched.get("properties", {})  # the rule's own precision applies
    assert valid[4:] not in json.dumps(matched)


def test_google_api_keys_are_reported_at_a_lower_precision(tmp_path: Path) -> None:
    [result] = _sarif_results(tmp_path, "maps key AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q")
    assert result["ruleId"] == "OVA401"
    assert result["properties"]["precision"] == "medium"


def test_a_long_letter_run_under_a_credential_name_does_not_hang(tmp_path: Path) -> None:
    """The "name" judgement once backtracked exponentially on letters followed by a digit (a 27-character
    value took 18 s); credential names now send values of up to 512 characters through it."""
    import signal

    def fail(*_):
        raise TimeoutError("catastrophic backtracking in a not-value judgement")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(10)
    try:
        found = _codes(
            tmp_path, "settings.py", f'OKTA_API_TOKEN = "{"a" * 60}1"\npassword = "{"b" * 60}2"\n'
        )
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert (
        "OVA409",
        "credential-field",
    ) not in found  # one repeated letter is far below the entropy limit
