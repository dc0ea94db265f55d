"""Each rule says in rules.toml which family of checks reports it; the check catalog takes its codes from
there, never from hard-coded code ranges (issue 29)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import ovadapt_lint
from ovadapt_lint import registry
from ovadapt_lint.checks import catalog

SRC = Path(ovadapt_lint.__file__).parent
# Reported outside the catalog's checks: by the readers (notices) and the whole-file pass (raw storage files).
OUTSIDE_THE_CATALOG = {"notice", "raw-file"}


def test_every_rule_names_a_known_family_and_every_family_has_rules():
    rules = registry.all_rules().values()
    assert [r.code for r in rules if r.family not in registry.FAMILIES] == []
    assert {r.family for r in rules} == set(registry.FAMILIES)


def test_the_checks_claim_exactly_the_rules_of_their_families():
    claimed = {code for checks in catalog.CATALOG.values() for c in checks for code in c.codes}
    rules = registry.all_rules()
    assert sorted(claimed - set(rules)) == []  # no check names a code the pack does not define
    unclaimed = [
        code
        for code, rule in rules.items()
        if rule.family not in OUTSIDE_THE_CATALOG and code not in claimed
    ]
    assert unclaimed == []
    assert [code for code in claimed if rules[code].family in OUTSIDE_THE_CATALOG] == []


def test_a_family_is_read_from_the_rule_pack(monkeypatch):
    rules = dict(registry.all_rules())
    assert "OVA503" in registry.family_codes("content")
    rules["OVA503"] = dataclasses.replace(rules["OVA503"], family="secret")
    monkeypatch.setattr(registry, "all_rules", lambda: rules)
    assert "OVA503" in registry.family_codes("secret")
    assert "OVA503" not in registry.family_codes("content")


def test_the_catalog_holds_no_code_ranges():
    text = (SRC / "checks" / "catalog.py").read_text(encoding="utf-8")
    assert re.findall(r"\(\s*\d{3}\s*,\s*\d{3}\s*\)", text) == []


def test_an_unknown_family_is_a_clear_error():
    extension = {
        "rule": [
            {
                **{k: v for k, v in registry.get("OVA701").__dict__.items() if k != "secret"},
                "code": "OVA790",
                "family": "secrets",
            }
        ]
    }
    with pytest.raises(ValueError, match="OVA790 has unknown family 'secrets'"):
        registry.build_rules((("tickets.toml", extension),))
