"""Credential rules (OVA4xx) on shapes seen as false positives in real repositories, and on the
values they must still report. Each shape is linted for real, as a JSON string value, inside a
Python string literal and in a Python comment."""

# This module holds deliberate samples of what the linter catches (secrets) and near misses.
# ovadapt: ignore-file

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ovadapt_lint import lint_paths
from ovadapt_lint.detect import is_placeholder

CONTEXTS = ["json", "python-literal"]  # published: a public fixture, a literal inside a projection

NOT_REPORTED = {
    # prose: ordinary words after the label
    "prose-public-safe-token": "must be a public-safe token: lowercase letters and digits",
    "prose-see-docs": "the token: see docs",
    "prose-password-rule": "password: at least 8 characters",
    "prose-quoted-rule": 'password: "must be at least 8 characters"',
    "prose-description": "client_secret: OAuth2 client secret.",
    "prose-choices": "the secret is empty/None",
    # template and CI syntax
    "ci-expression": "GH_TOKEN: ${{ secrets.X }}",
    "jinja": "token: {{ secrets.API }}",
    "shell-var": "api_key: ${API_KEY}",
    "angle": "token: <TOKEN>",
    "percent-format": "token=%(token)s",
    "brace-format": "token={token}",
    "printf-format": "Input tokens: %d, Output tokens: %d",
    # empty and placeholder values
    "empty-literal": 'api_key = ""',
    "fake-inside": 'password = "somefakekey"',
    "fake-prefix": 'password = "fake-password"',
    "redacted-marker": "token=[REDACTED]",
    "mask": "token=***",
    "elided-key": 'api_key="sk-..."',
    "your-key-here": "api_key: your-api-key-here",
    "changeme": 'password = "changeme"',
    "dummy": 'secret = "dummy"',
    "test-token": 'token = "test-token"',
    "test-key": 'api_key = "test_key"',
    "example": 'password: "example"',
    "stand-in-words-and-number": "expected Bearer token123 in the stub",
    "boolean": "persist-credentials: false",
    # code and environment reads
    "environ-subscript": 'api_key=os.environ["X"]',
    "getenv": "token=os.getenv('GITHUB_TOKEN')",
    "process-env": "const apiKey = process.env.LETTA_API_KEY;",
    "variable-name": "OpenAI(api_key=openai_key)",
    "env-var-name": '{"openai_api_key": "OPENAI_API_KEY"}',
    "arithmetic": "tokens = width * height * 24 * seconds / 1024",
    "path-segment": "cat /etc/passwd >/dev/null",
    # counters and metadata
    "input-tokens": '"input_tokens": 100',
    "max-tokens": '"max_tokens": 4096',
    "token-count": "token_count=12",
    "token-list": '"tokens": ["a", "b"]',
    "counter-in-call": "ChatOpenAI(max_tokens=20).configurable_fields(",
    "index-argument": "substring(//user[1]/password,1,1)",
    # package names (lock-file keys and version requirements)
    "npm-cookie-es": '"node_modules/cookie-es"',
    "npm-cookie-signature": "cookie-signature: 1.0.6",
    "npm-js-cookie": "js-cookie: ^3.0.5",
    "npm-path-key": '"node_modules/path-key": {"version": "3.1.1"}',
    "cookie-version": '"cookie": "0.7.1"',
    # type names and schema words
    "type-name": '"PasswordType"',
    "schema-word": '"credentialScope"',
    "ref-name": '"secretRef": {"name": "db-secret"}',
    # made-up provider tokens
    "aws-documented-example": "AKIAIOSFODNN7EXAMPLE",
    "keyboard-run-token": "ghp_1234567890abcdefghijklmnopqrstuvwxyz",
    "test-part-token": "sk-test-decrypt-token-67890",
    "masked-webhook": "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXX",
    "elided-pem": 'private_key_pem="-----BEGIN PRIVATE KEY-----..."',
    "elided-header": 'headers={"Authorization": "Bearer ..."}',
    "default-dsn": "postgres://postgres:postgres@localhost:5432/app",
}

REPORTED = {
    "mixed-class-password": ('password = "Tr0ub4dor&3xQ"', "OVA409"),
    "hex-api-key": ('api_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"', "OVA409"),
    "quoted-json-password": ('"password": "hunter2hunter2"', "OVA409"),
    "compound-label": ("db_password: Xk9#mQ2vL7pR", "OVA409"),
    "github-token": ("token: ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5", "OVA401"),
    "bearer-jwt": (
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9."
        "4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4",
        "OVA403",
    ),
    "high-entropy-secret-key": (
        'secret_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8vLm3Rt5Yu"',
        "OVA408",
    ),
}

# Typed values: leaks in a published value, test fixtures anywhere else.
TYPED_VALUES = {REPORTED["quoted-json-password"][0]}
PRIVATE_CONTEXTS = ["private-json", "private-python", "python-comment"]

# LoopX's public-safe text contract still holds: short values after a lone label are values.
LOOPX_STILL_REPORTED = [
    "password=hunter2",
    "secret: env",
    '{"password": 1}',
    '{"secret": "a"}',
    '{"secret": }',
    "token is 1",
    "token: abc123",
]


