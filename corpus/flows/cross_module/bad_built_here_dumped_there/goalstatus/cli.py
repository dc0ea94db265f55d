"""`goalstatus write GOAL`: refresh the committed status example."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .status import build_public_status

OUT = Path("examples") / "fixtures" / "goal-status.public.json"


def main(argv: list[str]) -> int:
    status = build_public_status(argv[0])
    with OUT.open("w", encoding="utf-8") as fh:
        json.dump(status, fh, indent=2, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
