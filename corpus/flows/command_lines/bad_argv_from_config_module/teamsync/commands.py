"""Command lines the bridge runs."""

from __future__ import annotations

from .settings import BridgeSettings


def push_argv(settings: BridgeSettings, card_id: str) -> list[str]:
    return [
        "feishu-cli", "card", "push", card_id,
        "--board", settings.board,
        "--app-id", settings.app_id,
        "--app-secret", settings.app_secret,
    ]
