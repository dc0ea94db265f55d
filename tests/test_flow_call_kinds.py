"""The flow builder's fast path for calls: a call whose ``models.CallKind`` is ``plain`` (none of the special
calls of ``FunctionBuilder.called``: environment reads, substitutions, sanitisers, killers, sources, opens,
propagators) has only its arguments, sinks and call site worked out. A special case that ``plain`` leaves
out would be skipped there without a word; here every module of the flow corpus (with its configurations) and
of this package is built twice, once as the linter builds it and once with every call taking the general path,
and the facts must be the same."""

from __future__ import annotations

from ovadapt_lint import lint_paths
from ovadapt_lint.checks import python_flows
from ovadapt_lint.config import RunOptions
from ovadapt_lint.flow.facts import to_json
from ovadapt_lint.flow.models import FlowModels

from .conftest import CORPUS, ROOT

# One call of each special kind, where its value reaches what the function returns or publishes.
KINDS_MODULE = """\
import json
import os
import re
import subprocess

from helpers import mask_paths, scrub, check_public

TOKEN = re.compile(r"sk-[a-z0-9]+")


def env_read():
    return os.environ.get("API_TOKEN")


def substituted(text):
    return TOKEN.sub("[REDACTED]", text)


def partly_masked(text):
    return mask_paths(text)


def scrubbed(text):
    clean = scrub(text)
    return clean, text


def counted(text):
    return len(text), text.count("a")


def source_call():
    return subprocess.check_output(["git", "status"])


def opened(path):
    with open(path) as handle:
        return json.load(handle)


def propagated(text):
    return str(text), sorted(text)


def published(text):
    check_public(text)
    print(json.dumps({"note": text}))
"""
KINDS_CONFIG = """\
sanitizers = ["helpers.mask_paths:local-path", "helpers.scrub"]
public-validators = ["check_public"]
published = "outputs"
"""


def _recorded(monkeypatch, paths: list[str]) -> list[tuple]:
    """The inputs of every module's flow build in a run over ``paths`` (one process, no cache)."""
    recorded: list[tuple] = []
    real = python_flows.module_flow_facts

    def recording(*args):
        recorded.append(args)
        return real(*args)

    with monkeypatch.context() as patch:
        patch.setattr(python_flows, "module_flow_facts", recording)
        lint_paths(paths, options=RunOptions(jobs=1, use_cache=False))
    return recorded


def test_the_fast_path_gives_the_facts_of_the_general_path(monkeypatch, tmp_path) -> None:
    (tmp_path / "kinds.py").write_text(KINDS_MODULE, encoding="utf-8")
    (tmp_path / ".ovadapt-lint.toml").write_text(KINDS_CONFIG, encoding="utf-8")
    paths = [str(tmp_path), str(CORPUS / "flows"), str(ROOT / "src" / "ovadapt_lint")]
    recorded = _recorded(monkeypatch, paths)
    assert len(recorded) > 100
    fast = [to_json(python_flows.module_flow_facts(*args)) for args in recorded]

    kinds = FlowModels.call_kind
    plain_calls = []

    def general(self, name, raw_name, method):
        kind = kinds(self, name, raw_name, method)
        plain_calls.append(kind.plain)
        return kind._replace(plain=False)

    monkeypatch.setattr(FlowModels, "call_kind", general)
    slow = [to_json(python_flows.module_flow_facts(*args)) for args in recorded]
    # Both paths were taken: most calls are plain, and the special ones are in the corpus.
    assert plain_calls.count(True) > 1000 and plain_calls.count(False) > 100
    for args, one, other in zip(recorded, fast, slow):
        assert one == other, args[2]
