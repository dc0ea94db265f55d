"""One memory-ingest run, recorded for the public run history."""

from __future__ import annotations

import subprocess
from typing import NamedTuple

OV_BIN = "ov"


class IngestRunRef(NamedTuple):
    run_ref_id: str
    command_line: str
    exit_code: int
    raw_tool_outputs_copied: bool = False


def _ingest_command(namespace: str, api_key: str) -> str:
    return f"{OV_BIN} ingest --namespace {namespace} --api-key={api_key} --dry-run"


def ingest_run(run_ref_id: str, namespace: str, api_key: str) -> IngestRunRef:
    command = _ingest_command(namespace, api_key)
    done = subprocess.run(command, shell=True, check=False)
    return IngestRunRef(run_ref_id, command, done.returncode)  # expect: OVA410
