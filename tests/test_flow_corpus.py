"""The flow corpus: small multi-module projects whose expected findings are written in the files.

See ``corpus/flows/README.md``: a line ending in ``# expect: CODE ...`` must carry exactly those
codes; every other line none of the judged codes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ovadapt_lint import lint_paths

from .conftest import CORPUS

FLOWS = CORPUS / "flows"
CASES = sorted(p for p in FLOWS.glob("*/*") if p.is_dir())
_EXPECT = re.compile(r"#\s*expect:\s*((?:OVA\d{3}\s*)+)")
# Tool notices and credentials/deny-list found in literals are judged by the file corpus.
_JUDGED = re.compile(r"OVA[1-6]\d\d")


def expectations(case: Path) -> set[tuple[str, int, str]]:
    out = set()
    for path in sorted(case.rglob("*")):
        if not path.is_file() or path.suffix not in (".py", ".json", ".jsonl"):
            continue
        rel = path.relative_to(case).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = _EXPECT.search(line)
            if match:
                out |= {(rel, number, code) for code in match.group(1).split()}
    return out


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.relative_to(FLOWS).as_posix())
def test_flow_case(case: Path) -> None:
    found = {
        (Path(f.path).resolve().relative_to(case.resolve()).as_posix(), f.line, f.code)
        for f in lint_paths([str(case)])
        if _JUDGED.fullmatch(f.code)
    }
    assert found == expectations(case)


def test_case_names_say_bad_or_near_miss() -> None:
    for case in CASES:
        assert case.name.startswith(("bad_", "ok_")), case
        assert bool(expectations(case)) == case.name.startswith("bad_"), case
