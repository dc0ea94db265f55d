def build_adapter(issue):
    return {
        "schema_version": "openviking_session_memory_adapter_v0",
        "mode": "writable_projection",
        "specializes": "session_runtime_loopx_projection_v0",
    }
