"""Review first on a HECVAT Full (#59, engine/drafting/risk.py): a choice only one other product
gave is split by what the documents in scope say to it, and a model's narrative whose quotes are
verified is listed apart (*Read the model's texts*) instead of in Review first.

The records are real rows: the Canvas Credentials HECVAT Full drafted with the library of the other
HECVATs and the 40 Instructure PDFs by folder scope (``eval leave-one-out --scope-folders … --all-rows
--drafts D.jsonl``, 2026-12-02), each cut to the fields the risk reads, the vendor's own answer beside
it. The strata's figures are in docs/confidence.md ("Review first on the Fulls")."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.core.types import DraftStatus
from engine.drafting.explanation import worth_asking
from engine.drafting.records import Draft
from engine.drafting.risk import DOCUMENTS_SILENT, REVIEW_FIRST_RISK, documents_say, led_choice, risk_of, stratum
from storage.review_store import StoredDraft


def _parchment(row: int, section: str) -> dict:
    """The citation of Parchment's past choice, first on every other-products draft."""
    return {"file": "Parchment HECVAT Full - All Products.xlsx", "kind": "library", "quote": "Yes",
            "label": "verified", "score": 100.0, "retrieval_score": 1.0, "sheet": "HECVAT - Full | Vendor Response",
            "row": row, "section": section, "start": 0, "end": 3, "product": "Parchment"}  # fmt: skip


ONE_OTHER = {"choice": "Yes", "reused": True, "from_product": "Parchment", "past_choices": {"Yes": 1},
             "past_answers": ["Parchment's HECVAT: Yes"], "sheet": "HECVAT - Full | Vendor Response"}  # fmt: skip
# (id, question, answer, no_text, citations after Parchment's, the vendor's own choice)
ROWS = {
    "DATA-17": (  # the Security Overview's sentence explains the choice: quoted (right)
        "Are data backups encrypted?",
        "All data at rest including off-site recovery backups are encrypted using the AES-GCM 256-bit algorithm.",
        None,
        [
            {
                "file": "Instructure Security Overview (2024-12-20).pdf",
                "kind": "pdf",
                "label": "verified",
                "quote": "All data at rest including off-site recovery backups are encrypted using the AES-GCM 256-bit \n"
                "algorithm.",
                "score": 100.0,
                "retrieval_score": 0.5406,
                "page": 11,
                "start": 192,
                "end": 296,
            }
        ],  # fmt: skip
        "Yes",
    ),
    "APPL-09": (  # no sentence of the documents could explain it: silent, no model call (right)
        "Does your application provide separation of duties between security administration, system "
        "administration, and standard user functions?",
        "",
        "no sentence of the documents in scope stands alone on this question",
        [],
        "Yes",
    ),
    "FIDP-04": (  # the documents speak of intrusion detection, the model's text did not pass: topic (wrong)
        "Have you implemented an Intrusion Detection System (network-based)?",
        "",
        "the model's explanation did not speak to the question",
        [],
        "No",
    ),
}


def real(qid: str) -> Draft:
    question, answer, no_text, cited, _ = ROWS[qid]
    row = 100 + list(ROWS).index(qid)
    data = {**ONE_OTHER, "id": qid, "row": row, "question": question, "no_text": no_text,
            "citations": [_parchment(row, qid), *cited]}  # fmt: skip
    return Draft.from_stored(qid, StoredDraft(qid, DraftStatus.DRAFTED, answer, "Yes", data))


def test_a_choice_one_other_product_gave_is_split_by_what_the_documents_say_to_it():
    assert [documents_say(real(q)) for q in ROWS] == [":quoted", ":silent", ":topic"]
    assert [stratum(real(q)) for q in ROWS] == [
        "other:agree:1:yes:quoted",
        "other:agree:1:yes:silent",
        "other:agree:1:yes:topic",
    ]


def test_the_wrong_yes_where_the_documents_speak_of_the_question_stays_in_review_first():
    """FIDP-04 (the vendor: No) is in Review first; the Security Overview's sentence explaining
    DATA-17 takes it out (its stratum 0 wrong of 4 on the two Fulls); APPL-09's silent documents
    leave it in with the shipped calibration (3 wrong of 25 pooled over both Fulls: 0.12; a question
    on the company's practice is a stratum of its own, tests/unit/test_risk_practice.py)."""
    quoted, silent, topic = (risk_of(real(q)) for q in ROWS)
    assert topic > silent > REVIEW_FIRST_RISK > quoted
    assert real("FIDP-04").review_first and not real("DATA-17").review_first
    assert topic == pytest.approx(0.243, abs=0.01)


