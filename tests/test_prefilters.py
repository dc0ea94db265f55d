"""The prefilters in front of the detectors never drop a hit (issue 15).

detect-secrets' regexes run only on texts holding a literal they cannot match without
(detect/required_literals.py). The proof here is the regex engine's own: random strings are built from each
regex's parse tree, the ones the regex really matches are kept (case-swapped, and with `ſ` for `s` where the
regex ignores case), and every one of them must reach the regex; a scan with the prefilter must equal a scan
without it. The needle scan that picks credential patterns and text signatures (detect/needles.py) must find
exactly the needles a text holds, overlapping ones included."""

from __future__ import annotations

import random
import re

import pytest

from ovadapt_lint.detect import credentials
from ovadapt_lint.detect.credentials import _detect_secrets_index, scan_secrets
from ovadapt_lint.detect.required_literals import _sre, required_literals
from ovadapt_lint.pack import builtin_pack

SAMPLES_PER_REGEX = 150
_POOL = "aZ9._-/:@ =+\"'"
_ALNUM = "aZ9bQ3xk"
_CATEGORIES = {
    "CATEGORY_DIGIT": "0123456789",
    "CATEGORY_WORD": "aZ9_",
    "CATEGORY_SPACE": " \t",
    "CATEGORY_NOT_DIGIT": "aZ._",
    "CATEGORY_NOT_WORD": " .-/",
    "CATEGORY_NOT_SPACE": "aZ9.",
}


def _class_char(items, rng: random.Random) -> str:
    choices: list[str] = []
    for op, av in items:
        if op is _sre.LITERAL:
            choices.append(chr(av))
        elif op is _sre.RANGE:
            choices.append(chr(rng.randint(av[0], av[1])))
        elif op is _sre.CATEGORY:
            choices.append(rng.choice(_CATEGORIES.get(str(av), _POOL)))
        else:  # a negation (of punctuation, mostly): a letter or digit, the regex judges the sample
            return rng.choice(_ALNUM)
    return rng.choice(choices) if choices else rng.choice(_POOL)


def _sample(items, rng: random.Random) -> str:
    """A string built along the parse tree; look-arounds and anchors are left to the regex's own check."""
    out: list[str] = []
    for op, av in items:
        if op is _sre.LITERAL:
            out.append(chr(av))
        elif op is _sre.NOT_LITERAL or op is _sre.ANY:
            out.append(rng.choice(_POOL))
        elif op is _sre.IN:
            out.append(_class_char(av, rng))
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)):
            low, high, body = av
            out.extend(_sample(body, rng) for _ in range(rng.randint(low, min(high, low + 3))))
        elif op is _sre.SUBPATTERN:
            out.append(_sample(av[3], rng))
        elif op is getattr(_sre, "ATOMIC_GROUP", None):
            out.append(_sample(av, rng))
        elif op is _sre.BRANCH:
            out.append(_sample(rng.choice(av[1]), rng))
    return "".join(out)


def _matching_texts(regex: re.Pattern[str], rng: random.Random) -> list[str]:
    """Texts the regex matches: samples in a sentence, case-swapped and with Unicode case-fold twins when the
    regex ignores case (`ſ` matches `s`; `"ſ".lower()` is still `ſ`)."""
    tree = _sre.parse(regex.pattern, regex.flags)
    texts = []
    for _ in range(SAMPLES_PER_REGEX):
        sample = _sample(list(tree), rng)
        variants = [sample, f"see {sample} here"]
        if regex.flags & re.IGNORECASE:
            swapped = "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in sample)
            variants += [
                swapped,
                sample.replace("s", "\u017f"),
                swapped.replace("S", "\u017f").replace("k", "\u212a"),
            ]
        texts += [t for t in variants if regex.search(t)]
    return texts


def _rows():
    return [(secret_type, regex) for _, secret_type, regex in credentials._detect_secrets_regexes()]


def test_literals_are_read_off_the_parse_tree() -> None:
    # A stretch of elements that match a few strings each promises one of their concatenations.
    assert required_literals(r"(?:r|s)k_live_[0-9a-zA-Z]{24}") == (
        frozenset({"rk_live_", "sk_live_"}),
        False,
    )
    # A text holding `my_cloudant_key` holds `cloudant_key`: only the shortest ones are kept.
    assert required_literals(r"(?:my_cloudant|cloudant)_(?:key|pw)", re.IGNORECASE) == (
        frozenset({"cloudant_key", "cloudant_pw"}),
        True,
    )
    assert required_literals(r"AWS_(?:KEY|TOKEN)", re.IGNORECASE) == (
        frozenset({"aws_key", "aws_token"}),
        True,
    )
    # detect-secrets' Cloudant keyword regex: `cl` alone is in most texts, `cl` then a credential word is not.
    cloudant = r"(?:\[|)(?:cloudant|cl|clou)(?:_|-|)(?:api|)(?:key|pwd|pw)(?: *)="
    assert required_literals(cloudant, re.IGNORECASE) == (
        frozenset(
            f"{name}{sep}{api}{word}"
            for name in ("cloudant", "cl", "clou")
            for sep in ("_", "-", "")
            for api in ("api", "")
            for word in ("key", "pw")
        ),
        True,
    )
    # Too many concatenations (17 * 17) promise nothing more than their parts.
    pairs = [c * 2 for c in "abcdefghijklmnopq"]
    assert required_literals(f"(?:{'|'.join(pairs)})" * 2) == (frozenset(pairs), False)
    # Branches give a set, one of which is required; optional parts, look-arounds and classes of ranges
    # promise nothing.
    assert required_literals(r"x(?:ab|cd)+y?") == (frozenset({"ab", "cd"}), False)
    assert required_literals(r"(?:abc)?\d+(?=secret)") is None
    assert required_literals(r"(?:abc|)[a-z]+") is None
    # A local flag changes what a literal matches: no promise from inside it.
    assert required_literals(r"(?i:token)=\d+") == (frozenset({"="}), False)


