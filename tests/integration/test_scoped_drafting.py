"""Drafting for a product (real MiniLM, Qdrant local mode): retrieval keeps to the product's,
company-wide and third-party documents; a third party's passage is labelled to the model; a
citation of a third party's document says so, and a draft resting on third-party evidence alone
is inherited from it (in results.jsonl and through the review store); past answers of the
target product are reused over other products'.

The LLM is a stated fake (``QuotingGenerator`` quotes the longest sentence of the first passage):
these tests are about which evidence reaches the model and how it is cited, not generation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.config import EngineConfig
from engine.core.scopes import Scope, ScopeError
from engine.core.types import DraftStatus
from engine.drafting.drafter import Drafter
from engine.drafting.records import Draft
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.questionnaire import read_questionnaire
from engine.review.draft_run import draft_questionnaire
from storage.review_store import ReviewStore
from storage.vector_store import release
from tests.fixtures import QuotingGenerator, write_questionnaire
from tests.integration.test_scopes import ALPHA_QUESTION, SCOPES, write_docs

AWS = "Amazon Web Services"


class Recording(QuotingGenerator):
    """The stated fake LLM, keeping the passages of its last call."""

    passages: list = []

    def generate(self, question, passages, choices):
        self.passages = list(passages)
        return super().generate(question, passages, choices)


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    store = tmp_path / "store"
    base = KnowledgeBase(store, EngineConfig(), encoder)
    assert not base.add([write_docs(tmp_path / "docs")]).errors
    base.set_scopes(SCOPES)
    yield base
    release(str(store / "qdrant"))


def questions(tmp_path: Path, *texts: str):
    """A workbook of these questions (IDs Q-1, Q-2, …), read."""
    book = write_questionnaire(tmp_path / "q.xlsx", questions=[(f"Q-{i}", t) for i, t in enumerate(texts, 1)])
    return read_questionnaire(book)


def question(tmp_path: Path, text: str):
    return next(q for q in questions(tmp_path, text).questions if q.id == "Q-1")


def test_a_product_draft_sees_no_other_products_passage_and_third_parties_are_labelled(kb, tmp_path):
    q = question(tmp_path, ALPHA_QUESTION)
    model = Recording()
    draft = Drafter(kb, model, product="Beta", budget_tokens=None).draft(q)  # whole passages: every label
    labels = [p.label for p in model.passages]
    assert labels and not any("alpha.md" in label for label in labels)
    assert any(label.endswith(" — THIRD PARTY: Amazon Web Services") and "aws.md" in label for label in labels)
    assert all(("THIRD PARTY" in label) == ("aws.md" in label) for label in labels)
    assert all(c.file != "alpha.md" for c in draft.citations)
    for_alpha = Drafter(kb, model, product="Alpha").draft(q)  # the product's own document is first
    assert model.passages[0].label.startswith("[1] alpha.md") and for_alpha.citations[0].file == "alpha.md"
    assert for_alpha.citations[0].third_party is None and for_alpha.inherited_from is None
    with pytest.raises(ScopeError, match="is empty"):
        Drafter(kb, model, product=" ")


def test_a_draft_on_third_party_evidence_alone_is_inherited_and_results_carry_it(kb, tmp_path):
    questionnaire = questions(
        tmp_path, "Do AWS data centres have biometric access control and guards?", "How long are passwords?"
    )
    review = ReviewStore(tmp_path / "review.sqlite")
    results = tmp_path / "results.jsonl"
    run = draft_questionnaire(questionnaire, Drafter(kb, QuotingGenerator()), review, results=results)
    aws, passwords = (next(d for d in run.drafted if d.id == qid) for qid in ("Q-1", "Q-2"))
    assert aws.status is DraftStatus.DRAFTED and aws.citations[0].file == "aws.md"
    assert aws.citations[0].third_party == AWS and aws.inherited_from == AWS
    assert passwords.citations[0].file == "policy.md" and passwords.inherited_from is None
    lines = {line["id"]: line for line in map(json.loads, results.read_text().splitlines())}
    assert (lines["Q-1"]["inherited_from"], lines["Q-2"]["inherited_from"]) == (AWS, None)
    assert lines["Q-1"]["citations"][0]["third_party"] == AWS
    stored = review.latest_drafts(review.project_for(questionnaire.path).id)
    again = Draft.from_stored(aws.key, stored[aws.key])
    assert again.citations == aws.citations and again.inherited_from == AWS
    review.close()


def test_the_target_products_past_answer_is_reused(kb, tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "lib", encoder)
    text = "Is customer data encrypted at rest?"
    for name, choice, product in (
        ("lms.xlsx", "No", "Canvas LMS"),
        ("impact.xlsx", "No", "Impact"),
        ("studio.xlsx", "Yes", "Canvas Studio"),
    ):
        book = write_questionnaire(
            tmp_path / name, answered={4: choice}, questions=[("ENC-01", text)], comments={4: f"{product} answer."}
        )
        library.import_file(book, product=product)
    assert {e.file: e.product for e in library.entries()} == {
        "lms.xlsx": "Canvas LMS",
        "impact.xlsx": "Impact",
        "studio.xlsx": "Canvas Studio",
    }
    q = question(tmp_path, text)
    studio = Drafter(kb, QuotingGenerator(), library=library, product="Canvas Studio").draft(q)
    assert studio.reused and studio.choice == "Yes" and studio.citations[0].file == "studio.xlsx"
    assert studio.past_choices == {"Yes": 1}  # the answers reuse chose among: the product's own
    company = Drafter(kb, QuotingGenerator(), library=library).draft(q)  # no product: the majority of all
    assert company.reused and company.choice == "No" and company.past_choices == {"No": 2, "Yes": 1}
    library.close()


def test_for_product_shares_the_model_caches_and_lock(kb):
    drafter = Drafter(kb, QuotingGenerator(), product="Alpha")
    beta = drafter.for_product("Beta")
    assert (beta.product, drafter.product) == ("Beta", "Alpha") and drafter.for_product("Alpha") is drafter
    assert beta._lock is drafter._lock and beta._anchorers is drafter._anchorers and beta.generator is drafter.generator
    assert drafter.for_product(None).scope.product is None
    assert Scope(third_party=AWS) == kb.document("aws.md").scope
