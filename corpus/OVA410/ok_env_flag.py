import os


def public_status_packet():
    packet = {"schema_version": "session_runtime_loopx_projection_v0"}
    packet["auth_configured"] = bool(os.environ.get("OPENVIKING_API_KEY"))
    packet["region"] = os.getenv("OPENVIKING_REGION", "default")
    return packet
