"""The classify stage for Python (issue 25, item 8): a module's Publication is made before any check runs and
reports nothing; separate checks read it for contract values, raw fields and flows, each emitting only its
own codes, and a failure in one of them is reported under its own name."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ovadapt_lint import lint_paths
from ovadapt_lint.analysis import Analysis
from ovadapt_lint.checks import catalog
from ovadapt_lint.checks.catalog import Context, run_checks
from ovadapt_lint.classify_python import Publication, classify_module
from ovadapt_lint.config import Config
from ovadapt_lint.frontends.python_text import parse_text
from ovadapt_lint.source import SourceFile

# An adapter object whose copy flag is True (the contract's to judge, not the field rule's), a versioned
# projection that declares a raw copy (OVA207) and carries exception text (a flow, OVA208), and a private
# status dict.
BUILDER = """\
def build_adapter(ticket):
    return {
        "schema_version": "openviking_session_memory_adapter_v0",
        "raw_memory_copied": True,
        "issue_ref_id": ticket.ref_id,
    }


def snapshot_projection(run):
    try:
        run.go()
        problem = "none"
    except RuntimeError as exc:
        problem = str(exc)
    return {
        "schema_version": "snapshot_projection_v1",
        "raw_evidence_copied": True,
        "private_paths_copied": False,
        "problem": problem,
    }


def local_status(run):
    return {"ok": True, "note": run.note}
"""


def _context(tmp_path: Path, text: str, config: Config | None = None) -> Context:
    path = tmp_path / "pkg" / "builder.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    source = SourceFile(path, "pkg/builder.py", text.encode())
    module, notices = parse_text(source)
    assert module is not None and not notices
    return Context(source, Analysis.build(config or Config()), "source", module=module)


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_publication_records_what_is_published_and_reports_nothing(tmp_path: Path) -> None:
    ctx = _context(tmp_path, BUILDER)
    publication = classify_module(ctx.module, ctx.analysis)
    assert not hasattr(publication, "findings")
    with pytest.raises(dataclasses.FrozenInstanceError):
        publication.spans = ()  # type: ignore[misc]
    # The projection's dict is published, the private status dict is not.
    lines = {span.start_line for span in publication.spans}
    assert _line(BUILDER, '"schema_version"') - 1 in lines
    assert _line(BUILDER, '"ok": True') not in lines
    # Its fields, in source order; the section builder's copy flag is governed by the contract.
    fields = {f.key: f.governed for f in publication.fields}
    assert fields["raw_evidence_copied"] is False
    assert fields["raw_memory_copied"] is True
    assert "note" not in fields
    # Where values enter a projection (the flow check's sinks), and why the dict is published.
    sunk = [key for sinks in publication.flow_sinks.values() for key, _, _ in sinks]
    assert "problem" in sunk and "note" not in sunk
    assert sorted(publication.projection_values.values()) == [
        'a projection (it attests "raw_evidence_copied")',
        'a projection (it attests "raw_memory_copied")',
    ]
    assert publication.contracts is not None and publication.recognise is not None
    assert publication.recognise("snapshot_projection_v1") is not None
    assert publication.recognise("route_table_v1") is None
    publication.release()


def test_a_module_that_cannot_publish_gets_an_empty_publication(tmp_path: Path) -> None:
    ctx = _context(tmp_path, "def status(run):\n    return {'ok': True, 'note': run.note}\n")
    assert classify_module(ctx.module, ctx.analysis) == Publication()


def test_each_python_check_reads_the_publication_and_emits_its_own_codes(tmp_path: Path) -> None:
    ctx = _context(tmp_path, BUILDER)
    ctx.publication = classify_module(ctx.module, ctx.analysis)
    by_check = {check.name: check.run(ctx) for check in catalog.PYTHON_CHECKS}
    codes = {name: {(f.line, f.code) for f in found} for name, found in by_check.items()}
    assert codes["python-contract-values"] == {(_line(BUILDER, '"raw_memory_copied"'), "OVA107")}
    assert codes["python-raw-fields"] == {(_line(BUILDER, '"raw_evidence_copied"'), "OVA207")}
    assert codes["python-flows"] == set()  # resolved over the run's modules, from the facts it made
    assert ctx.flow_facts is not None
    for check in catalog.PYTHON_CHECKS:
        assert all(check.claims(f.code) for f in by_check[check.name]), check.name
    # The catalog runs the same checks after the stage: the same findings, and the flow reaches its sink.
    fresh = _context(tmp_path, BUILDER)
    assert {(f.line, f.code) for f in run_checks("python", fresh)} == set().union(*codes.values())
    assert fresh.publication is not None and fresh.publication.fields
    found = {(f.line, f.code) for f in lint_paths([str(tmp_path / "pkg" / "builder.py")])}
    assert (_line(BUILDER, '"problem": problem'), "OVA208") in found


def test_tests_are_not_classified_but_scope_all_classifies_them(tmp_path: Path) -> None:
    ctx = _context(tmp_path, BUILDER)
    ctx.role = "test"
    run_checks("python", ctx)
    assert ctx.publication is None and ctx.flow_facts is None
    audit = _context(tmp_path, BUILDER, Config(scope="all"))
    audit.role = "test"
    run_checks("python", audit)
    assert audit.publication is not None and audit.publication.spans


@pytest.mark.parametrize(
    "module, function, check",
    [
        ("python_fields", "check_projection_fields", "python-raw-fields"),
        ("python_contracts", "check_module", "python-contract-values"),
        ("python_flows", "module_flow_facts", "python-flows"),
        ("python_projections", "ScopeAnalyzer", "python-classify"),
    ],
)
def test_a_failure_is_reported_under_the_check_that_failed(
    tmp_path: Path, monkeypatch, module: str, function: str, check: str
) -> None:
    import importlib

    def broken(*args, **kwargs):
        raise ValueError("broken on purpose")

    monkeypatch.setattr(importlib.import_module(f"ovadapt_lint.checks.{module}"), function, broken)
    path = tmp_path / "builder.py"
    path.write_text(BUILDER, encoding="utf-8")
    notices = [f for f in lint_paths([str(path)], Config()) if f.code == "OVA009"]
    assert len(notices) == 1
    assert notices[0].message.startswith(f"internal error in check {check}: ValueError")
