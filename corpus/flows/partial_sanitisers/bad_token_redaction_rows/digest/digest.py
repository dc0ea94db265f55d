"""The public inbox digest: one row per message, with tokens masked."""

from __future__ import annotations

import re

TOKEN_PATTERN = re.compile(r"(?i)(secret|token|api[_-]?key)=\S+")


def scrub(text: str) -> str:
    return TOKEN_PATTERN.sub(r"\1=[redacted]", text)


def inbox_digest(messages: list[dict]) -> dict:
    rows = []
    for message in messages:
        rows.append(
            {
                "message_id": message["id"],
                "excerpt": scrub(message["body"]),  # expect: OVA208
            }
        )
    digest = {
        "schema_version": "inbox_digest_public_v1",
        "rows": [],
        "comment_bodies_copied": False,
    }
    digest["rows"].extend(rows)
    return digest
