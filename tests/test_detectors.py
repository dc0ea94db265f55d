"""Credentials, local paths, private URLs and the deny-list on real and planted data."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from ovadapt_lint import Config, lint_paths
from ovadapt_lint.detect.scanner import StringScanner
from ovadapt_lint.pack import builtin_pack
from ovadapt_lint.registry import all_rules

from .conftest import (
    CORPUS,
    LOOPX_FIXTURES,
    SHARED,
    config_with_deny_list,
    plant_in_adapter,
    require_shared,
    run_cli,
)

TEXT_CORPUS = SHARED / "realworld" / "loopx" / "tests" / "fixtures" / "public_safe_text_corpus.json"
REJECTS = SHARED / "realworld" / "loopx" / "examples" / "computer-use-runtime-contract-fixtures"
DETECTOR_PREFIXES = ("OVA4", "OVA5", "OVA6", "OVA7")


def _expand(template: str, tokens: dict) -> str:
    def fill(match: re.Match) -> str:
        name = match.group(1)
        if name.endswith("_LOWER"):
            return "".join(tokens[name[:-6]]).lower()
        return "".join(tokens[name])

    return re.sub(r"\{([A-Z_]+)\}", fill, template)


def _text_corpus() -> dict[str, list[tuple[str, str]]]:
    require_shared()
    data = json.loads(TEXT_CORPUS.read_text(encoding="utf-8"))
    return {
        bucket: [(s["id"], _expand(s["template"], data["tokens"])) for s in data[bucket]]
        for bucket in ("public_safe", "private_looking", "internal_state_prose")
    }


def _lint_strings(tmp_path: Path, samples: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Each sample as a string value in a published fixture: sample id -> detector codes found.
    The samples are text that would appear in a public projection, so they are linted as public values."""
    target = tmp_path / "samples.public.json"
    target.write_text(json.dumps({sid: text for sid, text in samples}, indent=1), encoding="utf-8")
    found: dict[str, list[str]] = {sid: [] for sid, _ in samples}
    for finding in lint_paths([str(target)], Config()):
        if finding.code.startswith(DETECTOR_PREFIXES):
            found[finding.json_path].append(finding.code)
    return found


def test_loopx_private_looking_samples_are_all_flagged(tmp_path: Path) -> None:
    samples = _text_corpus()["private_looking"]
    assert len(samples) == 35
    found = _lint_strings(tmp_path, samples)
    assert [sid for sid, codes in found.items() if not codes] == []


def test_loopx_public_safe_samples_are_not_flagged(tmp_path: Path) -> None:
    samples = _text_corpus()["public_safe"]
    assert len(samples) == 7
    assert {sid: codes for sid, codes in _lint_strings(tmp_path, samples).items() if codes} == {}


def test_loopx_internal_state_prose_is_treated_as_prose(tmp_path: Path) -> None:
    # The four LoopX owners accept these (credential words beside ordinary words);
    # ovadapt-lint follows that tier: a word alone is not a credential.
    samples = _text_corpus()["internal_state_prose"]
    assert len(samples) == 9
    assert {sid: codes for sid, codes in _lint_strings(tmp_path, samples).items() if codes} == {}


def test_the_three_loopx_reject_fixtures_are_flagged() -> None:
    """The detectors catch each trap LoopX's negative cases plant. The cases declare `"expect": "reject"`, so
    by default they are test data (their traps are not leaks; a credential would be judged as in tests);
    the audit scope judges them as published."""
    require_shared()
    assert lint_paths([str(REJECTS)]) == []
    codes = {
        path.name: sorted({f.code for f in lint_paths([str(path)], Config(scope="all"))})
        for path in sorted(REJECTS.glob("*.json"))
    }
    assert codes == {
        "03_raw_evidence_reject.json": ["OVA207"],
        "08_smuggled_cookie_in_session_reference_reject.json": ["OVA405"],
        "09_smuggled_credential_in_handle_kind_reject.json": ["OVA403"],
    }


def test_clean_loopx_fixtures_get_no_detector_finding() -> None:
    require_shared()
    findings = [
        f for f in lint_paths([str(LOOPX_FIXTURES)]) if f.code.startswith(DETECTOR_PREFIXES)
    ]
    assert findings == []


# --- no output format ever shows a secret ---------------------------------

