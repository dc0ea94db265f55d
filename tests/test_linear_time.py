"""Issue 15: a large JSON file below --max-file-size costs time and memory in proportion to its size."""

from __future__ import annotations

import json
import random
import tracemalloc
from pathlib import Path

import pytest

from ovadapt_lint.analysis import Analysis
from ovadapt_lint.config import Config, RunOptions
from ovadapt_lint.engine import check_json_source
from ovadapt_lint.frontends import json_tree
from ovadapt_lint.frontends.json_tree import JsonDocument, parse_json
from ovadapt_lint.source import SourceFile

from .json_rows import document_rows


def _many_keys(count: int) -> bytes:
    # The shape of benchmarks/make_linear_inputs.py's many_keys.public.json: one object, short keys, numbers.
    rng = random.Random(15)
    return json.dumps(
        {f"k{i:07d}": rng.randrange(10**6) for i in range(count)}, separators=(",", ":")
    ).encode()


def _ready() -> tuple[Config, Analysis]:
    config = Config()
    analysis = Analysis.build(config)
    analysis.pack, analysis.scanner  # loaded once per run, not per file
    return config, analysis


def _peak_per_byte(name: str, kind: str, data: bytes, codes: tuple[str, ...] = ()) -> float:
    """Peak traced memory of linting ``data`` as a published file, per byte of the file; ``codes``: of the
    findings it must give."""
    config, analysis = _ready()
    source = SourceFile(Path(name), name, data)
    tracemalloc.start()
    try:
        findings = check_json_source(source, kind, config, "public", analysis)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert tuple(f.code for f in findings) == codes
    return peak / len(data)


@pytest.mark.slow  # tracemalloc over a large input: seconds of CPU
def test_many_keys_document_peak_memory_is_bounded() -> None:
    # A node and a member per key, the json.loads oracle's whole tree beside them, a walk stack of every
    # pending key and per-object key tables: 65x the file in Python objects (plus tree-sitter's own tree).
    ratio = _peak_per_byte("m.public.json", "json", _many_keys(50_000))
    assert ratio < 30, f"{ratio:.1f}x the file"


def test_published_json_strings_get_one_credential_pass(secret_scans: list[str]) -> None:
    # string-secrets and string-content each scanned every string for credentials: twice per string.
    values = [f"/home/user{i}/.ssh/id_rsa" for i in range(20)]
    data = json.dumps({f"key{i}": value for i, value in enumerate(values)}).encode()
    findings = check_json_source(
        SourceFile(Path("p.public.json"), "p.public.json", data), "json", Config(), "public"
    )
    assert sorted(f.json_path for f in findings) == sorted(f"key{i}" for i in range(20))
    assert sorted(secret_scans) == sorted([f"key{i}" for i in range(20)] + values)


def _make_as_before(ts_node, data: bytes, base: int):
    kind = ts_node.type
    start, end = ts_node.start_byte + base, ts_node.end_byte + base
    if kind in ("object", "array"):
        return json_tree.JNode(kind, start, end, [])
    if kind == "string":
        return json_tree.JNode(kind, start, end, json_tree._decode_string(data, start, end))
    if kind == "number":
        return json_tree.JNode(kind, start, end, json_tree._decode_number(data[start:end]))
    if kind in ("true", "false", "null"):
        return json_tree.JNode(kind, start, end, {"true": True, "false": False, "null": None}[kind])
    return None


def _convert_as_before(ts_root, data: bytes, base: int, doc: JsonDocument):
    # The oracle: tree-sitter's tree converted as json_tree._convert did before the stdlib reader and the
    # skeleton (issue 15), node by node from tree-sitter's Node objects.
    root = _make_as_before(ts_root, data, base)
    stack = [(ts_root, root, 1)]
    deep_reported = False
    while stack:
        ts_node, node, depth = stack.pop()
        if depth > json_tree.MAX_DEPTH:
            if not deep_reported:
                deep_reported = True
                doc.notices.append(
                    json_tree.notice(
                        "OVA006",
                        f"nested deeper than {json_tree.MAX_DEPTH} levels; deeper values were not analysed",
                        doc.source.display,
                        doc.span(node),
                    )
                )
            continue
        for child_ts in ts_node.named_children:
            key = None
            if node.kind == "object":
                if child_ts.type != "pair":
                    continue
                key_ts, child_ts = (
                    child_ts.child_by_field_name("key"),
                    child_ts.child_by_field_name("value"),
                )
                if key_ts is None or child_ts is None or key_ts.type != "string":
                    continue
                key = _make_as_before(key_ts, data, base)
            child = _make_as_before(child_ts, data, base)
            if child is None:
                continue
            node.value.append(
                child if key is None else json_tree.Member(key.value, key.start, key.end, child)
            )
            if child.kind in ("object", "array"):
                stack.append((child_ts, child, depth + 1))
    return root


