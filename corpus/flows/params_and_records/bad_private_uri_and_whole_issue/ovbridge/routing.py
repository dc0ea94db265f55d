"""Public routing packet: which prior memories the next session should look at."""

from __future__ import annotations

from dataclasses import dataclass, field

from .store import list_user_memories


@dataclass
class RoutingPacket:
    goal_id: str
    memory_uris: list[str] = field(default_factory=list)
    issue_snapshot: dict = field(default_factory=dict)
    raw_memory_copied: bool = False


def routing_packet(client, user_id: str, goal_id: str, issue: dict) -> RoutingPacket:
    rows = list_user_memories(client, user_id)
    packet = RoutingPacket(goal_id=goal_id)
    for row in rows[:5]:
        packet.memory_uris.append(row.get("uri"))  # expect: OVA605
    packet.issue_snapshot = {key: value for key, value in issue.items() if value}  # expect: OVA208
    return packet
