"""Word questionnaires printed as flat PDFs (#55), fifth round (p55flat5b): small Word documents
written here in the layouts of the shared Charnwood ITT and G-Cloud 15 quality questionnaire, printed
by the bench's printer and read by the flat PDF reader. Main's reader found none of the unnumbered
paragraphs that ask over their options typed on a line of their own ("Yes/No"), and read every row of
a tender's marking scheme ("Question | Question Type | Marking Scheme | Question weighting") as a
question."""

from __future__ import annotations

import pytest
from docx.shared import Pt

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


ASKED = [
    ("Please confirm whether your turnover is at least twice the estimated annual value of this contract", "Yes/No"),
    (
        "Has your organisation, its directors or any other person with powers of representation been convicted "
        "of an offence in human trafficking within the last five years",
        "Yes/No/Not Applicable",
    ),
]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_paragraph_that_asks_over_its_options_typed_on_a_line_is_a_question_of_those_options(tmp_path, paper):
    """Each schedule question is a paragraph set tight over a line reading "Yes/No" and a note;
    a numbered question's lines wrapped back to its number are no second question, and
    a paragraph that does not ask over "Yes/No" is none. Main's reader merged the options line into the
    paragraph and the note under it and found only the numbered question."""
    doc = wf.new()
    _para(doc, "1. FINANCIAL INFORMATION", 12)
    for text, options in ASKED:
        _para(doc, text)
        _para(doc, options)
        _para(doc, "Bidders who answer 'No' will fail the Business Questionnaire.", 18)
    numbered = (
        "Is it your organisation's policy as an employer to comply with its statutory obligations with regards "
        "to groups with Protected Characteristics under the Equalities Act 2010?"
    )
    _para(doc, f"1.1\t{numbered}")
    _para(doc, "Yes/No")
    _para(doc, "Bidders who answer 'No' will fail the Legal Obligations schedule.", 18)
    _para(doc, "The Council's standard payment terms are thirty days from receipt of invoice")
    _para(doc, "Yes/No", 12)
    q = _printed(tmp_path, doc, "no rulings", paper)
    assert [_fold(x.text) for x in q.questions[:2]] == [_fold(t) for t, _ in ASKED]
    assert len(q.questions) == 3 and _fold(numbered).startswith(_fold(q.questions[2].text))  # its first line
    assert [x.choices for x in q.questions] == [("Yes", "No"), ("Yes", "No", "Not Applicable"), ("Yes", "No")]
    assert q.questions[-1].id == "1.1"
    assert all(x.text_cell and not x.answered for x in q.questions)


MARKING = [
    ("All Lots", "Compliance with Framework Schedule 1", "Yes/No", "Pass/Fail", "N/A"),
    ("Lot 1a", "Selection Questions", "Yes/No", "Pass/Fail", "N/A"),
    ("All Lots", "Social Value", "Yes/No", "Pass/Fail", "10%"),
    ("Lot 1a", "Quality Cloud Services", "Text box", "100/50/0", "40%"),
]
QUESTIONS = [
    "Do you adhere to relevant NCSC guidance for the services you provide?",
    "Provide your ISO 27001 certification",
    "Describe how your services meet buyer requirements for cloud service performance.",
]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_marking_scheme_quoting_the_questions_titles_is_no_questionnaire(tmp_path, paper):
    """A tender's marking scheme (a header naming a question column but none for answers, its cells
    lot names, titles, types and weights: nothing asks) gives no question, and a question table under
    it is read by its own header (both printed with horizontal rules only). Main's reader took each of
    the scheme's rows for a question."""
    doc = wf.new()
    _para(doc, "Questionnaire, marking scheme and weightings per lot", 12)
    scheme = doc.add_table(rows=1 + len(MARKING), cols=5)
    head = ("Question", "", "Question Type", "Marking Scheme", "Question weighting")
    for c, label in enumerate(head):
        scheme.cell(0, c).text = label
    for r, row in enumerate(MARKING, start=1):
        for c, value in enumerate(row):
            scheme.cell(r, c).text = value
    _para(doc, "", 12)
    _para(doc, "3. Mandatory Questions and Conditions", 12)
    table = doc.add_table(rows=1 + len(QUESTIONS), cols=3)
    for c, label in enumerate(("ID", "Question", "Response")):
        table.cell(0, c).text = label
    for r, text in enumerate(QUESTIONS, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = f"3.{r}", text
    q = _printed(tmp_path, doc, "horizontal rules", paper)
    assert [(x.id, _fold(x.text)) for x in q.questions] == [(f"3.{r}", _fold(t)) for r, t in enumerate(QUESTIONS, 1)]
