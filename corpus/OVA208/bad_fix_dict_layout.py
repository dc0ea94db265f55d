"""Fixes inside projection dicts: comments in the dict, trailing commas, one-line dicts."""
import subprocess


def packet(event, run):
    proc = subprocess.run(["make", "test"], capture_output=True, text=True)
    return {
        # identity of the run
        "schema_version": "session_runtime_loopx_projection_v0",
        "raw_tool_outputs_copied": False,  # attested
        "stdout": proc.stdout,  # what make printed: becomes its digest
        # the transcript becomes its length
        "transcript": event["transcript"],  # raw turns
        "next_action": event["message"],  # first screen
        "raw_notes": event["body"],  # dropped, with this comment
        "run_ref": run.ref_id,
        "log_excerpt": run.log  # last entry, no trailing comma
    }


def one_line(event):
    return {"schema_version": "example_v1", "raw_tool_outputs_copied": False, "stderr_tail": event["stderr"], "log": event["log"]}


def last_with_comma(event):
    return {
        "schema_version": "example_v1", "raw_trajectory_copied": False,
        "run_ref": event["id"],  # kept
        "trajectory": event["trajectory"],  # its length instead
        "raw_log": event["log"],  # removed with its comma
    }


def issue_card(issue):
    # `body` is raw only by its value in JSON; the flow says it is: its digest is published instead
    return {"public_boundary": "issue_card", "issue_ref_id": issue.ref_id, "body": issue.body}
