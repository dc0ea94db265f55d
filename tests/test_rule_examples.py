"""Every rule's documented examples run: `example` is reported with the rule's code, `ok` is not.

Each text is written as a file of its language (`example_lang`/`ok_lang` in rules.toml, default json)
beside copies of the rule's corpus folder support files (its config, its deny-list), then linted.
Conventions the docs use and this harness honours:
- a whole JSON document is linted as written; an example may instead be the members of an object
  (`"mode": "live_sync"`), which are wrapped in one;
- `...` or `…` as the last item of an object or array elides the rest;
- a contract rule's members are laid over a valid adapter (corpus/OVA103/ok_specializes.json);
- a Python example with `return` is the body of a function.
A `text` example describes a file that cannot be written down (unreadable, 50 MB, UTF-16); the rule's
corpus cases, or the test named in tests/test_corpus.py's NOT_IN_CORPUS, stand for it.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from ovadapt_lint import lint_paths
from ovadapt_lint.registry import Rule, all_rules

from .conftest import CORPUS
from .test_corpus import NOT_IN_CORPUS

ADAPTER = json.loads((CORPUS / "OVA103" / "ok_specializes.json").read_text(encoding="utf-8"))
CONTAINER = "openviking_session_memory_adapter"
ELISION = re.compile(r",\s*(?:\.\.\.|…)(?=\s*[}\]])")
NOTE = re.compile(r"\s+#[^\n\"]*$", re.M)  # `"lane": "x"   # deny-list: x`: a note for the reader
SUFFIX = {
    "json": "example.public.json",
    "jsonl": "example.public.jsonl",
    "python": "example.py",
    "markdown": "example.md",
}


def _overlay(base, extra):
    """``base`` with ``extra`` laid over it: objects merge; an array of objects merges item by item,
    matched on the item's first key (a gate's `capability`); anything else is replaced."""
    if isinstance(base, dict) and isinstance(extra, dict):
        return {**base, **{k: _overlay(base[k], v) if k in base else v for k, v in extra.items()}}
    if (
        isinstance(base, list)
        and isinstance(extra, list)
        and extra
        and all(isinstance(i, dict) and i for i in extra)
    ):
        merged = list(base)
        for item in extra:
            key = next(iter(item))
            at = next(
                (
                    n
                    for n, b in enumerate(merged)
                    if isinstance(b, dict) and b.get(key) == item[key]
                ),
                None,
            )
            if at is None:
                merged.append(item)
            else:
                merged[at] = _overlay(merged[at], item)
        return merged
    return extra


def _json_text(rule: Rule, text: str) -> str:
    text = ELISION.sub("", NOTE.sub("", text))
    try:
        json.loads(text)
        return text + "\n"  # a whole document, linted as written (a duplicate key stays duplicate)
    except ValueError:
        pass
    for candidate in ("{" + text + "}",):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if rule.category == "contract" and isinstance(value, dict):
            if CONTAINER in value:
                inner = value[CONTAINER]
                value = {CONTAINER: _overlay(ADAPTER, inner) if isinstance(inner, dict) else inner}
            else:
                value = _overlay(ADAPTER, value)
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    return text  # not JSON at all: the example is about that (OVA001)


def _python_text(text: str) -> str:
    if re.search(r"^return\b", text, re.M):
        text = "def build(*args, **kwargs):\n" + textwrap.indent(text, "    ")
    return "import os\nfrom pathlib import Path\n\n\n" + text + "\n"


def _lint_example(rule: Rule, text: str, language: str, folder: Path) -> set[str]:
    for support in (CORPUS / rule.code).glob("*"):
        if support.name.startswith((".", "_")) and support.is_file():
            shutil.copy(support, folder / support.name)
    body = {
        "json": lambda t: _json_text(rule, t),
        "jsonl": lambda t: _json_text(rule, t).replace("\n", " ") + "\n",
        "python": _python_text,
        "markdown": lambda t: t + "\n",
    }[language](text)
    target = folder / SUFFIX[language]
    target.write_text(body, encoding="utf-8")
    return {f.code for f in lint_paths([str(target)])}


def _cases():
    for rule in all_rules().values():
        yield pytest.param(rule, "example", id=f"{rule.code}-example")
        if rule.ok:
            yield pytest.param(rule, "ok", id=f"{rule.code}-ok")


@pytest.mark.parametrize(("rule", "which"), list(_cases()))
def test_documented_example_runs(rule: Rule, which: str, tmp_path: Path) -> None:
    text, language = (
        (rule.example, rule.example_lang) if which == "example" else (rule.ok, rule.ok_lang)
    )
    if language == "text":
        corpus = (
            [
                p
                for p in (CORPUS / rule.code).glob("bad_*" if which == "example" else "ok_*")
                if p.suffix not in (".expect", ".fixed")
            ]
            if (CORPUS / rule.code).is_dir()
            else []
        )
        assert corpus or rule.code in NOT_IN_CORPUS, (
            f"{rule.code}: a text {which} needs a corpus case instead"
        )
        return
    found = _lint_example(rule, text, language, tmp_path)
    if which == "example":
        assert rule.code in found, f"{rule.code} example not reported (found {sorted(found)})"
    else:
        assert rule.code not in found, f"{rule.code} ok text is reported"