def test_only_one_other_products_choice_is_split_and_the_silent_reason_is_the_pre_tests():
    """Four products agreeing, or this product's own past answer, are not split; every reason the
    pre-test gives for not asking the model starts as ``DOCUMENTS_SILENT`` says."""
    many = replace(real("FIDP-04"), past_choices={"Yes": 5}, past_answers=("a",) * 5)
    assert stratum(many) == "other:agree:4+:yes"
    assert stratum(replace(real("FIDP-04"), from_product=None)) == "own:agree:1:yes"
    reason = worth_asking(np.zeros(384, dtype=np.float32), [], None, lambda doc: None)  # nothing retrieved
    assert reason is not None and reason.startswith(DOCUMENTS_SILENT)
    assert documents_say(replace(real("FIDP-04"), no_text=reason)) == ":silent"


def drpl_01(label: str = "verified") -> Draft:
    """DRPL-01 of the same run: the narrative "Describe or provide a reference to your Disaster
    Recovery Plan", answered by a reference to the company's BC/DR paper, its quote verified."""
    quote = (
        "The primary assumption of our disaster recovery plan is that it only addresses events that would affect \n"
        "an entire data center or our architecture as a whole."
    )
    data = {"id": "DRPL-01", "sheet": "HECVAT - Full | Vendor Response", "row": 184,
            "question": "Describe or provide a reference to your Disaster Recovery Plan (DRP).",
            "reference": "Instructure Business Continuity & Disaster Recovery, pp. 11–14",
            "citations": [{"file": "Instructure Business Continuity & Disaster Recovery.pdf", "kind": "pdf",
                           "quote": quote, "label": label, "score": 100.0, "retrieval_score": 1.0, "page": 11,
                           "start": 1539, "end": 1697}]}  # fmt: skip
    answer = "Described in Instructure Business Continuity & Disaster Recovery, pp. 11–14: " + " ".join(quote.split())
    return Draft.from_stored("k", StoredDraft("k", DraftStatus.DRAFTED, answer, None, data))


def test_a_narrative_in_verified_words_is_read_not_in_review_first():
    """The reference's quote verified: out of Review first (risk 0), and not in "Read the model's
    texts" either — its words are the document's, which the card says ("Described in …"). The same
    text without a verified quote stays in Review first; the model's wording from the same verified
    quote is read apart (``reads_model_text``)."""
    d = drpl_01()
    assert d.text_source == "reference" and stratum(d) == "model:text:quoted"
    assert risk_of(d) == 0.0 and not d.review_first and not d.reads_model_text
    unverified = drpl_01("unverified")
    assert stratum(unverified) == "model:text" and unverified.review_first
    worded = replace(d, answer="Our disaster recovery plan covers the loss of a whole data centre.", reference=None)
    assert worded.text_source == "model" and not worded.review_first and worded.reads_model_text


def drpl_04() -> Draft:
    """DRPL-04 of the same run: "Are any disaster recovery locations outside the institution's
    geographic region?" on a row without a dropdown, so Parchment's No leads the text (the
    vendor: Yes)."""
    data = {**ONE_OTHER, "choice": None, "id": "DRPL-04", "row": 187, "past_choices": {"No": 1},
            "past_answers": ["Parchment's HECVAT: No"],
            "question": "Are any disaster recovery locations outside the institution's geographic region?",
            "citations": [{**_parchment(187, "DRPL-04"), "quote": "No", "end": 2}]}  # fmt: skip
    return Draft.from_stored("DRPL-04", StoredDraft("DRPL-04", DraftStatus.DRAFTED, "No", None, data))


def test_one_other_products_choice_leading_a_text_is_a_choice_not_a_text_at_risk_0():
    """Without a dropdown the other product's No is the text's lead; it rests on one product as a
    dropdown's would, so it is that stratum and in Review first (it was ``other:text``, risk 0,
    outside the list, and not counted as a choice by engine/bench/risk.py)."""
    d = drpl_04()
    assert d.choice is None and led_choice(d) == "No"
    assert stratum(d) == "other:agree:1:no:silent" and risk_of(d) > REVIEW_FIRST_RISK and d.review_first
    own = replace(d, from_product=None)  # this product's own past text: not another product's choice
    assert led_choice(own) is None and stratum(own) == "own:text"
