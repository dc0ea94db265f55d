"""Public card of a registered runtime (which host runs which agent lane)."""

from __future__ import annotations

from pydantic import BaseModel


class RuntimeCard(BaseModel):
    runtime_id: str
    lane: str
    endpoint: str
    reachable: bool
    credentials_copied: bool = False


def runtime_card(registration: dict, reachable: bool) -> RuntimeCard:
    return RuntimeCard(
        runtime_id=registration["runtime_id"],
        lane=registration.get("lane", "default"),
        endpoint=registration["base_url"],  # expect: OVA605
        reachable=reachable,
    )
