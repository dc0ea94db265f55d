"""A builder that copies raw material into its projection."""


def _text(value, limit=180):
    return str(value or "").strip()[:limit]


def build_session_packet(session, issue):
    first_line = session.messages[-1].content.splitlines()[0]
    summary = _text(first_line)
    notes = [c.body for c in issue.comments]
    return {
        "schema_version": "session_runtime_loopx_projection_v0",
        "next_action": summary,
        "comment_notes": notes,
        "log_excerpt": f"stderr: {session.result.stderr[:200]}",
    }
