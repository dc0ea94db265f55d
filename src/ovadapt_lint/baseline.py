"""Baselines: accepted findings recorded by identity, never by value.

An entry identifies a finding by rule, file (relative URI), JSON path (or, for
findings without one, nothing more when the finding has a value digest, else
the line) and a salted SHA-256 over those and the offending value's digest.
So it survives line shifts and reformatting, but not a changed value. The salt
is random per baseline file.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .findings import Finding

SCHEMA = "ovadapt-lint/baseline/v1"


def _location(finding: Finding) -> str | None:
    if finding.json_path is not None:
        return finding.json_path
    return None if finding.value_digest else f"L{finding.line}"


@dataclass
class Baseline:
    salt: str = field(default_factory=lambda: secrets.token_hex(16))
    entries: list[dict] = field(default_factory=list)

    def key(self, finding: Finding, uri: str) -> tuple:
        location = _location(finding)
        raw = "\x1f".join([self.salt, finding.code, uri, location or "", finding.value_digest or ""])
        return finding.code, uri, location, hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()

    @staticmethod
    def entry_key(entry: dict) -> tuple:
        return entry["code"], entry["path"], entry.get("location"), entry["hash"]

    @classmethod
    def load(cls, path: Path) -> "Baseline":
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("schema") != SCHEMA or not isinstance(data.get("entries"), list):
            raise ValueError(f"not an ovadapt-lint baseline ({SCHEMA})")
        for entry in data["entries"]:
            if not isinstance(entry, dict) or not {"code", "path", "hash"} <= set(entry):
                raise ValueError("an entry lacks code, path or hash")
        return cls(salt=str(data["salt"]), entries=data["entries"])

    def write(self, path: Path) -> None:
        from .version import __version__

        entries = sorted(self.entries, key=lambda e: (e["path"], e["code"], e.get("location") or "", e["hash"]))
        doc = {"schema": SCHEMA, "generated_by": f"ovadapt-lint {__version__}", "salt": self.salt, "entries": entries}
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def from_findings(cls, findings: list[tuple[Finding, str]]) -> "Baseline":
        baseline = cls()
        for finding, uri in findings:
            code, path, location, digest = baseline.key(finding, uri)
            baseline.entries.append({"code": code, "path": path, "location": location, "hash": digest})
        return baseline

    def split(self, findings: list[tuple[Finding, str]]) -> tuple[list[Finding], list[Finding], list[dict]]:
        """(new findings, findings the baseline covers, entries that matched nothing)."""
        available = Counter(self.entry_key(e) for e in self.entries)
        new, covered = [], []
        for finding, uri in findings:
            key = self.key(finding, uri)
            if available[key] > 0:
                available[key] -= 1
                covered.append(finding)
            else:
                new.append(finding)
        stale = []
        for entry in self.entries:
            key = self.entry_key(entry)
            if available[key] > 0:
                available[key] -= 1
                stale.append(entry)
        return new, covered, stale
