"""Smoke receipt for the memory preview: what ran and how it ended, safe to commit."""

from __future__ import annotations

import traceback


def _step(name, fn):
    try:
        fn()
    except RuntimeError as e:
        return {"step": name, "ok": False, "detail": f"{e}"}  # expect: OVA208
    except KeyError as e:
        return {"step": name, "ok": False, "missing": e.args[0]}  # expect: OVA208
    except Exception:
        return {"step": name, "ok": False, "trace": traceback.format_exc()}  # expect: OVA208
    return {"step": name, "ok": True}


def smoke_receipt(steps):
    results = [_step(name, fn) for name, fn in steps]
    return {
        "schema_version": "smoke_receipt_v1",
        "receipt_kind": "memory_preview_smoke",
        "steps": results,
        "passed": all(r["ok"] for r in results),
        "raw_tool_outputs_copied": False,
    }
