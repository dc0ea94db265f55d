"""Issue 15: a large JSON file below --max-file-size costs time and memory in proportion to its size."""

from __future__ import annotations

import json
import random
import tracemalloc
from pathlib import Path

import pytest

from ovadapt_lint.config import Config
from ovadapt_lint.engine import check_json_source
from ovadapt_lint.frontends import json_tree
from ovadapt_lint.frontends.json_tree import JsonDocument, parse_json, walk
from ovadapt_lint.source import SourceFile
from ovadapt_lint.analysis import Analysis


def _many_keys(count: int) -> bytes:
    # The shape of benchmarks/make_linear_inputs.py's many_keys.public.json: one object, short keys, numbers.
    rng = random.Random(15)
    return json.dumps({f"k{i:07d}": rng.randrange(10**6) for i in range(count)}, separators=(",", ":")).encode()


def _ready() -> tuple[Config, Analysis]:
    config = Config()
    analysis = Analysis.build(config)
    analysis.pack, analysis.scanner  # loaded once per run, not per file
    return config, analysis


def test_many_keys_document_peak_memory_is_bounded() -> None:
    # A node and a member per key, the json.loads oracle's whole tree beside them, a walk stack of every
    # pending key and per-object key tables: 65x the file in Python objects (plus tree-sitter's own tree).
    data = _many_keys(50_000)
    config, analysis = _ready()
    source = SourceFile(Path("m.public.json"), "m.public.json", data)
    tracemalloc.start()
    try:
        findings = check_json_source(source, "json", config, "public", analysis)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert findings == []
    assert peak < 30 * len(data), f"{peak / len(data):.1f}x the file"


def test_published_json_strings_get_one_credential_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # string-secrets and string-content each scanned every string for credentials: twice per string.
    from ovadapt_lint.detect import scanner

    calls: list[str] = []
    real = scanner.scan_secrets

    def counting(text, *args, **kwargs):
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(scanner, "scan_secrets", counting)
    values = [f"/home/user{i}/.ssh/id_rsa" for i in range(20)]
    data = json.dumps({f"key{i}": value for i, value in enumerate(values)}).encode()
    findings = check_json_source(SourceFile(Path("p.public.json"), "p.public.json", data), "json", Config(), "public")
    assert sorted(f.json_path for f in findings) == sorted(f"key{i}" for i in range(20))
    assert sorted(calls) == sorted([f"key{i}" for i in range(20)] + values)


def _tree_sitter_document(source: SourceFile) -> JsonDocument:
    doc = JsonDocument(source)
    values = json_tree._top_values(json_tree._parser().parse(source.data))
    doc.roots.append((json_tree._convert(values[0], source.data, 0, doc), ()))
    return doc


def _flat(doc: JsonDocument) -> list:
    return [(path, node.kind, node.start, node.end,
             None if node.kind in ("object", "array") else (type(node.value), node.value),
             None if member is None else (member.key_node.start, member.key_node.end, member.key))
            for root, prefix in doc.roots for node, path, member in walk(root, prefix)]


@pytest.mark.parametrize("text", [
    '{"a": [1, -0, 2.5, 1.5e10, true, false, null], "b": {}, "c": []}',
    ' \r\n\t{ "k" : [ ] , "l" : { } ,"m":"" } \n',
    '{"é\\u00e9\\ud83d\\ude00": "ünïcödé \\" \\\\ \\n /home/älice/x", "k\\u0000": ["\\u00e9", "x"]}',
    '{"a":1,"a":{"a":2},"a":[{"a":"/home/x/y"}]}',
    '"a lone string"',
    "[" + "9" * 5000 + "]",
    '{"a":' * 401 + '{"b":[1,{"c":2}]}' + "}" * 401,
    "[" * 400 + '[1],[2],{"x":[3]}' + "]" * 400,
    "[" * 1000 + "1" + "]" * 1000,
])
def test_valid_json_tree_is_the_one_tree_sitter_gives(text: str) -> None:
    # Valid documents are read with the stdlib's lexers (tree-sitter's tree was 27x a large file's size):
    # nodes, spans, keys, values and the depth notice stay those of the tree-sitter conversion.
    source = SourceFile(Path("x.json"), "x.json", text.encode("utf-8"))
    ours, theirs = parse_json(source), _tree_sitter_document(source)
    assert json_tree._strict_tree  # the stdlib reader, not tree-sitter, built ``ours``
    assert _flat(ours) == _flat(theirs)
    assert [(n.code, n.message, n.span) for n in ours.notices] == [(n.code, n.message, n.span) for n in theirs.notices]


def test_invalid_utf8_in_a_valid_document_is_decoded_as_before() -> None:
    source = SourceFile(Path("x.json"), "x.json", b'{"a": "x\xff\xfey", "b\xc3": "/home/bob/x"}')
    assert _flat(parse_json(source)) == _flat(_tree_sitter_document(source))


def test_exponent_with_a_sign_is_one_number() -> None:
    # tree-sitter-json reads `1e+2` as `1` followed by an error; the document is valid JSON.
    doc = parse_json(SourceFile(Path("x.json"), "x.json", b'{"n": [1e+2, 2E-1]}'))
    assert doc.roots[0][0].python() == {"n": [100.0, 0.2]}
    assert doc.notices == []
