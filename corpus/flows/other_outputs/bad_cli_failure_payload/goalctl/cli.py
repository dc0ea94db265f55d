"""goalctl: a small CLI over the goal state folder."""

from __future__ import annotations

import argparse
import json
import sys

from .commands import cmd_refresh, cmd_where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="goalctl")
    sub = parser.add_subparsers(dest="command", required=True)
    refresh = sub.add_parser("refresh")
    refresh.add_argument("goal")
    refresh.add_argument("--state-dir", default=".loopx/goals")
    refresh.set_defaults(handler=cmd_refresh)
    where = sub.add_parser("where")
    where.add_argument("goal")
    where.set_defaults(handler=cmd_where)
    args = parser.parse_args(argv)
    result = args.handler(args)
    print(json.dumps(result, sort_keys=True))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
