"""The package's import graph runs one way: every import of a package module, at module level or inside a
function, points to a module of the same or a lower layer, and no modules import each other in a loop
(issue 19: the rule pack is a value passed down, not state that lower layers reach back up for)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ovadapt_lint"

# Lowest first. A module may import its own layer or a lower one; a module not listed is a failure.
LAYERS = [
    # plain values and the data of the built-in rule pack: its files (rulepack), its rule records (registry),
    # findings, a file's text, errors, the user's key store
    {
        "errors",
        "userstore",
        "rulepack",
        "registry",
        "findings",
        "source",
        "keyclass",
        "version",
        "repository",
    },
    # readers, detectors and redaction: detectors take the pack's pieces as arguments
    {
        "frontends",
        "detect",
        "redact",
        "internal_error",
        "classify",
        "discover",
        "vcs",
        "cache",
        "workers",
    },
    # the Python flow analysis: per-module facts and their resolution over a run's modules (models passed in)
    {"flow"},
    # checks: they take the rule pack (and the file's context) as arguments; the Python classify stage, whose
    # recognition of projections lives beside the checks that read its Publication
    {"checks", "classify_python"},
    # the rule pack as one value, built from the built-in pack and a configuration's extension files
    {"pack"},
    # a run's result, apart from the pipeline: what the reporters print
    {"results"},
    # a configuration's analysis (pack, scanner, vocabularies), built from its settings and passed down
    {"analysis"},
    {"config", "hierarchy", "baseline", "finalise"},
    {"engine", "fix", "roles", "pyfix"},
    {"report", "ruledocs", "configdocs", "history"},
    {"cli", "__init__", "__main__"},
]
# Detectors and readers see only what they are handed: never the registry, the pack's builder, a config or the engine.
PASSED_DOWN = ("detect", "frontends")
NOT_REACHED_FOR = ("registry", "pack", "config", "engine")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1]) if parts[-1] == "__init__" and len(parts) > 1 else ".".join(parts)


def _imports(path: Path, name: str) -> set[str]:
    """Package modules that ``path`` imports anywhere in its body (relative and absolute)."""
    is_package = path.name == "__init__.py"
    package = name.split(".") if is_package else name.split(".")[:-1]
    if name == "__init__":
        package = []
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
            elif node.module and node.module.split(".")[0] == "ovadapt_lint":
                base = []
            else:
                continue
            module = [*base, *(node.module.split(".") if node.module else [])]
            if module[:1] == ["ovadapt_lint"]:
                module = module[1:]
            for (
                alias
            ) in node.names:  # `from . import registry` names a module; `from .x import f` a name
                candidate = ".".join([*module, alias.name])
                found.add(candidate if _exists(candidate) else ".".join(module))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "ovadapt_lint":
                    found.add(".".join(alias.name.split(".")[1:]))
    # `from . import x` naming no module imports the package's face (__init__), which imports everything
    return {m if m else "__init__" for m in found} - {name}


def _exists(module: str) -> bool:
    base = PACKAGE.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = (
            _module_name(path)
            if path.parent != PACKAGE or path.name != "__init__.py"
            else "__init__"
        )
        graph[name] = _imports(path, name)
    return graph


def _layer(module: str) -> int:
    top = module.split(".")[0]
    for index, layer in enumerate(LAYERS):
        if top in layer:
            return index
    raise AssertionError(f"{module} is in no layer of tests/test_architecture.py")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                component.append(item)
                if item == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def test_the_graph_reads_function_level_imports():
    graph = import_graph()
    assert "detect.credentials" in graph["detect.scanner"]
    assert "checks.contracts" in graph["checks.catalog"]  # imported inside a function


def test_no_import_cycle():
    assert _cycles(import_graph()) == []


def test_no_import_runs_up_a_layer():
    upward = sorted(
        f"{a} -> {b}"
        for a, targets in import_graph().items()
        for b in targets
        if _layer(b) > _layer(a)
    )
    assert upward == []


def test_detectors_and_readers_take_the_pack_as_an_argument():
    reached = sorted(
        f"{a} -> {b}"
        for a, targets in import_graph().items()
        for b in targets
        if a.split(".")[0] in PASSED_DOWN and b.split(".")[0] in NOT_REACHED_FOR
    )
    assert reached == []


def test_reporters_read_the_result_not_the_engine():
    reached = sorted(
        f"{a} -> {b}"
        for a, targets in import_graph().items()
        for b in targets
        if a.split(".")[0] == "report" and b.split(".")[0] == "engine"
    )
    assert reached == []


def _engine_privates(path: Path, name: str) -> list[str]:
    """The engine's private names (``_x``) that ``path`` imports or reads as ``engine._x``."""
    found = []
    top = len(path.relative_to(PACKAGE).parts)  # the relative level that names the package itself
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if (node.level, node.module) in ((top, "engine"), (0, "ovadapt_lint.engine")):
                found += [alias.name for alias in node.names if alias.name.startswith("_")]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "engine"
            and node.attr.startswith("_")
        ):
            found.append(node.attr)
    return [f"{name} -> engine.{private}" for private in found]


def test_no_module_reaches_into_the_engine():
    """The engine's runner is used through its public calls (lint_unit, lint_target, map_units, run): a second
    pipeline that borrows its worker state or cache set-up (history did, issue 29) drifts from it unseen."""
    reached = sorted(
        reach
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "engine.py"
        for reach in _engine_privates(path, _module_name(path))
    )
    assert reached == []


def test_no_module_imports_another_modules_private_names():
    """A helper another module needs is public (vcs.first_line for history's git errors, contracts.error_message
    for the Python contract check, issue 29): a private name borrowed across modules changes under its user
    unseen."""
    borrowed = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").startswith("ovadapt_lint")
            ):
                borrowed += [
                    f"{name}: from {node.module} import {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert borrowed == []


def test_history_is_a_source_of_blobs_not_a_reporter():
    """History's findings are written by the reporters every run uses (report/), never by history itself."""
    graph = import_graph()
    assert sorted(m for m in graph["history"] if m.split(".")[0] in ("report", "cli")) == []
    tree = ast.parse((PACKAGE / "history.py").read_text(encoding="utf-8"))
    writers = [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name.lstrip("_").startswith("write")
    ]
    assert writers == []
