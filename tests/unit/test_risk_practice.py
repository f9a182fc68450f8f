"""Review first on a HECVAT Full (#59, engine/drafting/risk.py ``asks_practice``): a choice only one
other product gave, on a question about the company's documented practice (a policy, procedure,
process, programme or plan, its staff and their training), is its own stratum: one product's
practice is the company's, so the other product's Yes carries over; a product's features do not.

The records are real rows: the Canvas Credentials HECVAT Full drafted leave-one-out with the library
of the other 7 HECVATs and the 40 Instructure PDFs by folder scope, the generator never answering
(``eval leave-one-out --scope-folders … --all-rows --drafts N.jsonl``, 2026-12-02; docs/confidence.md
"Review first on the Fulls"), each cut to the fields the risk reads, the vendor's own answer beside
it."""

from __future__ import annotations

import pytest

from engine.core.types import DraftStatus
from engine.drafting.records import Draft
from engine.drafting.risk import REVIEW_FIRST_RISK, asks_practice, risk_of, stratum
from storage.review_store import StoredDraft

SHEET = "HECVAT - Full | Vendor Response"
NO_TEXT = "the model's explanation did not speak to the question"  # the documents speak of it: asked
# (id, sheet row, question, the vendor's own choice): Parchment's past answer said Yes to each
ROWS = {
    "PPPR-02": (209, "Do you have a documented patch management process?", "Yes"),
    "PPPR-09": (
        216,
        "Do you perform background screenings or multi-state background checks on all employees prior to their "
        "first day of work?",
        "Yes",
    ),
    "BCPL-03": (116, "Is there a documented communication plan in your BCP for impacted clients?", "Yes"),
    "FIDP-04": (199, "Have you implemented an Intrusion Detection System (network-based)?", "No"),
    "DATA-15": (155, "Are physical backups taken off site? (i.e., physically moved off site)", "No"),
    "APPL-06": (
        84,
        "Are only currently supported operating system(s), software, and libraries leveraged by the "
        "system(s)/application(s) that will have access to institution's data?",
        "Yes",
    ),
}


def real(qid: str) -> Draft:
    """The row as drafted: Parchment's Yes, the only near-identical past answer, no text."""
    row, question, _ = ROWS[qid]
    cited = {"file": "Parchment HECVAT Full - All Products.xlsx", "kind": "library", "quote": "Yes",
             "label": "verified", "score": 100.0, "retrieval_score": 1.0, "sheet": SHEET, "row": row,
             "section": qid, "start": 0, "end": 3, "product": "Parchment"}  # fmt: skip
    data = {"id": qid, "sheet": SHEET, "row": row, "question": question, "reused": True,
            "from_product": "Parchment", "past_choices": {"Yes": 1}, "past_answers": ["Parchment's HECVAT: Yes"],
            "no_text": NO_TEXT, "citations": [cited]}  # fmt: skip
    return Draft.from_stored(qid, StoredDraft(qid, DraftStatus.DRAFTED, "", "Yes", data))


def test_a_question_on_the_companys_practice_is_told_from_one_on_a_products_features():
    assert [asks_practice(ROWS[q][1]) for q in ROWS] == [True, True, True, False, False, False]


def test_one_other_products_yes_on_a_practice_leaves_review_first_and_on_a_feature_stays():
    """The three practice rows (the vendor: Yes) take the practice stratum and leave the list; the
    intrusion detection and physical backups rows (the vendor: No) and a right Yes on the
    product's software stay in it, as the documents speak of each without saying it."""
    practice, feature = ["PPPR-02", "PPPR-09", "BCPL-03"], ["FIDP-04", "DATA-15", "APPL-06"]
    assert {stratum(real(q)) for q in practice} == {"other:agree:1:yes:practice"}
    assert {stratum(real(q)) for q in feature} == {"other:agree:1:yes:topic"}
    assert all(risk_of(real(q)) < REVIEW_FIRST_RISK and not real(q).review_first for q in practice)
    assert all(risk_of(real(q)) > 2 * REVIEW_FIRST_RISK and real(q).review_first for q in feature)


def test_the_english_question_is_read_when_the_questionnaire_was_translated():
    """A questionnaire in another language: the question as asked in English decides (#58)."""
    from dataclasses import replace

    german = replace(real("PPPR-02"), question="Haben Sie einen dokumentierten Patch-Management-Prozess?")
    assert stratum(german) == "other:agree:1:yes:topic"
    assert stratum(replace(german, asked_as=ROWS["PPPR-02"][1])) == "other:agree:1:yes:practice"


@pytest.mark.parametrize("qid", ["FIDP-04", "DATA-15"])
def test_the_wrong_yes_on_a_products_features_is_in_review_first(qid):
    assert ROWS[qid][2] == "No" and real(qid).review_first
