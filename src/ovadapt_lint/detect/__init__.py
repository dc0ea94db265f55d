"""Detectors: functions on plain strings, shared by every front-end (JSON, Markdown, Python)."""
