"""One memory-ingest run, recorded for the public run history; the key is read by `ov` from its own config."""

from __future__ import annotations

import shlex
import subprocess
from typing import NamedTuple


class IngestRunRef(NamedTuple):
    run_ref_id: str
    command_line: str
    exit_code: int
    api_key_configured: bool
    raw_tool_outputs_copied: bool = False


def ingest_run(run_ref_id: str, namespace: str, api_key: str, top_k: int) -> IngestRunRef:
    argv = ["ov", "ingest", "--namespace", namespace, "--top-k", str(top_k), "--token-budget", "2000", "--dry-run"]
    done = subprocess.run(argv, check=False)
    return IngestRunRef(run_ref_id, shlex.join(argv), done.returncode, api_key_configured=bool(api_key))
