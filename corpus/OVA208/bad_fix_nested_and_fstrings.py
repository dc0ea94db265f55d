"""Values built by nested calls and f-strings are wrapped whole, as written."""


def _short(text, limit=120):
    return " ".join(str(text).split())[:limit]


def status(event, result):
    return {
        "schema_version": "session_runtime_loopx_projection_v0",
        "raw_tool_outputs_copied": False,
        "next_action": _short(event["message"].strip().splitlines()[0]),
        "first_agent_todo": f"retry after: {result['error_message']!r}",
        "waiting_on": (
            event.get("question")
            or "none"
        ),
    }
