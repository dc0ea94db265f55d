"""Public routing packet: shared resources the next session may read."""

from __future__ import annotations

from dataclasses import dataclass, field

from .refs import public_resource_uri


@dataclass
class RoutingPacket:
    goal_id: str
    resource_uris: list[str] = field(default_factory=list)
    raw_memory_copied: bool = False


def routing_packet(resources: list[dict], goal_id: str) -> RoutingPacket:
    packet = RoutingPacket(goal_id=goal_id)
    for row in resources:
        packet.resource_uris.append(public_resource_uri(row.get("uri", "")))
    return packet
