from dataclasses import dataclass


@dataclass
class SessionPacket:
    session_id: str
    session_ref: str
    message_count: int
    raw_transcripts_copied: bool


def summarize(session):
    # Not a projection: an internal helper may read messages freely.
    return {"messages": session.messages, "transcript": session.transcript}