def _write(folder: Path, context: str, text: str) -> Path:
    """Published contexts: a *.public.json fixture, a literal inside a projection. Private ones: an
    ordinary JSON file, a module constant, a comment (comments are never published)."""
    if context == "json":
        target = folder / "sample.public.json"
        target.write_text(json.dumps({"note": text}, indent=2), encoding="utf-8")
    elif context == "private-json":
        target = folder / "sample.json"
        target.write_text(json.dumps({"note": text}, indent=2), encoding="utf-8")
    elif context == "python-literal":
        target = folder / "sample.py"
        target.write_text(
            f"NOTE = {{'schema_version': 'note_v1', 'raw_output_copied': False, 'note': {text!r}}}\n",
            encoding="utf-8",
        )
    elif context == "private-python":
        target = folder / "sample.py"
        target.write_text(f"NOTE = {text!r}\n", encoding="utf-8")
    else:
        target = folder / "sample.py"
        target.write_text(f"# {text}\nNOTE = 1\n", encoding="utf-8")
    return target


def _credential_codes(folder: Path, context: str, text: str) -> set[str]:
    target = _write(folder, context, text)
    return {f.code for f in lint_paths([str(target)]) if f.code.startswith("OVA4")}


@pytest.mark.parametrize("context", CONTEXTS + PRIVATE_CONTEXTS)
@pytest.mark.parametrize("text", list(NOT_REPORTED.values()), ids=list(NOT_REPORTED))
def test_false_positive_shapes_are_not_reported(tmp_path: Path, context: str, text: str) -> None:
    assert _credential_codes(tmp_path, context, text) == set()


@pytest.mark.parametrize("context", CONTEXTS + PRIVATE_CONTEXTS)
@pytest.mark.parametrize("text,code", list(REPORTED.values()), ids=list(REPORTED))
def test_credential_values_are_still_reported(
    tmp_path: Path, context: str, text: str, code: str
) -> None:
    if context in PRIVATE_CONTEXTS and text in TYPED_VALUES:
        # Outside what is published, a context rule needs a generated-looking value.
        assert code not in _credential_codes(tmp_path, context, text)
    else:
        assert code in _credential_codes(tmp_path, context, text)


@pytest.mark.parametrize("text", LOOPX_STILL_REPORTED)
def test_loopx_short_values_after_a_lone_label_are_still_reported(
    tmp_path: Path, text: str
) -> None:
    assert "OVA409" in _credential_codes(tmp_path, "json", text)


def test_counters_and_schema_names_as_json_structure(tmp_path: Path) -> None:
    target = tmp_path / "usage.json"
    target.write_text(
        json.dumps(
            {
                "usage": {
                    "input_tokens": 100,
                    "max_tokens": 4096,
                    "token_count": 12,
                    "tokens": ["a", "b"],
                },
                "schema": {
                    "PasswordType": "string",
                    "credentialScope": "user",
                    "secretRef": "db-secret",
                },
                "packages": {
                    "node_modules/cookie-es": {"version": "1.2.2"},
                    "node_modules/path-key": {"version": "3.1.1"},
                },
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    assert [f for f in lint_paths([str(target)]) if f.code.startswith("OVA4")] == []


@pytest.mark.parametrize(
    "value",
    [
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "sk-...",
        "test-token",
        "token123",
        "mysecretpassword",
        "SecretStr",
        "${{ secrets.X }}",
        "[REDACTED]",
        "%d",
        "ghp_xxxxxxxxxxxxxxxxxxxx",
        "123456789",
    ],
)
def test_placeholders(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize(
    "value",
    [
        "Tr0ub4dor&3xQ",
        "hunter2",
        "env",
        "a",
        "abc123def",
        "correcthorsebatterystaple",
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8vLm3Rt5Yu",
        "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ],
)
def test_values_that_are_not_placeholders(value: str) -> None:
    assert not is_placeholder(value)


def test_a_provider_prefix_followed_by_stand_in_words_is_a_tests_placeholder(
    tmp_path: Path,
) -> None:
    # Seen in an LLM SDK's tests (issue 25's framework sample): a format prefix with its version part, then
    # a stand-in (`…-test`) or words (`…-STORED-SECRET`); a generated body after the same prefix is a token.
    body = "Qm7xT2vK9pL4wZ8rN3cY6hB1fJ5dG0sA"
    test = tmp_path / "tests" / "test_auth.py"
    test.parent.mkdir()
    test.write_text(
        "def test_header(req):\n"
        '    assert req.headers["Authorization"] == "Bearer zk-acme-oat01-test"\n'
        # One short word after the versioned prefix: where the test's token came from, not a token.
        '    assert req.headers["Authorization"] == "Bearer zk-acme-oat01-file"\n'
        'STORED = "sk-ant-oat01-STORED-SECRET"\n'
        'MINTED = "sk-ant-oat01-MINTEDMATERIAL"\n'
        f'ISSUED = "sk-ant-oat01-{body}"\n'
        # Too short for Anthropic's format, and never OpenAI's (it was reported as "an OpenAI API key").
        f'SHORT = "sk-ant-oat01-{body[:12]}"\n',
        encoding="utf-8",
    )
    assert is_placeholder("zk-acme-oat01-test") and not is_placeholder(f"zk-acme-oat01-{body}")
    # Unversioned, a prefix may be a word itself: a JWT claim `service_role` stays an ordinary claim.
    assert is_placeholder("zk-acme-oat01-file") and not is_placeholder("service_role")
    found = [(f.code, f.span.start_line, f.message) for f in lint_paths([str(tmp_path)])]
    assert [(code, line) for code, line, _ in found] == [("OVA401", 6)]
    assert "Anthropic" in found[0][2]
