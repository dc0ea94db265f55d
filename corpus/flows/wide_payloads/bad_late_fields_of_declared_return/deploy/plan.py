"""The release plan: many settings echoed back, then the commands that rerun it."""

from __future__ import annotations

from pathlib import Path


def release_plan(opts, workdir: Path) -> dict:
    where = str(workdir.resolve())
    return {
        "ok": True,
        "release": opts.release,
        "channel": opts.channel,
        "region": opts.region,
        "cluster": opts.cluster,
        "namespace": opts.namespace,
        "replicas": opts.replicas,
        "image": opts.image,
        "tag": opts.tag,
        "strategy": opts.strategy,
        "max_surge": opts.max_surge,
        "max_unavailable": opts.max_unavailable,
        "timeout": opts.timeout,
        "canary": opts.canary,
        "canary_weight": opts.canary_weight,
        "rollback_on": opts.rollback_on,
        "notify": opts.notify,
        "owner": opts.owner,
        "team": opts.team,
        "window": opts.window,
        "freeze": opts.freeze,
        "approvers": opts.approvers,
        "labels": opts.labels,
        "annotations": opts.annotations,
        "health_check": opts.health_check,
        "warmup": opts.warmup,
        "drain": opts.drain,
        "rerun_command": f"deployctl plan --workdir {where} --release {opts.release}",  # expect: OVA504
        "workdir": where,  # expect: OVA504
    }
