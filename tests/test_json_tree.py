"""The position-aware JSON front-end."""

from __future__ import annotations

from pathlib import Path

import pytest

from ovadapt_lint.frontends.json_tree import format_path, parse_json, parse_jsonl, walk
from ovadapt_lint.source import SourceFile


def _src(text: str, name: str = "x.json") -> SourceFile:
    return SourceFile(Path(name), name, text.encode("utf-8"))


def test_spans_of_keys_and_values_count_code_points() -> None:
    doc = parse_json(_src('{\n  "名前": "café",\n  "n": [1, 2.5, true, null]\n}\n'))
    root, _ = doc.roots[0]
    name = root.value[0]
    assert name.key == "名前"
    assert doc.span(name.key_node) == doc.span(name.key_node)
    key_span, value_span = doc.span(name.key_node), doc.span(name.value)
    assert (key_span.start_line, key_span.start_col, key_span.end_col) == (2, 3, 7)
    assert (value_span.start_col, value_span.end_col) == (9, 15)
    assert name.value.value == "café"
    assert root.get("n").python() == [1, 2.5, True, None]


def test_duplicate_keys_are_kept_in_order() -> None:
    doc = parse_json(_src('{"a": false, "a": true}'))
    root, _ = doc.roots[0]
    assert [(m.key, m.value.value) for m in root.value] == [("a", False), ("a", True)]
    assert root.python() == {"a": True}


def test_escapes_are_decoded() -> None:
    doc = parse_json(_src(r'{"k\u00e9y": "a\nb\"c\ud83d\ude00"}'))
    root, _ = doc.roots[0]
    assert root.value[0].key == "kéy"
    assert root.value[0].value.value == 'a\nb"c😀'


def test_syntax_error_position_and_recovery() -> None:
    doc = parse_json(_src('{\n  "a": 1,\n  "b" 2\n}\n'))
    assert not doc.complete
    (notice,) = doc.notices
    assert notice.code == "OVA001" and notice.line == 3


def test_json_lines_records_have_their_own_paths() -> None:
    doc = parse_jsonl(_src('{"a": 1}\n\n{"b": {"c": 2}}\n', "x.jsonl"))
    paths = [format_path(path) for root, prefix in doc.roots for _, path, _ in walk(root, prefix)]
    assert paths == ["[0]", "[0].a", "[1]", "[1].b", "[1].b.c"]
    last = doc.roots[1][0].get("b").get("c")
    assert doc.span(last).start_line == 3


def test_format_path_quotes_odd_keys() -> None:
    assert format_path(("a", 0, "b c", "d")) == 'a[0]["b c"].d'
    assert format_path(()) == "$"


def test_very_deep_nesting_is_bounded() -> None:
    doc = parse_json(_src("[" * 5000 + "]" * 5000))
    assert [n.code for n in doc.notices] == ["OVA006"]


def test_json_with_comments_is_parsed_leniently_only_in_jsonc_and_tsconfig(tmp_path):
    # Issue 15: `*.jsonc` and `tsconfig*.json` allow comments and trailing commas; plain `*.json` does not.
    from ovadapt_lint import lint_paths
    from ovadapt_lint.frontends.json_tree import parse_json
    from ovadapt_lint.source import SourceFile

    text = b'{\n  // "not": "a key"\n  "url": "http://a//b", /* block */\n  "list": [1, 2,],\n}\n'
    for name in ("settings.jsonc", "tsconfig.json", "tsconfig.base.json", "plain.json"):
        (tmp_path / name).write_bytes(text)
    codes = {
        Path(f.path).name: f.code
        for f in lint_paths(
            [
                str(tmp_path / n)
                for n in ("settings.jsonc", "tsconfig.json", "tsconfig.base.json", "plain.json")
            ]
        )
    }
    assert codes == {"plain.json": "OVA001"}
    doc = parse_json(SourceFile(tmp_path / "tsconfig.json", "tsconfig.json", text))
    assert [node.python() for node, _ in doc.roots] == [{"url": "http://a//b", "list": [1, 2]}]


@pytest.mark.parametrize(
    "extra", ["", "caf\u00e9\\n"]
)  # plain ASCII, and a string with non-ASCII text and an escape
def test_many_spans_in_one_long_string_cost_linear_time(extra: str) -> None:
    # Issue 15: every finding span in a string rebuilt the whole string's offset list, so a long
    # string with findings all along it cost quadratic time.
    import time

    def span_seconds(count: int) -> float:
        body = extra + " ".join(f"w{i:05d}" for i in range(count))
        data = ('{"note": "' + body + '"}').encode()
        doc = parse_json(SourceFile(Path("a.json"), "a.json", data))
        node = doc.roots[0][0].value[0].value
        decoded = node.value
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            spans = [doc.string_bytes(node, k, k + 6) for k in range(len(decoded) - 6, 0, -50)]
            best = min(best, time.process_time() - started)
        first = decoded.index("w00000")
        assert doc.string_bytes(node, first, first + 6) == (
            data.index(b"w00000"),
            data.index(b"w00000") + 6,
        )
        assert len(spans) == (len(decoded) - 7) // 50 + 1
        return best

    small, large = span_seconds(1_000), span_seconds(4_000)
    assert large < 8 * max(
        small, 0.002
    )  # 4x the spans on a 4x string: ~4x the time when linear, 16x when quadratic
