"""Dotted module names from file paths, and qualified names through a module's imports."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from ..frontends.ast_nodes import BLOCK_CLASSES


def module_name(path: Path | str, packages: dict[str, str] | None = None) -> tuple[str, bool]:
    """(``pkg.sub.mod``, is a package) for a Python file: the folders above it that hold an
    ``__init__.py`` are its packages (a ``src/`` layout's ``src`` holds none). ``packages``: each folder, as the
    paths name it, -> its packages part ("a.b", "" for none), kept by a caller that names many modules of the
    same folders (one run): the folders above are asked once per folder, not once per file."""
    folder, name = os.path.split(path)
    chain = packages.get(folder) if packages is not None else None
    if chain is None:
        chain = _packages_part(os.path.abspath(folder or os.curdir))
        if packages is not None:
            packages[folder] = chain
    is_package = name == "__init__.py"
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name  # Path(name).stem, without making a Path
    if is_package:
        return chain or stem, True
    return (f"{chain}.{stem}" if chain else stem), False


def _packages_part(folder: str) -> str:
    """The dotted names of ``folder`` (absolute) and the folders above it that are packages, outermost first."""
    parts: list[str] = []
    here = Path(folder)
    while (here / "__init__.py").is_file() and here.parent != here:
        parts.append(here.name)
        here = here.parent
    return ".".join(reversed(parts))


def imports_of(tree: ast.Module, name: str, is_package: bool) -> dict[str, str]:
    """Local name -> qualified name for the module's top-level imports (``from .m import f as g`` binds
    ``g`` to ``pkg.m.f``; ``import a.b`` binds ``a``)."""
    package = name.split(".") if is_package else name.split(".")[:-1]
    found: dict[str, str] = {}
    inner: ast.AST
    for node in tree.body:
        if node.__class__ in _IMPORTS:
            _bind(node, package, found)
        if node.__class__ not in BLOCK_CLASSES:
            continue  # no statements inside (asked of every module twice: no getattr per statement)
        # Imports guarded by `try:` / `if TYPE_CHECKING:` are imports too.
        for part in (
            getattr(node, "body", ()),
            getattr(node, "orelse", ()),
            *(h.body for h in getattr(node, "handlers", ())),
        ):
            for inner in part if isinstance(part, list) else ():
                if inner.__class__ in _IMPORTS:
                    _bind(inner, package, found)
    return found


_IMPORTS = frozenset({ast.Import, ast.ImportFrom})


def _bind(node: ast.AST, package: list[str], found: dict[str, str]) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                found[alias.asname] = alias.name
            else:
                first = alias.name.split(".")[0]
                found.setdefault(first, first)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        for alias in node.names:
            if alias.name != "*":
                found[alias.asname or alias.name] = (
                    f"{module}.{alias.name}" if module else alias.name
                )