def _tree_sitter_document(source: SourceFile) -> JsonDocument:
    doc = JsonDocument(source)
    values = json_tree._top_values(json_tree._parser().parse(source.data))
    doc.roots.append((_convert_as_before(values[0], source.data, 0, doc), ()))
    return doc


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, -0, 2.5, 1.5e10, true, false, null], "b": {}, "c": []}',
        ' \r\n\t{ "k" : [ ] , "l" : { } ,"m":"" } \n',
        '{"é\\u00e9\\ud83d\\ude00": "ünïcödé \\" \\\\ \\n /home/älice/x", "k\\u0000": ["\\u00e9", "x"]}',
        '{"a":1,"a":{"a":2},"a":[{"a":"/home/x/y"}]}',
        '"a lone string"',
        "[" + "9" * 5000 + "]",
        '{"a":' * 401 + '{"b":[1,{"c":2}]}' + "}" * 401,
        "[" * 400 + '[1],[2],{"x":[3]}' + "]" * 400,
        "[" * 1000 + "1" + "]" * 1000,
    ],
)
def test_valid_json_tree_is_the_one_tree_sitter_gives(text: str) -> None:
    # Valid documents are read with the stdlib's lexers (tree-sitter's tree was 27x a large file's size):
    # nodes, spans, keys, values and the depth notice stay those of the tree-sitter conversion.
    source = SourceFile(Path("x.json"), "x.json", text.encode("utf-8"))
    ours, theirs = parse_json(source), _tree_sitter_document(source)
    assert json_tree._strict_tree  # the stdlib reader, not tree-sitter, built ``ours``
    assert document_rows(ours) == document_rows(theirs)
    assert [(n.code, n.message, n.span) for n in ours.notices] == [
        (n.code, n.message, n.span) for n in theirs.notices
    ]


def _tree_sitter_jsonl(source: SourceFile) -> JsonDocument:
    # parse_jsonl as it was: tree-sitter and _convert for every record, json.loads as the oracle.
    doc = JsonDocument(source)
    offset = record = 0
    for raw_line in source.data.split(b"\n"):
        line_start, offset = offset, offset + len(raw_line) + 1
        if not raw_line.strip():
            continue
        line_text = raw_line.decode("utf-8", "replace")
        error = json_tree._strict_error(line_text)
        values = json_tree._top_values(json_tree._parser().parse(raw_line))
        if error is not None:
            message, index = error
            line_no, _ = source.position(line_start)
            span, _ = json_tree._error_span(source, line_text, line_start, index or 0)
            doc.notices.append(
                json_tree.notice(
                    "OVA001",
                    f"invalid JSON Lines record on line {line_no}: {message}; record skipped by contract rules",
                    source.display,
                    span,
                )
            )
        elif values:
            doc.roots.append(
                (_convert_as_before(values[0], source.data, line_start, doc), (record,))
            )
        record += 1
    return doc


