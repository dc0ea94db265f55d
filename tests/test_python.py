"""The Python front-end on realistic projection builders: planted defects are caught,
clean near-miss builders get no finding, bad input is a notice, suppressions work."""

# This module holds deliberate samples of what the linter catches (secrets, paths, raw material).
# ovadapt: ignore-file

from __future__ import annotations

import hashlib
import sysconfig
from pathlib import Path

import pytest

from ovadapt_lint import Config, lint_paths

from .conftest import config_with_deny_list, run_cli

CLEAN_BUILDER = '''\
"""Builds the public session-memory adapter projection for one issue."""

import hashlib
import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _text(value, limit=180):
    return " ".join(str(value or "").split())[:limit]


def build_issue_projection(issue):
    body = issue.body or ""
    return {
        "provider": "github",
        "repo": issue.repo,
        "issue_number": issue.number,
        "issue_ref_id": f"{issue.repo}#{issue.number}",
        "title_summary": _text(issue.title, 120),
        "issue_body_copied": False,
        "comment_bodies_copied": False,
        "provider_payload_copied": False,
        "body_sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
        "comment_count": len(issue.comments),
    }


def build_memory_projection(candidates, raw_keys):
    return {
        "namespace": "loopx",
        "retrieval_mode": "preview_only",
        "live_retrieval_performed": False,
        "writeback_performed": False,
        "query_summary": "prior fixes for the adapter boundary",
        "top_k_preview": 3,
        "raw_material_detected": bool(raw_keys),
        "candidate_refs": [{"memory_ref_id": c.ref_id, "score_bucket": "high"} for c in candidates],
    }


def build_adapter(issue, candidates, raw_keys):
    adapter = {
        "schema_version": "openviking_session_memory_adapter_v0",
        "mode": "read_only_projection",
        "specializes": "session_runtime_loopx_projection_v0",
        "issue_projection": build_issue_projection(issue),
        "memory_projection": build_memory_projection(candidates, raw_keys),
    }
    return adapter


def write_fixture(adapter, name):
    target = FIXTURES / name
    target.write_text(json.dumps(adapter, indent=2) + "\\n", encoding="utf-8")
    return target.name
'''

# (what is planted, text replaced, replacement) -- each makes one defective module
PLANTS = [
    (
        "raw field",
        '"comment_count": len(issue.comments),',
        '"comment_count": len(issue.comments),\n        "body": issue.body,',
    ),
    (
        "raw flow via helper",
        '"title_summary": _text(issue.title, 120),',
        '"title_summary": _text(issue.body, 120),',
    ),
    (
        "comment bodies flow",
        '"comment_count": len(issue.comments),',
        '"comment_notes": [c.body for c in issue.comments],',
    ),
    ("flag set True", '"comment_bodies_copied": False,', '"comment_bodies_copied": True,'),
    ("flag computed", '"issue_body_copied": False,', '"issue_body_copied": bool(issue.body),'),
    ("enum outside", '"retrieval_mode": "preview_only",', '"retrieval_mode": "live",'),
    ("mode", '"mode": "read_only_projection",', '"mode": "read_write",'),
    ("path flow", '"namespace": "loopx",', '"namespace": str(Path.cwd()),'),
    ("__file__ flow", '"repo": issue.repo,', '"repo": str(FIXTURES),'),
    (
        "env credential flow",
        '"namespace": "loopx",',
        '"namespace": os.environ["OPENVIKING_API_KEY"],',
    ),
    (
        "secret literal",
        '"namespace": "loopx",',
        '"namespace": "ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV1234",',
    ),
    (
        "secret in comment",
        "def write_fixture(adapter, name):",
        "# staging key: sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm\ndef write_fixture(adapter, name):",
    ),
    (
        "deny-listed name in comment",
        "def write_fixture(adapter, name):",
        "# TODO: sync with Bluefin before release\ndef write_fixture(adapter, name):",
    ),
    ("hashed name in docstring", '"""Builds the public', '"""Project Nightjar: builds the public'),
    ("local path literal", '"namespace": "loopx",', '"namespace": "/Users/alice/loopx",'),
    ("private URL literal", '"namespace": "loopx",', '"namespace": "http://10.0.0.7:1933/api",'),
    (
        "transcript key",
        '"top_k_preview": 3,',
        '"top_k_preview": 3,\n        "transcript": session.transcript,',
    ),
    (
        "stdout via update",
        "    return adapter",
        "    adapter.update(log_tail=run.stdout[-400:])\n    return adapter",
    ),
    (
        "subscript store",
        "    return adapter",
        '    adapter["next_action"] = issue.comments[-1].body\n    return adapter',
    ),
    (
        "file read flow",
        '"query_summary": "prior fixes for the adapter boundary",',
        '"query_summary": Path("notes.md").read_text(),',
    ),
    (
        "subprocess output flow",
        '"query_summary": "prior fixes for the adapter boundary",',
        '"query_summary": subprocess.check_output(["git", "log", "-1"], text=True),',
    ),
    ("interpreter path flow", '"namespace": "loopx",', '"namespace": sys.executable,'),
    (
        "flag set through update",
        "    return adapter",
        "    adapter.update(writeback_performed=True)\n    return adapter",
    ),
    # The section builder's result is stored into the adapter, which makes its dict a projection.
    (
        "flag stored in a section builder",
        '        "memory_projection": build_memory_projection(candidates, raw_keys),\n    }\n'
        "    return adapter\n",
        '        "memory_projection": build_memory_projection(candidates, raw_keys),\n'
        '        "evidence_projection": build_evidence_projection(run),\n    }\n    return adapter\n\n\n'
        "def build_evidence_projection(run):\n"
        '    projection = {}\n    projection["private_paths_copied"] = run.paths_seen\n    return projection\n',
    ),
]

