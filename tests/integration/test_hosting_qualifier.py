"""The hosting qualifier ("Select your hosting option.") is answered by what the product's own
documents state (engine/drafting/hosting.py), with a real knowledge base (Qdrant local mode, the
real all-MiniLM-L6-v2) holding generated documents:

* Canvas Credentials' own: "Canvas Credentials is hosted by Amazon Web Services (AWS) …";
* Parchment's own: an AOC's "The system is hosted entirely within …" (it does not name the product);
* Canvas Studio's own: hosted on AWS *and* in a co-location data centre;
* company-wide: "Instructure runs its corporate systems on Google Cloud." (names no product);
* Google Cloud Platform's (a third party): a sentence naming Canvas Credentials, never read.

The LLM is a stated fake (``QuotingGenerator``, recording what it is asked): these tests are about
which statement answers the qualifier and which rows it switches off, not generation; a hosting
qualifier answered by the documents must never reach it."""

from __future__ import annotations

from dataclasses import replace
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
from tests.fixtures import text_kb
from tests.integration.test_regulated_qualifiers import Recording
from tests.unit.test_qualifiers import HOSTING, hecvat_like

CREDENTIALS_HOSTED = (
    "Canvas Credentials is hosted by Amazon Web Services (AWS) with services based in regions where "
    "our customers' data originates from."
)
DOCS = {
    "credentials-architecture.md": f"# Hosting\n\n{CREDENTIALS_HOSTED}\n",
    "parchment-aoc.md": "# Part 2\n\nThe system is hosted entirely within Amazon Web Services (AWS) in one region.\n",
    "studio-architecture.md": (
        "# Hosting\n\nCanvas Studio is hosted on Amazon Web Services (AWS) and in a co-location data centre in Wisconsin.\n"
    ),
    "security-overview.md": "# Security overview\n\nInstructure runs its corporate systems on Google Cloud across two regions.\n",
    "gcp-caiq.md": "# Google Cloud\n\nCanvas Credentials backups are hosted in Google Cloud storage buckets in two regions.\n",
}
SCOPES = {
    "credentials-architecture.md": Scope(products=("Canvas Credentials",)),
    "parchment-aoc.md": Scope(products=("Parchment",)),
    "studio-architecture.md": Scope(products=("Canvas Studio",)),
    "gcp-caiq.md": Scope(third_party="Google Cloud Platform"),
}


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    with text_kb(tmp_path, encoder, DOCS, SCOPES) as base:
        yield base


def hosting(tmp_path: Path):
    """The HECVAT-like questionnaire, its QUAL-07 question and that qualifier."""
    questionnaire = read_questionnaire(hecvat_like(tmp_path / "hecvat.xlsx"))
    q = next(x for x in questionnaire.questions if x.id == "QUAL-07")
    return questionnaire, q, next(x for x in qualifiers_of(questionnaire) if x.id == "QUAL-07")


def test_the_products_own_statement_gives_the_option_naming_its_provider_quoted(kb, tmp_path):
    _, q, qual = hosting(tmp_path)
    model = Recording()
    d = Drafter(kb, model, product="Canvas Credentials").draft(q, qualifier=qual)
    assert (d.status, d.choice, d.answer) == (DraftStatus.DRAFTED, "4) AWS", CREDENTIALS_HOSTED)
    (cite,) = d.citations  # the own statement, not the third party's sentence naming the product
    assert (cite.file, cite.label, cite.third_party) == ("credentials-architecture.md", AnchorLabel.VERIFIED, None)
    assert d.stated == "documents state it is hosted by Amazon Web Services"
    assert d.trust == (d.stated,) and d.confidence is None  # review first; it may switch its rows off
    assert model.asked == []


def test_without_a_dropdown_the_option_leads_the_text(kb, tmp_path):
    """A workbook whose dropdown cannot be read: the option comes from the template's declared
    values, and leads the answer as a past answer is shown ("4) AWS — …")."""
    _, q, qual = hosting(tmp_path)
    d = Drafter(kb, Recording(), product="Canvas Credentials").draft(
        replace(q, choices=()), qualifier=replace(qual, options=tuple(HOSTING))
    )
    assert (d.choice, d.answer) == (None, f"4) AWS — {CREDENTIALS_HOSTED}")


@pytest.mark.parametrize(
    "product, why",
    [
        ("Parchment", "its statement names no product: 'the system' of an AOC"),
        ("Canvas Studio", "hosted in a co-location too: every option that applies is the responder's"),
        ("Impact", "no statement at all (the company-wide one names no product)"),
    ],
)
def test_no_statement_about_the_product_alone_leaves_it_to_the_model(kb, tmp_path, product, why):
    _, q, qual = hosting(tmp_path)
    model = Recording()
    d = Drafter(kb, model, product=product).draft(q, qualifier=qual)
    assert d.stated is None and model.asked == [q.text], why


def test_a_company_wide_questionnaire_is_not_answered(kb, tmp_path):
    _, q, qual = hosting(tmp_path)
    model = Recording()
    assert Drafter(kb, model).draft(q, qualifier=qual).stated is None and model.asked == [q.text]


def test_a_run_switches_the_physical_data_centre_rows_off_without_the_model(kb, tmp_path):
    questionnaire, q, _ = hosting(tmp_path)
    model = Recording()
    store = ReviewStore(tmp_path / "review.sqlite")
    draft_questionnaire(questionnaire, Drafter(kb, model, product="Canvas Credentials"), store)
    off = {"QUAL-07", "DCTR-01", "DCTR-03"}
    assert not set(model.asked) & {x.text for x in questionnaire.questions if x.id in off}
    items = {i.question.id: i for i in Review(store, store.project_for(questionnaire.path).id, questionnaire).items()}
    assert items["DCTR-03"].state is ReviewState.NOT_REQUIRED
    assert items["DCTR-03"].gate.reason == "not required (QUAL-07 = 4) AWS)"
    assert items["DCTR-15"].state is not ReviewState.NOT_REQUIRED  # the cloud rows stay
    store.close()
