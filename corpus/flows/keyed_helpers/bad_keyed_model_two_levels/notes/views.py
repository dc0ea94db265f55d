"""Typed public views of operator notes."""

from __future__ import annotations

from pydantic import BaseModel

from .read import first_of, pick

DETAIL_KEYS = ("details", "summary")


class NoteView(BaseModel):
    note_id: str
    detail: str
    author: str
    comment_bodies_copied: bool = False


def describe(record: dict, *keys: str) -> str:
    return first_of(record, *keys)


def note_view(record: dict) -> NoteView:
    return NoteView(
        note_id=pick(record, "note_id"),
        detail=describe(record, *DETAIL_KEYS),  # expect: OVA208
        author=pick(record, key="author_ref"),
    )


def comment_view(record: dict) -> NoteView:
    return NoteView(
        note_id=pick(record, "comment_id"),
        detail=pick(record, key="comment_body"),  # expect: OVA208
        author=pick(record, "author_ref"),
    )
