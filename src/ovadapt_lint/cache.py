"""The result cache: one small JSON file of findings per (file content, linter, rule
pack, analysis configuration). Unchanged files are not re-read past their bytes.

Entries hold findings as every output shows them: messages and paths redacted,
values only as digests. The folder carries a ``CACHEDIR.TAG`` so backup tools
skip it.

A cache cannot lie: the key covers everything a result depends on (the linter's code, the rule pack,
the configuration file and every analysis setting, the rule selection, and the versions of the
packages that detect); entries are authenticated with an HMAC key kept outside the repository, in the
user's cache folder (``$XDG_CACHE_HOME/ovadapt-lint/cache-key``, created on first use, mode 0600), so a
planted or edited entry is a miss; entries hold no edits (``--fix`` recomputes); and a cache folder
tracked by git is not used.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .findings import Finding, FlowStep, Span
from .repository import ignore_digest
from .source import read_regular, visible
from .userstore import user_key  # the key lives in the user's store, never the repository

DEFAULT_DIR = ".ovadapt_cache"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by ovadapt-lint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def _to_dict(finding: Finding) -> dict:
    # The text a finding quotes is masked as its file is linted (engine.mask_quoted, with the rule pack's
    # formats): a fresh run must carry exactly what a cached one reads back.
    data = asdict(finding)
    data.pop("path")
    data.pop("history", None)  # a history scan marks the findings of a blob after the cache
    data.pop("fix", None)  # edits are never taken from the cache: --fix recomputes them
    data.pop("fix_digest", None)
    data.pop("quoted_masked", None)
    return data


def _from_dict(data: dict, path: str) -> Finding:
    span = Span(**data.pop("span"))
    data["trace"] = tuple(FlowStep(**step) for step in data.pop("trace", ()))
    data["covered_by"] = tuple(tuple(codes) for codes in data.pop("covered_by", ()))
    edit = data.pop("edit", None)
    data["edit"] = tuple(edit) if edit is not None else None
    data.pop("fix", None)
    data.pop("fix_digest", None)
    data.pop("quoted_masked", None)
    # Only masked text is ever stored (_to_dict), under a key that covers the rule pack.
    return Finding(path=path, span=span, quoted_masked=True, **data)


@dataclass
class StoredFacts:
    """A module's flow facts as the cache holds them: in a file of their own beside the entry (``key``), read
    and decoded only when the run's flows are resolved again (a warm run reads the joined result instead: most
    of a cache's bytes are facts); ``depends``: the files its findings depend on (``engine.current``)."""

    depends: list
    cache: Cache
    key: str

    def load(self) -> dict | None:
        """The facts (``flow.facts.to_json``), or None when their file is missing, damaged or planted."""
        data = self.cache._read(self.key, _FACTS)
        return data if isinstance(data, dict) else None


_FACTS = ".facts"  # the suffix of the file beside an entry that holds its module's flow facts
# ... and of the one that holds the role a JSON document has by content (public, or a negative case's test data),
# for the reports' roles, so that a warm run neither parses it again nor builds the contracts to ask them.
_ROLE = ".role"


def dependency_versions() -> dict[str, str]:
    """The installed versions of the packages ovadapt-lint depends on (detect-secrets, tree-sitter, …):
    an upgraded detector must not reuse results computed by the old one.

    Asking importlib.metadata costs a short run an eighth of its CPU (issue 29), so the answer is kept in the
    user's store beside a stamp of the import path (each folder's modification time: installing, upgrading
    or removing a package adds or removes an entry in its folder, which changes that time)."""
    from .userstore import read_table, write_table

    stamp = hashlib.sha256(json.dumps([sys.prefix, _path_stamp()]).encode()).hexdigest()
    stored = read_table(_VERSIONS_TABLE)
    # One answer per stamp, the latest few: the import path starts with the working directory, and runs from
    # another folder or another environment must not evict each other's answer.
    known = stored.get("stamps") if isinstance(stored, dict) else None
    known = known if isinstance(known, dict) else {}
    if isinstance(known.get(stamp), dict):
        return known[stamp]
    versions = _installed_versions()
    kept = [(k, v) for k, v in known.items() if k != stamp][-(_STAMPS_KEPT - 1) :]
    write_table(_VERSIONS_TABLE, {"stamps": dict([*kept, (stamp, versions)])})
    return versions


