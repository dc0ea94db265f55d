"""Helpers given a path return a bool and a list of URL paths: a result is not its arguments."""
from pathlib import Path


def check(target):
    return target.exists() and target.stat().st_size > 0


def routes(app):
    return ["/v1/" + r.name for r in app.routes]


def project(app):
    root = Path.cwd()
    ready, kind = check(root / "x"), "raw"
    return {
        "raw_tool_outputs_copied": False,
        "ready": ready,
        "kind": kind,
        "routes": routes(app),
        "exit_code": len(str(root)),
    }
