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
from engine.core.types import DraftStatus
from engine.drafting.drafter import Drafter
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.questionnaire import read_questionnaire
from storage.vector_store import release
from tests.fixtures import QuotingGenerator


def _drafts(shared_data, encoder, tmp_path_factory, folder: str, name: str, ids: tuple[str, ...], docs=()):
    """The rows ``ids`` of the Full ``folder/name``, drafted for that folder's product with every
    other filled HECVAT and the company's CAIQ in the library, no documents; with ``docs`` (paths
    under the data's folders) drafted again with those documents in the knowledge base, by folder scope."""
    base = shared_data / "instructure"
    target = base / folder / name
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
        drafter = Drafter(kb, model, library=library, product=folder)
        questions = {q.id: q for q in read_questionnaire(target).questions}
        drafts = {i: drafter.draft(questions[i]) for i in ids}
        if docs:
            paths = [base / d for d in docs]
            assert not kb.add(paths).errors
            kb.set_scopes({f.name: scope for f, scope in folders.of_files(paths).items()})
            with_docs = Drafter(kb, model, library=library, product=folder)
            drafts |= {f"{i} with documents": with_docs.draft(questions[i]) for i in ids}
        yield drafts, model
    finally:
        library.close()
        release(str(tmp / "kb" / "qdrant"))


@pytest.fixture(scope="module")
def drafted(shared_data, encoder, tmp_path_factory):
    """The narratives COMP-01, COMP-05 and THRD-02 of Canvas Credentials' Full, and COMP-03 (a Yes/No
    row without a dropdown), drafted for Canvas Credentials."""
    ids = ("COMP-01", "COMP-03", "COMP-05", "THRD-02")
    yield from _drafts(
        shared_data, encoder, tmp_path_factory, "Canvas Credentials", "Canvas Credentials HECVAT Full.xlsx", ids
    )


@pytest.fixture(scope="module")
def drafted_for_parchment(shared_data, encoder, tmp_path_factory):
    """COMP-01 and GNRL-14 of Parchment's Full drafted for Parchment: all the other products' answers
    agree; then again with Parchment's own PCI attestation, which names its vendor, Parchment LLC."""
    name = "Parchment HECVAT Full - All Products.xlsx"
    aoc = ("Parchment/PCI DSS v4.0 AOC - Parchment.pdf",)
    yield from _drafts(shared_data, encoder, tmp_path_factory, "Parchment", name, ("COMP-01", "GNRL-14"), aoc)


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


def test_a_company_text_all_products_agree_on_names_none_as_answering_otherwise(drafted_for_parchment):
    """Drafted for Parchment (2026-12-02, read by hand), COMP-01 said "The same in 8 products' past
    answers: …" and then "Other products answered this in other words (<the same 8>)": the company
    text found none differing, and the narrative's check named every product that answered."""
    drafts, _ = drafted_for_parchment
    d = drafts["COMP-01"]
    assert d.text_source == "shared_past"
    assert d.answer.startswith("Instructure, Inc. was founded in 2008")
    assert d.text_differs == ()
    lines = [w.line for w in d.warnings]
    # 7 here: the library of this module holds the HECVATs, not Canvas LMS's K-12CVAT
    assert any(line.startswith("The same in 7 products' past answers: ") for line in lines), lines
    assert not any("answered this in other words" in line for line in lines), lines


def test_a_choice_leading_a_shared_explanation_is_not_cited_as_its_text(drafted):
    """COMP-03 ("Do you have a dedicated Information Security staff or office?", no dropdown): the
    choice is Parchment's "Yes", the text the explanation other products share; Parchment answered
    in its own words, so the text is not "the same in 2 products' past answers: Parchment, …"."""
    drafts, _ = drafted
    d = drafts["COMP-03"]
    assert d.text_source == "shared_past" and d.choice is None and d.answer.startswith("Yes — Instructure has")
    lines = [w.line for w in d.warnings]
    assert not any(line.startswith("The same in") for line in lines), lines
    assert "The text comes from other products' past answers (their names left out)" in lines


def test_a_product_of_another_vendor_gets_no_company_text(drafted_for_parchment):
    """Parchment's own PCI attestation names its vendor, "Parchment LLC" (Profile.other_vendor: an
    acquired company answering as itself). Drafted so (2026-12-02, read by hand), COMP-01 was
    Instructure's history and GNRL-14 Instructure's data zones (the vendor: AWS US West 2 and a
    colocation site): the company's text is not Parchment's, as the company's facts are not; the rows
    are left to the responder, saying why."""
    drafts, model = drafted_for_parchment
    for qid in ("COMP-01", "GNRL-14"):
        # without its documents Parchment's vendor is not known: the company's text, or its profile fact
        assert drafts[qid].answer.startswith(("Instructure, Inc. was founded", "Instructure serves")), qid
        d = drafts[f"{qid} with documents"]
        assert d.status is DraftStatus.NO_CONTEXT and d.answer == "", qid
        assert d.error.startswith("Parchment's vendor is Parchment LLC, not Instructure: the company's text"), d.error
        assert d.error.endswith("write this answer by hand")
    assert model.calls == 0