_STAMPS_KEPT = 16  # the import paths dependency_versions remembers the answer for
# A name of its own: an older linter sharing the user's store writes one answer under the former name.
_VERSIONS_TABLE = "dependency-versions-by-path.json"


def _path_stamp() -> list:
    stamp: list = []
    for entry in sys.path:
        try:
            stamp.append([entry, os.stat(entry or ".").st_mtime_ns])
        except OSError:
            stamp.append([entry, None])
    return stamp


def _installed_versions() -> dict[str, str]:
    import re
    from importlib import metadata

    versions: dict[str, str] = {}
    try:
        requirements = metadata.requires("ovadapt-lint") or []
    except metadata.PackageNotFoundError:
        requirements = []
    names = {
        re.split(r"[\s;<>=!~\[]", r, maxsplit=1)[0] for r in requirements if "extra ==" not in r
    }
    for name in sorted(names | {"detect-secrets"}):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "-"
    return versions


def cache_salt(config) -> str:
    """Everything a cached result depends on besides the file's bytes, kind and role."""
    state = {
        "analysis": config.analysis_digest(),
        # Folding (raw storage over its parts) depends on which rules are enabled.
        "selection": [config.select, config.extend_select, config.ignore],
        "config": _file_digest(config.source),
        # OVA505 asks the repository's ignore rules: a changed .gitignore changes published files' findings.
        "ignores": ignore_digest(config.source.parent if config.source is not None else Path(".")),
        "dependencies": dependency_versions(),
        "python": list(sys.version_info[:2]),
    }
    return hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()


