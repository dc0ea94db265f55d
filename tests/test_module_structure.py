"""Module layering and rule-pack integrity that would otherwise only fail at run time."""

from __future__ import annotations

import ast
from pathlib import Path

import ovadapt_lint

SRC = Path(ovadapt_lint.__file__).parent


def _imported_modules(name: str) -> set[str]:
    """The package-relative modules ``name`` imports, at module level or inside functions."""
    tree = ast.parse((SRC / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_discover_does_not_import_config_for_its_error_type():
    assert "config" not in _imported_modules("discover")
    assert "discover" not in _imported_modules("errors") and "config" not in _imported_modules(
        "errors"
    )


def test_config_error_is_one_class_wherever_it_is_imported_from():
    from ovadapt_lint import ConfigError, config, errors, vcs

    assert config.ConfigError is errors.ConfigError is ConfigError
    assert issubclass(vcs.GitError, errors.ConfigError)


# --- declared codes --------------------------------------------------------------------------------------

# Rules no catalog check emits: notices come from the readers, the engine and the baseline; OVA314 from
# the file-level raw-storage pass.
EMITTED_OUTSIDE_CHECKS = {"OVA314"}
# Codes two checks of one file kind legitimately share: string-content finds the text signature of a raw
# structure inside a string, raw-structures finds the same kind of content as JSON structure (a list of
# chat messages, a tool-output object).
SHARED_CLAIMS = {
    (kind, code): {"string-content", "raw-structures"}
    for kind in ("json", "jsonl")
    for code in ("OVA302", "OVA305", "OVA312")
}


def test_every_declared_code_exists_in_the_rule_pack() -> None:
    from ovadapt_lint.checks.catalog import CATALOG
    from ovadapt_lint.registry import all_rules

    for kind, checks in CATALOG.items():
        for check in checks:
            unknown = [code for code in check.codes if code not in all_rules()]
            assert not unknown, (
                f"{kind} check {check.name} declares codes the rule pack lacks: {unknown}"
            )


def test_every_rule_code_written_in_the_source_exists_in_the_rule_pack() -> None:
    # A literal such as notice("OVA011", ...) would otherwise fail only when that path runs.
    from ovadapt_lint.registry import all_rules

    missing = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and len(node.value) == 6
                and node.value.startswith("OVA")
                and node.value[3:].isdigit()
                and node.value not in all_rules()
            ):
                missing.append(f"{path.relative_to(SRC)}:{node.lineno} {node.value}")
    assert missing == []


def test_every_rule_is_claimed_by_exactly_one_check_per_file_kind() -> None:
    from ovadapt_lint.checks.catalog import CATALOG
    from ovadapt_lint.registry import all_rules, is_notice

    claimed_anywhere = set()
    for kind, checks in CATALOG.items():
        for code in all_rules():
            claimants = {check.name for check in checks if check.claims(code)}
            claimed_anywhere |= {code} if claimants else set()
            assert len(claimants) <= 1 or SHARED_CLAIMS.get((kind, code)) == claimants, (
                f"{code} is claimed by several {kind} checks: {sorted(claimants)}"
            )
    for code in all_rules():
        outside = is_notice(code) or code in EMITTED_OUTSIDE_CHECKS
        assert (code in claimed_anywhere) != outside, (
            f"{code}: claimed by a check" if outside else f"{code}: claimed by no check"
        )
