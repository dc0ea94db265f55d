"""--fix and --diff: leaking values become placeholders, nothing else changes, files still parse,
a second run changes nothing, writes are atomic."""

# ovadapt: ignore-file

from __future__ import annotations

import ast
import json
import os
import shutil
from pathlib import Path

import pytest

from ovadapt_lint import Config, lint_paths, redact_text
from ovadapt_lint.fix import write_atomically

from .conftest import CORPUS, run_cli

FIXABLE_JSON = [
    "OVA303",
    "OVA304",
    "OVA307",
    "OVA308",
    "OVA309",
    "OVA310",
    "OVA311",
    "OVA313",
    "OVA401",
    "OVA402",
    "OVA403",
    "OVA404",
    "OVA405",
    "OVA406",
    "OVA407",
    "OVA408",
    "OVA409",
    "OVA501",
    "OVA502",
    "OVA503",
    "OVA601",
    "OVA602",
    "OVA603",
    "OVA604",
]

PYTHON_EXAMPLE = '''\
"""Module doc."""

TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV1234"  # staging: sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm
PATH = f"/Users/alice/{name}"
DSN = 'postgres://svc:9fQ2w7Lm@db.example.net/app'
HOST = "http://10.0.0.7:1933/api"
TRACE = """Traceback (most recent call last):
  File "a.py", line 1, in <module>
ValueError"""
'''


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, path + (index,))
    else:
        yield path, value


@pytest.mark.parametrize("code", FIXABLE_JSON)
def test_fix_json_rule(tmp_path: Path, code: str) -> None:
    folder = tmp_path / code
    shutil.copytree(CORPUS / code, folder, ignore=shutil.ignore_patterns("*.expect", "ok_*"))
    config_file = CORPUS / code / ".ovadapt-lint.toml"
    before = {p.name: p.read_bytes() for p in folder.glob("bad_*.json")}
    proc = run_cli("--fix", "--no-cache", str(folder), cwd=folder)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr
    remaining = lint_paths(
        [str(folder)],
        Config(
            deny_list=[CORPUS / code / "_deny-list.txt"] if code == "OVA701" else [],
            internal_domains=["acme-int.net"] if code == "OVA603" else [],
        ),
    )
    assert code not in {f.code for f in remaining}, proc.stderr
    for name, original in before.items():
        after = (folder / name).read_bytes()
        fixed, old = json.loads(after), json.loads(original)
        old_leaves, new_leaves = dict(_leaves(old)), dict(_leaves(fixed))
        assert old_leaves.keys() == new_leaves.keys()  # structure and keys untouched
        for path, value in new_leaves.items():
            if value != old_leaves[path]:
                assert isinstance(value, str) and "[redacted:" in value, (path, value)
        assert config_file.exists() or True


