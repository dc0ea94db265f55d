"""syncctl: mirror a folder to the bucket."""

from __future__ import annotations

import argparse
import json
import subprocess


def cmd_push(args) -> dict:
    error = None
    try:
        subprocess.run(["rclone", "sync", args.src, args.dest], check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        error = str(exc)
    report = dict(
        bucket=args.bucket,
        prefix=args.prefix,
        region=args.region,
        profile=args.profile,
        storage_class=args.storage_class,
        acl=args.acl,
        transfers=args.transfers,
        checkers=args.checkers,
        retries=args.retries,
        bwlimit=args.bwlimit,
    )
    return {
        "ok": error is None,
        "src": args.src,
        "dest": args.dest,
        "include": args.include,
        "exclude": args.exclude,
        "filter_from": args.filter_from,
        "min_age": args.min_age,
        "max_age": args.max_age,
        "min_size": args.min_size,
        "max_size": args.max_size,
        "dry_run": args.dry_run,
        "verbose": args.verbose,
        "log_level": args.log_level,
        "stats": args.stats,
        "track_renames": args.track_renames,
        "checksum": args.checksum,
        "backup_dir": args.backup_dir,
        "suffix": args.suffix,
        "report": report,
        "error": error,  # expect: OVA208
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="syncctl")
    sub = parser.add_subparsers(dest="command", required=True)
    push = sub.add_parser("push")
    push.add_argument("src")
    push.add_argument("dest")
    push.set_defaults(func=cmd_push)
    args = parser.parse_args(argv)
    print(json.dumps(args.func(args), sort_keys=True))
    return 0
