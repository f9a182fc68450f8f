"""A solicitation's contract type and set-aside quoted as the sentence that states them
(engine/questionnaire/solicitation/facts.py), not a cover's lines run together, on PDFs these
tests write."""

from __future__ import annotations

from pathlib import Path

from engine.questionnaire.solicitation import NOT_STATED, Fact, shred
from tests.solicitation_fixtures import write_pdf

COVER = [
    "Request for Quotation (RFQ) 4QXX-2031-7",
    "For the Establishment of Multiple Award",
    "Blanket Purchase Agreements (BPAs)",
    "Issued by: The Springfield Services Administration (SSA)",
    "Federal Acquisition Service",
    "401 Main Street NW, Suite 820",
    "Springfield, ST 30308",
    "Special Notice: Pool One will be 100% set-aside for Small Business.",
]
BODY = [
    "1. INSTRUCTIONS TO QUOTERS",
    "1.1 This RFQ, under FAR 8.405-3 ordering procedures, will establish multiple award Blanket Purchase",
    "Agreements (BPAs) for agile delivery services.",
    "1.2 Quotes shall be submitted via eBuy by the due date.",
    "2. STATEMENT OF WORK",
    "2.1 The Contractor shall deliver working software every two weeks.",
]


def _facts(path: Path) -> dict:
    return {f.fact: f for f in shred([path]).facts}


def test_contract_type_is_the_body_sentence_not_the_cover_title(tmp_path: Path) -> None:
    facts = _facts(write_pdf(tmp_path / "rfq.pdf", [COVER, BODY]))
    contract = facts[Fact.CONTRACT_TYPE]
    assert contract.value == (
        "This RFQ, under FAR 8.405-3 ordering procedures, will establish multiple award Blanket Purchase "
        "Agreements (BPAs) for agile delivery services."
    )
    assert contract.page == 2


def test_set_aside_on_the_cover_only_is_quoted_from_its_own_line(tmp_path: Path) -> None:
    facts = _facts(write_pdf(tmp_path / "rfq.pdf", [COVER, BODY]))
    set_aside = facts[Fact.SET_ASIDE]
    assert set_aside.value == "Special Notice: Pool One will be 100% set-aside for Small Business."
    assert set_aside.page == 1  # not the address lines above it


def test_set_aside_not_stated(tmp_path: Path) -> None:
    facts = _facts(write_pdf(tmp_path / "rfq.pdf", [COVER[:-1], BODY]))
    assert facts[Fact.SET_ASIDE].value == NOT_STATED
