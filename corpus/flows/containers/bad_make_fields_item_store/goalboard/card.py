"""Fill in the goal card before it is rendered on the public board."""

from __future__ import annotations

import os
from pathlib import Path

from .fields import make_fields


def goal_card(goal: dict) -> dict:
    state_path = Path.home() / ".loopx" / "goals" / f"{goal['id']}.json"
    fields = make_fields(goal)
    fields["state_file"] = str(state_path)  # expect: OVA504
    fields["workspace"] = dict(root=os.getcwd(), managed=True)  # expect: OVA504
    return fields