@pytest.mark.parametrize(
    "data",
    [
        b'{"a": [1, -0, 2.5, 1.5e10, true, false, null], "b": {}, "c": []}\n"a lone string"\n42\nnull\n',
        '{"é\\u00e9\\ud83d\\ude00": "ünïcödé \\" \\\\ \\n /home/älice/x"}\n{"k\\u0000": ["\\u00e9", "ä", "x"]}\n'.encode(),
        '{"a": 1,}\n{"é": "/home/x/y"}\n{"ü": [1 2]}\n["after", "two invalid", "ö"]\n'.encode(),
        b'{"a": 1}\r\n{"b": [1, 2], "c": "x"}\r\n\r\n{"d": {}}\r\n',
        b'\n\n  {"a":1}\n   \n\t\n{"b":2}',
        b'{"a": "x\xff\xfey", "b\xc3": "/home/bob/x"}\n{"c\xff": 1,}\n{"d": "\xe9"}\n',
        (
            '{"a":' * 401
            + '{"b":[1,{"c":2}]}'
            + "}" * 401
            + "\n"
            + "[" * 400
            + '[1],{"x":[3]}'
            + "]" * 400
            + "\n"
        ).encode(),
        ("[" * 3000 + "1" + "]" * 3000 + "\n" + '{"after": "the deep one"}\n').encode(),
    ],
)
def test_json_lines_tree_is_the_one_tree_sitter_gives(data: bytes) -> None:
    # Records json.loads accepts are read with the stdlib's lexers at their byte offset; the others stay on
    # tree-sitter. Nodes, spans, keys, values and notices stay those of tree-sitter's conversion.
    source = SourceFile(Path("x.jsonl"), "x.jsonl", data)
    ours, theirs = json_tree.parse_jsonl(source), _tree_sitter_jsonl(source)
    assert document_rows(ours) == document_rows(theirs)
    assert [(n.code, n.message, n.span) for n in ours.notices] == [
        (n.code, n.message, n.span) for n in theirs.notices
    ]


@pytest.mark.slow  # tracemalloc over a large input: seconds of CPU
def test_json_lines_peak_memory_is_bounded() -> None:
    # Each record went through tree-sitter and _convert (an int per number, a node per key, a string per key
    # of every record, the file split into lines beside it): 24x the file in Python objects, 28x in RSS.
    rng = random.Random(15)
    data = "".join(
        json.dumps({f"k{j}": rng.randrange(10**6) for j in range(20)}) + "\n" for _ in range(2000)
    ).encode()
    ratio = _peak_per_byte("m.public.jsonl", "jsonl", data)
    assert ratio < 20, f"{ratio:.1f}x the file"


def _tree_sitter_invalid(source: SourceFile) -> JsonDocument:
    # parse_json's path for a document json.loads rejects, as it was: every top-level value tree-sitter recovers.
    doc = JsonDocument(source, complete=False)
    data = source.data
    if json_tree.lenient(source):
        data = json_tree._LENIENT_TOKEN.sub(json_tree._blank, data)
    values = json_tree._top_values(json_tree._parser().parse(data))
    for index, value in enumerate(values):
        doc.roots.append(
            (_convert_as_before(value, data, 0, doc), () if len(values) == 1 else (index,))
        )
    return doc


@pytest.mark.parametrize(
    "name, data",
    [
        ("x.json", b'{"a": 1, "b": [1, 2,], "c": {"d": "/home/x/y",},}'),
        ("x.json", b'{"a": 1 "b": 2, "c": }'),
        ("x.json", b'{"a": , "b": 2, "": null, 3: 4, "e"}'),
        ("x.json", b'// c\n{"a": /* x */ [1, // y\n 2]}'),
        ("x.json", b'{"a": 1}\n{"b": 2}\n[3] "s" 4'),
        ("x.json", '{"é\\u00e9": "ünï \\n", "k": [tru, nul, 1e+2, -, "ä"],}'.encode()),
        ("x.json", b'{"a": "x\xff\xfey", "b\xc3": "/home/bob/x",}'),
        ("x.json", b'{"a": NaN, "b": Infinity}'),
        ("x.json", b"[1, 2"),
        ("x.json", b'{"a": "unterminated}'),
        ("x.json", ('{"a":' * 401 + '{"b":[1,,{"c":2}]}' + "}" * 401).encode()),
        ("x.json", ("[" * 500 + "1,]" + "]" * 499).encode()),
        ("x.json", ("[" * 402 + "]" * 402 + "\n").encode() * 2),
        (
            "tsconfig.json",
            '{\n  // é\n  "a": [1, 2,], /* ü */ "b": {"c": "/home/x/y",} "d": 1,\n}\n'.encode(),
        ),
        ("x.jsonc", b'{"a": 1,, "b": 2}'),
    ],
)
def test_invalid_json_tree_is_the_one_tree_sitter_gives(name: str, data: bytes) -> None:
    # A document json.loads rejects is still checked on tree-sitter's recovered tree, now read into a skeleton
    # and dropped before the nodes are made (issue 15): the nodes and depth notices are those it gave.
    source = SourceFile(Path(name), name, data)
    ours, theirs = parse_json(source), _tree_sitter_invalid(source)
    assert not ours.complete
    assert document_rows(ours) == document_rows(theirs)
    assert [n.code for n in ours.notices][:1] == ["OVA001"]
    assert [(n.code, n.message, n.span) for n in ours.notices[1:]] == [
        (n.code, n.message, n.span) for n in theirs.notices
    ]


