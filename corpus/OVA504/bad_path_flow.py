import os
import tempfile
from pathlib import Path


def build_run_packet(run):
    here = Path(__file__).resolve().parent
    scratch = tempfile.mkdtemp()
    return {
        "schema_version": "session_runtime_loopx_projection_v0",
        "workdir": str(Path.cwd()),
        "module_dir": str(here),
        "scratch_ref": scratch,
        "home": os.environ["HOME"],
    }
