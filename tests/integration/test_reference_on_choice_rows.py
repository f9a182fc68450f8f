"""A reference where the question asks for one, on rows with a dropdown as on rows without (issue
#59, item 2): Canvas Credentials' DOCU-11 ("Do you have documentation to support the accessibility
features of your product?"), which other products answered Yes with the same words about the
standard they target, gets its own VPAT named instead (the guidance asks for the documentation);
the choice stays; the first pass's row gets it too, and then has nothing left for the explanations
pass.

The real knowledge base of three real PDFs of ../shared/data/instructure (the company's BC/DR paper,
Canvas Credentials' VPAT and Parchment's, each with its scope), the real MiniLM encoder and an
answer library of the other products' real answers (the HECVAT Lites' DOCU-13); the model is the
quoting stand-in of tests/fixtures.py (which text reaches the draft is under test, not the model)."""

from __future__ import annotations

import json

import pytest

from engine.core.config import EngineConfig
from engine.core.scopes import Scope
from engine.drafting.drafter import Drafter
from engine.drafting.records import TextSource
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.questionnaire import Question
from storage.vector_store import release
from tests.fixtures import QuotingGenerator

PRODUCT = "Canvas Credentials"
OTHERS = {"Canvas Studio": "Canvas_Studio_HECVAT_Lite", "Intelligent Insights": "Intelligent_Insights_HECVAT_Lite"}
VPAT = "Canvas Credentials (formerly Badgr) VPAT"


def _row(shared, file: str, qid: str) -> dict:
    path = shared / "instructure" / "_extracted" / f"{file}.jsonl"
    return next(r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if r["id"] == qid)


@pytest.fixture(scope="module")
def kb(tmp_path_factory, encoder, shared_data):
    root = shared_data / "instructure"
    store = tmp_path_factory.mktemp("y59ref") / "store"
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        kb.add([root / "Instructure" / "Instructure Business Continuity & Disaster Recovery.pdf"])
        kb.add([root / PRODUCT / f"{VPAT}.pdf"], scope=Scope((PRODUCT,)))
        kb.add(
            [root / "Parchment" / "Parchment Award Transcript Services VPAT WCAG2AA.pdf"], scope=Scope(("Parchment",))
        )
        yield kb
    finally:
        release(str(store / "qdrant"))


@pytest.fixture(scope="module")
def library(kb, shared_data):
    library = AnswerLibrary(kb.folder, lambda: kb.encoder)
    for i, (product, file) in enumerate(OTHERS.items(), 2):
        r = _row(shared_data, file, "DOCU-13")
        library.record(r["question"], r["answer"], r["comment"], f"{file}.xlsx", "Documentation", i, "DOCU-13", product)
    return library


def _docu11(shared_data, choices: tuple[str, ...]) -> Question:
    r = _row(shared_data, "Canvas_Credentials_HECVAT_Full", "DOCU-11")
    return Question(
        "DOCU-11", "Documentation", 30, r["question"], "B30", "C30" if choices else None, "D30", choices, None, None
    )


def test_a_row_with_a_dropdown_gets_the_products_own_document_instead_of_others_words(kb, library, shared_data):
    drafter = Drafter(kb, QuotingGenerator(), library=library, product=PRODUCT)
    d = drafter.draft(_docu11(shared_data, ("Yes", "No")))
    assert d.choice == "Yes" and d.from_product in OTHERS  # the choice stays
    assert d.text_source == TextSource.REFERENCE.value, d.answer
    assert d.answer.startswith(f"Documented in {VPAT}, p. 1: "), d.answer
    assert "Accessibility Conformance Report" in d.answer and "WCAG 2.1 AA" not in d.answer  # not the others' words
    assert d.reference == f"{VPAT}, p. 1" and d.no_text is None
    assert "Parchment" not in d.answer  # another product's VPAT is never this one's
    assert any(c.quote == "Accessibility Conformance Report" and c.page == 1 for c in d.citations)


def test_a_row_without_a_dropdown_keeps_the_yes_leading_the_reference(kb, library, shared_data):
    drafter = Drafter(kb, QuotingGenerator(), library=library, product=PRODUCT)
    d = drafter.draft(_docu11(shared_data, ()))
    assert d.choice is None and d.answer.startswith(f"Yes \N{EM DASH} Documented in {VPAT}, p. 1: "), d.answer
    assert d.text_source == TextSource.REFERENCE.value


def test_the_first_pass_writes_the_reference_and_leaves_nothing_for_later(kb, library, shared_data):
    drafter = Drafter(kb, QuotingGenerator(), library=library, product=PRODUCT).first_pass()
    d = drafter.draft(_docu11(shared_data, ("Yes", "No")))
    assert d.reference == f"{VPAT}, p. 1" and d.no_text is None


def test_a_no_gets_no_reference(kb, shared_data):
    """Mastery Connect's Lite answered No ("working on creating a VPAT"): a No is not documented."""
    library = AnswerLibrary(kb.folder, lambda: kb.encoder)
    r = _row(shared_data, "Mastery_Connect_HECVAT_Lite", "DOCU-13")
    for i, product in enumerate(("Mastery Connect", "Canvas Catalog"), 2):
        library.record(r["question"], "No", r["comment"], "lite.xlsx", "Documentation", i, "DOCU-13", product)
    d = Drafter(kb, QuotingGenerator(), library=library, product=PRODUCT).draft(_docu11(shared_data, ("Yes", "No")))
    assert d.choice == "No" and d.reference is None
