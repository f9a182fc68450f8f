"""Issue #59, item 2: the reference rule against its truth (tests/questionnaire_truth/references.json,
made from the vendors' answers and the PDFs' names by a rule of its own), on the real rows and PDFs
of ../shared/data/instructure.

For each row of the truth the drafter's rule is run as the drafter runs it, less the model's
encoder (the question–sentence bar): the topic the question asks for (``reference_topic``, else
``documented_topic``), the section of the company's and the product's own PDFs on it
(``section_on``: its opening sentences naming the topic) or else the document that is itself what is
asked for (``find_document``, the product's own first); a product whose vendor is another entity
(Parchment LLC) reads its own PDFs only. A document named is right when the truth lists it, wrong
when the truth lists others or none."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from engine.core.types import Unit
from engine.drafting.reference import documented_topic, find_document, reference_topic, section_on

TRUTH = Path(__file__).resolve().parents[1] / "questionnaire_truth" / "references.json"
COMPANY = "Instructure"
RIGHT_AT_LEAST = 17  # measured 2026-12-03 (docs/benchmarks.md, "References on rows with a dropdown")


@lru_cache(maxsize=None)
def _units(path: str) -> tuple[Unit, ...]:
    fitz = pytest.importorskip("fitz")
    with fitz.open(path) as pdf:
        return tuple(Unit(p.get_text(), page=i) for i, p in enumerate(pdf, 1))


def _vendor(root: Path, file: str) -> str:
    rows = (root / "_extracted" / f"{file}.jsonl").read_text(encoding="utf-8").splitlines()
    return next(r["answer"] for r in map(json.loads, rows) if r["id"] == "GNRL-01")


def named(root: Path, row: dict) -> str | None:
    """The document the drafter's rule names for ``row`` of the truth (its file name), or None."""
    topic = reference_topic(row["question"]) or documented_topic(row["question"])
    if not topic:
        return None
    own = sorted((root / row["product"]).glob("*.pdf")) if row["product"] else []
    company = sorted((root / COMPANY).glob("*.pdf")) if _vendor(root, row["file"]) == COMPANY else []
    docs = [(p.name, _units(str(p))) for p in [*company, *own]]
    on = section_on(topic, docs, [row["product"] or "", COMPANY])
    if on is not None and on[1]:
        return on[0].doc
    found = find_document(topic, docs, [p.name for p in own])
    return found[0].doc if found else None


def test_the_reference_rule_against_the_truth(shared_data):
    root = shared_data / "instructure"
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))["rows"]
    right, wrong, extra = [], [], []
    for row in truth:
        doc = named(root, row)
        key = f"{row['file']} {row['id']}: {doc}"
        if doc is None:
            continue
        if row["documents"] and doc in row["documents"]:
            right.append(key)
        elif row["documents"]:
            wrong.append(key)
        else:
            extra.append(key)
    print(
        f"right {len(right)} of {sum(1 for r in truth if r['documents'])}, wrong {len(wrong)}, named where none: {extra}"
    )
    assert not wrong, wrong
    assert len(right) >= RIGHT_AT_LEAST, right


def test_documentation_to_support_accessibility_is_the_products_own_vpat(shared_data):
    """DOCU-11 ("Do you have documentation to support the accessibility features of your
    product?"): the product's VPAT, chosen by the product's folder, never another product's; a
    product without one gets none (Canvas Studio's Lite, DOCU-13)."""
    root = shared_data / "instructure"
    truth = {(r["file"], r["id"]): r for r in json.loads(TRUTH.read_text(encoding="utf-8"))["rows"]}
    row = truth[("Canvas_Credentials_HECVAT_Full", "DOCU-11")]
    assert documented_topic(row["question"]) == "accessibility features of your product"
    assert named(root, row) == "Canvas Credentials (formerly Badgr) VPAT.pdf"
    parchment = truth[("Parchment_HECVAT_Full_-_All_Products", "DOCU-11")]
    assert named(root, parchment) == "Parchment Award Transcript Services VPAT WCAG2AA.pdf"
    studio = truth[("Canvas_Studio_HECVAT_Lite", "DOCU-13")]
    assert studio["documents"] is None and named(root, studio) is None
    # both VPATs offered: the product's own comes first
    vpats = [root / "Canvas Credentials" / "Canvas Credentials (formerly Badgr) VPAT.pdf"]
    vpats.append(root / "Parchment" / "Parchment Award Transcript Services VPAT WCAG2AA.pdf")
    docs = [(p.name, _units(str(p))) for p in vpats]
    topic = documented_topic(row["question"]) or ""
    assert [n.doc for n in find_document(topic, docs, [vpats[1].name])][0] == vpats[1].name