def _file_digest(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return f"<unreadable {path}>"


def tracked_by_git(folder: Path) -> bool:
    """Whether git tracks anything in ``folder`` (a committed cache is planted, not ours)."""
    folder = Path(os.path.abspath(folder))
    here = folder
    while not here.is_dir():
        if here.parent == here:
            return False
        here = here.parent
    if not _in_work_tree(here):
        return False  # no repository git could find from here: nothing to ask it (a process saved per run)
    import subprocess

    try:
        proc = subprocess.run(
            ["git", "-C", str(here), "ls-files", "-z", "--", str(folder)],
            capture_output=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and bool(proc.stdout.strip(b"\0"))


def _in_work_tree(folder: Path) -> bool:
    """Whether git could find a repository from ``folder``: as git does, a ``.git`` (folder or file) in it or a
    folder above it, or a repository named by the environment."""
    if os.environ.get("GIT_DIR") or os.environ.get("GIT_WORK_TREE"):
        return True
    return any(os.path.lexists(os.path.join(above, ".git")) for above in (folder, *folder.parents))


def open_cache(folder: Path, salt: str) -> Cache | None:
    """The cache for a run, or None (with a notice) when it cannot be trusted."""
    if os.path.islink(folder):
        # Entries would land wherever the link points (another user's folder, a system path).
        sys.stderr.write(
            f"ovadapt-lint: notice: the cache folder {visible(str(folder))} is a symbolic link; "
            f"not using it (remove the link)\n"
        )
        return None
    if tracked_by_git(folder):
        sys.stderr.write(
            f"ovadapt-lint: notice: the cache folder {visible(str(folder))} is tracked by git; not using it "
            f"(remove it from the repository)\n"
        )
        return None
    cache = Cache(folder, salt)
    return cache if cache.secret is not None else None


class Cache:
    def __init__(self, folder: Path, salt: str, secret: bytes | None = None) -> None:
        self.folder = folder
        self.salt = salt  # see cache_salt: code, rule pack, configuration, selection, dependencies
        # The HMAC key (never in the repository); without one nothing is read or written.
        self.secret = secret if secret is not None else user_key()
        self._ready = False

    def key(self, kind: str, data: bytes) -> str:
        mac = hmac.new(self.secret or b"", digestmod=hashlib.sha256)
        mac.update(self.salt.encode())
        mac.update(b"\0" + kind.encode() + b"\0")
        mac.update(data)
        return mac.hexdigest()

    def _mac(self, key: str, payload: str) -> str:
        # hmac.digest: one call, without an HMAC object (a warm run checks one entry per file).
        return hmac.digest(
            self.secret or b"", (key + "\0" + payload).encode("utf-8", "surrogatepass"), "sha256"
        ).hex()

    def _path(self, key: str, suffix: str = "") -> Path:
        return Path(self._name(key, suffix))

    def _name(self, key: str, suffix: str = "") -> str:
        # joined as text: a warm run reads an entry for each of its files
        return os.path.join(self.folder, key[:2], f"{key[2:]}{suffix}.json")

    def get(self, key: str, display: str) -> list[Finding] | None:
        entry = self.get_entry(key, display)
        return entry[0] if entry is not None else None

    def get_entry(self, key: str, display: str) -> tuple[list[Finding], StoredFacts | None] | None:
        """(findings, the module's flow facts as stored, or None) of an entry."""
        return self.entry_of(key, self._read(key), display)

    def entry_of(
        self, key: str, data: Any, display: str
    ) -> tuple[list[Finding], StoredFacts | None] | None:
        """``get_entry`` of an entry's data as read (``_read``): from its file, or kept in the stat index."""
        if data is None:
            return None
        try:
            facts = None
            if isinstance(data, dict):  # findings and the flow facts of a Python module
                if data["facts"] is not True or not isinstance(data["depends"], list):
                    return None
                facts = StoredFacts(data["depends"], self, key)
                data = data["findings"]
            # A copy of each item: _from_dict takes it apart, and the index's copy is kept (and saved).
            return [_from_dict(dict(item), display) for item in data], facts
        except (ValueError, TypeError, KeyError, AttributeError):
            return None  # a damaged entry is a miss

    def stored(self, key: str) -> Any:
        """An entry's data as its file holds it (for the stat index to keep), or None."""
        return self._read(key)

    def put(self, key: str, findings: list[Finding], facts: dict | None = None) -> Any:
        """Store ``findings`` (and a Python module's flow facts, ``flow.facts.to_json``) under ``key``; returns
        the entry as ``stored`` reads it back, for the stat index to keep."""
        items = [_to_dict(f) for f in findings]
        if facts is None:
            self._write(key, items)
            return items
        # The facts in a file of their own, written first: a run that needs no flow resolved never reads them.
        self._write(key, facts, _FACTS)
        entry = {"findings": items, "facts": True, "depends": facts.get("depends", [])}
        self._write(key, entry)
        return entry

    def get_role(self, key: str):
        """(known, classify.Role or None) of the file whose entry is ``key``: the role it has by content."""
        from .classify import ROLES, Role

        data = self._read(key, _ROLE)
        if isinstance(data, dict) and data.get("role") is None:
            return True, None
        if (
            isinstance(data, dict)
            and data.get("role") in ROLES
            and isinstance(data.get("why"), str)
        ):
            return True, Role(data["role"], data["why"])
        return False, None

    def put_role(self, key: str, role) -> None:
        data = {"role": None} if role is None else {"role": role.role, "why": role.why}
        self._write(key, data, _ROLE)

    def flow_key(self, modules: list) -> str:
        """The key of the flow findings of a run's modules: each [display, cache key, files it depends on]."""
        return self.key("flow", json.dumps(modules).encode("utf-8", "surrogatepass"))

    def get_flow(self, key: str) -> list[Finding] | None:
        """The flow findings joined from the modules ``key`` names (``flow_key``), each in its own file."""
        data = self._read(key)
        try:
            if not isinstance(data, dict):
                return None
            return [_from_dict(item, path) for path, item in data["flow"]]
        except (ValueError, TypeError, KeyError, AttributeError):
            return None

    def put_flow(self, key: str, findings: list[Finding]) -> None:
        self._write(key, {"flow": [[f.path, _to_dict(f)] for f in findings]})

    def _read(self, key: str, suffix: str = "") -> Any:
        if self.secret is None:
            return None
        try:
            entry = json.loads(read_regular(self._name(key, suffix)).decode("utf-8"))
            payload, mac = entry["findings"], entry["mac"]
            if (
                not isinstance(payload, str)
                or not isinstance(mac, str)
                # the suffix is authenticated too: a module's facts are never read as its findings
                or not hmac.compare_digest(mac, self._mac(key + suffix, payload))
            ):
                return (
                    None  # not written by this user's linter: a planted or edited entry is a miss
                )
            return json.loads(payload)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None  # a missing or damaged entry is a miss

    def _write(self, key: str, data: Any, suffix: str = "") -> None:
        if self.secret is None:
            return
        try:
            self._prepare()
            target = self._path(key, suffix)
            target.parent.mkdir(exist_ok=True)
            if not _real_folder(target.parent):
                return  # a planted link in place of a subfolder: nothing is written through it
            handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
            payload = json.dumps(data)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump({"findings": payload, "mac": self._mac(key + suffix, payload)}, out)
            os.replace(temporary, target)
        except OSError:
            pass  # a read-only or full disk makes the cache useless, not the run

    def _prepare(self) -> None:
        if self._ready:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        if not _real_folder(self.folder):
            raise OSError(
                "the cache folder is not a folder of its own"
            )  # swapped for a link since open_cache
        _create_once(self.folder / "CACHEDIR.TAG", _TAG)
        _create_once(self.folder / ".gitignore", "# Created by ovadapt-lint.\n*\n")
        self._ready = True


def _real_folder(path: Path) -> bool:
    """A folder itself, not a symbolic link to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _create_once(path: Path, text: str) -> None:
    """Write a new file; leave whatever is there alone. Never through a link: O_EXCL fails on any existing
    name, a dangling link included (a planted `CACHEDIR.TAG -> /elsewhere` would make us create its target)."""
    try:
        fd = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644
        )
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


class StatIndex:
    """An unchanged file's cache key without reading the file, as git's index does: path, kind and role ->
    (size, mtime, inode, ctime, key, the key's entry). One index per salt, authenticated like the entries.
    The entry (what ``Cache.stored`` gives for the key) is kept here too, so a warm run reads this one file
    instead of an entry file per linted file.

    A file modified within ``RACY_NS`` of when it was looked at is not recorded: a later change in the same
    timestamp tick would otherwise keep its stale key (git's "racily clean" entries)."""

    RACY_NS = 2_000_000_000

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        self.path = cache.folder / f"index-{cache.salt[:24]}.json"
        self.entries: dict[str, list] = {}
        self.changed = False
        if cache.secret is None:
            return
        try:
            entry = json.loads(read_regular(self.path).decode("utf-8"))
            payload, mac = entry["entries"], entry["mac"]
            if (
                isinstance(payload, str)
                and isinstance(mac, str)
                and hmac.compare_digest(mac, cache._mac(self.path.name, payload))
            ):
                loaded = json.loads(payload)
                self.entries = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            self.entries = {}  # missing, damaged or planted: every file is read again

    @staticmethod
    def _name(path: Path, kind: str) -> str:
        return f"{kind}\0{os.path.abspath(path)}"

    @staticmethod
    def _stamp(info: os.stat_result) -> list[int]:
        return [info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns]

    def lookup(self, path: Path, kind: str) -> tuple[str | None, Any]:
        """(the cache key recorded for this file when its size, times and inode are unchanged, or None; the key's
        entry as recorded with it, or None: read it from its file)."""
        entry = self.entries.get(self._name(path, kind))
        if not entry or len(entry) < 5:
            return None, None
        try:
            info = os.stat(path)
        except OSError:
            return None, None
        if entry[:4] != self._stamp(info) or not isinstance(entry[4], str):
            return None, None
        return entry[4], entry[5] if len(entry) > 5 else None

    def record(
        self, path: Path, kind: str, info: os.stat_result | None, key: str | None, data: Any = None
    ) -> None:
        """Remember ``key`` for the file as ``info`` (taken before its bytes were read) describes it, with the
        key's entry (``data``, as ``Cache.stored`` gives it) when it is at hand."""
        if info is None or key is None:
            return
        import time

        if time.time_ns() - info.st_mtime_ns < self.RACY_NS:
            return  # every write sets the mtime to now; a stamp set by hand moves the ctime, which is compared
        name = self._name(path, kind)
        stamp = self._stamp(info) + [key] + ([data] if data is not None else [])
        if self.entries.get(name) != stamp:
            self.entries[name] = stamp
            self.changed = True

    def save(self) -> None:
        if not self.changed or self.cache.secret is None:
            return
        try:
            self.cache._prepare()
            payload = json.dumps(self.entries, separators=(",", ":"))
            handle, temporary = tempfile.mkstemp(dir=self.cache.folder, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(
                    {"entries": payload, "mac": self.cache._mac(self.path.name, payload)}, out
                )
            os.replace(temporary, self.path)
        except OSError:
            pass  # as for entries: a read-only or full disk makes the index useless, not the run
