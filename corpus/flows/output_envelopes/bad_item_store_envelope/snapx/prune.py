"""A prune command's result, built up by item stores: the archive status goes in last, and the result
that carries it is what the command prints (`published = "outputs"`)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def prune_result(store_dir: Path, keep: int) -> dict:
    proc = subprocess.run(["snapx-gc", "--keep", str(keep)], capture_output=True, text=True)
    result = {"ok": proc.returncode == 0, "kept": keep}
    result["gc_log"] = proc.stderr  # expect: OVA208
    result["archive"] = {"raw_transcripts_copied": False, "pruned": True}
    result["store"] = store_dir.resolve().as_posix()  # expect: OVA504
    return result

