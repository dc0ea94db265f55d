"""The classify stage: what is published.

Every file gets a role: ``public`` (fixtures and projection outputs), ``test``
(tests and their data) or ``source`` (everything else). Credentials and the
deny-list are judged everywhere; raw fields, raw content, local paths and
private URLs only in what is published (a public JSON document, or a Python
value that reaches a projection; see ``checks.python_projections``). With
``scope = "all"`` every rule runs on every file, as an audit. A Jupyter notebook is a JSON
document like any other: a source file unless its path is published (its saved outputs are raw
tool output, judged as such only when the notebook is listed under ``public-paths``).
"""

from __future__ import annotations

import fnmatch
import os
import re
from functools import lru_cache
from pathlib import Path

from .discover import matches

PUBLIC, SOURCE, TEST = "public", "source", "test"
ROLES = (PUBLIC, SOURCE, TEST)

DEFAULT_PUBLIC_PATHS = ("*.public.json", "*.public.jsonl")
DEFAULT_TEST_PATHS = ("tests/", "test/", "testing/", "test_*.py", "*_test.py", "conftest.py")
# A key that attests what a projection leaves out: `raw_memory_copied: false`, `public_boundary`.
ATTESTATION_SUFFIXES = ("_copied", "_recorded", "_captured", "_included", "_exported")
_ATTESTATION_KEY = re.compile(r"^(?:public_boundary|public_safe\w*)$")


def is_attestation_key(key: str) -> bool:
    return key.endswith(ATTESTATION_SUFFIXES) or bool(_ATTESTATION_KEY.match(key))


def relative_posix(path: Path, base: Path | None) -> str:
    """The path relative to ``base`` (the config file's folder) when inside it, as posix text."""
    text = str(path)
    if base is not None:
        try:
            rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
            if not rel.startswith(".."):
                text = rel
        except ValueError:  # another drive on Windows
            pass
    return text.replace(os.sep, "/")


@lru_cache(maxsize=64)
def _folders(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    """The folder globs (`tests/`) as one regex, matched against each folder above a file."""
    folders = [os.path.normcase(p.rstrip("/")) for p in patterns if p.endswith("/")]
    return re.compile("|".join(fnmatch.translate(f) for f in folders)) if folders else None


def _folder_match(rel: str, patterns: tuple[str, ...]) -> bool:
    """Globs on the file (name or path, as ``discover.matches`` reads them) or on any folder above it
    (``tests/`` matches ``a/tests/b.py``)."""
    if matches(rel, patterns):
        return True
    folder = _folders(patterns)
    return folder is not None and any(folder.match(part) for part in os.path.normcase(rel).split("/")[:-1])


def file_role(path: Path, public_paths: list[str], test_paths: list[str], base: Path | None = None) -> str:
    """A file's role from its name and place; a JSON document may still become public by content."""
    rel = relative_posix(path, base)
    if _folder_match(rel, (*DEFAULT_PUBLIC_PATHS, *public_paths)):
        return PUBLIC
    if _folder_match(rel, (*DEFAULT_TEST_PATHS, *test_paths)):
        return TEST
    return SOURCE


def json_attests(doc) -> bool:
    """An object in the document attests a projection boundary (a `*_copied` flag, `public_boundary`)."""
    from .frontends.json_tree import walk

    for root, prefix in doc.roots:
        for _node, _, member in walk(root, prefix):
            if member is not None and is_attestation_key(member.key) and (
                    member.value.kind in ("true", "false") or member.key.startswith("public_")):
                return True
    return False
