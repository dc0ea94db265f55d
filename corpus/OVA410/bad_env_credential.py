import os


def public_status_packet():
    packet = {"schema_version": "session_runtime_loopx_projection_v0"}
    packet["auth"] = os.environ["OPENVIKING_API_KEY"]
    packet.update(gateway=os.getenv("GATEWAY_TOKEN"))
    return packet
