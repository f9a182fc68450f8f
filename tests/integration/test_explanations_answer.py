"""Every explanation earns its place (issue #50), through the real drafter, the real embedder and
a real knowledge base of generated PDFs and Markdown:

* a question asking for a reference gets one when a company document has the section — "Described
  in BCDR, pp. 2–3: …", quoted, cited and highlighted, with no model call — and never a third
  party's section;
* another product's sentence in a company document never explains a different product's choice;
* a text that says the opposite of the model's own choice keeps both and goes to Review first; a
  model's narrative naming another product is set aside with the reason.

``RefusingGenerator`` (fails the test if called) and ``Fixed`` (returns one stated reply) are fake
LLMs: these tests are about which sources and texts a draft may use, not about generation."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.core.config import EngineConfig
from engine.core.scopes import Scope
from engine.core.types import DraftStatus
from engine.drafting.drafter import SOURCES, Drafter
from engine.drafting.generate import GeneratedAnswer
from engine.drafting.records import Citation
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.questionnaire import read_questionnaire
from storage.vector_store import release
from tests.fixtures import RefusingGenerator, text_kb, write_pdf, write_questionnaire

DRP = "Describe or provide a reference to your Disaster Recovery Plan (DRP)."
PAGES = [
    "Introduction\nAcme keeps every product available through regional redundancy.",
    "Disaster Recovery\nAcme maintains a documented Disaster Recovery plan that covers every product "
    "and is reviewed at least annually.\nThe plan names an Incident Commander for each recovery.",
    "Disaster Recovery Procedures\nThe Incident Commander declares a disaster and activates the recovery plan.",
    "Load Balancers\nLoad balancers spread traffic over several availability zones.",
]
PROVIDER = ["Disaster Recovery\nThe provider maintains a disaster recovery plan for its data centers worldwide."]


class Fixed:
    """A stated fake LLM: one reply, whatever it is asked (quoting the first passage's first sentence)."""

    def __init__(self, answer: str, choice: str | None) -> None:
        self.answer, self.choice, self.calls = answer, choice, 0

    def generate(self, question, passages, choices):
        self.calls += 1
        first = passages[0].text.split(". ")[0].strip().rstrip(".") + "."
        return GeneratedAnswer(
            (first,), self.answer, self.choice if self.choice in choices else None, False, 10, 5, 0.0
        )


def question(tmp_path: Path, text: str, qid: str = "DRPL-01", narrative: bool = False):
    book = read_questionnaire(write_questionnaire(tmp_path / f"{qid}.xlsx", questions=[(qid, text)]))
    q = next(x for x in book.questions if x.id == qid)
    return replace(q, choices=()) if narrative else q


@pytest.fixture()
def pdf_kb(tmp_path: Path, encoder):
    folder, store = tmp_path / "docs", tmp_path / "store"
    folder.mkdir()
    write_pdf(folder / "BCDR.pdf", PAGES, header=None)
    write_pdf(folder / "Provider SOC 3.pdf", PROVIDER, header=None)
    base = KnowledgeBase(store, EngineConfig(), encoder)
    assert not base.add([folder]).errors
    base.set_scopes({"Provider SOC 3.pdf": Scope(third_party="Provider"), "BCDR.pdf": Scope()})
    try:
        yield base
    finally:
        release(str(store / "qdrant"))


def test_the_sources_are_one_ordered_list():
    assert [s.name for s in SOURCES] == [
        "profile",
        "own_past",
        "stated",
        "company_text",
        "reference",
        "other_products",
        "documents",
    ]


def test_a_question_asking_for_a_reference_gets_the_company_documents_section(tmp_path, pdf_kb):
    d = Drafter(pdf_kb, RefusingGenerator(), product="Impact").draft(question(tmp_path, DRP, narrative=True))
    assert d.status is DraftStatus.DRAFTED and d.text_source == "reference"
    assert d.answer.startswith("Described in BCDR, pp. 2–3: Acme maintains a documented Disaster Recovery plan")
    assert d.reference == "BCDR, pp. 2–3" and "From BCDR, pp. 2–3" in [w.line for w in d.warnings]
    assert d.citations and all(isinstance(c, Citation) and c.file == "BCDR.pdf" for c in d.citations)
    assert d.citations[0].page == 2 and d.citations[0].label.value == "verified" and d.citations[0].rects
    assert "Written by the model" not in [w.line for w in d.warnings]


def test_a_third_partys_section_is_never_the_companys_reference(tmp_path, pdf_kb):
    pdf_kb.set_scopes({"BCDR.pdf": Scope(products=("Canvas LMS",))})  # not this product's: only the provider's is left
    d = Drafter(pdf_kb, RefusingGenerator(), product="Impact").draft(question(tmp_path, DRP, narrative=True))
    assert d.text_source != "reference" and d.status is DraftStatus.NO_CONTEXT  # no call: only a provider speaks


def test_another_products_sentence_never_explains_a_different_products_choice(tmp_path, encoder):
    waf = "Are you using a web application firewall (WAF)?"
    docs = {"overview.md": "# Security\n\nWe utilise a Web Application Firewall (WAF) for all Canvas instances.\n"}
    lib = AnswerLibrary(tmp_path / "lib", encoder)
    lib.import_file(
        write_questionnaire(tmp_path / "Canvas LMS HECVAT.xlsx", answered={4: "Yes"}, questions=[("APPL-04", waf)]),
        product="Canvas LMS",
    )
    q = question(tmp_path, waf, "APPL-04")
    with text_kb(tmp_path, encoder, docs) as base:
        try:
            for product in ("Parchment", "Canvas Credentials"):
                d = Drafter(base, Fixed("", None), library=lib, product=product).draft(q)
                assert (d.choice, d.from_product) == ("Yes", "Canvas LMS")
                assert "Canvas" not in d.answer, (product, d.answer)
            lms = Drafter(base, Fixed("", None), library=lib, product="Canvas LMS").draft(q)
            assert lms.reused and not lms.from_product  # its own past answer
        finally:
            lib.close()


def test_a_text_against_the_models_own_choice_goes_to_review_first(tmp_path, encoder):
    docs = {"backup.md": "# Backups\n\nBackups of the production databases are encrypted with AES-256.\n"}
    q = question(tmp_path, "Are data backups encrypted?", "DATA-17")
    with text_kb(tmp_path, encoder, docs) as base:
        d = Drafter(base, Fixed("Backups are not encrypted.", "Yes")).draft(q)
    assert (d.choice, d.answer, d.at_odds) == ("Yes", "Backups are not encrypted.", True)
    assert d.review_first and d.to_json()["at_odds"]


def test_a_models_narrative_naming_another_product_is_set_aside(tmp_path, encoder):
    docs = {"overview.md": "# Authentication\n\nUsers sign in with single sign-on and multi-factor authentication.\n"}
    q = question(tmp_path, "Describe how users authenticate to the product.", "AAAI-01", narrative=True)
    lib = AnswerLibrary(tmp_path / "lib", encoder)
    lib.import_file(
        write_questionnaire(tmp_path / "Canvas LMS HECVAT.xlsx", answered={4: "Yes"}, questions=[("X-01", "Other?")]),
        product="Canvas LMS",
    )
    with text_kb(tmp_path, encoder, docs) as base:
        try:
            said = "Canvas LMS users sign in with single sign-on and multi-factor authentication."
            d = Drafter(base, Fixed(said, None), library=lib, product="Impact").draft(q)
        finally:
            lib.close()
    assert d.status is DraftStatus.NO_CONTEXT and d.answer == ""
    assert "it speaks for another product" in (d.error or "")
