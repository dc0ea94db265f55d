"""The internal-name deny-list (OVA701).

Entries: a plain name (whole words, case-insensitive; ``_ - .``, spaces and
camelCase boundaries separate words, so ``blue-fin``, ``BlueFin`` and
``blue fin`` are the same entry), ``re:PATTERN`` (case-insensitive, RE2 syntax: linear time), or
``sha256:HEX`` (the SHA-256 of the lowercased name, so the list can be public).
Hashed entries are matched by hashing every run of up to ``MAX_WORDS``
consecutive words in the forms a name may be written in.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import Hit, compile_linear

MAX_WORDS = 4
# Words with their offsets: camelCase humps, acronyms, lowercase runs, digit runs.
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_SEPARATORS = ("", " ", "-", "_", ".")


@dataclass(frozen=True)
class Entry:
    where: str  # "FILE:LINE", used in messages instead of the name
    kind: str  # plain | regex | sha256
    words: tuple[str, ...] = ()
    regex: Any = None  # a compiled RE2 pattern (compile_user_pattern); RE2 is untyped
    digest: str = ""


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0).lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def compile_user_pattern(pattern: str, where: str):
    """A ``re:`` entry, case-insensitive, on RE2 (see detect.compile_linear): it cannot hang a run."""
    return compile_linear(pattern, True, f"{where}: bad regular expression", "deny-list patterns")


def parse_entries(text: str, source: str) -> list[Entry]:
    """Parse a deny-list file; raise ValueError naming the line for a bad entry."""
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line.startswith(("re:", "sha256:")):
            line = line.split("#", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source}:{number}"
        if line.startswith("re:"):
            entries.append(
                Entry(where, "regex", regex=compile_user_pattern(line[3:].strip(), where))
            )
        elif line.startswith("sha256:"):
            digest = line[7:].split("#", 1)[0].strip().lower()
            if not re.fullmatch(r"[0-9a-f]{64}", digest):
                raise ValueError(f"{where}: sha256: needs 64 hex digits")
            entries.append(Entry(where, "sha256", digest=digest))
        else:
            words = tuple(w for w, _, _ in _words(line))
            if not words:
                raise ValueError(f"{where}: entry has no letters or digits")
            entries.append(Entry(where, "plain", words=words))
    return entries


class DenyListDecodeError(ValueError):
    """A deny-list file that is not UTF-8; the message names the file and the byte offset, never the bytes."""


def read_text(path: Path) -> str:
    from ..source import read_regular

    data = read_regular(path)  # a FIFO named as a deny-list must not block the run
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DenyListDecodeError(
            f"{path}: not UTF-8 at byte offset {exc.start} (line {line}): "
            f"save the deny-list as UTF-8"
        ) from None


@dataclass
class DenyList:
    entries: list[Entry] = field(default_factory=list)

    @classmethod
    def from_files(cls, paths: Sequence[Path]) -> DenyList:
        entries: list[Entry] = []
        for path in paths:
            entries += parse_entries(read_text(path), path.name)
        return cls(entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def scan(self, text: str) -> list[Hit]:
        """One hit per entry per string, at its first occurrence."""
        if not self.entries or not text:
            return []
        hits: list[Hit] = []
        words = _words(text)
        plain = [e for e in self.entries if e.kind == "plain"]
        hashed = {e.digest: e for e in self.entries if e.kind == "sha256"}
        found: dict[str, tuple[int, int]] = {}
        joined = [w for w, _, _ in words]
        for entry in plain:
            # The entry's words as a run of the text's words, or glued into fewer words ("BlueFin" ~ "bluefin").
            target = "".join(entry.words)
            for i in range(len(words)):
                acc = ""
                for j in range(i, min(i + MAX_WORDS + len(entry.words), len(words))):
                    acc += joined[j]
                    if len(acc) > len(target) or not target.startswith(acc):
                        break
                    if acc == target:
                        found.setdefault(entry.where, (words[i][1], words[j][2]))
                        break
                if entry.where in found:
                    break
        if hashed:
            for i in range(len(words)):
                for j in range(i, min(i + MAX_WORDS, len(words))):
                    run = joined[i : j + 1]
                    forms = {sep.join(run) for sep in _SEPARATORS} | {
                        text[words[i][1] : words[j][2]].lower()
                    }
                    for form in forms:
                        known = hashed.get(hashlib.sha256(form.encode("utf-8")).hexdigest())
                        if known is not None:
                            found.setdefault(known.where, (words[i][1], words[j][2]))
        for entry in self.entries:
            if entry.kind == "regex" and entry.where not in found:
                match = entry.regex.search(text)
                if match and match.end() > match.start():
                    found[entry.where] = match.span()
        for where, (start, end) in found.items():
            hits.append(
                Hit(
                    "OVA701", "deny-list", f"an internal name (deny-list entry {where})", start, end
                )
            )
        return hits
