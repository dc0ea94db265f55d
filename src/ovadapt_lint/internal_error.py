"""Internal errors (OVA009): a short message that says where, and under ``--debug``
(or ``OVADAPT_LINT_DEBUG=1``) the traceback on stderr with values from the input redacted.

Tracebacks are formatted without locals; exception messages are the one place input
values can reach them, so every message in the chain is redacted.
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from pathlib import Path

DEBUG_ENV = "OVADAPT_LINT_DEBUG"
_PACKAGE = Path(__file__).resolve().parent
_CHECK_ATTR = "_ovadapt_lint_check"
# Quoted literals in a message (`KeyError: 'x'`, `invalid literal ...: 'abc'`) are usually input values.
_QUOTED = re.compile(r"""'[^'\n]*'|"[^"\n]*\"""")
_WORD = re.compile(r"""[^\s'"`=:,;()\[\]{}<>]{4,}""")
REDACTED = "<redacted>"


def debug_enabled() -> bool:
    return os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


def mark_check(exc: BaseException, name: str) -> None:
    """Remember the check that raised ``exc``; the engine reports it further up."""
    if getattr(exc, _CHECK_ATTR, None) is None:
        try:
            setattr(exc, _CHECK_ATTR, name)
        except (AttributeError, TypeError):  # an exception type without a __dict__
            pass


def location(exc: BaseException) -> str:
    """The innermost frame in the linter's own code, relative to the package (``checks/strings.py:23``)."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        try:
            relative = Path(frame.filename).resolve().relative_to(_PACKAGE)
        except (ValueError, OSError):
            continue
        return f"{relative.as_posix()}:{frame.lineno}"
    return "an unknown location"


def message(exc: BaseException, what: str = "file") -> str:
    """``internal error in check <name>: TypeError at module.py:123; file not fully checked``."""
    check = getattr(exc, _CHECK_ATTR, None)
    stage = f" in check {check}" if check else ""
    hint = " (input nested too deeply)" if isinstance(exc, RecursionError) else ""
    return f"internal error{stage}: {type(exc).__name__}{hint} at {location(exc)}; {what} not fully checked"


def redact_message(text: str, source_text: str | None = None) -> str:
    """``text`` without credential shapes, quoted literals, or words that occur in the input."""
    from .redact import mask_text

    text = _QUOTED.sub(REDACTED, mask_text(text))
    if source_text:
        text = _WORD.sub(lambda m: REDACTED if m.group(0) in source_text else m.group(0), text)
    return text


def redacted_traceback(exc: BaseException, source_text: str | None = None) -> str:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or (
            None if current.__suppress_context__ else current.__context__
        )
    parts = []
    for item in reversed(chain):  # the root cause first, as Python prints it
        frames = "".join(traceback.format_tb(item.__traceback__))
        parts.append(
            f"Traceback (most recent call last):\n{frames}"
            f"{type(item).__qualname__}: {redact_message(str(item), source_text)}\n"
        )
    return "\nwhich led to:\n\n".join(parts)


def report(exc: BaseException, display: str, source_text: str | None = None) -> None:
    """Under --debug, the traceback of an internal error on ``display`` to stderr."""
    if debug_enabled():
        sys.stderr.write(
            f"ovadapt-lint: debug: internal error on {display}:\n"
            f"{redacted_traceback(exc, source_text)}"
        )
