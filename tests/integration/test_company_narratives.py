"""The company's own narratives drafted (issue #59, item 1: engine/drafting/company_text.py, the
``company_text`` source of engine/drafting/drafter.py), with the real answer library (real MiniLM,
SQLite) of the shared filled questionnaires (../shared/data/instructure) and the real Canvas
Credentials HECVAT Full as the target, its own file left out of the library: Canvas Credentials
then has no past questionnaire of its own, as in the issue.

The LLM is a stated fake (``QuotingGenerator``): these tests are about which source drafts a
narrative and what its draft says, not generation; the company text is drafted with no call."""

from __future__ import annotations

import pytest

from engine.core.config import EngineConfig
from engine.core.scopes import FolderScopes
from engine.drafting.drafter import Drafter
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.questionnaire import read_questionnaire
from storage.vector_store import release
from tests.fixtures import QuotingGenerator


@pytest.fixture(scope="module")
def drafted(shared_data, encoder, tmp_path_factory):
    """The narratives COMP-01, COMP-05 and THRD-02 of Canvas Credentials' Full, drafted for Canvas
    Credentials with every other filled HECVAT and the company's CAIQ in the library, no documents."""
    base = shared_data / "instructure"
    target = base / "Canvas Credentials" / "Canvas Credentials HECVAT Full.xlsx"
    tmp = tmp_path_factory.mktemp("narratives")
    folders = FolderScopes()
    library = AnswerLibrary(tmp / "lib", encoder)
    others = [*sorted(base.glob("*/*HECVAT*.xlsx")), base / "Instructure" / "Instructure CAIQ.xlsx"]
    for f in others:
        if f != target:
            library.import_file(f, product=folders.product_of(f))
    kb = KnowledgeBase(tmp / "kb", EngineConfig(), encoder)
    model = QuotingGenerator()
    try:
        drafter = Drafter(kb, model, library=library, product="Canvas Credentials")
        questions = {q.id: q for q in read_questionnaire(target).questions}
        yield {i: drafter.draft(questions[i]) for i in ("COMP-01", "COMP-05", "THRD-02")}, model
    finally:
        library.close()
        release(str(tmp / "kb" / "qdrant"))


def test_the_business_background_is_the_companys_text_with_its_origin(drafted):
    drafts, _ = drafted
    d = drafts["COMP-01"]
    assert d.text_source == "shared_past" and d.choice is None
    assert d.answer.startswith("Instructure, Inc. was founded in 2008")
    assert "The outcome was Canvas" in d.answer  # the company's history keeps the product's name
    assert "Parchment" not in d.answer
    lines = [w.line for w in d.warnings]
    assert any(line.startswith("The same in 6 products' past answers: ") for line in lines), lines
    assert d.text_differs == ("Parchment",)  # "Parchment, an Instructure company, …": said, and read first
    assert {c.product for c in d.citations} >= {"Canvas Catalog", "Canvas Studio", "Mastery Connect"}


def test_the_environment_text_says_which_product_answered_otherwise_and_is_read_first(drafted):
    drafts, _ = drafted
    d = drafts["COMP-05"]
    assert d.text_source == "shared_past"
    assert d.answer.startswith("Instructure has a robust information security program")
    assert "Canvas" not in d.answer and "LearnPlatform" not in d.answer
    assert d.text_differs == ("Parchment",)
    assert d.review_first
    assert any("Other products answered this in other words (Parchment)" in w.line for w in d.warnings)
    assert d.to_json()["text_differs"] == ["Parchment"]


def test_one_other_products_narrative_is_not_the_companys(drafted):
    """Why third parties have access: only Parchment's Full answers it (its words are Parchment's)."""
    drafts, _ = drafted
    d = drafts["THRD-02"]
    assert d.text_source != "shared_past"
    assert "member data" not in d.answer  # Parchment's own wording
