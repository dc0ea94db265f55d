"""Every entry of the flow models (``rules/flow/models.toml``) has an example, generated from the data and
run here: a source reaches a published field and is reported with its kind's code; a sanitiser stops a raw
value; a propagator or a container update carries it; a writer into a public file publishes it; an exception
of a quiet call carries nothing, one of an unknown call is exception text.

The examples are made from the model itself, so an entry added to the data is exercised without a test edit,
and one whose behaviour the engine does not give (a dead or shadowed entry) fails here by name.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from ovadapt_lint import Config, lint_paths
from ovadapt_lint.rulepack import load_toml

MODELS = load_toml("flow", "models.toml")
KINDS = MODELS["kinds"]
SOURCES = MODELS["sources"]
SCHEMA = "model_example_public_v1"


@dataclass
class Example:
    entry: str  # "table: name", the test id
    setup: list[str]  # statements before the published value
    value: str  # the expression published under "value"
    code: str | None  # the code expected on the value's line, or None for none
    published: str = "projections"
    # "projection": returned under "value" and reported there; "stored": returned, but reported on the
    # last line of `setup` (where it was put into a container); "line": `setup` publishes on its last line
    sink: str = "projection"


def _imports(name: str) -> list[str]:
    """What makes ``name`` (a dotted library name as the models spell it) resolve as written."""
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name) or name.startswith("__"):
        return []  # a glob, a suffix, a folder: not a name in the code
    first = name.split(".", 1)[0]
    if first[:1].isupper():
        return [f"from pathlib import {first}"] if first.startswith(("Path", "Pure")) else []
    if "." in name:
        return [f"import {first}"]
    return []


def _module(examples: list[Example]) -> tuple[str, dict[int, tuple[str, str | None]]]:
    """One module of one function per example; returns its text and, per checked line, (entry, code)."""
    header = [
        "import json",
        "import os",
        "import re",
        "import subprocess",
        "import traceback",
        "from pathlib import Path",
        "",
        "",
        "def _keyed(row, *keys):",  # a helper that reads a record with the keys it is given
        "    for key in keys:",
        "        return row.get(key)",
    ]
    imports = sorted(
        {i for e in examples for n in [e.entry.split(": ", 1)[1]] for i in _imports(n)}
    )
    lines = header + [i for i in imports if i not in header] + [""]
    expected: dict[int, tuple[str, str | None]] = {}
    for index, example in enumerate(examples):
        lines += ["", f"def example_{index}(record: dict, obj, arg):"]
        lines += [f"    {s}" for s in example.setup]
        if example.sink == "line":
            expected[len(lines)] = (example.entry, example.code)
            continue
        stored = len(lines)
        lines.append(f'    return {{"schema_version": "{SCHEMA}", "value": {example.value}}}')
        # A container update is reported where the value went in, or (a keyed store into a dict: its key is
        # published) at the key: either line shows the container carried it.
        expected[len(lines)] = (example.entry, example.code)
        if example.sink == "stored":
            expected[-stored] = expected.pop(len(lines))
    return "\n".join(lines) + "\n", expected


def _code(kind: str) -> str:
    return KINDS[kind]["code"]


def _name_for(glob: str) -> str:
    return glob.replace("*", "APP")


RAW = 'record["message"]'
RAW_CODE = _code(SOURCES["fields"]["message"])


def _source_examples() -> list[Example]:
    out = []
    for name, kind in SOURCES["calls"].items():
        out.append(
            Example(f"sources.calls: {name}", [f"found = {name}(arg)"], "found", _code(kind))
        )
    for name, kind in SOURCES["methods"].items():
        out.append(
            Example(f"sources.methods: {name}", [f"found = obj.{name}()"], "found", _code(kind))
        )
    for name, kind in SOURCES["names"].items():
        out.append(Example(f"sources.names: {name}", [f"found = {name}"], "found", _code(kind)))
    for name, kind in SOURCES["fields"].items():
        out.append(Example(f"sources.fields: {name}", [], f'record["{name}"]', _code(kind)))
        out.append(
            Example(f"sources.fields (get): {name}", [], f'record.get("{name}")', _code(kind))
        )
        out.append(
            Example(
                f"sources.fields (keyed helper): {name}",
                [],
                f'_keyed(record, "{name}")',
                _code(kind),
            )
        )
    for glob in SOURCES["env_credential"]:
        out.append(
            Example(
                f"sources.env_credential: {glob}",
                [],
                f'os.environ.get("{_name_for(glob)}")',
                _code("credential"),
            )
        )
    for glob in SOURCES["env_path"]:
        out.append(
            Example(
                f"sources.env_path: {glob}",
                [],
                f'os.environ["{_name_for(glob)}"]',
                _code("local-path"),
            )
        )
    for glob in SOURCES["credential_flags"]:
        flag = _name_for(glob).lower()
        out.append(
            Example(
                f"sources.credential_flags: {glob}",
                [],
                f'f"tool {flag} {{arg}}"',
                _code("credential"),
            )
        )
    for name in SOURCES["whole_record_methods"]:
        out.append(
            Example(
                f"sources.whole_record_methods: {name}",
                [],
                f"{{k: v for k, v in record.{name}()}}"
                if name == "items"
                else f"[v for v in record.{name}()]",
                _code("record"),
            )
        )
    out.append(
        Example(
            f"sources.except_binding: {SOURCES['except_binding']}",
            ["try:", "    mystery(arg)", "except ValueError as exc:", "    found = str(exc)"],
            "found",
            _code(SOURCES["except_binding"]),
        )
    )
    return out


def _sanitiser_examples() -> list[Example]:
    kill = MODELS["sanitizers"]
    out = [Example(f"sanitizers.calls: {n}", [], f"{n}({RAW})", None) for n in kill["calls"]]
    out += [
        Example(f"sanitizers.modules: {m}", [], f"{m}.anything({RAW})", None)
        for m in kill["modules"]
    ]
    out += [Example(f"sanitizers.methods: {m}", [], f"{RAW}.{m}()", None) for m in kill["methods"]]
    out += [
        Example(f"sanitizers.attributes: {a}", [], f"{RAW}.{a}", None) for a in kill["attributes"]
    ]
    for name in kill["substitutions"]:
        call = (
            f're.{name.split(".")[-1]}(r"\\d+", "[redacted]", {RAW})'
            if name.startswith("re.")
            else f're.compile(r"\\d+").{name}("[redacted]", {RAW})'
        )
        out.append(Example(f"sanitizers.substitutions: {name}", [], call, None))
        kept = call.replace('"[redacted]"', '"-"')
        out.append(
            Example(f"sanitizers.substitutions (no placeholder): {name}", [], kept, RAW_CODE)
        )
    return out


# One source per kind the pattern examples are tried on.
_BY_KIND = {
    "credential": 'os.environ.get("APP_TOKEN")',
    "local-path": "os.getcwd()",
    "private-uri": 'record["uri"]',
    "free-text": RAW,
    "exception-text": "traceback.format_exc()",
}


def _closed(kinds: set[str]) -> set[str]:
    for row in MODELS["sanitizers"]["pattern_combined"]:
        if set(row["all_of"]) <= kinds:
            kinds = kinds | set(row["kinds"])
    return kinds


def _redacted(example: str, value: str) -> str:
    return f're.sub(r"{example}\\S*", "[redacted]", {value})'


def _pattern_examples() -> list[Example]:
    """A redaction whose pattern shows a class's marks stops that class's kinds, and no other kind."""
    out = []
    rows = MODELS["sanitizers"]["pattern_kinds"]
    for row in rows:
        stopped = _closed(set(row["kinds"]))
        for kind, value in _BY_KIND.items():
            out.append(
                Example(
                    f"sanitizers.pattern_kinds: {row['example']} on {kind}",
                    [],
                    _redacted(row["example"], value),
                    None if kind in stopped else _code(kind),
                )
            )
    for rule in MODELS["sanitizers"]["pattern_combined"]:
        single = {tuple(r["kinds"]): r["example"] for r in rows if len(r["kinds"]) == 1}
        for kind in rule["kinds"]:
            for left_out in [None, *rule["all_of"]]:
                value = _BY_KIND[kind]
                for part in rule["all_of"]:
                    if part != left_out:
                        value = _redacted(single[(part,)], value)
                out.append(
                    Example(
                        f"sanitizers.pattern_combined: {kind} without {left_out}",
                        [],
                        value,
                        None if left_out is None else _code(kind),
                    )
                )
    return out


def _propagator_examples() -> list[Example]:
    carry = MODELS["propagators"]
    out = [Example(f"propagators.calls: {n}", [], f"{n}({RAW})", RAW_CODE) for n in carry["calls"]]
    out += [
        Example(f"propagators.methods: {m}", [], f"{RAW}.{m}({RAW})", RAW_CODE)
        for m in carry["methods"]
    ]
    # By position: the count of `enumerate` carries nothing, each part of `zip` only its own argument's.
    for n in carry["counted"]:
        out.append(
            Example(f"propagators.counted: {n}", [], f"[x for _i, x in {n}({RAW})]", RAW_CODE)
        )
        out.append(
            Example(f"propagators.counted: {n} count", [], f"[i for i, _x in {n}({RAW})]", None)
        )
    for n in carry["zipped"]:
        out.append(
            Example(f"propagators.zipped: {n}", [], f"[b for _a, b in {n}([1], {RAW})]", RAW_CODE)
        )
        out.append(
            Example(f"propagators.zipped: {n} other", [], f"[a for a, _b in {n}([1], {RAW})]", None)
        )
    keyed = {"update": f'{{"k": {RAW}}}', "setdefault": f'"k", {RAW}', "__setitem__": f'"k", {RAW}'}
    keyed["insert"] = f"0, {RAW}"
    out += [
        Example(
            f"propagators.container_methods: {m}",
            [
                "out = {}" if m in ("update", "setdefault", "__setitem__") else "out = []",
                f"out.{m}({keyed.get(m, RAW)})",
            ],
            "out",
            RAW_CODE,
            sink="stored",
        )
        for m in carry["container_methods"]
    ]
    return out


def _writes(
    entry: str, setup: list[str], code: str | None = RAW_CODE, published: str = "projections"
):
    """An example whose last statement publishes the raw value itself (a writer, an output)."""
    return Example(entry, setup, "", code, published=published, sink="line")


def _sink_examples() -> list[Example]:
    sinks = MODELS["sinks"]
    target = '(Path("examples") / "board.public.json")'
    out = [
        _writes(
            f"sinks.dumps: {name}",
            [f'with {target}.open("w") as fh:', f'    {name}({{"value": {RAW}}}, fh)'],
        )
        for name in sinks["dumps"]
    ]
    out += [
        _writes(f"sinks.serialisers: {name}", [f'{target}.write_text({name}({{"value": {RAW}}}))'])
        for name in sinks["serialisers"]
    ]
    out += [
        _writes(
            f"sinks.write_methods: {method}",
            [f"{target}.{method}({f'[{RAW}]' if method == 'writelines' else RAW})"],
        )
        for method in sinks["write_methods"]
    ]
    out += [
        _writes(f"sinks.public_suffixes: {suffix}", [f'Path("out{suffix}").write_text({RAW})'])
        for suffix in sinks["public_suffixes"]
    ]
    out += [
        _writes(
            f"sinks.public_folders: {folder}",
            [f'(Path("{folder}") / "out.json").write_text({RAW})'],
        )
        for folder in sinks["public_folders"]
    ]
    for name in sinks["outputs"]:
        out.append(
            _writes(f"sinks.outputs (outputs): {name}", [f"{name}({RAW})"], published="outputs")
        )
        out.append(_writes(f"sinks.outputs (projections): {name}", [f"{name}({RAW})"], code=None))
    return out


def _exception_examples() -> list[Example]:
    raises = MODELS["exceptions"]

    def caught(call: str, handler: str = "ValueError") -> list[str]:
        return ["try:", f"    {call}", f"except {handler} as exc:", "    found = str(exc)"]

    out = [
        Example(f"exceptions.quiet_calls: {n}", caught(f"{n}(arg)"), "found", None)
        for n in raises["quiet_calls"]
    ]
    out += [
        Example(f"exceptions.quiet_methods: {m}", caught(f"obj.{m}(arg)"), "found", None)
        for m in raises["quiet_methods"]
    ]
    except_code = _code(SOURCES["except_binding"])
    for name, classes in raises["carriers"].items():
        for cls in classes:
            handler = cls.rsplit(".", 1)[-1] if cls.startswith("subprocess.") else cls
            handler = f"subprocess.{handler}" if cls.startswith("subprocess.") else handler
            out.append(
                Example(
                    f"exceptions.carriers: {name} {cls}",
                    caught(f"{name}(arg)", handler),
                    "found",
                    except_code,
                )
            )
        out.append(
            Example(
                f"exceptions.carriers (other class): {name}",
                caught(f"{name}(arg)", "KeyError"),
                "found",
                None,
            )
        )
    return out


GROUPS = {
    "sources": _source_examples,
    "sanitizers": _sanitiser_examples,
    "pattern_kinds": _pattern_examples,
    "propagators": _propagator_examples,
    "sinks": _sink_examples,
    "exceptions": _exception_examples,
}


def _found(folder: Path, published: str) -> dict[int, set[str]]:
    config = Config(published=published)
    out: dict[int, set[str]] = {}
    for finding in lint_paths([str(folder)], config=config):
        if re.fullmatch(r"OVA[2456]\d\d", finding.code):
            out.setdefault(finding.line, set()).add(finding.code)
    return out


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_model_entry_behaves_as_documented(group: str, tmp_path: Path) -> None:
    examples = GROUPS[group]()
    assert examples, f"the {group} models are empty"
    wrong = []
    for published in ("projections", "outputs"):
        chosen = [e for e in examples if e.published == published]
        if not chosen:
            continue
        folder = tmp_path / published
        folder.mkdir()
        text, expected = _module(chosen)
        (folder / "examples_module.py").write_text(text, encoding="utf-8")
        found = _found(folder, published)
        for line, (entry, code) in expected.items():
            got = found.get(abs(line), set())
            if line < 0:  # either the update's line or the return's
                got |= found.get(-line + 1, set())
            if (code is None and got) or (code is not None and code not in got):
                wrong.append(
                    f"{entry}: expected {code or 'nothing'}, found {sorted(got) or 'nothing'}"
                )
    assert not wrong, "\n".join(wrong)


def test_the_generated_names_match_their_globs() -> None:
    for glob in SOURCES["env_credential"] + SOURCES["env_path"]:
        assert fnmatch.fnmatchcase(_name_for(glob), glob)


def test_each_pattern_example_shows_its_own_marks_only() -> None:
    rows = MODELS["sanitizers"]["pattern_kinds"]
    for row in rows:
        assert [r["example"] for r in rows if re.search(r["marks"], row["example"])] == [
            row["example"]
        ]


@pytest.mark.parametrize("kind", sorted(_BY_KIND))
def test_a_configured_sanitiser_stops_the_kinds_it_names(kind: str, tmp_path: Path) -> None:
    """``sanitizers = ["pkg.mask:KIND"]``: a value of that kind through it is clean, one of another kind is not;
    the old form (no kinds) stops every kind."""
    other = "free-text" if kind != "free-text" else "credential"
    (tmp_path / "masking.py").write_text("def mask(text):\n    return text\n", encoding="utf-8")
    (tmp_path / "cards.py").write_text(
        "import os\nimport traceback\nfrom .masking import mask\n\n\n"
        "def card(record):\n"
        f'    return {{"schema_version": "{SCHEMA}", "a": mask({_BY_KIND[kind]}),\n'
        f'            "b": mask({_BY_KIND[other]})}}\n',
        encoding="utf-8",
    )
    (tmp_path / "__init__.py").write_text("", encoding="utf-8")

    def codes(sanitizers: tuple[str, ...]) -> dict[int, set[str]]:
        out: dict[int, set[str]] = {}
        for f in lint_paths([str(tmp_path)], config=Config(sanitizers=sanitizers)):
            if re.fullmatch(r"OVA[2456]\d\d", f.code):
                out.setdefault(f.line, set()).add(f.code)
        return out

    name = f"{tmp_path.name}.masking.mask"
    assert codes((f"{name}:{kind}",)) == {8: {_code(other)}}
    # The trace says what the sanitiser stopped, and so why the value is still raw.
    (through,) = [
        f
        for f in lint_paths([str(tmp_path)], config=Config(sanitizers=(f"{name}:{kind}",)))
        if f.line == 8
    ]
    assert any(f"stops only {kind}" in step.message for step in through.trace)
    assert codes((name,)) == {}
    assert codes(()) == {7: {_code(kind)}, 8: {_code(other)}}


def test_a_sanitiser_naming_an_unknown_kind_is_a_config_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / ".ovadapt-lint.toml").write_text(
        'sanitizers = ["pkg.text.mask:credentail"]\n', encoding="utf-8"
    )
    (tmp_path / "mod.py").write_text("x = 1\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "ovadapt_lint", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "unknown kind(s) credentail" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
