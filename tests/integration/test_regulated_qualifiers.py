"""A qualifier about regulated data (PHI, card data) is answered by what the company's and the
product's own documents state (engine/drafting/regulated.py), with a real knowledge base (Qdrant
local mode, the real all-MiniLM-L6-v2) holding generated documents in three scopes:

* company-wide: a security overview whose only card-data sentences are another product's
  ("… (for Canvas Catalog)") and AWS's ("AWS … PCI DSS …");
* Parchment's own: how its customers pay by credit card; Canvas Catalog's own: its payment gateway;
  Mastery Connect's own: that it does not handle cardholder data;
* Amazon Web Services' (a third party): its cardholder-data and HIPAA controls.

The LLM is a stated fake (``QuotingGenerator``, recording what it is asked): these tests are about
which evidence answers a qualifier and which sections it switches off, not generation; a
qualifier answered by the documents' statements must never reach it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.scopes import Scope
from engine.core.types import DraftStatus
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.drafter import Drafter
from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import qualifiers_of
from engine.review.draft_run import draft_questionnaire
from engine.review.review import Review, ReviewState
from storage.review_store import ReviewStore
from tests.fixtures import QuotingGenerator, text_kb
from tests.unit.test_qualifiers import hecvat_like

PARCHMENT_PAYS = (
    "Parchment customers pay for transcript orders with a credit card on the Parchment website, "
    "and the card number is tokenized by the payment gateway on entry."
)
MASTERY_DENIES = "Mastery Connect does not store, process or transmit cardholder data in any of its systems."
DOCS = {
    "security-overview.md": (
        "# Security overview\n\n## Compliance\nInstructure is a Level 1 service provider under PCI DSS "
        "(for Canvas Catalog).\n\nAWS maintains PCI DSS Level 1 compliance for the infrastructure it runs.\n\n"
        "## Encryption\nCustomer data is encrypted at rest with AES-256 in every database.\n"
    ),
    "parchment-payments.md": f"# Parchment payments\n\n{PARCHMENT_PAYS}\n",
    "catalog-payments.md": "# Canvas Catalog\n\nCanvas Catalog redirects learners to the institution's payment gateway.\n",
    "mastery-architecture.md": f"# Mastery Connect\n\n{MASTERY_DENIES}\n",
    "aws-caiq.md": (
        "# AWS controls\n\nAmazon cardholder data environments are assessed against PCI DSS every year.\n\n"
        "Protected health information under HIPAA is handled by HIPAA-eligible services only.\n"
    ),
}
SCOPES = {
    "parchment-payments.md": Scope(products=("Parchment",)),
    "catalog-payments.md": Scope(products=("Canvas Catalog",)),
    "mastery-architecture.md": Scope(products=("Mastery Connect",)),
    "aws-caiq.md": Scope(third_party="Amazon Web Services"),
}


class Recording(QuotingGenerator):
    """The stated fake LLM, keeping every question it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def generate(self, question, passages, choices):
        self.asked.append(question)
        return super().generate(question, passages, choices)


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    with text_kb(tmp_path, encoder, DOCS, SCOPES) as base:
        yield base


def qualifiers(tmp_path: Path):
    """The HECVAT-like questionnaire, its questions by ID and its qualifiers by ID."""
    questionnaire = read_questionnaire(hecvat_like(tmp_path / "hecvat.xlsx"))
    quals = {x.id: x for x in qualifiers_of(questionnaire)}
    return questionnaire, {q.id: q for q in questionnaire.questions}, quals


def test_no_own_statement_answers_no_and_a_statement_of_anothers_or_a_third_party_does_not_count(kb, tmp_path):
    _, by_id, quals = qualifiers(tmp_path)
    model = Recording()
    drafter = Drafter(kb, model, product="Impact")
    card = drafter.draft(by_id["QUAL-05"], qualifier=quals["QUAL-05"])
    phi = drafter.draft(by_id["QUAL-01"], qualifier=quals["QUAL-01"])
    for d in (card, phi):
        assert (d.status, d.choice, d.answer, d.citations) == (DraftStatus.DRAFTED, "No", "", ())
        assert d.confidence is None and not d.low_confidence  # it may switch its section off
    assert card.stated == "no document mentions card data (cardholder data, credit cards, PCI DSS)"
    assert card.trust == (card.stated,)  # listed in Review's "review first"
    assert phi.stated.startswith("no document mentions health information")
    assert model.asked == []  # the model was never asked


def test_the_products_own_statement_answers_yes_quoted_word_for_word(kb, tmp_path):
    _, by_id, quals = qualifiers(tmp_path)
    model = Recording()
    card = Drafter(kb, model, product="Parchment").draft(by_id["QUAL-05"], qualifier=quals["QUAL-05"])
    assert (card.status, card.choice, card.answer) == (DraftStatus.DRAFTED, "Yes", PARCHMENT_PAYS)
    (cite,) = card.citations
    assert (cite.file, cite.label, cite.third_party) == ("parchment-payments.md", AnchorLabel.VERIFIED, None)
    assert card.stated.startswith("documents mention card data")
    assert model.asked == []


def test_a_statement_that_the_product_does_not_handle_the_data_answers_no_quoted(kb, tmp_path):
    _, by_id, quals = qualifiers(tmp_path)
    card = Drafter(kb, Recording(), product="Mastery Connect").draft(by_id["QUAL-05"], qualifier=quals["QUAL-05"])
    assert (card.choice, card.answer) == ("No", MASTERY_DENIES)
    assert card.citations[0].file == "mastery-architecture.md" and card.citations[0].label is AnchorLabel.VERIFIED
    assert card.stated.startswith("documents say it does not handle card data")


def test_a_company_wide_questionnaire_is_not_answered_from_absence(kb, tmp_path):
    """Drafted for no product, "the vended product" is every product: the statements naming one
    are set aside, so their absence says nothing; the qualifier is drafted as any question."""
    _, by_id, quals = qualifiers(tmp_path)
    model = Recording()
    card = Drafter(kb, model).draft(by_id["QUAL-05"], qualifier=quals["QUAL-05"])
    assert card.stated is None and model.asked == [by_id["QUAL-05"].text]


def test_the_same_question_outside_a_qualifier_goes_to_the_model(kb, tmp_path):
    """PCID-01 asks about card data too, inside the PCI section: an ordinary question."""
    _, by_id, quals = qualifiers(tmp_path)
    model = Recording()
    drafted = Drafter(kb, model, product="Impact").draft(by_id["PCID-01"])
    assert model.asked == [by_id["PCID-01"].text] and drafted.stated is None


def test_a_questionnaire_run_switches_the_sections_off_without_the_model(kb, tmp_path):
    questionnaire, _, _ = qualifiers(tmp_path)
    model = Recording()
    store = ReviewStore(tmp_path / "review.sqlite")
    draft_questionnaire(questionnaire, Drafter(kb, model, product="Impact"), store)
    asked = set(model.asked)
    assert not asked & {q.text for q in questionnaire.questions if q.id in ("QUAL-01", "QUAL-05", "HIPA-01", "PCID-01")}
    items = {i.question.id: i for i in Review(store, store.project_for(questionnaire.path).id, questionnaire).items()}
    assert items["HIPA-01"].state is ReviewState.NOT_REQUIRED
    assert items["HIPA-01"].gate.reason == "not required (QUAL-01 = No)"
    assert items["PCID-01"].gate.reason == "not required (QUAL-05 = No)"
    store.close()
