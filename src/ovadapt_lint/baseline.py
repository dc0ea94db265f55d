"""Baselines: accepted findings recorded by identity, never by value.

An entry identifies a finding by rule, file (relative URI), JSON path (or, for findings without one,
nothing more when the finding has a value digest, else the line) and a short tag of the offending
value: the first TAG_HEX hex digits of a salted SHA-256 over those and the value's digest. So it
survives line shifts and reformatting, but (nearly always) not a changed value. The baseline is
committed with its salt, so a full hash would confirm a guessed value (a `Word-NNNNN` password
falls in a second of guessing): 16 bits match one in 65,536 guesses, so a guess is never confirmed.
Baselines of the first schema (full 64-digit hashes) are still read; --write-baseline writes tags.

Tool notices (OVA0xx: a file could not be judged) are never covered by a baseline entry.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .findings import Finding

SCHEMA = "ovadapt-lint/baseline/v1"
TAG_HEX = 4  # digits of the value tag --write-baseline records
_HEX = re.compile(r"[0-9a-f]{4}|[0-9a-f]{64}")  # a tag, or a first-schema full hash
_SALT = re.compile(r"[0-9a-f]{8,128}")


def _location(finding: Finding) -> str | None:
    if finding.json_path is not None:
        return finding.json_path
    return None if finding.value_digest else f"L{finding.line}"


@dataclass
class Baseline:
    salt: str = field(default_factory=lambda: secrets.token_hex(16))
    entries: list[dict] = field(default_factory=list)

    def _digest(self, finding: Finding, uri: str) -> tuple[str, str, str | None, str]:
        location = _location(finding)
        raw = "\x1f".join(
            [self.salt, finding.code, uri, location or "", finding.value_digest or ""]
        )
        return (
            finding.code,
            uri,
            location,
            hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest(),
        )

    def key(self, finding: Finding, uri: str) -> tuple:
        """The entry --write-baseline records for ``finding``: its hash cut to a tag."""
        code, path, location, digest = self._digest(finding, uri)
        return code, path, location, digest[:TAG_HEX]

    @staticmethod
    def entry_key(entry: dict) -> tuple:
        return entry["code"], entry["path"], entry.get("location"), entry["hash"]

    @classmethod
    def load(cls, path: Path) -> Baseline:
        """Raises ValueError (one line, naming what is wrong, never a value) for anything but a baseline."""
        from .source import read_regular

        try:
            data = json.loads(read_regular(path).decode("utf-8"))
        except RecursionError:
            raise ValueError("nested too deeply to be a baseline") from None
        if (
            not isinstance(data, dict)
            or data.get("schema") != SCHEMA
            or not isinstance(data.get("entries"), list)
        ):
            raise ValueError(f"not an ovadapt-lint baseline ({SCHEMA})")
        salt = data.get("salt")
        if not isinstance(salt, str) or not _SALT.fullmatch(salt):
            raise ValueError("its salt is missing or not hexadecimal")
        for number, entry in enumerate(data["entries"], 1):
            if not isinstance(entry, dict) or not {"code", "path", "hash"} <= set(entry):
                raise ValueError(f"entry {number} lacks code, path or hash")
            if not all(
                isinstance(entry[k], str) for k in ("code", "path", "hash")
            ) or not isinstance(entry.get("location"), (str, type(None))):
                raise ValueError(f"entry {number}: code, path, hash and location must be strings")
            if not _HEX.fullmatch(entry["hash"]):
                raise ValueError(f"entry {number}: hash must be {TAG_HEX} or 64 hexadecimal digits")
        return cls(salt=salt, entries=data["entries"])

    def write(self, path: Path) -> None:
        from .version import __version__

        entries = sorted(
            self.entries, key=lambda e: (e["path"], e["code"], e.get("location") or "", e["hash"])
        )
        doc = {
            "schema": SCHEMA,
            "generated_by": f"ovadapt-lint {__version__}",
            "salt": self.salt,
            "entries": entries,
        }
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def from_findings(cls, findings: list[tuple[Finding, str]]) -> Baseline:
        baseline = cls()
        for finding, uri in findings:
            code, path, location, tag = baseline.key(finding, uri)
            baseline.entries.append({"code": code, "path": path, "location": location, "hash": tag})
        return baseline

    def split(
        self, findings: list[tuple[Finding, str]], rules=None
    ) -> tuple[list[Finding], list[Finding], list[dict]]:
        """(new findings, findings the baseline covers, entries that matched nothing). A tool notice (in
        ``rules``, the run's; default the built-in ones) is always new: a baseline cannot hide that a file
        was not judged, and an entry naming one matches nothing."""
        from .registry import is_notice

        available = Counter(self.entry_key(e) for e in self.entries)
        new, covered = [], []
        for finding, uri in findings:
            if is_notice(finding.code, rules):
                new.append(finding)
                continue
            code, path, location, digest = self._digest(finding, uri)
            for key in ((code, path, location, digest[:TAG_HEX]), (code, path, location, digest)):
                if available[key] > 0:
                    available[key] -= 1
                    covered.append(finding)
                    break
            else:
                new.append(finding)
        stale = []
        for entry in self.entries:
            key = self.entry_key(entry)
            if available[key] > 0:
                available[key] -= 1
                stale.append(entry)
        return new, covered, stale
