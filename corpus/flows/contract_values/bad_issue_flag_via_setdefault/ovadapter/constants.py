"""Contract names of the OpenViking session-memory adapter."""

ADAPTER_SCHEMA = "openviking_session_memory_adapter_v0"
ADAPTER_MODE = "read_only_projection"
PARENT_SCHEMA = "session_runtime_loopx_projection_v0"
