"""The work a call does, counted the same way on every machine: the complexity tests compare counts, never
times ("speed is measured in a benchmark script, never as a timed assertion")."""

from __future__ import annotations

import sys
from collections.abc import Callable


def lines_run(call: Callable[[], object]) -> int:
    """Python lines executed by ``call()`` (``sys.settrace`` line events, in every frame it enters).

    A loop over the input in Python shows here; a quadratic one shows as 16x the lines for 4x the input."""
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: local)
    try:
        call()
    finally:
        sys.settrace(previous)
    return count
