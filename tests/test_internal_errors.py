"""OVA009 says where an internal error happened; --debug prints its traceback without input values."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ovadapt_lint import cli, lint_paths
from ovadapt_lint.checks import strings

SECRET = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"  # built so this file holds no token
INTERNAL = re.compile(
    r"^internal error in check string-secrets: ValueError at checks/strings\.py:\d+; "
    r"file not fully checked$"
)


@pytest.fixture
def broken_check(tmp_path: Path, monkeypatch) -> Path:
    """A file holding a credential, and the credential check failing on it with the value in its message."""
    target = tmp_path / "a.json"
    target.write_text(json.dumps({"ci": {"env": f"token: {SECRET}"}}), encoding="utf-8")

    def failing_hit_finding(hit, text, *args, **kwargs):
        # Messages of a chained exception carry the value, unquoted and quoted: both must be redacted.
        raise ValueError(f"cannot format {text}") from KeyError(text[hit.start : hit.end])

    monkeypatch.setattr(strings, "hit_finding", failing_hit_finding)
    monkeypatch.setenv("OVADAPT_LINT_DEBUG", "0")  # restored afterwards, whatever --debug sets
    return target


def test_internal_error_names_the_check_and_code_location(broken_check: Path, capsys) -> None:
    findings = lint_paths([str(broken_check)])
    assert [f.code for f in findings] == ["OVA009"]
    assert INTERNAL.match(findings[0].message), findings[0].message
    assert "Traceback" not in capsys.readouterr().err  # no --debug: the notice only


def test_debug_traceback_never_carries_the_secret(broken_check: Path, capsys) -> None:
    code = cli.main([str(broken_check), "--debug", "--no-cache", "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 1
    assert (
        "Traceback (most recent call last)" in err
        and "KeyError" in err
        and "ValueError: cannot format" in err
    )
    assert "checks/strings.py" in err and "in check_strings" in err
    assert SECRET not in err and SECRET not in out
    assert SECRET[4:20] not in err  # not even a fragment of it
    assert INTERNAL.match(json.loads(out)["findings"][0]["message"])


def test_debug_environment_variable_prints_the_traceback(
    broken_check: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("OVADAPT_LINT_DEBUG", "1")
    lint_paths([str(broken_check)])
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and SECRET[4:20] not in err
