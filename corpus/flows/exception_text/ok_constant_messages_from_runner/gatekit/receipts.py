"""A public-safe receipt of a declared check.

Near miss: `except ValueError` can only catch shlex's own messages ("No closing quotation") and the
runner's constant one; the subprocess errors that would name paths are OSError, not ValueError."""

from __future__ import annotations

from .runner import run_check


def check_receipt(label: str, command: str) -> dict:
    try:
        code = run_check(command, timeout=60)
    except ValueError as exc:
        return {
            "schema_version": "check_receipt_v1",
            "label": label,
            "status": "malformed",
            "summary": f"check command could not be parsed: {exc}",
            "stdout_captured": False,
            "local_path_captured": False,
        }
    return {
        "schema_version": "check_receipt_v1",
        "label": label,
        "status": "passed" if code == 0 else "failed",
        "stdout_captured": False,
        "local_path_captured": False,
    }
