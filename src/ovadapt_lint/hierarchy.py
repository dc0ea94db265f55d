"""Hierarchical configuration, as in Ruff: each file is linted with the nearest config file above it
(``.ovadapt-lint.toml``, ``ovadapt-lint.toml`` or ``pyproject.toml`` with ``[tool.ovadapt-lint]``),
so one folder's config never silences another's tree. ``--config FILE`` pins one config for all.

The options of the run (workers, cache, baseline, --force-include) are not here: they are one
config.RunOptions for the run. The command line's settings (config.Overrides) apply on top of every config.
Each config's analysis (rule pack, scanner, vocabularies) is made once, when the config is loaded, and kept
for every pass of the run (--fix reruns); a config is known by the file it came from (None: the defaults).
``lazy``: its parts are built when the run first lints a file the cache does not answer (analysis.Analysis),
not as the config is loaded; a run answered by the cache reads none of the config's extension files.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .analysis import Analysis
from .config import CONFIG_FILENAMES, Config, Overrides, load_config


class Configs:
    """The configuration for each folder, found once per folder and loaded once per file."""

    def __init__(
        self,
        root: Config,
        overrides: Overrides | None = None,
        fixed: bool = False,
        lazy: bool = False,
    ) -> None:
        self.root = root  # overrides applied: the first path's config, --config, or the defaults
        self._overrides = overrides
        self._fixed = fixed
        self._make = Analysis.of if lazy else Analysis.build
        self._file_of: dict[str, str | None] = {}  # real folder -> governing config file (or None)
        self._loaded: dict[str | None, Config | None] = {}
        # A file's folder as its path names it -> its config: a run asks for every file, and files share few
        # folders (resolving each folder's links costs more than the rest of the lookup).
        self._of_folder: dict[str, Config] = {}
        # Built as each config is loaded: a bad extension, vocabulary or deny-list file fails before linting.
        # Keyed by the config's source: one config per file in a hierarchy.
        self._analyses: dict[Path | None, Analysis] = {root.source: self._make(root)}
        if root.source is not None:
            self._loaded[os.path.realpath(root.source)] = root
        else:
            self._loaded[None] = root

    def for_folder(self, folder: str) -> Config:
        if self._fixed:
            return self.root
        source = self._nearest(os.path.realpath(folder))
        if source not in self._loaded:
            self._loaded[source] = self._load(source)
        return self._loaded[source] or self.root

    def for_file(self, path: str | Path) -> Config:
        named = os.path.dirname(path)
        config = self._of_folder.get(named)
        if config is None:
            config = self._of_folder[named] = self.for_folder(
                os.path.dirname(os.path.abspath(path))
            )
        return config

    def analysis(self, config: Config) -> Analysis:
        """The analysis of ``config``, one of these configurations (its parts built on first use when lazy)."""
        return self._analyses[config.source]

    def settings(self, folder: str) -> tuple[Sequence[str], Sequence[str], Path | None]:
        """What discovery needs for the files of a folder: include, exclude, and the folder they are relative to."""
        config = self.for_folder(folder)
        return (
            config.include,
            config.exclude,
            config.source.parent if config.source is not None else None,
        )

    def all(self) -> list[Config]:
        """Every configuration used so far, the root first."""
        out = [self.root]
        for config in self._loaded.values():
            if config is not None and all(config is not seen for seen in out):
                out.append(config)
        return out

    def _nearest(self, real: str) -> str | None:
        if real in self._file_of:
            return self._file_of[real]
        found = None
        for name in CONFIG_FILENAMES:
            candidate = os.path.join(real, name)
            if os.path.isfile(candidate) and self._has_table(candidate):
                found = candidate
                break
        if found is None:
            parent = os.path.dirname(real)
            found = self._nearest(parent) if parent != real else None
        self._file_of[real] = found
        return found

    def _has_table(self, candidate: str) -> bool:
        # A pyproject.toml without [tool.ovadapt-lint] is not ours: keep walking up, as find_config does.
        key = os.path.realpath(candidate)
        if key not in self._loaded:
            self._loaded[key] = self._load(key)
        return self._loaded[key] is not None

    def _load(self, source: str | None) -> Config | None:
        if source is None:
            config = Config()
        else:
            loaded = load_config(Path(source), explicit=False)
            if loaded is None:
                return None
            config = loaded
        if self._overrides is not None:
            config = self._overrides.apply(config)
        self._analyses[config.source] = self._make(config)
        return config
