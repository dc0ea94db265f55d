"""A builder saved with CRLF line endings: the fix keeps them."""
import subprocess


def packet(event):
    out = subprocess.check_output(["git", "status"], text=True)
    return {
        "schema_version": "example_v1", "raw_tool_outputs_copied": False,
        "next_action": event["message"],
        "stdout": out,
    }
