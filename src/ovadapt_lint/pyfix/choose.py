"""Which findings --fix may touch, and with what: no libcst here (a plain run imports this module only
through fix.py, and only when fixing)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .. import rulepack
from ..findings import Finding

# What a literal edit may write: a placeholder, quoted or not, or `false` (an attestation restated as the
# boolean). Checked before an edit is applied and before a report shows one.
SAFE_REPLACEMENT = re.compile(r'^(?:"?\[redacted:[a-z-]{1,40}\]"?|false)$')
# The flow rules whose Python fix is a codemod (rules/fixes.toml says which).
FLOW_FIX_CODES = frozenset({"OVA208", "OVA410", "OVA504", "OVA605"})


@dataclass(frozen=True)
class FixOptions:
    """What the user allowed: unsafe fixes too (--unsafe-fixes), and the configured sanitisers."""

    unsafe: bool = False
    sanitizers: tuple[str, ...] = ()


def applicability(finding: Finding, rules: dict[str, Any] | None = None) -> str:
    """The fix applicability of ``finding``: "safe", "unsafe" or "none" (no fix for this finding)."""
    from ..registry import all_rules

    rule = (rules if rules is not None else all_rules()).get(finding.code)
    declared = rule.applicability if rule is not None else "none"
    if finding.fix is not None:
        # A literal rewrite: the rule may call it unsafe; it is never "none" once a check planned it.
        return "unsafe" if declared == "unsafe" else "safe"
    if is_codemod(finding) and declared != "none":
        return declared
    return "none"


def fix_report(finding: Finding, rules: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The finding's fix as the JSON and SARIF reports give it (None: it has none). A literal edit is given
    as bytes of the file (after a UTF-8 byte-order mark) and its placeholder; a codemod's edit is computed
    only by --fix/--diff (libcst is not loaded for a report), so it is described, without edits."""
    edit = finding.extra.get(
        "edit"
    )  # the literal edit as the engine recorded it (a cached run too)
    if edit is not None:
        start, length, text = edit
        if not isinstance(text, str) or not SAFE_REPLACEMENT.match(text):
            return None
        from ..registry import all_rules

        rule = (rules if rules is not None else all_rules()).get(finding.code)
        return {
            "applicability": "unsafe"
            if rule is not None and rule.applicability == "unsafe"
            else "safe",
            "message": f"replace the value with {text}",
            "edits": [{"byte_offset": start, "byte_length": length, "content": text}],
        }
    if finding.fix is not None or not is_codemod(finding):
        return None  # a literal edit the engine did not record is not shown
    kind = applicability(finding, rules)
    if kind == "none":
        return None
    what = (
        "remove the credential's field or item store"
        if finding.code == "OVA410"
        else "route the value through the sanitiser at its sink, or replace a raw-named field by "
        "its compact counterpart or remove it"
    )
    return {
        "applicability": kind,
        "message": f"{what} (`--diff --unsafe-fixes` shows the edit)",
        "edits": [],
    }


def is_codemod(finding: Finding) -> bool:
    """A flow finding of a Python file, fixed at its sink by a codemod."""
    return finding.code in FLOW_FIX_CODES and bool(finding.extra.get("flow"))


def allowed(finding: Finding, options: FixOptions, rules: dict[str, Any] | None = None) -> bool:
    kind = applicability(finding, rules)
    return kind == "safe" or (kind == "unsafe" and options.unsafe)


@lru_cache(maxsize=1)
def fix_data() -> dict[str, Any]:
    return rulepack.load_toml("fixes.toml")


def sanitizer(options: FixOptions) -> str:
    """The dotted name of the function a flow is routed through: the first configured sanitiser that names
    its module (``package.module.function``), else the documented default."""
    for name in options.sanitizers:
        if "." in name.strip(".") and ":" not in name:
            return name
    return str(fix_data()["sanitizer"]["default"])


def counterparts() -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """raw key -> (its compact counterpart's key, the value template, modules to import)."""
    out = {}
    for entry in fix_data().get("counterpart", []):
        for key, new in entry["keys"].items():
            out[key] = (new, entry["template"], tuple(entry["imports"]))
    return out
