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
    """Each item of the checklist is a question, its answer its box ticked or not (Yes / No, as the Word
    reader reads a box alone; a box printed ticked is its Yes); the header is none, and the paragraphs
    around the table are no part of it."""
    (head, items) = ITEMS[language]
    doc = wf.new()
    _para(doc, "SUPPLIER CHECKLIST", 12)
    _para(doc, "Suppliers should ensure that they have completed the following before returning their tender.", 12)
    table = doc.add_table(rows=1 + len(items), cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = head
    for r, item in enumerate(items, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = item, "☒" if r == 2 else "☐"
    _para(doc, "", 18)
    _para(doc, "It is important that all schedules are completed as failure to do so may result in rejection.", 12)
    q = _printed(tmp_path, doc, rulings)
    assert [_fold(x.text) for x in q.questions] == [_fold(t) for t in items]
    assert all(x.choice_cell and x.choices == ("Yes", "No") for x in q.questions)
    assert [x.existing_choice for x in q.questions] == [None, "Yes"] + [None] * (len(items) - 2)


TYPED = [
    "1. Confirm acceptance of the terms and conditions, including any changes made via clarifications.",
    "2 Confirm you have included one copy of a previous research report with your submission.",
    "3. Completed pricing proposal in Annex 3 (Pricing Approach)",
]


@pytest.mark.parametrize("rulings", ["ruled", "no rulings", "horizontal rules"])
@pytest.mark.parametrize("answers", ["Y / N", "Ja/Nein"])
def test_a_checklist_answered_by_typing_an_option_word_is_one_question_per_item(tmp_path, rulings, answers):
    """A checklist under a title row whose header's last label is option words over cells left empty
    ("Document | Y / N": "Insert Y or N in each box") is one question per item, its numbering kept as
    typed; the signatory's labels under it are no items. Main's reader took the items that ask for
    numbered paragraphs ("1", "Confirm …") and left the others out."""
    doc = wf.new()
    _para(doc, "Insert Yes (Y) or No (N) in each box in the table below.", 12)
    table = doc.add_table(rows=2 + len(TYPED), cols=2)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "Submission Checklist"
    table.cell(1, 0).text, table.cell(1, 1).text = "Document", answers
    for r, item in enumerate(TYPED, start=2):
        table.cell(r, 0).text = item
    _para(doc, "", 18)
    _para(doc, "I confirm on behalf of the supplier that the documents set out above are complete and accurate.", 12)
    q = _printed(tmp_path, doc, rulings)
    assert [_fold(x.text) for x in q.questions] == [_fold(t) for t in TYPED]
    assert all(x.text_cell and x.id is None and not x.answered for x in q.questions)


def test_rows_described_over_two_columns_beside_their_boxes_are_no_checklist(tmp_path):
    """A choice among rows each described by two cells of text beside its box ("Digital Identity Level |
    Maximum Impact Profile | Selection" over "Level 1: AAL1, IAL1, FAL1 | Low | ☐" …) is no checklist:
    its rows are not read as items (the checklist under it is)."""
    (head, items) = ITEMS["en"]
    doc = wf.new()
    levels = doc.add_table(rows=4, cols=3)
    for c, label in enumerate(("Digital Identity Level", "Maximum Impact Profile", "Selection")):
        levels.cell(0, c).text = label
    for r, (level, impact) in enumerate((("Level 1: AAL1, IAL1", "Low"), ("Level 2: AAL2, IAL2", "Moderate")), 1):
        levels.cell(r, 0).text, levels.cell(r, 1).text, levels.cell(r, 2).text = level, impact, "☐"
    _para(doc, "", 18)
    table = doc.add_table(rows=1 + len(items), cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = head
    for r, item in enumerate(items, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = item, "☐"
    q = _printed(tmp_path, doc, "ruled")
    assert [_fold(x.text) for x in q.questions] == [_fold(t) for t in items]