SECRET_RULES = sorted(code for code, rule in all_rules().items() if rule.secret)
# Literal secrets in the corpus, checked independently of the detectors.
KNOWN_SECRETS = [
    "hunter2",
    "9fQ2w7Lm",
    "Hq8zN2vX4c",
    "correcthorsebatterystaple",
    "session_abc123",
    "8f2a91c4d7e6",
    "QWxhZGRpbjpvcGVuIHNlc2FtZQ",
    "wJalrXUtnFEMI",
    "Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0Kl",
    "9f86d081884c7d659a2f",
    "Qm9vbGVhbkZsYWdz",
    "4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4",
    "7d9Qw3Lm5Rt1Yu8Io2Pa",
]


def _secret_values(path: Path) -> set[str]:
    scanner = StringScanner(builtin_pack())
    values = set()
    for text in re.findall(r'"((?:[^"\\]|\\.)*)"', path.read_text(encoding="utf-8")):
        text = json.loads(f'"{text}"')
        values |= {
            text[h.start : h.end] for h in scanner.scan(text) if h.secret and h.end - h.start >= 4
        }
    return values


@pytest.mark.parametrize("code", SECRET_RULES)
@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github"])
def test_no_format_prints_a_found_secret(code: str, fmt: str) -> None:
    examples = sorted((CORPUS / code).glob("bad_*.json"))
    assert examples
    proc = run_cli("--format", fmt, *map(str, examples))
    assert proc.returncode == 1
    assert code in proc.stdout
    output = proc.stdout
    if (
        fmt == "sarif"
    ):  # the rule descriptors quote the rules' documented examples, not found values
        sarif = json.loads(output)
        sarif["runs"][0]["tool"]["driver"]["rules"] = []
        output = json.dumps(sarif)
    secrets = set().union(*(_secret_values(p) for p in examples))
    assert secrets, f"no secret located in corpus/{code}"
    for secret in secrets | {s for s in KNOWN_SECRETS if any(s in p.read_text() for p in examples)}:
        assert secret not in output, f"{code} {fmt} output shows a secret"


# --- planted: a held-out style check ---------------------------------------

