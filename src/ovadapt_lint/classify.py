"""The classify stage: what is published.

Every file gets a role: ``public`` (fixtures and projection outputs), ``test``
(tests and their data) or ``source`` (everything else), and a reason. By name and place: a
``*.public.json`` name, a configured ``public-paths`` glob, then the test paths, then a
``fixtures/`` folder at any depth (so ``tests/fixtures/`` stays test data); a ``!GLOB`` entry in
``public-paths`` takes matching files back out of the globs and folders (not out of a
``*.public.json`` name). By content: a JSON document holding a contract object or an attestation
key is public wherever it lies (``content_reason``), unless it declares itself a negative test case
(``negative_case``: `"expect": "reject"`), which is test data wherever it lies. Credentials and the
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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .discover import matches

PUBLIC, SOURCE, TEST = "public", "source", "test"
ROLES = (PUBLIC, SOURCE, TEST)

DEFAULT_PUBLIC_PATHS = ("*.public.json", "*.public.jsonl")
# Where repositories keep what they publish (`src/ fixtures/`): public unless also a test path.
DEFAULT_PUBLIC_FOLDERS = ("fixtures/",)
DEFAULT_TEST_PATHS = ("tests/", "test/", "testing/", "test_*.py", "*_test.py", "conftest.py")
# A key that attests what a projection leaves out: `raw_memory_copied: false`, `public_boundary`.
ATTESTATION_SUFFIXES = ("_copied", "_recorded", "_captured", "_included", "_exported")
_ATTESTATION_KEY = re.compile(r"^(?:public_boundary|public_safe\w*)$")


def is_attestation_key(key: str) -> bool:
    return key.endswith(ATTESTATION_SUFFIXES) or bool(_ATTESTATION_KEY.match(key))


def relative_posix(path: Path, base: Path | None, folders: dict | None = None) -> str:
    """The path relative to ``base`` (the config file's folder) when inside it, as posix text. ``folders``:
    a memo of each folder's path relative to its base, for a run that asks of many files."""
    text = str(path)
    if base is not None:
        try:
            rel = _relative(path, base, folders)
            if not rel.startswith(".."):
                text = rel
        except ValueError:  # another drive on Windows
            pass
    return text.replace(os.sep, "/")


def _relative(path: Path, base: Path, folders: dict | None) -> str:
    if folders is None:
        return os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    # A file's relative path is its folder's and its name: the folder's is worked out once.
    folder, name = os.path.split(path)
    above = folders.get((folder, base))
    if above is None:
        above = folders[(folder, base)] = os.path.relpath(
            os.path.abspath(folder), os.path.abspath(base)
        )
    return name if above == os.curdir else os.path.join(above, name)


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
    return folder is not None and any(
        folder.match(part) for part in os.path.normcase(rel).split("/")[:-1]
    )


@dataclass(frozen=True)
class Role:
    """A file's role and why it has it (a name, folder, config glob, contract object or attestation)."""

    role: str
    why: str


@lru_cache(maxsize=64)
def _every_glob(public_paths: tuple[str, ...], test_paths: tuple[str, ...]) -> tuple[str, ...]:
    """Every glob path_role asks of a file, in one set: most files match none of them, and one question
    (``_folder_match`` on the set: its regexes are alternations) answers the five path_role would ask."""
    return (
        *DEFAULT_PUBLIC_PATHS,
        *(p[1:] if p.startswith("!") else p for p in public_paths),
        *DEFAULT_TEST_PATHS,
        *test_paths,
        *DEFAULT_PUBLIC_FOLDERS,
    )


def _first_match(rel: str, patterns: tuple[str, ...]) -> str | None:
    return (
        next((p for p in patterns if _folder_match(rel, (p,))), None)
        if _folder_match(rel, patterns)
        else None
    )


def path_role(
    path: Path,
    public_paths: Sequence[str],
    test_paths: Sequence[str],
    base: Path | None = None,
    folders: dict | None = None,
) -> Role:
    """A file's role from its name and place, with the reason; a JSON document may still become public by
    content (``content_reason``). ``folders``: relative_posix's memo."""
    rel = relative_posix(path, base, folders)
    if not _folder_match(rel, _every_glob(tuple(public_paths), tuple(test_paths))):
        return Role(SOURCE, "no public name, folder or content")  # what the steps below come to
    name = _first_match(rel, DEFAULT_PUBLIC_PATHS)
    if name is not None:
        return Role(PUBLIC, f"name {name}")
    taken = tuple(p[1:] for p in public_paths if p.startswith("!"))
    out = bool(taken) and _folder_match(rel, taken)
    configured = tuple(p for p in public_paths if not p.startswith("!"))
    glob = None if out else _first_match(rel, configured)
    if glob is not None:
        return Role(PUBLIC, f"config public-paths {glob}")
    test = _first_match(rel, DEFAULT_TEST_PATHS)
    if test is not None:
        return Role(TEST, f"test path {test}")
    test = _first_match(rel, tuple(test_paths))
    if test is not None:
        return Role(TEST, f"config test-paths {test}")
    folder = None if out else _first_match(rel, DEFAULT_PUBLIC_FOLDERS)
    if folder is not None:
        return Role(PUBLIC, f"folder {folder}")
    if out:
        return Role(SOURCE, f"config public-paths !{_first_match(rel, taken)}")
    return Role(SOURCE, "no public name, folder or content")


def file_role(
    path: Path,
    public_paths: Sequence[str],
    test_paths: Sequence[str],
    base: Path | None = None,
) -> str:
    """A file's role from its name and place; a JSON document may still become public by content."""
    return path_role(path, public_paths, test_paths, base).role


def attestation_key(doc) -> str | None:
    """The first attestation key in the document, or None."""
    from .frontends.json_tree import walk

    for root, prefix in doc.roots:
        for _node, _, member in walk(root, prefix):
            if (
                member is not None
                and is_attestation_key(member.key)
                and (member.value.kind in ("true", "false") or member.key.startswith("public_"))
            ):
                return member.key
    return None


def content_reason(doc, adapters) -> str | None:
    """Why a JSON document is public by what it holds, or None: an object a contract recognises
    (``adapters``: checks.contracts.find_adapters' answer, passed in) or an attestation key. The reason
    names the contract or the key (an attestation key's own shape), never a value."""
    for contract, _, _ in adapters:
        if contract is not None:
            return f"contract object {contract.schema_version}"
    key = attestation_key(doc)
    return f"attestation key {key}" if key is not None else None


@lru_cache(maxsize=1)
def negative_case_vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """The keys and values by which a document declares itself a negative case (rules/vocabulary/cases.toml)."""
    from . import rulepack

    data = rulepack.load_toml("vocabulary", "cases.toml")
    return frozenset(data["keys"]), frozenset(data["values"])


def negative_case(doc) -> str | None:
    """How the document declares itself a negative test case (`expect "reject"`), or None: its top-level
    object, or every record of a JSON Lines file, holds a key and value of ``negative_case_vocabulary``.
    The answer quotes the vocabulary's words, never other text of the document."""
    keys, values = negative_case_vocabulary()
    found = None
    for root, _ in doc.roots:
        if root.kind != "object":
            return None
        declared = next(
            (
                (m.key, m.value.value.lower())
                for m in root.value
                if m.key in keys and m.value.kind == "string" and m.value.value.lower() in values
            ),
            None,
        )
        if declared is None:
            return None
        found = found or declared
    return None if found is None else f'negative case {found[0]} "{found[1]}"'


def content_role(doc, adapters, path_public: bool) -> Role | None:
    """The role a JSON document has by what it holds, when that overrides its path role, or None: test data
    when it declares itself a negative case (``negative_case``), else public when its path did not make it so
    and it holds a projection (``content_reason``)."""
    negative = negative_case(doc)
    if negative is not None:
        return Role(TEST, negative)
    if path_public:
        return None
    why = content_reason(doc, adapters)
    return Role(PUBLIC, why) if why is not None else None
