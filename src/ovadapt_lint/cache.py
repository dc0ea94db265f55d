"""The result cache: one small JSON file of findings per (file content, linter, rule
pack, analysis configuration). Unchanged files are not re-read past their bytes.

Entries hold findings as every output shows them: messages and paths redacted,
values only as digests. The folder carries a ``CACHEDIR.TAG`` so backup tools
skip it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict
from pathlib import Path

from .findings import Finding, Span

DEFAULT_DIR = ".ovadapt_cache"
_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
        "# This file is a cache directory tag created by ovadapt-lint.\n"
        "# For information about cache directory tags see https://bford.info/cachedir/\n")


def _to_dict(finding: Finding) -> dict:
    from .redact import mask_text

    data = asdict(finding)
    data.pop("path")
    data["message"] = mask_text(finding.message)
    if finding.json_path is not None:
        data["json_path"] = mask_text(finding.json_path)
    flow = data.get("extra", {}).get("flow")
    if flow:
        data["extra"]["flow"] = [{**step, "message": mask_text(step["message"])} for step in flow]
    return data


def _from_dict(data: dict, path: str) -> Finding:
    span = Span(**data.pop("span"))
    return Finding(path=path, span=span, **data)


class Cache:
    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder
        self.salt = salt  # linter version, rule pack and analysis configuration
        self._ready = False

    def key(self, kind: str, data: bytes) -> str:
        digest = hashlib.sha256()
        digest.update(self.salt.encode())
        digest.update(kind.encode())
        digest.update(data)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key[2:]}.json"

    def get(self, key: str, display: str) -> list[Finding] | None:
        try:
            entries = json.loads(self._path(key).read_text(encoding="utf-8"))
            return [_from_dict(entry, display) for entry in entries]
        except (OSError, ValueError, TypeError, KeyError):
            return None  # a missing or damaged entry is a miss

    def put(self, key: str, findings: list[Finding]) -> None:
        try:
            self._prepare()
            target = self._path(key)
            target.parent.mkdir(exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump([_to_dict(f) for f in findings], out)
            os.replace(temporary, target)
        except OSError:
            pass  # a read-only or full disk makes the cache useless, not the run

    def _prepare(self) -> None:
        if self._ready:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tag = self.folder / "CACHEDIR.TAG"
        if not tag.exists():
            tag.write_text(_TAG, encoding="utf-8")
        ignore = self.folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# Created by ovadapt-lint.\n*\n", encoding="utf-8")
        self._ready = True
