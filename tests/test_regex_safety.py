"""No pattern in rules/ or in code backtracks catastrophically: each is fed adversarial strings
of 100,000+ characters built from the characters patterns repeat. A hang guard (an alarm far
above the normal milliseconds) turns a catastrophic pattern into a failure instead of a stuck CI."""

# ovadapt: ignore-file

from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest

from ovadapt_lint.detect import _REGEX_TOKENS, PLACEHOLDER
from ovadapt_lint.detect.credentials import _detect_secrets_regexes
from ovadapt_lint.detect.scanner import StringScanner
from ovadapt_lint.detect.urls import _BARE_HOST, _HOST_PORT, _IPV4, _IPV6, _URL
from ovadapt_lint.pack import builtin_pack
from ovadapt_lint.redact import _safety_net

# 100,000-character adversarial strings against every pattern: about 13 CPU-seconds in all.
pytestmark = pytest.mark.slow

N = 100_000
ADVERSARIAL = [
    "x" * N,
    " " * N,
    "\n" * N,
    "a1" * (N // 2),
    "/" * N,
    "@a" * (N // 2),
    "> " * (N // 2),
    "0.1, " * (N // 5),
    "a." * (N // 2),
    "a:" * (N // 2),
    "-" * N,
    "\\" * N,
    "ab=cd; " * (N // 7),
    '"' * N,
    "token " * (N // 6),
    "password=" * (N // 9),
    "eyJ" + "a" * N,
    "a-" * (N // 2),
    "1." * (N // 2),
    "[tool:" * (N // 6),
    "## " * (N // 3),
    "user: x\n" * (N // 8),
    "A" * N,
    "%" * N,
    "//a " * (N // 4),
    "http://" * (N // 7),
    "10.0.0." * (N // 7),
    "a@b.c " * (N // 6),
    "<memory " * (N // 8),
    "{{" * (N // 2),
    "sk-" * (N // 3),
    ":" * N,
    "=" * N,
]
HANG_GUARD_SECONDS = 30


@contextmanager
def hang_guard():
    def fail(*_):
        raise TimeoutError("catastrophic backtracking")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(HANG_GUARD_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _patterns():
    out = [(f"signature {s.id}", p) for s in builtin_pack().text_signatures for p in s.patterns]
    out += [(f"secret {p.id}", p.regex) for p in builtin_pack().secrets]
    out += [
        ("url", _URL),
        ("ipv4", _IPV4),
        ("ipv6", _IPV6),
        ("host:port", _HOST_PORT),
        ("bare host", _BARE_HOST),
        ("placeholder", PLACEHOLDER),
        ("regex tokens", _REGEX_TOKENS),
        ("redaction", _safety_net()),
    ]
    return out


@pytest.mark.parametrize("name,pattern", _patterns(), ids=[n for n, _ in _patterns()])
def test_pattern_is_not_catastrophic(name, pattern) -> None:
    with hang_guard():
        for text in ADVERSARIAL:
            for _ in pattern.finditer(text):
                pass


def test_detect_secrets_regexes_only_see_bounded_windows() -> None:
    # Some of detect-secrets' own regexes backtrack on long runs (e.g. its npm `.+`); the scanner
    # feeds them windows around candidate tokens, so the whole scan stays fast.
    assert _detect_secrets_regexes()
    scanner = StringScanner(builtin_pack())
    with hang_guard():
        for text in ADVERSARIAL:
            scanner.scan(text)
            scanner.scan(text, prose=True)
