"""The sanitiser's module is imported under another name: the call goes through it."""
import ovadapt_lint as ova


def status(event):
    return {
        "schema_version": "session_runtime_loopx_projection_v0",
        "raw_tool_outputs_copied": False,
        "next_action": event["message"],
        "checked_with": ova.__name__,
    }
