"""gitleaks rule files as `extend-rules` extensions (issue 26): rule OVA411 holds their rules, translated from
gitleaks' format (regex in RE2 spelling, keywords, entropy, secretGroup, allowlists). Every rule file here is
written for these tests in gitleaks' format; no value is a real credential."""

# ovadapt: ignore-file

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ovadapt_lint.detect import gitleaks
from ovadapt_lint.detect.credentials import scan_secrets
from ovadapt_lint.pack import RulePack

from .conftest import run_cli

RULES = r"""
title = "written for ovadapt-lint's tests"

[extend]
useDefault = true

[[rules]]
id = "zorp-api-key"
description = "Zorp API key"
regex = '''\b(zorp_[[:alnum:]]{24})\b'''
keywords = ["zorp_"]
entropy = 3.0

[rules.allowlist]
regexTarget = "line"
regexes = ['''zorp-docs-sample''']

[[rules]]
id = "kelp-secret"
description = "Kelp client secret beside its name"
regex = '''(?i)kelp[\w.-]{0,20}?(?:secret|token)\s*[:=]\s*["']?(?<name>kl)-(?<secret>[a-z0-9]{28})["']?'''
secretGroup = 2
keywords = ["kelp"]

[[rules.allowlists]]
description = "fixtures in tests only: needs a path, so never met here"
condition = "AND"
paths = ['''tests/''']
regexes = ['''.*''']

[[rules]]
id = "quill-webhook"
description = "Quill webhook path"
regex = '''hooks\.quill\.example/(?:hk/)?([A-Za-z0-9]{30})\z'''

[[rules]]
id = "pem-file"
description = "a PEM file by name"
path = '''\.pem$'''

[[allowlists]]
description = "made-up fixture keys"
stopwords = ["fixture"]
"""


def _pack(text: str = RULES) -> RulePack:
    return RulePack.load((("team-gitleaks.toml", text),)).check()


def _found(text: str, pack: RulePack | None = None) -> list[tuple[str, str]]:
    return [
        (h.signature, text[h.start : h.end]) for h in scan_secrets(text, (pack or _pack()).secrets)
    ]


def test_a_gitleaks_file_becomes_ova411_patterns_and_path_rules_are_skipped() -> None:
    pack = _pack()
    ids = [s["id"] for s in pack.rules["OVA411"].secret]
    assert ids == ["gitleaks:zorp-api-key", "gitleaks:kelp-secret", "gitleaks:quill-webhook"]


def test_posix_class_keywords_and_entropy() -> None:
    token = "zorp_" + "Q7vK2mX9pL4tR8nB3cW6yH1j"
    assert _found(f"deploy {token} now") == [("gitleaks:zorp-api-key", token)]
    # Keywords are matched case-insensitively, the regex keeps its case: `ZORP_` is not the format.
    assert _found(f"deploy {token.upper()} now") == []
    # Under the rule's entropy: not reported.
    assert _found("deploy zorp_aaaaaaaaaaaabbbbbbbbbbbb now") == []


def test_secret_group_picks_the_secret_and_named_groups_are_translated() -> None:
    body = "m3k9x2v7q8w1e5r4t6y0u2i3o9p1"
    found = _found(f'KELP_CLIENT_SECRET = "kl-{body}"')
    assert found == [("gitleaks:kelp-secret", body)]


def test_allowlists_of_the_rule_and_of_the_file() -> None:
    # The rule's allowlist looks at the whole line; the file's stopwords at the secret.
    assert _found("zorp-docs-sample: zorp_Q7vK2mX9pL4tR8nB3cW6yH1j") == []
    assert _found("deploy zorp_fixtureQ7vK2mX9pL4tR8nB3cW6 now") == []
    # An AND allowlist that needs a path can never be shown to hold on a string: the finding stays.
    assert _found('kelp_token: "kl-m3k9x2v7q8w1e5r4t6y0u2i3o9p1"')


def test_without_keywords_the_rule_runs_on_every_text_and_z_is_the_end() -> None:
    path = "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5"
    assert _found(f"hooks.quill.example/hk/{path}") == [("gitleaks:quill-webhook", path)]
    assert _found(f"hooks.quill.example/hk/{path} and more") == []


@pytest.mark.parametrize(
    "regex, words",
    [
        (r"\pL{20}", "not valid in Python's re"),  # a Unicode class RE2 has and Python's re lacks
        (r"x[[:^alpha:]]{9}", "negated POSIX class"),
    ],
)
def test_a_regex_python_cannot_compile_is_a_clear_error_naming_the_rule(
    regex: str, words: str
) -> None:
    text = f"[[rules]]\nid = \"odd-rule\"\nregex = '''{regex}'''\n"
    with pytest.raises(ValueError) as error:
        _pack(text)
    assert (
        "team-gitleaks.toml" in str(error.value)
        and "odd-rule" in str(error.value)
        and words in str(error.value)
    )


def test_bad_secret_group_and_entropy_are_errors() -> None:
    with pytest.raises(ValueError, match="secretGroup 3"):
        _pack("[[rules]]\nid = \"g\"\nregex = '''(a)(b)'''\nsecretGroup = 3\n")
    with pytest.raises(ValueError, match="entropy must be a number"):
        _pack("[[rules]]\nid = \"e\"\nregex = '''abc'''\nentropy = \"high\"\n")


def test_cli_reports_gitleaks_findings_masked_and_a_bad_file_in_one_line(tmp_path: Path) -> None:
    token = "zorp_" + "Q7vK2mX9pL4tR8nB3cW6yH1j"
    (tmp_path / "team-gitleaks.toml").write_text(RULES, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["team-gitleaks.toml"]\n', encoding="utf-8"
    )
    (tmp_path / "config.json").write_text(
        json.dumps({"zorp": f"use {token}"}) + "\n", encoding="utf-8"
    )
    for fmt in ("text", "json", "sarif"):
        proc = run_cli("--no-cache", "--format", fmt, "config.json", cwd=tmp_path)
        assert proc.returncode == 1 and "OVA411" in proc.stdout, fmt
        assert token[5:] not in proc.stdout + proc.stderr, fmt
    fixed = run_cli("--no-cache", "--fix", "config.json", cwd=tmp_path)
    assert fixed.returncode in (0, 1) and token not in (tmp_path / "config.json").read_text(
        encoding="utf-8"
    )

    (tmp_path / "team-gitleaks.toml").write_text(
        "[[rules]]\nid = \"odd\"\nregex = '''\\pL+'''\n", encoding="utf-8"
    )
    proc = run_cli("--no-cache", "config.json", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "odd" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_translation_of_re2_spellings() -> None:
    assert gitleaks.python_regex(r"(?<tok>[[:xdigit:]]+)\z") == r"(?P<tok>[0-9A-Fa-f]+)\Z"
    # Lookbehinds are left alone.
    assert gitleaks.python_regex(r"(?<![a-z])x(?<=x)") == r"(?<![a-z])x(?<=x)"
