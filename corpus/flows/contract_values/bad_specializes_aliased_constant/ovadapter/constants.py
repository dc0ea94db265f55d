"""Contract names of the OpenViking session-memory adapter."""

ADAPTER_SCHEMA = "openviking_session_memory_adapter_v0"
ADAPTER_MODE = "read_only_projection"
# The runtime's own projection, which the adapter extends.
RUNTIME_PROJECTION = "session_runtime_projection_v0"