@pytest.mark.slow  # tracemalloc over a large input: seconds of CPU
def test_invalid_json_peak_memory_is_bounded() -> None:
    # tree-sitter's tree (27x the file) was alive beside a list of its Node objects for the 50k members, an int
    # per number and the converted nodes: 54x. Now its tree is read into flat arrays and dropped first.
    text = _many_keys(50_000)
    data = text[:-1] + b",}"
    ratio = _peak_per_byte("m.public.json", "json", data, ("OVA001",))
    assert ratio < 40, f"{ratio:.1f}x the file"


def test_invalid_utf8_in_a_valid_document_is_decoded_as_before() -> None:
    source = SourceFile(Path("x.json"), "x.json", b'{"a": "x\xff\xfey", "b\xc3": "/home/bob/x"}')
    assert document_rows(parse_json(source)) == document_rows(_tree_sitter_document(source))


def test_exponent_with_a_sign_is_one_number() -> None:
    # tree-sitter-json reads `1e+2` as `1` followed by an error; the document is valid JSON.
    doc = parse_json(SourceFile(Path("x.json"), "x.json", b'{"n": [1e+2, 2E-1]}'))
    assert doc.roots[0][0].python() == {"n": [100.0, 0.2]}
    assert doc.notices == []


# --- reports of many findings on one line (the minified case) ------------------------------------------------


def _minified(tmp_path: Path, count: int) -> Path:
    # The shape of benchmarks/make_linear_inputs.py's minified.public.json: one line, a home path per object.
    rng = random.Random(15)
    target = tmp_path / "minified.public.json"
    target.write_text(
        json.dumps(
            [{"p": f"/home/user{rng.randrange(10**6)}/.ssh/id_rsa"} for _ in range(count)],
            separators=(",", ":"),
        )
    )
    return target


def _minified_result(tmp_path: Path, count: int):
    from ovadapt_lint.engine import run

    result = run([str(_minified(tmp_path, count))], Config(), options=RunOptions(jobs=1))
    assert len(result.findings) == count and {f.line for f in result.findings} == {1}
    return result


def test_text_report_decodes_a_long_line_once_for_all_its_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each finding's frame decoded the whole line again and cut its ending with a regex that tried every
    # position: 8k findings on a 295 KB line took 20 s, 32k on 1.2 MB over 300 s.
    import io

    from ovadapt_lint.report.text import write_text

    result = _minified_result(tmp_path, 400)
    decoded: list[int] = []
    real = SourceFile.line_text
    monkeypatch.setattr(
        SourceFile, "line_text", lambda self, line: decoded.append(line) or real(self, line)
    )
    out = io.StringIO()
    write_text(result, out, color=False)
    assert decoded == [1]
    assert out.getvalue().count("    1 | ") == 400  # a frame for every finding all the same


def test_text_report_prints_in_batches_not_a_console_call_per_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rich's Console.print costs about 0.2 ms of setup a call: three calls per finding cost more than linting.
    import io

    from rich.console import Console

    from ovadapt_lint.report.text import write_text

    result = _minified_result(tmp_path, 400)
    for color in (False, True):
        calls: list[int] = []
        real = Console.print
        monkeypatch.setattr(
            Console,
            "print",
            lambda self, *a, _calls=calls, _real=real, **k: (
                _calls.append(1) or _real(self, *a, **k)
            ),
        )
        out = io.StringIO()
        write_text(result, out, color=color)
        monkeypatch.undo()
        assert out.getvalue().count("OVA501") == 401  # each finding and the summary's count
        assert len(calls) < 20, f"colour {color}: {len(calls)} Console.print calls for 1,200 lines"


