"""Commands that regenerate the relay prompt at each detail level."""

from __future__ import annotations


def regen_commands(*, tool: str, session: str, state_arg: str) -> tuple[str, str, str]:
    tail = f" --session {session}{state_arg}"
    return tuple(f"{tool} relay --{level}{tail}" for level in ("full", "short", "tiny"))
