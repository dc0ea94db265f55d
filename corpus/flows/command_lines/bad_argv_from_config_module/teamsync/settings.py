"""Settings of the team-board bridge, read once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class BridgeSettings:
    app_id: str
    app_secret: str
    board: str


def load_settings() -> BridgeSettings:
    return BridgeSettings(
        app_id=os.getenv("FEISHU_APP_ID", ""),
        app_secret=os.getenv("FEISHU_APP_SECRET", ""),
        board=os.getenv("FEISHU_BOARD", "loopx-goals"),
    )