def test_fix_python(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(PYTHON_EXAMPLE, encoding="utf-8")
    # The byte edits of --fix are under test, not publication: the module constants are no
    # projection, so --scope all has every rule judge (and fix) them.
    proc = run_cli("--fix", "--no-cache", "--scope", "all", str(module))
    after = module.read_text(encoding="utf-8")
    ast.parse(after)  # still Python
    remaining = {f.code for f in lint_paths([str(module)], Config(scope="all"))}
    assert not remaining & {"OVA401", "OVA404", "OVA501", "OVA602", "OVA307"}, (
        remaining,
        proc.stderr,
    )
    assert after.splitlines()[0] == '"""Module doc."""'
    assert "# staging: [redacted:credential]" in after
    assert (
        'PATH = f"[redacted:local-path]{name}"' in after
    )  # the whole path, as for every local path (issue 27)
    assert "DSN = 'postgres://svc:[redacted:credential]@db.example.net/app'" in after


def test_second_fix_changes_nothing_and_bytes_outside_values_stay(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS, folder)
    run_cli("--fix", "--no-cache", str(folder), cwd=tmp_path)
    first = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    run_cli("--fix", "--no-cache", str(folder), cwd=tmp_path)
    second = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert first == second
    for path, data in first.items():
        original = (CORPUS / path.relative_to(folder)).read_bytes()
        if path.suffix == ".json" and original != data:
            try:
                json.loads(original)
            except ValueError:
                continue
            json.loads(data)  # fixed JSON is still JSON
            assert data.endswith(b"\n") == original.endswith(b"\n")


def test_contract_flag_string_false_is_fixed_true_is_not(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    adapter = json.loads((CORPUS / "OVA104" / "bad_flag_true.json").read_text(encoding="utf-8"))
    text = json.dumps(adapter, indent=2).replace(
        '"issue_body_copied": true', '"issue_body_copied": true'
    )
    text = text.replace('"comment_bodies_copied": false', '"comment_bodies_copied": "false"')
    target.write_text(text, encoding="utf-8")
    proc = run_cli("--fix", "--no-cache", str(target))
    after = target.read_text(encoding="utf-8")
    assert '"comment_bodies_copied": false' in after
    assert '"issue_body_copied": true' in after
    assert (
        proc.returncode == 1 and "not fixed: the flag says raw material was copied" in proc.stderr
    )


def test_diff_writes_nothing_and_shows_no_secret(tmp_path: Path) -> None:
    target = tmp_path / "a.public.json"  # published: the typed password is a finding too
    target.write_text(
        '{"note": "password=hunter2", "key": "sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm"}\n',
        encoding="utf-8",
    )
    before = target.read_bytes()
    proc = run_cli("--diff", "--no-cache", str(target))
    assert proc.returncode == 1
    assert target.read_bytes() == before
    assert "+" in proc.stdout and "[redacted:credential]" in proc.stdout
    assert "hunter2" not in proc.stdout and "Zx9Qw7Lm3Rt5" not in proc.stdout


def test_fix_leaves_unparsable_files_alone(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    target.write_text('{"note": "password=hunter2",}\n', encoding="utf-8")
    before = target.read_bytes()
    proc = run_cli("--fix", "--no-cache", str(target))
    assert target.read_bytes() == before and proc.returncode == 1


def test_writes_are_atomic(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "a.json"
    target.write_text('{"a": 1}\n', encoding="utf-8")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, b'{"a": 2}\n')
    assert target.read_text(encoding="utf-8") == '{"a": 1}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]  # no temporary file left behind


def test_redact_text_api() -> None:
    fixed = redact_text(
        '{"note": "deploy with sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm now"}'
    )
    assert fixed == '{"note": "deploy with [redacted:credential] now"}'
    # Paths are judged in what is published: the dict is a document that attests, so it is a projection.
    projection = 'x = {"schema_version": "notes_v1", "raw_notes_copied": False, "doc": "%s"}\n'
    assert (
        redact_text(projection % "/home/bob/notes.md", kind="python")
        == projection % "[redacted:local-path]"
    )
    assert redact_text("{broken", kind="json") == "{broken"
    with pytest.raises(ValueError):
        redact_text("x", kind="yaml")


def test_redact_text_goes_round_the_fix_loop_like_the_cli(tmp_path: Path) -> None:
    # Two tokens run together: the first pass replaces the wider match, and the rest of the second token
    # is a match of its own only once that is gone. --fix lints again and fixes it; so does redact_text.
    text = (
        json.dumps(
            {
                "note": "sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm"
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.abc"
            }
        )
        + "\n"
    )
    target = tmp_path / "a.json"
    target.write_text(text, encoding="utf-8")
    assert run_cli(str(target), "--fix", "--no-cache").returncode == 0
    fixed = '{"note": "[redacted:credential].[redacted:credential]"}\n'
    assert target.read_text(encoding="utf-8") == fixed
    assert redact_text(text) == fixed


LEAK = '{"note": "deploy with sk-proj-Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3Vb5Nm now"}\n'


def test_fix_skips_a_file_changed_since_it_was_linted(tmp_path: Path, monkeypatch, capsys) -> None:
    from ovadapt_lint import cli, engine

    target = tmp_path / "a.json"
    target.write_text(LEAK, encoding="utf-8")
    # Same length, different bytes: stale offsets would land on the user's new text and still parse.
    edited = LEAK.replace("deploy with", "rollout via")
    real_run = engine.run

    def run_then_edit(*args, **kwargs):
        result = real_run(*args, **kwargs)
        if target.read_text(encoding="utf-8") == LEAK:
            target.write_text(edited, encoding="utf-8")
        return result

    monkeypatch.setattr(engine, "run", run_then_edit)
    assert cli.main(["--fix", "--no-cache", str(target)]) == 1
    assert target.read_text(encoding="utf-8") == edited
    assert "changed since it was linted; nothing written" in capsys.readouterr().err


def test_fix_follows_a_symlink_inside_the_tree_and_refuses_one_outside(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (tree / "real.json").write_text(LEAK, encoding="utf-8")
    (tree / "link.json").symlink_to("real.json")
    proc = run_cli("--fix", "--no-cache", "link.json", cwd=tree)
    assert (tree / "link.json").is_symlink() and "sk-proj" not in (tree / "real.json").read_text(
        encoding="utf-8"
    )
    assert proc.returncode == 0 and "target inside the linted tree was fixed" in proc.stderr

    (outside / "secret.json").write_text(LEAK, encoding="utf-8")
    (tree / "out.json").symlink_to(outside / "secret.json")
    proc = run_cli("--fix", "--no-cache", "out.json", cwd=tree)
    assert (tree / "out.json").is_symlink() and (outside / "secret.json").read_text(
        encoding="utf-8"
    ) == LEAK
    assert proc.returncode == 1 and "symbolic link to a file outside the linted tree" in proc.stderr
    assert "All checks passed" not in proc.stdout


def test_fix_says_other_hard_links_keep_the_content(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(LEAK, encoding="utf-8")
    os.link(tmp_path / "a.json", tmp_path / "b.json")
    proc = run_cli("--fix", "--no-cache", "a.json", cwd=tmp_path)
    assert "1 other hard link(s) to this file keep the old content" in proc.stderr


def test_fix_reports_a_write_failure_once(tmp_path: Path, monkeypatch, capsys) -> None:
    import errno

    from ovadapt_lint import cli, fix

    target = tmp_path / "a.json"
    target.write_text(LEAK, encoding="utf-8")

    def read_only(path, data):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(fix, "write_atomically", read_only)
    assert cli.main(["--fix", "--no-cache", str(target)]) == 1
    assert capsys.readouterr().err.count("cannot write") == 1