NAME_HASH = hashlib.sha256(b"project nightjar").hexdigest()
PLANTED = [
    ("note", "deploy with sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm"),
    ("handle", "Authorization: Bearer abc123def456"),
    ("reference", "cookie=session_9f8e7d6c; secure; httponly"),
    ("cfg", "password=hunter2"),
    ("dsn", "postgres://loopx:9fQ2w7Lm@db.example.net/app"),
    (
        "hint",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4",
    ),
    ("ov", "ovrt_" + "Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0Kl" * 2),
    ("key_block", "-----BEGIN EC PRIVATE KEY-----"),
    ("token_text", "token is 7f3k9q"),
    ("gh", "ghs_" + "a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV1234"),
    ("aws", "AKIAZ7QW3XRT5YU1IO8P"),
    ("source", "/Users/alice/src/secret-project/main.py"),
    ("tmp", "/private/var/folders/8x/abc/T/out.json"),
    ("win", "C:\\Users\\bob\\AppData\\Local\\x.log"),
    ("uri", "file:///home/carol/notes.md"),
    ("endpoint", "http://10.1.2.3:8080/api"),
    ("local", "http://localhost:1933/api/v1"),
    ("wiki", "https://wiki.corp/loopx"),
    ("signed", "https://bucket.s3.amazonaws.com/x?X-Amz-Signature=0f1e2d3c4b5a69788796"),
    ("viking", "viking://user/u1/memories/events/e.md"),
    ("lane", "bluefin rollout"),
    ("BluefinClientRef", "lane_7"),
    ("codename", "Project Nightjar follow-up"),
    ("tracker", "ACMEINT-42"),
]
NEAR_MISSES = [
    ("homepage", "https://github.com/volcengine/OpenViking"),
    ("docs", "https://example.com/docs?page=2"),
    ("registry", "https://pypi.org/project/ovadapt-lint/"),
    ("path", "docs/guides/getting-started.md"),
    ("source", "src/ovadapt_lint/cli.py"),
    ("commit", "4726a6f0c8e1d2b3a4f5e6d7c8b9a0f1e2d3c4b5"),
    ("digest_ref", "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
    ("uuid", "7fd97a9e-b826-43a1-8f55-189dbf91b43b"),
    ("api_key", "<your-api-key>"),
    ("setup", "export OPENVIKING_API_KEY={your-api-key}"),
    ("privacy", "{{ov_privacy:skill:NAME:FIELD}}"),
    ("pattern", r"(?i)\b(?:password|token)\s*[:=]\s*\S+"),
    ("home_pattern", r"^/Users/[^/]+/"),
    ("prose", "the bearer token expired"),
    ("prose2", "Authorization remains with the human owner"),
    ("version", "1.2.3.4"),
    ("time", "10:30"),
    ("bird", "bluefinch survey"),
    ("ratio", "3:1 split"),
    ("resource", "viking://resources/reward-memory/openviking-issue-fix"),
]


@pytest.fixture
def deny_config(tmp_path: Path) -> Config:
    return config_with_deny_list(tmp_path, f"bluefin\nre:acme-?int\nsha256:{NAME_HASH}\n")


def test_planted_credentials_paths_urls_and_names_are_caught(
    tmp_path: Path, deny_config: Config, adapter_fixture: Path
) -> None:
    missed = []
    for seed in (11, 12):
        for target, key in plant_in_adapter(tmp_path, PLANTED, seed, adapter_fixture):
            if not [
                f
                for f in lint_paths([str(target)], deny_config)
                if f.code.startswith(DETECTOR_PREFIXES)
            ]:
                missed.append(key)
    assert 1 - len(missed) / (2 * len(PLANTED)) >= 0.9, missed
    assert missed == []


def test_planted_near_misses_are_clean(
    tmp_path: Path, deny_config: Config, adapter_fixture: Path
) -> None:
    for seed in (21, 22):
        for target, key in plant_in_adapter(tmp_path, NEAR_MISSES, seed, adapter_fixture):
            findings = lint_paths([str(target)], deny_config)
            assert findings == [], (key, [(f.code, f.message) for f in findings])


def test_internal_domains_from_cli(tmp_path: Path) -> None:
    target = tmp_path / "f.public.json"  # a published document: private URLs are judged there
    target.write_text('{"link": "https://git.acme-int.net/x"}', encoding="utf-8")
    assert run_cli(str(target)).returncode == 0
    proc = run_cli("--internal-domain", "acme-int.net", "--format", "json", str(target))
    assert [f["code"] for f in json.loads(proc.stdout)["findings"]] == ["OVA603"]


def test_deny_hash_subcommand_matches_hashed_entries(tmp_path: Path) -> None:
    proc = run_cli("deny-hash", "Project Nightjar")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"sha256:{NAME_HASH}"


def test_bad_deny_list_through_the_api_is_a_config_error(tmp_path: Path) -> None:
    from ovadapt_lint import ConfigError

    target = tmp_path / "f.json"
    target.write_text("{}", encoding="utf-8")
    bad = tmp_path / "deny.txt"
    bad.write_text("sha256:not-hex\n", encoding="utf-8")
    config = Config(deny_list=[bad])
    with pytest.raises(ConfigError, match="deny.txt:1"):
        lint_paths([str(target)], config)


def test_redact_text_masks_every_detected_secret_and_long_tokens() -> None:
    from ovadapt_lint.redact import mask_text

    secrets = [
        "sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm",
        "hunter2",
        "9fQ2w7Lm",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4",
        "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0e1",
    ]
    text = (
        f"use {secrets[0]} then password={secrets[1]} for postgres://u:{secrets[2]}@db.example.net/x, "
        f"id_token_hint {secrets[3]} and opaque {secrets[4]}"
    )
    shown = mask_text(text)
    assert not [s for s in secrets if s in shown], shown
    assert "sk-p…[48 chars]" in shown and "postgres://u:" in shown
    assert mask_text("the bearer token expired") == "the bearer token expired"


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("copied /home/alice/.ssh/id_rsa (match .*)", "OVA501"),
        ("db at https://db.prod.internal/x {1}", "OVA603"),
        ("C:\\Users\\alice\\.aws\\credentials", "OVA501"),
    ],
)
def test_regex_looking_text_elsewhere_leaves_paths_and_urls_checked(tmp_path, value, code):
    # Issue 15: regex syntax beside a path or URL, or an escape that is not a valid pattern, used to turn
    # the path and URL checks off for the whole string.
    target = tmp_path / "x.public.json"
    target.write_text(json.dumps({"note": value}))
    assert code in {f.code for f in lint_paths([str(target)])}


@pytest.mark.parametrize("value", [r"^/home/[^/]+/\.ssh/.*$", r"https://db\.prod\.internal/.*"])
def test_path_and_url_inside_a_regular_expression_stay_unreported(tmp_path, value):
    target = tmp_path / "x.public.json"
    target.write_text(json.dumps({"pattern": value}))
    assert not {f.code for f in lint_paths([str(target)])} & {"OVA501", "OVA603"}
