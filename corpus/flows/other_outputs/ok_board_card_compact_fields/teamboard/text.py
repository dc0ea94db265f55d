"""Text that may go on the board, passed through the organisation's redaction service."""

from __future__ import annotations

from org_redaction import RedactionClient

_service = RedactionClient(profile="team-board")


def board_safe_text(text: str) -> str:
    return _service.redact(text)