NEAR_MISSES = {
    "clean builder": CLEAN_BUILDER,
    "detector module": """\
import re

HOME = re.compile(r"^(?:/Users|/home)/[^/]+/")
TOKEN = re.compile(r"(?i)\\\\b(?:token|password|secret)\\\\s*[:=]\\\\s*(\\\\S+)")
PRIVATE = [r"^10\\\\.", r"^192\\\\.168\\\\.", r"^127\\\\."]
""",
    "fixture loader": """\
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load(name):
    return json.loads((ROOT / "fixtures" / name).read_text(encoding="utf-8"))


if __name__ == "__main__":
    print(json.dumps(load("adapter.public.json"), indent=2))
""",
    "internal helper": '''\
def summarize(thread):
    """Not a projection: internal code may read bodies freely."""
    text = "\\n".join(c.body for c in thread.comments)
    return {"text": text, "count": len(thread.comments)}
''',
    "sanitized builder": """\
import hashlib


def public_thread_packet(thread):
    bodies = [c.body for c in thread.comments]
    return {
        "thread_id": thread.thread_id,
        "comment_count": len(bodies),
        "bodies_sha256": [hashlib.sha256(b.encode()).hexdigest() for b in bodies],
        "has_long_body": any(len(b) > 2000 for b in bodies),
        "raw_bodies_copied": False,
    }
""",
}


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return config_with_deny_list(
        tmp_path, f"bluefin\nsha256:{hashlib.sha256(b'project nightjar').hexdigest()}\n"
    )


def test_clean_builder_is_clean(tmp_path: Path, config: Config) -> None:
    target = tmp_path / "builder.py"
    target.write_text(CLEAN_BUILDER, encoding="utf-8")
    assert [(f.line, f.code, f.message) for f in lint_paths([str(target)], config)] == []


def test_planted_defects_are_caught(tmp_path: Path, config: Config) -> None:
    missed = []
    for index, (what, old, new) in enumerate(PLANTS):
        assert old in CLEAN_BUILDER, what
        target = tmp_path / f"planted_{index:02d}.py"
        target.write_text(
            "import os\nimport subprocess\nimport sys\n" + CLEAN_BUILDER.replace(old, new, 1),
            encoding="utf-8",
        )
        if not lint_paths([str(target)], config):
            missed.append(what)
    assert 1 - len(missed) / len(PLANTS) >= 0.85, missed
    assert missed == []


@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_near_miss_modules_are_clean(tmp_path: Path, config: Config, name: str) -> None:
    target = tmp_path / "module.py"
    target.write_text(NEAR_MISSES[name], encoding="utf-8")
    assert [(f.line, f.code, f.message) for f in lint_paths([str(target)], config)] == []


def test_python_syntax_errors_and_python2_are_notices(tmp_path: Path) -> None:
    (tmp_path / "py2.py").write_text('print "hello"\n', encoding="utf-8")
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    (tmp_path / "ok.py").write_text('x = {"stdout": 1}\n', encoding="utf-8")
    findings = lint_paths([str(tmp_path)], Config())
    assert [(Path(f.path).name, f.code) for f in findings] == [
        ("broken.py", "OVA001"),
        ("py2.py", "OVA001"),
    ]
    assert "Python 2" in next(f.message for f in findings if f.path.endswith("py2.py"))


def test_suppression_comment_silences_only_named_codes(tmp_path: Path) -> None:
    target = tmp_path / "b.py"
    # A projection builder: the attestation key makes the dict a projection.
    target.write_text(
        "def build_packet(run):\n"
        '    return {"schema_version": "v0", "raw_output_copied": False, "stdout": run.stdout}'
        "  # ovadapt: ignore[OVA205]\n",
        encoding="utf-8",
    )
    assert [f.code for f in lint_paths([str(target)], Config())] == ["OVA208"]


