def build_adapter(issue, mode):
    return {
        "schema_version": "openviking_session_memory_adapter_v0",
        "mode": "read_only_projection",
        "specializes": "session_runtime_loopx_projection_v0",
    }


def build_other_report(issue):
    return {"schema_version": "pr_review_v1", "mode": "writable_projection"}
