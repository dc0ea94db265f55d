"""Typed public views of operator notes."""

from __future__ import annotations

from pydantic import BaseModel

from .read import pick, slug

KINDS = ("decision", "question", "other")


class NoteView(BaseModel):
    note_id: str
    topic: str
    kind: str
    comment_bodies_copied: bool = False


def note_view(record: dict) -> NoteView:
    kind = pick(record, "message_kind")
    return NoteView(
        note_id=pick(record, key="note_id"),
        topic=slug(record, "message"),
        kind=kind if kind in KINDS else "other",
    )
