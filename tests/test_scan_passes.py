"""Work the string scan leaves undone (issue 25, speed): a needle index compiles its own regex only for text that
is not ASCII, and a published Python literal that both python-secrets and python-content scan gets one
credential pass. The findings stay the same."""

from __future__ import annotations

from pathlib import Path

from ovadapt_lint.analysis import Analysis
from ovadapt_lint.checks.catalog import Context, run_checks
from ovadapt_lint.config import Config
from ovadapt_lint.detect.credentials import SecretPatterns, scan_secrets
from ovadapt_lint.frontends.python_text import parse_text
from ovadapt_lint.pack import builtin_pack
from ovadapt_lint.source import SourceFile


def test_a_needle_index_compiles_its_regex_only_for_text_that_is_not_ascii() -> None:
    patterns = SecretPatterns(builtin_pack().secrets.patterns)
    exact, folded = patterns.needle_index
    assert exact is not None and folded is not None
    for text in ("a token: here", "sk-not-a-key", "github_pat_x and ghp_y"):
        scan_secrets(text, patterns)
    # The one RE2 pass (NeedleSets) answered for ASCII text: sre never compiled the indexes' tries.
    assert "regex" not in vars(exact) and "regex" not in vars(folded)
    scan_secrets("un jeton: déjà vu, ghp_y", patterns)
    assert "regex" in vars(exact) and "regex" in vars(folded)


# A projection built of literals (every literal is judged under --scope all).
MODULE = """\
def build_projection(run):
    return {
        "schema_version": "status_projection_v1",
        "summary": "nothing private in this text",
        "owner_note": "written for the public page",
    }
"""


def test_a_published_literal_gets_one_credential_pass(
    tmp_path: Path, secret_scans: list[str]
) -> None:
    path = tmp_path / "pkg" / "status.py"
    path.parent.mkdir()
    path.write_text(MODULE, encoding="utf-8")
    source = SourceFile(path, "pkg/status.py", MODULE.encode())
    module, notices = parse_text(source)
    assert module is not None and not notices
    ctx = Context(source, Analysis.build(Config(scope="all")), "source", module=module)
    assert run_checks("python", ctx) == []
    assert ctx.publication is not None and ctx.publication.spans
    literals = {lit.value for lit in module.literals if len(lit.value) >= 3}
    # python-secrets and python-content both scanned each literal: one credential pass serves both.
    assert sorted(secret_scans) == sorted(literals)
