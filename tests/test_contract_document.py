"""Issue 30: the adapter contract follows its document. Each section of the schema quotes, in its
description, the sentence of the contract document (DESIGN.md, "The contract the fixtures follow") it comes
from; where the document is silent the schema accepts what a reasonable producer writes."""

from __future__ import annotations

import json
import re

from ovadapt_lint.checks.contracts import check_contracts, find_adapters
from ovadapt_lint.frontends.json_tree import parse_json
from ovadapt_lint.source import SourceFile

from .conftest import CORPUS, ROOT, SHARED, require_shared

SCHEMAS = ROOT / "rules" / "contracts"


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _sections(schema: dict) -> dict[str, dict]:
    """The constrained sections: top-level properties and definitions that carry a rule code."""
    found = {k: v for k, v in schema.get("properties", {}).items() if "x-ova-code" in v}
    found.update({f"$defs.{k}": v for k, v in schema.get("$defs", {}).items() if "x-ova-code" in v})
    return found


def test_every_section_quotes_the_contract_document() -> None:
    require_shared()
    document = _normalised((SHARED / "DESIGN.md").read_text(encoding="utf-8"))
    checked = 0
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        for name, section in _sections(json.loads(path.read_text(encoding="utf-8"))).items():
            description = section.get("description", "")
            assert description, f"{path.name}: {name} has no description"
            quoted = re.sub(r"^(?:\d+\.|Also:)\s*", "", description)
            assert _normalised(quoted) in document, (
                f"{path.name}: {name} does not quote the document: {quoted!r}"
            )
            checked += 1
    assert checked >= 12


def _codes(adapter: dict) -> list[str]:
    data = json.dumps(adapter).encode()
    doc = parse_json(SourceFile(CORPUS / "x.json", "x.json", data))
    return [f.code for f in check_contracts(doc, find_adapters(doc))]


def _adapter() -> dict:
    return json.loads((CORPUS / "OVA106" / "ok_future_gated.json").read_text(encoding="utf-8"))


def test_where_the_document_is_silent_the_contract_accepts_a_reasonable_producer() -> None:
    adapter = _adapter()
    assert _codes(adapter) == []
    adapter["retrieval_gates"][0]["blocks"] = ["live retrieval", "recall injection into prompts"]
    adapter["memory_projection"].update(retrieval_mode="disabled", top_k_preview=0)
    assert _codes(adapter) == []


def test_what_the_document_says_is_still_enforced() -> None:
    for change, code in (
        (lambda a: a["retrieval_gates"][0].update(blocks=[]), "OVA108"),
        (lambda a: a["retrieval_gates"][0].update(blocks=["ok", ""]), "OVA108"),
        (lambda a: a["retrieval_gates"][0].update(blocks=7), "OVA108"),
        (
            lambda a: a["memory_projection"].update(retrieval_mode="preview_only", top_k_preview=0),
            "OVA106",
        ),
        (
            lambda a: a["memory_projection"].update(retrieval_mode="disabled", top_k_preview=-1),
            "OVA106",
        ),
    ):
        adapter = _adapter()
        change(adapter)
        assert _codes(adapter) == [code]
