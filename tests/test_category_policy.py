"""Category policy lives in the rule pack's [[category]] table; code asks it, never a code prefix."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import ovadapt_lint
from ovadapt_lint import registry
from ovadapt_lint.fix import redact_text
from ovadapt_lint.report.sarif import _descriptor

SRC = Path(ovadapt_lint.__file__).parent
TOKEN = (
    "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
)  # credential-shaped, built so no scanner flags this file


def test_every_rule_category_is_declared_with_a_matching_prefix():
    categories = registry.categories()
    for rule in registry.all_rules().values():
        assert rule.category in categories, (
            f"{rule.code}: category {rule.category!r} is not in [[category]]"
        )
        assert rule.code.startswith(categories[rule.category].prefix)


def test_no_code_prefix_stands_in_for_a_category_in_src():
    # `startswith("OVA3")` and the like: a category decided by a code's spelling.
    pattern = re.compile(r"""startswith\(\s*["']OVA\d""")
    offenders = [
        f"{path.relative_to(SRC)}:{number}"
        for path in SRC.rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_fix_placeholder_follows_the_category_table(monkeypatch):
    text = json.dumps({"ci": {"env": TOKEN}})
    assert "[redacted:credential]" in redact_text(text)
    changed = dict(registry.categories())
    changed["credential"] = dataclasses.replace(changed["credential"], placeholder="secret-value")
    monkeypatch.setattr(registry, "categories", lambda: changed)
    fixed = redact_text(text)
    assert "[redacted:secret-value]" in fixed and TOKEN not in fixed


def test_sarif_security_severity_comes_from_the_category():
    for rule in registry.all_rules().values():
        properties = _descriptor(rule)["properties"]
        assert properties.get("security-severity", "") == rule.policy.security_severity
        assert ("security" in properties["tags"]) == bool(rule.policy.security_severity)
    assert not registry.get("OVA001").policy.security_severity  # notices are not security alerts


def test_fix_blocking_notices_are_declared_on_their_rules():
    blocking = {code for code, rule in registry.all_rules().items() if rule.blocks_fix}
    assert blocking == {"OVA001", "OVA002", "OVA005", "OVA006"}
    assert registry.get("OVA002").blocks_fix_at("error") and not registry.get(
        "OVA002"
    ).blocks_fix_at("warning")
    # A file whose JSON is broken is returned unchanged, secret and all, rather than half-fixed.
    broken = '{"env": "' + TOKEN + '",}'
    assert redact_text(broken) == broken
