"""Word questionnaires printed as flat PDFs (#55), p55charn: a checklist table (a header of two labels
naming no column role, "SCHEDULE HEADING | COMPLETED?", over rows of an item beside a box to tick in a
column of its own), written here, printed by the bench's printer and read by the flat PDF reader. Main's
reader found none of its items: ruled, the header named no question column and the rows were no form
(a box alone is no label's answer); without rules no table was found (a header of two phrases) and the
header line was read as a question."""

from __future__ import annotations

import pytest
from docx.shared import Pt

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

ITEMS = {
    "en": (
        ("SCHEDULE HEADING", "COMPLETED?"),
        [
            "Schedule 1 – Business Questionnaire",
            "Schedule 2 – Legal Obligations",
            "Schedule 3 – Supporting Information (Parts A, B, C, D & E (& F if applicable to the contract))",
            "Schedule 4 – Payment Details",
        ],
    ),
    "de": (
        ("Unterlage", "Beigefügt"),
        ["Anlage 1 – Eigenerklärung", "Anlage 2 – Preisblatt", "Anlage 3 – Referenzen"],
    ),
}


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


@pytest.mark.parametrize("rulings", ["ruled", "no rulings", "horizontal rules"])
@pytest.mark.parametrize("language", sorted(ITEMS))
def test_a_checklist_of_items_each_beside_a_box_is_one_question_per_item(tmp_path, rulings, language):
    """Each item of the checklist is a question, its answer place its own (the box's row); the header
    is none, and the paragraphs around the table are no part of it."""
    (head, items) = ITEMS[language]
    doc = wf.new()
    _para(doc, "SUPPLIER CHECKLIST", 12)
    _para(doc, "Suppliers should ensure that they have completed the following before returning their tender.", 12)
    table = doc.add_table(rows=1 + len(items), cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = head
    for r, item in enumerate(items, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = item, "☐"
    _para(doc, "", 18)
    _para(doc, "It is important that all schedules are completed as failure to do so may result in rejection.", 12)
    q = _printed(tmp_path, doc, rulings)
    assert [_fold(x.text) for x in q.questions] == [_fold(t) for t in items]
    assert all(x.text_cell and not x.choices and not x.answered for x in q.questions)
