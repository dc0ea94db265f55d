"""One function builds a published manifest and a private receipt: only the manifest is judged."""
import json
from pathlib import Path


def publish(run, out_dir):
    workdir = str(Path.cwd())
    manifest = {
        "schema_version": "session_runtime_loopx_projection_v0",
        "raw_trajectory_copied": False,
        "run_ref": run.ref_id,
        "workdir": workdir,
    }
    receipt = {"schema_version": "local_receipt_v1", "workdir": workdir, "ok": True}
    (Path(out_dir) / ".state" / "receipt.json").write_text(json.dumps(receipt))
    return manifest