def test_json_report_streams_its_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The report built every finding's dictionary before writing any: about 18 MB more at 32k findings.
    import io

    from ovadapt_lint.report import json_report

    result = _minified_result(tmp_path, 2000)
    events: list[str] = []
    real_item = json_report._item
    monkeypatch.setattr(json_report, "_item", lambda *a: events.append("item") or real_item(*a))

    class Recording(io.StringIO):
        def write(self, text: str) -> int:
            events.append("write")
            return super().write(text)

    out = Recording()
    json_report.write_json(result, out)
    assert events.count("item") == 2000
    # Written as it goes: some of the report is out before its last finding is built.
    assert events.index("write") < len(events) - 1 - events[::-1].index("item")
    assert len(json.loads(out.getvalue())["findings"]) == 2000


@pytest.mark.parametrize("findings, suppressed", [(0, 0), (1, 0), (0, 2), (3, 2)])
def test_streamed_json_equals_json_dumps(findings: int, suppressed: int) -> None:
    import io

    from ovadapt_lint.report.json_report import dump_json

    def items(count: int, tag: str) -> list[dict]:
        return [
            {
                "code": f"OVA{n}",
                "message": f'{tag} \u2028 "q" \\ é\ud800',
                "nested": {"a": [1, {}, []]},
                "n": None,
                "f": 1.5e300,
            }
            for n in range(count)
        ]

    document = {
        "schema": "x",
        "summary": {"findings": findings, "empty": {}},
        "findings": items(findings, "f"),
        "suppressed": items(suppressed, "s"),
    }
    # json.dumps byte for byte, but for the line separators and bidi controls written as \u escapes (issue 27)
    expected = (
        json.dumps(document, indent=2, ensure_ascii=False).replace("\u2028", "\\u2028") + "\n"
    )
    out = io.StringIO()
    dump_json(
        {
            **document,
            "findings": iter(document["findings"]),
            "suppressed": iter(document["suppressed"]),
        },
        out,
        chunk=64,
    )
    assert out.getvalue() == expected


def _all_formats(result, root: Path) -> dict[str, str]:
    import io

    from ovadapt_lint.finalise import run_metadata
    from ovadapt_lint.report.github import write_github
    from ovadapt_lint.report.json_report import write_json
    from ovadapt_lint.report.sarif import write_sarif
    from ovadapt_lint.report.text import write_concise, write_text

    outputs = {}
    for name, writer in (
        ("json", write_json),
        ("sarif", lambda r, o: write_sarif(r, run_metadata(r, root=True), o, srcroot=str(root))),
        ("github", lambda r, o: write_github(r, run_metadata(r, root=True), o)),
        ("concise", write_concise),
        ("text", lambda r, o: write_text(r, o, color=False)),
    ):
        out = io.StringIO()
        writer(result, out)
        outputs[name] = out.getvalue()
    return outputs


def test_reports_do_not_scan_again_what_the_lint_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every message and JSON path was scanned for credentials twice, as the file was linted and again by the
    # report: a third of the report's time on a minified file.
    from ovadapt_lint import redact

    result = _minified_result(tmp_path, 200)
    calls: list[str] = []
    real = redact.mask_text
    monkeypatch.setattr(redact, "mask_text", lambda text, *a: calls.append(text) or real(text, *a))
    outputs = _all_formats(result, tmp_path)
    assert calls == []
    assert all(output.count("OVA501") >= 200 for output in outputs.values())


def test_text_the_lint_did_not_mask_is_masked_by_every_report(tmp_path: Path) -> None:
    # A finding made outside a file's lint (a notice, an API caller's) carries its text unmasked: the finalise
    # stage masks it, before any reporter (reporters only format, issue 29).
    from ovadapt_lint.finalise import finalise
    from ovadapt_lint.findings import Span, make_finding
    from ovadapt_lint.results import LintResult

    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    finding = make_finding(
        "OVA003",
        f"cannot read {token}",
        str(tmp_path / "x.json"),
        Span(1, 1, 1, 2),
        json_path=f"[{token!r}]",
    )
    assert not getattr(finding, "quoted_masked", False)
    result = LintResult(findings=[finding])
    finalise(result, RunOptions())
    outputs = _all_formats(result, tmp_path)
    for name, output in outputs.items():
        assert token not in output and "ghp_…[40 chars]" in output, name
