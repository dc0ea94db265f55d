"""Loads a public fixture next to this module and prints it: not a projection flow."""

import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "adapter.public.json"


def load_fixture():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def build_run_packet(run):
    return {
        "schema_version": "session_runtime_loopx_projection_v0",
        "workdir": Path.cwd().name,
        "fixture_name": FIXTURE.name,
        "run_id": run.run_id,
    }


if __name__ == "__main__":
    print(json.dumps(load_fixture(), indent=2))
