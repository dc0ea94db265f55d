"""The provider token catalogue (rules/secrets/providers.toml): every documented format is found,
its near-miss (wrong length, alphabet or prefix) is not, placeholders never are, --fix redacts every
format, and a malformed catalogue fails on load with a message naming the entry."""

# ovadapt: ignore-file

from __future__ import annotations

import json
import random

import pytest

from ovadapt_lint import redact_text
from ovadapt_lint.detect.credentials import SecretPattern, scan_secrets
from ovadapt_lint.pack import builtin_pack
from ovadapt_lint.registry import all_rules, check_providers, provider_secrets

from .providers_util import expand

ENTRIES = provider_secrets()
IDS = [e["id"] for e in ENTRIES]


def _examples(field: str, seed: int = 16) -> list[tuple[dict, str]]:
    rng = random.Random(seed)
    return [(e, expand(e[field], rng)) for e in ENTRIES]


def test_catalogue_covers_many_providers() -> None:
    assert len(ENTRIES) >= 120
    assert len({e["provider"] for e in ENTRIES}) >= 80
    assert set(IDS) <= {s["id"] for s in all_rules()["OVA401"].secret}


@pytest.mark.parametrize("seed", [16, 17, 18])
def test_every_provider_example_is_reported_by_its_entry(seed: int) -> None:
    missed = []
    for entry, text in _examples("example", seed):
        if "example_key" in entry:  # a format known only under its key (`sumo_access_id`)
            hits = scan_secrets(text, builtin_pack().secrets, entry["example_key"])
        else:
            hits = scan_secrets(f"deploy with {text} now", builtin_pack().secrets)
        if not any(h.signature == entry["id"] and h.code == entry["code"] for h in hits):
            missed.append((entry["id"], [h.signature for h in hits]))
    assert missed == []


@pytest.mark.parametrize("seed", [16, 17, 18])
def test_no_provider_near_miss_is_reported(seed: int) -> None:
    flagged = []
    for entry, text in _examples("near_miss", seed):
        hits = [
            h.signature
            for h in scan_secrets(f"deploy with {text} now", builtin_pack().secrets)
            if h.signature in IDS
        ]
        if hits:
            flagged.append((entry["id"], hits))
    assert flagged == []


def test_provider_placeholders_are_not_reported() -> None:
    for text in (
        "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "sk_test_EXAMPLEEXAMPLEEXAMPLEEXAMPLE00",
        "your_hf_token_here",
        "dop_v1_${DIGITALOCEAN_TOKEN}",
        "[REDACTED]",
        "lin_api_<your-key>",
        "glsa_...",
        "PMAK-{{ secrets.POSTMAN }}",
    ):
        assert scan_secrets(text, builtin_pack().secrets) == [], text


def test_stripe_test_mode_keys_are_reported() -> None:
    # A test-mode key is still a key: issue 16 reverses the old `sk_test_` exemption.
    rng = random.Random(1)
    for prefix in ("sk_test_", "rk_test_", "sk_live_", "rk_live_"):
        token = prefix + expand("{a:99}", rng)
        assert [h.signature for h in scan_secrets(token, builtin_pack().secrets)] in (
            ["stripe-secret-key"],
            ["stripe-restricted-key"],
        )


def test_fix_redacts_every_provider_format() -> None:
    for entry, text in _examples("example"):
        document = (
            {entry["example_key"]: text} if "example_key" in entry else {"note": f"use {text} here"}
        )
        fixed = redact_text(json.dumps(document))
        secret = text.split("//", 1)[-1] if entry["id"].endswith(("webhook", "url")) else text
        assert secret not in fixed and "[redacted:" in fixed, entry["id"]


def test_needle_prefilter_sees_needles_that_share_a_start() -> None:
    exact, _ = builtin_pack().secrets.needle_index
    # `sk-ant-` and `sk-` start at the same place; `AAAA` runs overlap one another.
    assert {"sk-ant-", "sk-"} <= exact.present("x sk-ant-api03")
    assert {"EAA", "EAAA"} <= exact.present("EAAA")


def test_unknown_or_missing_catalogue_keys_are_errors() -> None:
    good = dict(ENTRIES[0])
    with pytest.raises(ValueError, match=r"huggingface-token.*unknown keys \['lenght'\]"):
        check_providers([{**good, "lenght": 34}])
    with pytest.raises(ValueError, match=r"missing keys \['near_miss'\]"):
        check_providers([{k: v for k, v in good.items() if k != "near_miss"}])
    with pytest.raises(ValueError, match="duplicate id"):
        check_providers([good, good])
    with pytest.raises(ValueError, match="needles"):
        check_providers([{**good, "needles": []}])


def test_bad_provider_regex_is_a_clear_error() -> None:
    pattern = SecretPattern.from_data("OVA401", {"id": "broken", "label": "x", "regex": "hf_[A-Z"})
    with pytest.raises(ValueError, match="secret pattern broken: bad regex"):
        pattern.regex
    for entry in ENTRIES:  # every shipped regex compiles
        SecretPattern.from_data(entry["code"], entry).regex
