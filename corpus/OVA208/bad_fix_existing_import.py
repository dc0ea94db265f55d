"""The sanitiser is imported already: its import is reused, never added twice."""
from ovadapt_lint import redact_value


def status(event):
    return {
        "schema_version": "session_runtime_loopx_projection_v0",
        "raw_tool_outputs_copied": False,
        "next_action": redact_value(event["summary_line"]),
        "first_agent_todo": event["message"],
    }
