"""Free-text fields of input records copied verbatim into first-screen fields of a projection."""


def status_projection(event, gate, result):
    return {
        "schema_version": "openviking_session_memory_adapter_v0",
        "raw_tool_outputs_copied": False,
        "next_action": event["message"][:300],
        "first_agent_todo": gate.get("question", ""),
        "summary": result["summary"],
        "gate_state": "clear",
    }