@pytest.mark.parametrize(
    "secret_type,regex", _rows(), ids=[f"{t}:{r.pattern[:30]}" for t, r in _rows()]
)
def test_every_text_a_detect_secrets_regex_matches_reaches_it(
    secret_type: str, regex: re.Pattern[str]
) -> None:
    rng = random.Random(regex.pattern)
    texts = _matching_texts(regex, rng)
    assert len(texts) >= 20, (
        f"too few samples of {regex.pattern!r} matched: the generator needs teaching"
    )
    index = _detect_secrets_index()
    for text in texts:
        # The index hands out each row's regex compiled (LazyRegex.compiled), the same object every time.
        assert any(r is regex.compiled for _, _, r in index.candidates(text)), (secret_type, text)


def test_unicode_case_fold_twins_were_exercised() -> None:
    folded = [
        regex
        for _, regex in _rows()
        if regex.flags & re.IGNORECASE and required_literals(regex.pattern, regex.flags)
    ]
    rng = random.Random(15)
    twins = [t for regex in folded for t in _matching_texts(regex, rng) if "\u017f" in t]
    assert twins, "no `ſ` sample matched a case-insensitive regex: the non-ASCII rule is untested"


def test_a_scan_with_the_prefilter_equals_a_scan_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(16)
    texts = [t for _, regex in _rows() for t in _matching_texts(regex, rng)[:40]]
    patterns = builtin_pack().secrets
    gated = [scan_secrets(t, patterns) for t in texts]
    monkeypatch.setattr(
        credentials._DetectSecretsIndex, "candidates", lambda self, text, present=None: self.rows
    )
    ungated = [scan_secrets(t, patterns) for t in texts]
    assert sum(1 for h in ungated if any(x.signature == "detect-secrets" for x in h)) > 100
    assert gated == ungated


def _needle_soup(needles: list[str], rng: random.Random) -> str:
    """Needles run into each other (`::` over `:`, `sk-ant-` over `sk-`), cut, case-swapped, among filler."""
    parts = []
    for _ in range(rng.randint(1, 6)):
        needle = rng.choice(needles)
        cut = needle[: rng.randint(1, len(needle))] if rng.random() < 0.3 else needle
        parts.append(cut.upper() if rng.random() < 0.2 else cut)
        parts.append(rng.choice(["", "", " ", "x", "/", "-", "é"]))
    return "".join(parts)


@pytest.mark.parametrize("source", ["credential patterns", "text signatures"])
def test_needles_found_are_exactly_the_needles_in_the_text(source: str) -> None:
    from ovadapt_lint.detect.needles import Needles
    from ovadapt_lint.detect.signatures import _plan

    pack = builtin_pack()
    if source == "credential patterns":
        words = sorted({n for p in pack.secrets for n in p.needles})
    else:
        _, plan, _, _ = _plan(pack.text_signatures, True, False)
        words = sorted({n for _, wanted in plan for n, _ in wanted})
    needles = Needles(set(words))
    rng = random.Random(source)
    for _ in range(3000):
        text = _needle_soup(words, rng)
        assert needles.present(text) == {w for w in words if w in text}, text


def test_one_pass_over_every_index_finds_what_each_index_finds_on_its_own() -> None:
    """The credential patterns' needles and detect-secrets' literals, as written and case-folded, are found in one
    RE2 pass (NeedleSets); each index asked on its own (sre, the folded ones in the lower case) must agree."""
    patterns = builtin_pack().secrets
    ours_exact, ours_folded = patterns.needle_index
    theirs = _detect_secrets_index()
    one_pass = patterns.one_pass(theirs)
    words = sorted(
        {
            n
            for index in (ours_exact, ours_folded, theirs.exact, theirs.folded)
            if index
            for n in index.needles
        }
    )
    rng = random.Random(25)
    asked = 0
    for _ in range(3000):
        text = _needle_soup(words, rng)
        found = one_pass.present(text)
        if not text.isascii():
            assert found is None, (
                text
            )  # Unicode folding is not lower-casing: each index answers alone
            continue
        ours: set[str] = set()
        for index, folded in ((ours_exact, False), (ours_folded, True)):
            if index is not None:
                index.present(text.lower() if folded else text, ours)
        detect: set[str] = set()
        for index, folded in ((theirs.exact, False), (theirs.folded, True)):
            if index is not None:
                index.present(text.lower() if folded else text, detect)
        assert found == (frozenset(ours), frozenset(detect)), text
        asked += 1
    assert asked > 1000
