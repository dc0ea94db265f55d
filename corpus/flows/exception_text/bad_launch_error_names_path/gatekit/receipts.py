"""A public-safe receipt of a declared check."""

from __future__ import annotations

from .runner import run_check


def check_receipt(label: str, command: str) -> dict:
    try:
        code = run_check(command, timeout=60)
    except (FileNotFoundError, PermissionError) as exc:
        # subprocess names the program or working folder it could not start: a machine path.
        return {
            "schema_version": "check_receipt_v1",
            "label": label,
            "status": "not_run",
            "summary": f"check command could not be launched: {exc}",  # expect: OVA208
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