def test_configured_sanitizer_stops_a_flow(tmp_path: Path) -> None:
    target = tmp_path / "b.py"
    # A projection builder (the attestation key makes the dict a projection) and the module's own
    # helper, whose result carries its argument until it is configured as a sanitizer.
    target.write_text(
        "def reviewed_summary(text):\n"
        "    return ' '.join(text.split())[:200]\n\n\n"
        "def build_packet(issue):\n"
        "    return {'schema_version': 'v0', 'issue_body_copied': False,\n"
        "            'next_action': reviewed_summary(issue.body)}\n",
        encoding="utf-8",
    )
    assert [f.code for f in lint_paths([str(target)], Config())] == ["OVA208"]
    config_file = tmp_path / ".ovadapt-lint.toml"
    config_file.write_text('sanitizers = ["reviewed_summary"]\n', encoding="utf-8")
    assert run_cli(str(target)).returncode == 0


@pytest.mark.slow
@pytest.mark.slow  # lints a sample of the standard library
def test_standard_library_sample_does_not_crash() -> None:
    """A sample of the running interpreter's standard library: no internal errors, few findings."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = [
        stdlib / name
        for name in (
            "json",
            "email",
            "http",
            "logging",
            "urllib",
            "argparse.py",
            "pathlib.py",
            "tempfile.py",
            "subprocess.py",
            "configparser.py",
        )
    ]
    paths = [str(p) for p in files if p.exists()]
    findings = lint_paths(paths, Config(exclude=["tests", "test"]))
    assert not [f for f in findings if f.code == "OVA009"]
    lines = sum(
        len(p.read_text(encoding="utf-8", errors="replace").splitlines())
        for f in files
        if f.exists()
        for p in ([f] if f.is_file() else f.rglob("*.py"))
    )
    assert lines > 10_000
    assert len(findings) / lines * 1000 < 5, len(findings)


def test_generated_module_with_a_huge_concatenation_is_analysed(tmp_path: Path) -> None:
    # Like pydoc_data/topics.py: thousands of implicitly concatenated literals in one expression.
    parts = "\n".join(f"    'line {i} of the generated help text\\n'" for i in range(2500))
    target = tmp_path / "topics.py"
    # A generated-looking value: outside published values a typed one (`abc123`) is a test fixture.
    target.write_text(
        f"topics = {{'x': (\n{parts}\n    'token: 9fQ2w7LmXk3Rt8'\n)}}\n", encoding="utf-8"
    )
    findings = lint_paths([str(target)], Config())
    assert [f.code for f in findings] == ["OVA409"]
    assert findings[0].line == 2502  # located in the part that holds it


def test_a_projection_with_a_6000_part_concatenation_is_analysed(tmp_path: Path) -> None:
    # libcst could not parse this (an OVA001 "parser limit" notice before); the analysis now runs on
    # the interpreter's own tree, so a leak in such a projection is found.
    parts = "\n".join(f"    'line {i}\\n'" for i in range(6000))
    target = tmp_path / "generated.py"
    target.write_text(
        "import os\n"
        f"packet = {{'schema_version': 'packet_v1', 'raw_output_copied': False, 'home': os.getcwd(), 'help': (\n{parts}\n)}}\n",
        encoding="utf-8",
    )
    findings = lint_paths([str(target)], Config())
    assert [(f.code, f.line) for f in findings] == [("OVA504", 2)]


def test_a_utf8_bom_is_fine_in_python(tmp_path: Path) -> None:
    target = tmp_path / "bom.py"
    target.write_bytes(b'\xef\xbb\xbfx = {"a": 1}\n')
    assert lint_paths([str(target)], Config()) == []


@pytest.mark.parametrize(("encoding", "word"), [("latin-1", "café"), ("koi8-r", "привет")])
def test_pep263_declared_encoding_is_decoded_as_python_does(
    tmp_path: Path, encoding: str, word: str
) -> None:
    # Issue 15: a valid file with a coding declaration was OVA002 (invalid UTF-8) and never checked.
    module = tmp_path / "gen.py"
    module.write_bytes(
        f"# -*- coding: {encoding} -*-\nimport json\n"
        f'json.dump({{"p": "{word} /home/alice/.ssh/id_rsa"}}, open("x.public.json", "w"))\n'.encode(
            encoding
        )
    )
    findings = lint_paths([str(module)])
    assert [(f.code, f.span.start_line, f.span.start_col) for f in findings] == [
        ("OVA501", 3, 19 + len(word))
    ]
    assert module.read_bytes().decode(encoding).startswith("# -*-")


def test_many_hash_literals_on_one_line_cost_linear_time() -> None:
    # Issue 15: finding comments compared every '#' with every string on its line (64k "#" literals: 246 s);
    # counted in lines run, that was 15x the work for 4x the literals.
    from ovadapt_lint.frontends.python_text import parse_text
    from ovadapt_lint.source import SourceFile

    from .work_count import lines_run

    def parse_work(count: int) -> int:
        line = "X = [" + ", ".join(['"#"'] * count) + "]  # trailing note\n"
        source = SourceFile(Path("h.py"), "h.py", line.encode())
        parsed: list = []
        work = lines_run(lambda: parsed.append(parse_text(source)[0]))
        assert [(c.text, c.column) for c in parsed[0].comments] == [
            ("# trailing note", len(line) - len("# trailing note"))
        ]
        return work

    small, large = parse_work(2_000), parse_work(8_000)
    # 4x the input: 4x the work when linear, 16x when quadratic; the bound sits between them.
    assert large < 8 * small


def test_statements_without_quotes_are_skipped_yet_every_literal_is_collected() -> None:
    # Issue 25: the front end skips the statements whose lines hold no quote; a decorator above its `def`, a
    # string spanning lines, an f-string, else/finally/except/match blocks keep every literal they hold, as the
    # walk that also collects identifiers (and skips nothing) finds them.
    from ovadapt_lint.frontends.python_text import parse_text
    from ovadapt_lint.source import SourceFile

    code = """\
