"""A module helper returns a machine-local path; its summary carries it into the projection."""
from pathlib import Path


def _scratch(name):
    return str(Path.home() / ".cache" / name)


def project(run):
    return {
        "public_boundary": "session_projection",
        "run_ref": run.ref_id,
        "cache_location": _scratch(run.ref_id),
    }
