"""A model's text whose every quote needs the sentence before it took their subject from the question
(engine/drafting/explanation_rules.py ``read_out_of_context``, issue #59), on the real row and page:
Parchment's QUAL-02 ("Will institutional data be shared with or hosted by any third parties?"),
drafted 2026-12-02 as "Yes, institutional data will be shared with or hosted by any third parties,
including third-party vendors and external entities under a fully executed non-disclosure agreement
(NDA).", quoting the Instructure Security Overview's p. 18 on the company's Internal data."""

from __future__ import annotations

import re

import pytest

from engine.drafting.explanation_rules import read_out_of_context


def _page(path, number: int) -> str:
    fitz = pytest.importorskip("fitz")
    with fitz.open(path) as pdf:
        return " ".join(pdf[number - 1].get_text().split())


def test_quotes_that_all_need_the_sentence_before_are_read_out_of_context(shared_data):
    overview = shared_data / "instructure" / "Instructure" / "Instructure Security Overview (2024-12-20).pdf"
    page = _page(overview, 18)
    sentences = re.split(r"(?<=[.)])\s+(?=[A-Z])", page)
    quoted = [s for s in sentences if s.startswith("These data elements")]
    assert len(quoted) == 2  # "… are considered “insider information” …", "… only shared … under … (NDA)."
    assert "Internal data are data for internal Instructure use only." in page  # what they are: said before
    assert read_out_of_context(quoted)
    # one quote that reads alone is enough: the text may rest on it
    alone = next(s for s in sentences if s.startswith("Confidential data is required to be encrypted"))
    assert not read_out_of_context([*quoted, alone])
    assert not read_out_of_context([alone])
    assert not read_out_of_context([])  # no quotes: nothing to say
