"""The service status the operator CLI prints: a typed snapshot."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass


@dataclass
class Snapshot:
    service: str
    healthy: bool
    probe_output: str


class StatusService:
    def __init__(self, name: str, probe: list[str]) -> None:
        self.name = name
        self.probe = probe

    def snapshot(self) -> Snapshot:
        proc = subprocess.run(self.probe, capture_output=True, text=True, check=False)
        return Snapshot(
            service=self.name,
            healthy=proc.returncode == 0,
            probe_output=proc.stdout,  # expect: OVA208
        )
