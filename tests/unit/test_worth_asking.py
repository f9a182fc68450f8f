"""No model call whose result cannot be used (issue #59, item 6: engine/drafting/explanation.py
``worth_asking``): before the model is asked to explain another product's choice, the relevance
test runs on the passages' sentences; with none as close to the question as any text must be
(``SUPPORT_MIN``), or, with the past answers as a yardstick, none saying what they say
(``MODEL_HOPE``), the model is not asked and the reason is the draft's ``no_text``.

Real rows of the Canvas Credentials HECVAT Full (../shared/data/instructure) and real pages of the
company's Security Overview, real MiniLM."""

from __future__ import annotations

import json

import pytest

from engine.core.types import Chunk, Hit, SourceKind
from engine.drafting.explanation import NO_UNEXPLAINED, worth_asking
from engine.drafting.relevance import references
from engine.drafting.risk import DOCUMENTS_SILENT


def _question(shared, qid: str) -> dict:
    path = shared / "instructure" / "_extracted" / "Canvas_Credentials_HECVAT_Full.jsonl"
    return next(r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if r["id"] == qid)


def _page_hits(shared, words: str, doc: str = "Instructure Security Overview (2024-12-20).pdf") -> list[Hit]:
    """The pages of the company's document ``doc`` that hold ``words``, as retrieved chunks."""
    fitz = pytest.importorskip("fitz")
    path = shared / "instructure" / "Instructure" / doc
    with fitz.open(path) as pdf:
        pages = [p.get_text() for p in pdf]
    found = [t for t in pages if words.casefold() in t.casefold()]
    assert found, words
    return [Hit(Chunk(path.name, f"p{i}", i, SourceKind.PDF, t, 0, len(t)), 1.0) for i, t in enumerate(found)]


def test_passages_beside_the_question_are_not_worth_a_call(shared_data, encoder):
    """Password ageing asked, the ESG report's emissions pages retrieved: no sentence comes near."""
    asked = _question(shared_data, "AAAI-03")["question"]
    hits = _page_hits(shared_data, "emissions", "Instructure ESG Report FY2023.pdf")
    why = worth_asking(encoder.encode_query(asked), hits, encoder, lambda doc: None, asked=asked)
    assert why is not None and "would not pass" in why


def test_passages_on_the_question_are(shared_data, encoder):
    asked = "Do you encrypt customer data at rest?"
    hits = _page_hits(shared_data, "encrypt")
    assert worth_asking(encoder.encode_query(asked), hits, encoder, lambda doc: None, asked=asked) is None


def test_with_the_past_answers_as_yardstick_a_passage_must_say_what_they_say(shared_data, encoder):
    row = _question(shared_data, "ITAC-06")  # accessibility issues tracked; the encryption pages say nothing of it
    asked = row["question"]
    past = references([row["comment"], "Accessibility issues are logged and tracked in our issue tracker."], encoder)
    why = worth_asking(
        encoder.encode_query(asked),
        _page_hits(shared_data, "encrypt"),
        encoder,
        lambda doc: None,
        asked=asked,
        past=past,
    )
    assert why is not None


def test_another_products_no_is_not_explained_by_the_model_but_the_documents_still_speak(shared_data, encoder):
    """DATA-05 (FIPS 140 cryptographic modules): Parchment's No, the Security Overview's encryption
    pages on the question. A text for a No says the question back or what the documents lack, so
    the model is not asked (``NO_UNEXPLAINED``); the reason is not the documents' silence, so the
    row's risk stratum stays ":topic" (engine/drafting/risk.py), and the same pages explain a Yes."""
    asked = _question(shared_data, "DATA-05")["question"]
    hits, vector = _page_hits(shared_data, "encrypt"), encoder.encode_query(asked)
    why = worth_asking(vector, hits, encoder, lambda doc: None, choice="No", asked=asked)
    assert why == NO_UNEXPLAINED and not why.startswith(DOCUMENTS_SILENT)
    assert worth_asking(vector, hits, encoder, lambda doc: None, choice="Yes", asked=asked) is None
