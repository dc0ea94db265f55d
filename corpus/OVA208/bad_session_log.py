from dataclasses import dataclass


@dataclass
class SessionPacket:
    session_id: str
    transcript: str
    raw_transcripts_copied: bool


def public_session(session):
    return {"schema_version": "session_packet_v1", "session_id": session.session_id, "messages": [m.to_dict() for m in session.log], "raw_transcripts_copied": False}
