"""Free text that went through a sanitiser, and compact values, are not raw."""
import hashlib


def redact_text(text):
    return "[redacted]" if text else ""


def compact_summary(text, limit=80):
    return text.split(".")[0][:limit]


def status_projection(event, result, stdout):
    return {
        "raw_tool_outputs_copied": False,
        "next_action": redact_text(event["message"]),
        "summary": compact_summary(result["summary"]),
        "output_sha256": hashlib.sha256(stdout.encode()).hexdigest(),
        "message_count": len(event["messages"]),
        "exit_code": result.returncode,
    }
