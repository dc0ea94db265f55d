"""The configuration reference (docs/configuration.md), generated from config.KEYS so the page cannot drift
from what load_config accepts. Regenerate: ``python -m ovadapt_lint.configdocs > docs/configuration.md``."""

from __future__ import annotations

import json
import sys
from typing import Any

from .config import KEYS, Key

_KINDS = {
    "codes": "a list of rule codes or prefixes",
    "globs": "a list of globs",
    "strings": "a list of strings",
    "paths": "a list of file paths",
    "sinks": "a list of `package.module:function` names",
    "sanitizers": "a list of function names, each optionally `:kind,kind` (the flow kinds it stops)",
    "table": "a table",
    "ignores": "a table of glob = [codes]",
    "count": "a non-negative integer",
    "flag": "true or false",
    "path": "a path",
}

_INTRO = """\
# Configuration

<!-- Generated from the table of keys in src/ovadapt_lint/config.py (KEYS); do not edit by hand.
     Regenerate: python -m ovadapt_lint.configdocs > docs/configuration.md -->

Settings live in `[tool.ovadapt-lint]` of a `pyproject.toml`, or at the top level of
`.ovadapt-lint.toml` / `ovadapt-lint.toml`. An unknown key or a wrong value is an error (exit 2) whose
one-line message names the file and the key.

Each file is linted with the **nearest config file above it**, so one folder's settings never silence
another's tree; `--config FILE` pins one file for every path. Most keys are **per-path settings**: each
config file has its own, and the command line's options apply on top of every one (a command-line list
adds to the configured one; `--select` replaces the selection, ignores included). **Run options** are one
value for the whole run (one worker pool, one cache, one baseline): a config file sets them only when it
is the first path's (or `--config`'s); most are set on the command line only.

```toml
[tool.ovadapt-lint]
select = ["OVA"]
ignore = ["OVA007"]
public-paths = ["site/data/"]
per-file-ignores = {"fixtures/legacy_*.json" = ["OVA205"]}
deny-list = ["internal-names.txt"]
```
"""


def _default(key: Key) -> str:
    value: Any = key.default
    if value is None:
        return "not set"
    if isinstance(value, tuple):
        value = list(value)
    return f"`{json.dumps(value)}`"


def _value(key: Key) -> str:
    if key.kind == "choice":
        return "one of " + ", ".join(f'`"{c}"`' for c in key.choices)
    return _KINDS[key.kind]


def _section(key: Key) -> list[str]:
    if key.name is None:  # set on the command line, or in the API as a RunOptions field
        title = f"`{key.flag}` (command line only)"
        facts = [f"API: `RunOptions.{key.attr}`, {_value(key)}, default {_default(key)}."]
    else:
        title = f"`{key.name}`"
        facts = [f"Value: {_value(key)}.", f"Default: {_default(key)}."]
        if key.flag:
            facts.append(f"Command line: `{key.flag}`.")
    return [f"### {title}", "", " ".join(facts), "", key.doc, ""]


def configuration_markdown() -> str:
    lines = [_INTRO, "## Per-path settings", ""]
    for key in KEYS:
        if not key.run:
            lines += _section(key)
    lines += ["## Run options", ""]
    for key in KEYS:
        if key.run:
            lines += _section(key)
    return "\n".join(lines).rstrip("\n") + "\n"


if __name__ == "__main__":
    sys.stdout.write(configuration_markdown())
