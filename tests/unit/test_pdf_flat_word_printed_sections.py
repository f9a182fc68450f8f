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
