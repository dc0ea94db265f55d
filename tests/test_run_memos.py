"""A run works out per folder what its files share (issue 25, warm runs): each folder's path relative to the
config, its packages part of a module name, its configuration. The memoised answers must be the ones worked
out file by file, on awkward names and places too."""

from __future__ import annotations

import os
from pathlib import Path

from ovadapt_lint.classify import relative_posix
from ovadapt_lint.config import Config
from ovadapt_lint.flow.modnames import module_name
from ovadapt_lint.hierarchy import Configs

# Files whose names a per-folder shortcut could get wrong: a package's own module, a stub of it, dotted and
# dot-leading names, a name that starts like a parent reference.
NAMES = ("__init__.pyi", "mod.py", "a.b.py", ".py", "..py", "..x.json", "x")
PACKAGES = ("pkg", "pkg/sub", "pkg/__init__", "plain/pkg2", "__init__")


def _tree(root: Path) -> list[Path]:
    files = []
    for folder in ("", *PACKAGES, "plain"):
        (root / folder).mkdir(parents=True, exist_ok=True)
        for name in (*NAMES, *(["__init__.py"] if folder in PACKAGES else [])):
            path = root / folder / name
            path.write_text("", encoding="utf-8")
            files.append(path)
    return files


def test_module_names_worked_out_per_folder_match_module_name(tmp_path: Path) -> None:
    files = _tree(tmp_path)
    packages: dict[str, str] = {}
    for path in files:
        assert module_name(path, packages)[0] == module_name(path)[0], path
    assert module_name(tmp_path / "pkg/sub/mod.py", packages)[0] == "pkg.sub.mod"
    assert module_name(tmp_path / "pkg/sub/__init__.py", packages)[0] == "pkg.sub"
    assert module_name(tmp_path / "pkg/__init__/__init__.pyi", packages)[0] == (
        "pkg.__init__.__init__"
    )
    assert module_name(tmp_path / "__init__/__init__.py", packages)[0] == "__init__"
    assert module_name(tmp_path / "plain/mod.py", packages)[0] == "mod"


def test_relative_paths_worked_out_per_folder_match_each_file(tmp_path: Path, monkeypatch) -> None:
    files = _tree(tmp_path)
    monkeypatch.chdir(tmp_path / "plain")
    relative = [Path(os.path.relpath(p)) for p in files]
    bases = (None, Path("."), Path(".."), tmp_path / "pkg", tmp_path / "pkg/sub", Path("/"))
    folders: dict = {}
    for path in (*files, *relative):
        for base in bases:
            assert relative_posix(path, base, folders) == relative_posix(path, base), (path, base)
    assert relative_posix(Path("pkg2/mod.py"), Path("."), folders) == "pkg2/mod.py"
    # Outside the base, or named like a parent reference: the path stays as given.
    assert relative_posix(Path("..x.json"), Path("."), folders) == "..x.json"
    assert relative_posix(Path("../pkg/mod.py"), Path("."), folders) == "../pkg/mod.py"


def test_nested_configs_are_found_per_folder_as_named(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "a/b").mkdir(parents=True)
    (tmp_path / "a/.ovadapt-lint.toml").write_text('scope = "all"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    configs = Configs(Config())
    inner = configs.for_file("a/b/x.py")
    assert inner.scope == "all"
    assert configs.for_file(tmp_path / "a/b/y.py") is inner
    assert configs.for_file("a/x.py") is inner
    assert configs.for_file("x.py") is configs.root
    assert configs.for_file(Path("a/../x.py")) is configs.root
