"""One line model per file (issue 15): a line ends at \\r\\n, \\r or \\n, as Python's tokenizer says,
for positions, code frames, suppressions and --fix offsets alike. The characters str.splitlines()
also breaks on (\\x0b, \\x0c, \\x1c-\\x1e, \\x85, U+2028, U+2029) are text, and a suppression comes
from a real comment token only."""

# ovadapt: ignore-file

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ovadapt_lint.config import Config
from ovadapt_lint.engine import run
from ovadapt_lint.report.text import write_text

from .conftest import run_cli

TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
# Breaks for str.splitlines(), plain characters for Python's tokenizer (legal inside a one-line string).
TEXT_SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
LINE_ENDINGS = ["\n", "\r\n", "\r"]
PEM_BODY = [
    "MIIEpAIBAAKCAQEA3Tz2mr7S+iAMfQyuvBjM9Oi0Kn1W/7nQ8c5Zr1mXyVbQ2jA4",
    "b7d9Kx0pLmNoQrStUvWx+z123456789AbCdEfGhIjKlMn/pQrStUvWxYzAbCdEf",
]


def _write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))  # no newline translation: the bytes under test
    return path


def _lint(path: Path, scope: str = "published"):
    result = run([str(path)], Config(scope=scope))
    buffer = io.StringIO()
    write_text(result, buffer, False)
    return result, buffer.getvalue()


def _pieces(secret: str, size: int = 6) -> set[str]:
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


@pytest.mark.parametrize("sep", TEXT_SEPARATORS + LINE_ENDINGS, ids=repr)
def test_a_directive_inside_a_string_suppresses_nothing(tmp_path: Path, sep: str) -> None:
    # Real line endings can only sit in a triple-quoted string; the others fit a one-line string.
    quote = '"""' if sep in LINE_ENDINGS else '"'
    module = _write(tmp_path / "m.py", f"X = {quote}{sep}{TOKEN} # ovadapt: ignore-file{quote}\n")
    result, _ = _lint(module)
    assert [f.code for f in result.findings] == ["OVA401"], [s.reason for s in result.suppressed]
    assert not result.suppressed


@pytest.mark.parametrize("sep", TEXT_SEPARATORS, ids=repr)
def test_a_comment_after_a_separator_in_a_string_suppresses_its_own_line(
    tmp_path: Path, sep: str
) -> None:
    module = _write(tmp_path / "m.py", f'X = "{sep}{TOKEN}"  # ovadapt: ignore[OVA401]\n')
    result, _ = _lint(module)
    assert not result.findings
    assert [s.reason for s in result.suppressed] == ["# ovadapt: ignore on line 1"]


def _token_after_two_lines(sep: str) -> str:
    if sep in LINE_ENDINGS:
        return f'S = 1{sep}NAME = "Example Name"{sep}T = "{TOKEN}"{sep}'
    if sep == "\x0c":  # form feeds alone on their lines, as in the issue
        return f'\x0c\n\x0c\nT = "{TOKEN}"\n'
    return f'S = "a{sep}b"\nNAME = "Example Name"\nT = "{TOKEN}"\n'


@pytest.mark.parametrize("sep", TEXT_SEPARATORS + LINE_ENDINGS, ids=repr)
def test_positions_and_frame_follow_the_tokenizer_lines(tmp_path: Path, sep: str) -> None:
    result, output = _lint(_write(tmp_path / "m.py", _token_after_two_lines(sep)))
    assert [
        (f.code, f.span.start_line, f.span.start_col, f.span.end_line, f.span.end_col)
        for f in result.findings
    ] == [("OVA401", 3, 6, 3, 46)]
    masked = "ghp_…[40 chars]"
    frame = f'    3 | T = "{masked}"'
    lines = output.splitlines()
    assert frame in lines, output
    caret = lines[lines.index(frame) + 1]
    assert caret == "      | " + " " * len('T = "') + "^" * len(masked), (
        output
    )  # one mask, caret spans it
    assert not _pieces(TOKEN[4:]) & _pieces(output), output


@pytest.mark.parametrize(
    "name, text, where",
    [
        ("cr.py", 'a = 1\rb = "/home/alice/x"\r', (2, 6)),
        ("ff.py", "\x0c\n\x0c\nx = 1\n# see /home/bob/notes\n", (4, 7)),
        ("cr.md", 'a = 1\rb = "/home/alice/x"\r', (2, 6)),
        ("ls.md", "a\u2028b\x85c\nsee /home/bob/notes\n", (2, 5)),
    ],
)
def test_lone_cr_and_form_feeds_give_positions_not_internal_errors(
    tmp_path: Path, name: str, text: str, where: tuple[int, int]
) -> None:
    result, output = _lint(_write(tmp_path / name, text), scope="all")
    assert [(f.code, f.line, f.col) for f in result.findings] == [("OVA501", *where)], output
    assert f"{where[0]:>5} | " in output