import os
@route('/health')
def health(x):
    return x + 1
class Box:
    size = 3
    def get(self):
        return self.size
def f(y):
    if y:
        y += 1
    else:
        z = (
            y,
            b'raw',
        )
    try:
        y = y * 2
    except ValueError:
        y = f'{y}-bad'
    finally:
        w = '''first
middle
last'''
    match y:
        case 1:
            q = {'key': "value"}
    return y
"""
    source = SourceFile(Path("m.py"), "m.py", code.encode())
    skipped, walked = parse_text(source)[0], parse_text(source, names=True)[0]
    assert skipped is not None and walked is not None

    def found(module) -> list:
        return [(lit.value, lit.what, lit.where, lit.key) for lit in module.literals]

    assert found(skipped) == found(walked)
    assert [value for value, *_ in found(skipped)] == [
        "/health",
        "raw",
        "-bad",
        "first\nmiddle\nlast",
        "key",
        "value",
    ]


# Contract values in styles the flow corpus (corpus/flows/contract_values) does not hold: model field helpers,
# NamedTuple defaults, a constant bound through another constant in a sibling, gates built by a comprehension,
# every missing future gate, and what stays unjudged (another schema, a name-only section, a "" default).
CONTRACT_STYLES = {
    "names.py": """\
BASE = "session_runtime_loopx_projection"
PARENT = BASE + "_v1"
""",
    "models.py": """\
from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass
class Evidence:
    source_refs: list = field(default_factory=list)
    validation_refs: list = field(default_factory=list)
    public_safe_summary: str = ""
    credentials_copied: bool = field(default=True)  # expect: OVA110
    private_paths_copied: bool = False


class Candidate(NamedTuple):
    memory_ref_id: str
    source_kind: str = "guess"  # expect: OVA107
    score_bucket: str = "high"
    summary: str = ""
    raw_memory_copied: bool = False


@dataclass
class Report:
    raw_output_copied: bool = True  # expect: OVA207
    public_safe_summary: str = ""
""",
    "adapter.py": """\
from . import names
from .names import PARENT as SPECIALIZES

SCHEMA = "openviking_session_memory_adapter_v0"
MODE = "live_mode"


def adapter(issue):
    gates = [{"capability": c, "state": "future_gated", "required_authority": "x", "blocks": "y"}
             for c in ("live_openviking_retrieval",)]
    return dict(schema_version=SCHEMA, mode=MODE,  # expect: OVA102
                specializes=SPECIALIZES,  # expect: OVA103
                retrieval_gates=gates,
                future_gates=["live_openviking_retrieval", "memory_writeback", "issue_body_read",  # expect: OVA108
                              "comment_body_read"])


def issue_projection(issue):
    return {"provider": "github", "status": issue.status}


def build_other():
    return {"schema_version": "pr_review_v1", "mode": "writable",
            "memory_projection": {"retrieval_mode": "live", "writeback_performed": True, "namespace": "x"}}
""",
}


def test_contract_values_in_more_styles(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    expected = set()
    for name, text in CONTRACT_STYLES.items():
        (package / name).write_text(text, encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if "# expect: " in line:
                expected.add((name, number, line.rsplit("# expect: ", 1)[1]))
    found = [
        (Path(f.path).name, f.line, f.code)
        for f in lint_paths([str(tmp_path)], Config())
        if f.code.startswith(("OVA1", "OVA207"))
    ]
    assert set(found) == expected
    # Every missing future gate is named, on the list that lacks it.
    assert found.count(("adapter.py", 14, "OVA108")) == 2
