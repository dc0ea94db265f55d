"""A published literal (a home path) and a flow in the same dict: both fixed in one pass."""


def packet(event):
    return {
        "schema_version": "example_v1", "raw_tool_outputs_copied": False,
        "source": "/home/operator/work/loopx/state.json",
        "next_action": event["message"],
    }
