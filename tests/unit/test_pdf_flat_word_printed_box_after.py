"""Word questionnaires printed as flat PDFs (#55), p55flat7b: a business questionnaire's options one a
line, each with its box after its label ("Yes I have a Statement      ☐"), under a paragraph whose
last sentence asks ("… Please confirm if you have a statement …") or under a numbered item wrapped over
two lines, written here, printed without rules by the bench's printer and read by the flat PDF reader.
Main's reader took "Yes I have a Statement | ☐" for a table's header (a "Statement" column and an option
"Yes") and lost the page under it; the options, read as lines, were part of the paragraph above."""

from __future__ import annotations

import pytest
from docx.shared import Pt

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

STATEMENT = ("Yes I have a Statement", "Organisation has less than 5 staff", "No Statement & 5 or more staff")
POLICY = ("Yes I have a Policy", "Organisation has less than 5 staff", "No Policy and 5 or more staff")


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


def _options(doc, labels) -> None:
    for label in labels:
        _para(doc, f"{label}\t\t\t\t☐", 0)
    _para(doc, "", 0)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("table", [False, True])
def test_options_with_their_box_after_the_label_are_the_choice_of_the_paragraph_above(tmp_path, paper, table):
    """Each run of options is one choice, its options the labels: of the paragraph whose last sentence
    asks, and of the numbered item "1.4" (its ID kept); the questions around them ("1.1 Is it …?" over
    "Yes/No", "Does your organisation comply …?") are read as well; with a checklist table earlier in
    the document too (table questions: the runs are read as lead-ins' lists)."""
    doc = wf.new()
    if table:
        t = doc.add_table(rows=3, cols=2)
        t.cell(0, 0).text, t.cell(0, 1).text = "SCHEDULE HEADING", "COMPLETED?"
        t.cell(1, 0).text, t.cell(1, 1).text = "Schedule 5 – Business Questionnaire", "☐"
        t.cell(2, 0).text, t.cell(2, 1).text = "Schedule 6 – Legal Obligations", "☐"
        _para(doc, "", 12)
    _para(doc, "1.1\tIs it your organisation's policy to comply with its statutory obligations?", 0)
    _para(doc, "Yes/No", 12)
    _para(doc, "Bidders who answer 'No' will fail the Legal Obligations schedule.", 12)
    _para(
        doc,
        "Organisations that employ 5 or more staff are legally required to have a written Equalities Statement. "
        "Please confirm if you have a statement, or less than 5 staff.",
        12,
    )
    _options(doc, STATEMENT)
    _para(doc, "Please note that answering 'No Statement' will fail the schedule.", 24)
    _para(doc, "Does your organisation comply with the Health and Safety at Work Act 1974?", 0)
    _para(doc, "Yes/No", 12)
    _para(
        doc,
        "1.4\tSuppliers that employ 5 or more staff are legally required to have a written Health and Safety "
        "Policy. Please confirm if you have a policy, or less than 5 staff",
        12,
    )
    _options(doc, POLICY)
    _para(doc, "Please note answering 'No Policy' will fail the schedule.", 12)
    q = _printed(tmp_path, doc, "no rulings", paper)
    asked = [x for x in q.questions if "schedule" not in x.text[:9].lower()]  # the table's own aside
    got = [(x.id, list(x.choices)) for x in asked]
    assert got == [("1.1", ["Yes", "No"]), (None, list(STATEMENT)), (None, ["Yes", "No"]), ("1.4", list(POLICY))]
    assert _fold("Please confirm if you have a statement") in _fold(asked[1].text)
    assert _fold(asked[2].text).startswith(_fold("Does your organisation comply"))
