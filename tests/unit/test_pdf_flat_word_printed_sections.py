"""Word questionnaires printed as flat PDFs (#55), p55charn: a tender's requirements in a table per
section ("ID | % | Requirement", one or two rows each), each row's cell holding the requirement, its
word limit and a blank space to answer in, written here, printed without
rules by the bench's printer and read by the flat PDF reader. Main's reader found no table of one row
(two at least), and ended a table at the blank space under its first row (a gap of more than three
lines), losing the rows after it."""

from __future__ import annotations

import pytest
from docx.shared import Pt

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

SECTIONS = [
    (
        "Social Value – 10%",
        [("SV01", "10%", "How will you ensure that any issues of inequality in your team are avoided?")],
    ),
    (
        "Quality – 20%",
        [
            ("QU01", "15%", "Please provide a detailed overview of the project team and your experience of research."),
            ("QU02", "5%", "Highlight any specific methodological strengths used in similar projects."),
        ],
    ),
]


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_sections_table_of_one_row_and_rows_after_a_blank_answer_space_are_read(tmp_path, paper):
    """Every requirement is a question with its ID, the table of one row as well as the second row
    of the next, below its first row's blank space; a numbered paragraph after the tables is no row."""
    doc = wf.new()
    _para(doc, "Part 1 – Supplier Response", 12)
    for title, rows in SECTIONS:
        _para(doc, title, 6)
        table = doc.add_table(rows=1 + len(rows), cols=3)
        for c, label in enumerate(("ID", "%", "Requirement")):
            table.cell(0, c).text = label
        for r, (ident, weight, text) in enumerate(rows, start=1):
            table.cell(r, 0).text, table.cell(r, 1).text = ident, weight
            cell = table.cell(r, 2)
            cell.text = text
            cell.add_paragraph("Maximum word count: 500")
            for _ in range(6):  # the space to answer in
                cell.add_paragraph("")
        _para(doc, "", 12)
    _para(doc, "2.1 The British Council reserves the right to clarify any response.", 12)
    q = _printed(tmp_path, doc, "no rulings", paper)
    want = [(ident, text) for _, rows in SECTIONS for ident, _, text in rows]
    assert [x.id for x in q.questions] == [ident for ident, _ in want]
    assert all(_fold(x.text).startswith(_fold(t)) for x, (_, t) in zip(q.questions, want))
    assert all(x.text_cell and not x.answered for x in q.questions)


def _sections(doc, rows, answer_label: str = "") -> None:
    table = doc.add_table(rows=1 + len(rows), cols=3)
    for c, label in enumerate(("ID", "%", "Requirement")):
        table.cell(0, c).text = label
    for r, (ident, weight, text) in enumerate(rows, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = ident, weight
        cell = table.cell(r, 2)
        cell.text = text
        cell.add_paragraph("Maximum word count: 500")
        if answer_label:
            cell.add_paragraph(answer_label)
        for _ in range(6):  # the space to answer in
            cell.add_paragraph("")


@pytest.mark.parametrize("rulings", ["no rulings", "ruled"])
def test_a_row_with_an_id_of_its_own_under_a_cell_ending_with_a_colon_is_a_question_of_its_own(tmp_path, rulings):
    """Each requirement's cell ends "Supplier Response:" over its blank space: "QU02 Highlight …" (no
    word that asks) is a question of its own, not a topic listed by QU01 (main's reader made it
    "QU01 … Supplier Response: — Highlight …")."""
    doc = wf.new()
    _para(doc, "Quality – 20%", 6)
    _sections(doc, SECTIONS[1][1], "Supplier Response:")
    q = _printed(tmp_path, doc, rulings)
    assert [x.id for x in q.questions] == ["QU01", "QU02"]
    assert _fold(q.questions[1].text).startswith(_fold("Highlight any specific methodological strengths"))


def test_a_row_whose_id_goes_on_from_the_question_above_stays_its_numbered_topic(tmp_path):
    """A question "4.1(j) Do any of the following statements apply to you?" over "4.1(j)-(i)" and "4.1(j)-(ii)",
    statements that do not ask: the statements the question lists, each its sub-question with its Yes / No."""
    doc = wf.new()
    table = doc.add_table(rows=4, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Question number", "Question"
    rows = [
        ("4.1(j)", "Do any of the following statements apply to you?"),
        ("4.1(j)-(i)", "You have been guilty of serious misrepresentation in supplying the information."),
        ("4.1(j)-(ii)", "You have withheld such information."),
    ]
    for r, (ident, text) in enumerate(rows, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = ident, text
    q = _printed(tmp_path, doc, "ruled")
    assert [x.id for x in q.questions] == [ident for ident, _ in rows]
    assert all(_fold(x.text).startswith(_fold(rows[0][1])) and x.choices == ("Yes", "No") for x in q.questions)
