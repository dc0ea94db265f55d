"""Work the string scan leaves undone (issue 25, speed): a needle index compiles its own regex only for text
that is not ASCII. The findings stay the same."""

from __future__ import annotations

from ovadapt_lint.detect.credentials import SecretPatterns, scan_secrets
from ovadapt_lint.pack import builtin_pack


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
