"""The rule pack is a value (issue 19): a configuration's extension rules live in its own pack, beside the
built-in one, and a pack shipped to a worker carries its patterns uncompiled."""

from __future__ import annotations

import pickle

from ovadapt_lint.detect.scanner import StringScanner
from ovadapt_lint.pack import RulePack, builtin_pack

from .test_config import EXTRA_RULES

TICKET = "export TKT|42|open for review"
TOKEN = "deploy with ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8" + " now"


def _codes(pack: RulePack, text: str) -> set[str]:
    return {hit.code for hit in StringScanner(pack).scan(text)}


def test_extension_rules_stay_in_their_own_pack():
    extended = RulePack.load((("tickets.toml", EXTRA_RULES),))
    assert "OVA390" in _codes(extended, TICKET)
    # Building the extended pack changed nothing for anyone holding the built-in one.
    assert "OVA390" not in _codes(builtin_pack(), TICKET)
    assert "OVA390" not in builtin_pack().rules and "OVA390" in extended.rules
    assert RulePack.load((("tickets.toml", EXTRA_RULES),)) is extended  # equal contents, one pack


def test_a_shipped_pack_is_uncompiled_and_finds_the_same():
    pack = RulePack.load((("tickets.toml", EXTRA_RULES),))
    before = StringScanner(pack).scan(TOKEN) + StringScanner(pack).scan(TICKET)
    assert any(p.__dict__.get("regex") is not None for p in pack.secrets)  # the scan compiled some
    shipped = pickle.loads(pickle.dumps(pack))
    assert not any("regex" in p.__dict__ for p in shipped.secrets)
    assert "needle_index" not in shipped.secrets.__dict__
    assert StringScanner(shipped).scan(TOKEN) + StringScanner(shipped).scan(TICKET) == before
    assert before  # the token and the ticket line are both found
