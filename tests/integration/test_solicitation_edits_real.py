"""The reviewer's edits and the requirement's page on the shared federal RFQ
(../shared/data/questionnaires/pdf/gsa_18f_ads_bpa_rfq_solicitation_flat.pdf; skipped when absent),
issue #57: a sentence the shredder leaves out (a consequence after its rule) added, a requirement
split, two adjacent ones merged; every quote still the page's own words, every untouched row
keeping its key, and each edited requirement outlined on its page by the Review card's code
(engine/review/requirement_page.py): the words inside the boxes are the quote's words."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engine.questionnaire import ReadOptions
from engine.questionnaire.solicitation import shred
from engine.questionnaire.solicitation.as_questionnaire import as_read
from engine.questionnaire.solicitation.pages import collapse
from engine.review.requirement_page import requirement_citation

RFQ = "questionnaires/pdf/gsa_18f_ads_bpa_rfq_solicitation_flat.pdf"
ADDED = (
    "Compliance Review will be a pass/fail factor and a quote failing to complete the Google form in its "
    "entirety or comply with the RFQ will be deemed failing to assent to material terms of the solicitation "
    "and will be eliminated from consideration."
)


@pytest.fixture(scope="module")
def rfq(shared_data: Path) -> Path:
    path = shared_data / RFQ
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path


def outlined_words(path: Path, req) -> list[str]:
    """The words of the requirement's page whose centre lies inside its outline boxes."""
    boxes = [pymupdf.Rect(*r[1:]) for r in requirement_citation(path, req).rects]
    with pymupdf.open(path) as doc:
        words = doc[req.page - 1].get_text("words")
    return [w[4] for w in words if any(b.contains(pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2)) for b in boxes)]


def test_edits_on_the_federal_rfq_stay_verbatim_and_outlined(rfq):
    result = shred([rfq])
    assert ADDED not in {r.quote for r in result.requirements}
    options = ReadOptions(added=(ADDED,), splits=("1.2B=Quoter shall complete",), merges=("1.2+1.2-2",))
    shredded, edited = as_read(rfq, result, options, strict=True)
    _, whole = as_read(rfq, result, ReadOptions())
    reqs = {r.id: r for r in shredded.requirements}

    added = reqs["A-001"]
    assert added.page == 4 and added.quote == ADDED and added.mandatory
    merged = reqs["1.2"]
    assert "1.2-2" not in reqs and merged.quote.startswith("Quote Submission: Quotes will only be accepted")
    assert merged.quote.endswith("comply with all instructions and requirements set forth in the RFQ.")
    first, second = reqs["1.2B"], reqs["1.2B/2"]
    assert first.quote == "Labor Category Discount and Mapping -" and second.quote.startswith("Quoter shall complete")
    assert first.lead_in == second.lead_in == "The quoter shall submit the following documents:"

    with pymupdf.open(rfq) as doc:
        pages = [collapse(page.get_text()) for page in doc]
    assert all(r.quote in pages[r.page - 1] for r in shredded.requirements)  # 100 % verbatim on their page
    for req in (added, merged, first, second):
        assert outlined_words(rfq, req) == req.quote.split(), req.id

    before = {q.id: q.row for q in whole.questions}
    after = {q.id: q.row for q in edited.questions}
    assert all(after[rid] == row for rid, row in before.items() if rid in after)
    assert set(before) - set(after) == {"1.2-2"} and set(after) - set(before) == {"A-001", "1.2B/2"}
