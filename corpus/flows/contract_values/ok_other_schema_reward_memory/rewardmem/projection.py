"""Reward-memory projection: what the reward memory learned from reviewed feedback.

Its own contract (agent_reward_memory_projection_v1), not the session-memory adapter's: it records a
live, reviewed write into the reward store, so its mode, retrieval and gates differ on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

REWARD_SCHEMA = "agent_reward_memory_projection_v1"
FIXTURE = Path("examples/fixtures/reward-memory-projection.public.json")


def reward_memory_projection(event_ref: str, corpus_id: str) -> dict:
    return {
        "schema_version": REWARD_SCHEMA,
        "mode": "reviewed_writeback",
        "specializes": "agent_reward_memory_projection_v0",
        "event_ref": event_ref,
        "memory_projection": {
            "namespace": corpus_id,
            "retrieval_mode": "live",
            "live_retrieval_performed": True,
            "writeback_performed": True,
            "top_k_preview": 0,
        },
        "retrieval_gates": [
            {"capability": "memory_writeback", "state": "approved", "required_authority": "reviewed_feedback"},
        ],
        "raw_content_captured": False,
    }


def regenerate() -> None:
    projection = reward_memory_projection("event:maintainer-correction-42", "patch_policy")
    FIXTURE.write_text(json.dumps(projection, indent=2, sort_keys=True) + "\n", encoding="utf-8")
