"""Word questionnaires printed as flat PDFs (#55), p55charn: items a tender numbers by its section's
letter and a number ("A-2 Registration Number", "C-1 Please provide …"), each over a text box to answer
in that prints empty, written here, printed by the bench's printer and read by the flat PDF reader.
Main's reader took "A-2" for no marker: the items that ask were plain paragraphs without "?", no
question, and the labels over their blank space none either."""

from __future__ import annotations

import pytest
from docx.shared import Pt

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


FIELDS = [("A-1", "Registration Number"), ("A-2", "No. of Employees"), ("A-3", "Année de création")]
ASKED = [
    (
        "B-1",
        "",
        "Please provide details of your company's previous experience in delivering the type of services required.",
    ),
    ("B-2", "– ", "Please indicate the measures you employ to minimise your organisation's carbon footprint."),
]


@pytest.mark.parametrize("rulings", ["no rulings", "ruled"])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_items_numbered_by_a_letter_over_a_blank_space_or_asking_are_questions(tmp_path, rulings, paper):
    """Each lettered label over a blank space (its text box printed empty: three empty paragraphs) is a question, and
    so is each lettered item that asks, its ID the letter and number; a lettered item that neither asks
    nor has a blank space under it (a statement the next paragraph follows) is none."""
    doc = wf.new()
    _para(doc, "SECTION A\tCompany Details", 12)
    for ident, label in FIELDS:
        _para(doc, f"{ident}\t{label}", 12)
        for _ in range(3):  # the space of its text box
            _para(doc, "", 12)
    _para(doc, "SECTION B\tExperience", 12)
    for ident, dash, text in ASKED:
        _para(doc, f"{ident} {dash}{text}", 12)
        _para(doc, f"Response to be no more than two sides of A4, please label your response as {ident}.", 12)
    _para(doc, "C-1\tThe Council will evaluate the responses to section B as set out in the specification.", 0)
    _para(doc, "Responses are scored from 0 to 5 by a panel of three officers.", 12)
    q = _printed(tmp_path, doc, rulings, paper)
    want = [(i, label) for i, label in FIELDS] + [(i, text) for i, _, text in ASKED]
    assert [(x.id, _fold(x.text)) for x in q.questions] == [(i, _fold(t)) for i, t in want]
    assert all(x.text_cell and not x.choices and not x.answered for x in q.questions)