def test_json_syntax_error_position_counts_a_lone_cr_as_a_line_end(tmp_path: Path) -> None:
    result, _ = _lint(_write(tmp_path / "bad.json", '{"a": 1,\r "b": }\r'))
    errors = [f for f in result.findings if f.code == "OVA001"]
    assert [(f.line, f.col) for f in errors] == [(2, 7)]
    assert "(line 2, column 7)" in errors[0].message


def test_fix_in_a_file_with_a_lone_cr_rewrites_only_the_leaking_value(tmp_path: Path) -> None:
    module = _write(tmp_path / "m.py", 'A = 1\rP = "/home/alice/x"\nC = "context: do not touch"\n')
    proc = run_cli("--fix", "--no-cache", "--scope", "all", str(module))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (
        module.read_bytes() == b'A = 1\rP = "[redacted:local-path]"\nC = "context: do not touch"\n'
    )


def test_fix_of_a_json_lines_record_holding_a_line_separator_is_written(tmp_path: Path) -> None:
    # U+2028 is text inside a JSON string: the re-parse that guards --fix must not cut the record there.
    fixture = _write(tmp_path / "log.public.jsonl", '{"note": "a\u2028b", "p": "/home/alice/x"}\n')
    proc = run_cli("--fix", "--no-cache", str(fixture))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(fixture.read_text(encoding="utf-8")) == {
        "note": "a\u2028b",
        "p": "[redacted:local-path]",
    }


def test_pem_block_with_cr_line_ends_is_masked_in_the_frame_of_a_finding_inside_it(
    tmp_path: Path,
) -> None:
    text = (
        'KEY = """-----BEGIN RSA PRIVATE KEY-----\r' + "\r".join(PEM_BODY) + " /home/alice/x\r"
        '-----END RSA PRIVATE KEY-----"""\r'
    )
    result, output = _lint(_write(tmp_path / "k.py", text), scope="all")
    assert [(f.code, f.line) for f in result.findings] == [("OVA402", 1), ("OVA501", 3)], output
    assert "    3 | " in output
    for line in PEM_BODY:
        assert not _pieces(line) & _pieces(output), output


def test_a_frame_shows_controls_and_separators_one_visible_symbol_each(tmp_path: Path) -> None:
    # An ESC would drive the reader's terminal, a separator would split the frame line; each becomes one
    # visible symbol, so the caret stays under the path.
    module = _write(tmp_path / "m.py", 'X = "\x1b[2J\x0b\u2028\x85 /home/alice/x"\n')
    result, output = _lint(module, scope="all")
    assert (
        "\x1b" not in output
        and "\u2028" not in output
        and "\x85" not in output
        and "\x0b" not in output
    )
    assert [(f.code, f.col) for f in result.findings if f.code == "OVA501"] == [("OVA501", 14)]
    lines = output.splitlines()
    frame = '    1 | X = "\u241b[2J\u240b\ufffd\ufffd /home/alice/x"'
    assert frame in lines, output
    assert "      | " + " " * 13 + "^" * len("/home/alice") in lines, output


@pytest.mark.parametrize("ending", LINE_ENDINGS, ids=repr)
def test_comments_between_the_parts_of_a_joined_string_are_comments(
    tmp_path: Path, ending: str
) -> None:
    # Comments come from '#' outside string spans; an implicitly joined literal's span covers the comments
    # between its parts, which only the tokenizer sees: a directive there counts, a token there is found.
    suppressed = _write(
        tmp_path / "a.py",
        ending.join(['X = ("left"  # ovadapt: ignore-file', '     "right")', f'T = "{TOKEN}"', ""]),
    )
    result, _ = _lint(suppressed)
    assert not result.findings and [s.finding.code for s in result.suppressed] == ["OVA401"]
    leaked = _write(
        tmp_path / "b.py", ending.join(['X = ("left"', f"     # {TOKEN}", '     "right")', ""])
    )
    result, _ = _lint(leaked)
    assert [(f.code, f.span.start_line, f.span.start_col) for f in result.findings] == [
        ("OVA401", 2, 8)
    ]


_SECTION_BUILDER = (
    "def build_issue_projection(issue):\n"
    "    return {\n"
    '        "issue_ref_id": issue.ref_id,\n'
    '        "issue_body_copied": issue.body is not None,\n'
    '        "comment_bodies_copied": True,\n'
    '        "provider_payload_copied": False,\n'
    "    }\n"
)


@pytest.mark.parametrize("sep", TEXT_SEPARATORS, ids=repr)
def test_a_contract_builder_after_separators_is_still_judged(tmp_path: Path, sep: str) -> None:
    # Separators in comments above a builder (an editor's page break, a pasted U+2028): the contract
    # evaluation cuts each function's text by the tokenizer's lines, so the builder is judged, not skipped.
    above = "".join(f"# part {i} {sep} of the module\n" for i in range(24))
    module = _write(tmp_path / "builders.py", above + _SECTION_BUILDER)
    result, _ = _lint(module)
    lines = [f.span.start_line for f in result.findings if f.code == "OVA104"]
    assert lines == [24 + 4, 24 + 5], [(f.code, f.span.start_line) for f in result.findings]
