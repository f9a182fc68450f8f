"""Word questionnaires printed as flat PDFs (#55), third round: small Word documents written here in
the layouts of the shared NIST SP 800-171 SSP, PCI AOC and British Council annex (a requirement over
a table of three labelled boxes and a description row; a contact table of labels beside empty cells;
labels followed by a typed line of underscores; two requirement tables one under the other), printed
by the bench's printer and read by the flat PDF reader. Main's reader found none of the requirements'
choices, none of the contact labels in a document that also has a question table, none of the
underscored labels there, and read the second requirement table's rows without their IDs."""

from __future__ import annotations

import pytest
from docx.shared import Inches, Pt

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed  # one printer and comparison for the printed-PDF tests


REQUIREMENTS = [
    "Limit system access to authorized users, processes acting on behalf of authorized users, and devices.",
    "Control the flow of CUI in accordance with approved authorizations.",
    "Separate the duties of individuals to reduce the risk of malevolent activity without collusion.",
]
STATUS = ("Implemented", "Planned to be Implemented", "Not Applicable")


def _question_table(doc) -> None:
    """A question table read by its header (the document sets questions in tables)."""
    doc.add_paragraph("Part A: General questions")
    table = doc.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Question", "Response"
    table.cell(1, 0).text = "Describe the purpose of the system?"


@pytest.mark.parametrize("rulings", ["no rulings", "horizontal rules"])
def test_a_requirement_over_a_row_of_labelled_boxes_is_one_choice_of_those_options(tmp_path, rulings):
    """Main's reader merged the row of boxes with the description line under it and found no
    question (the requirement neither asks nor is numbered)."""
    doc = wf.new()
    doc.add_paragraph("Access Control").paragraph_format.space_after = Pt(24)
    for requirement in REQUIREMENTS:
        doc.add_paragraph(requirement).paragraph_format.space_after = Pt(12)
        table = doc.add_table(rows=2, cols=3)
        for c, label in enumerate(STATUS):
            table.cell(0, c).text = f"☐ {label}"
        merged = table.cell(1, 0).merge(table.cell(1, 2))
        merged.text = "Current implementation or planned implementation details. If “Not Applicable,” explain."
        doc.add_paragraph("")
    q = _printed(tmp_path, doc, rulings)
    assert [_fold(x.text) for x in q.questions] == [_fold(r) for r in REQUIREMENTS]
    assert all(x.choices == STATUS for x in q.questions)


def _labels_table(doc, labels: list[str]) -> None:
    table = doc.add_table(rows=len(labels), cols=2)
    table.columns[0].width, table.columns[1].width = Inches(2.0), Inches(4.5)
    for r, label in enumerate(labels):
        table.cell(r, 0).text = label


def test_a_table_of_labels_beside_empty_cells_drawn_with_horizontal_rules_is_a_form(tmp_path):
    """The contact table (labels beside empty answer cells, one rule above and below each row) is one
    question per label; a signatory's block of the same shape (one label a signature's) is none.
    Main's reader took the table for no table (no header naming a question column) and, the document
    setting its questions in a table, did not read its labels as a form's."""
    doc = wf.new()
    _question_table(doc)
    doc.add_paragraph("Responsible Organization:")
    contact = ["Name:", "Address:", "Phone:", "e-Mail Address:"]
    _labels_table(doc, contact)
    doc.add_paragraph("I confirm that the answers above are accurate.")
    _labels_table(doc, ["Supplier:", "Date:", "Name (print):", "Signature:"])
    q = _printed(tmp_path, doc, "horizontal rules")
    texts = [x.text for x in q.questions]
    assert texts[1:] == [label.rstrip(":") for label in contact]
    assert all(x.text_cell and not x.answered for x in q.questions[1:])
    assert not any(t in texts for t in ("Supplier", "Date", "Name (print)", "Signature"))


def test_a_label_followed_by_a_typed_line_of_underscores_is_a_field(tmp_path):
    """ "Company name:  ______": the underscores are the blank to fill (main's reader read the label and
    the underscores as one line that is no question, in a document with a question table)."""
    doc = wf.new()
    labels = ["Company name:", "Company address:", "Contact email address:"]
    for label in labels:
        doc.add_paragraph(f"{label}\t\t{'_' * 41}")
        doc.add_paragraph("(To be used on the Contract)")
    _question_table(doc)
    q = _printed(tmp_path, doc, "horizontal rules")
    assert [x.text for x in q.questions][:3] == [label.rstrip(":") for label in labels]


SOCIAL = [("SV01", "10%", "How will you ensure by working on this project any issues of inequality are avoided?")]
QUALITY = [
    ("QU01", "15%", "Please provide a detailed overview of the project team and your experience of research."),
    ("QU02", "5%", "Highlight any specific research methodological strengths and innovative approaches."),
]


def test_two_tables_of_horizontal_rules_one_under_the_other_are_each_read_by_their_own_header(tmp_path):
    """Main's reader took the rules of both tables for one table whose columns came from both
    headers' texts (the second table's columns set elsewhere): its rows lost their IDs."""
    doc = wf.new()
    doc.add_paragraph("Part 1 – Supplier Response")
    for title, rows, widths in (
        ("Social Value – 10%", SOCIAL, (0.6, 0.5, 5.0)),
        ("Quality – 20%", QUALITY, (0.9, 0.4, 4.8)),
    ):
        table = doc.add_table(rows=2 + len(rows), cols=3)  # one width, columns apart: rules of one table
        for i, width in enumerate(widths):
            table.columns[i].width = Inches(width)
        table.cell(0, 0).merge(table.cell(0, 2)).text = title
        for c, label in enumerate(("ID", "%", "Requirement")):
            table.cell(1, c).text = label
        for r, row in enumerate(rows, start=2):
            for c, value in enumerate(row):
                table.cell(r, c).text = value
        doc.add_paragraph("")
    q = _printed(tmp_path, doc, "horizontal rules")
    assert [(x.id, _fold(x.text)) for x in q.questions] == [(i, _fold(t)) for i, _, t in [*SOCIAL, *QUALITY]]


OPTIONS = wf.SAQ_OPTIONS
NOTED = [
    ("1.5", "Risks to the CDE from computing devices that are able to connect to untrusted networks are mitigated."),
    ("1.5.1", "Security controls are implemented on any computing devices that connect to untrusted networks."),
    ("2.1", "Processes and mechanisms for applying secure configurations are defined and understood."),
    ("2.1.1", "All security policies and operational procedures that are identified in Requirement 2 are documented."),
]
NOTE = (
    "These security controls may be temporarily disabled only if there is legitimate technical need, as "
    "authorized by management on a case-by-case basis."
)


def test_in_a_table_of_boxes_to_tick_a_row_without_a_box_is_no_question_however_many_such_rows(tmp_path):
    """A SAQ's requirement table printed without rules: sections' titles and applicability notes (no
    box) outnumber the requirements (a box under each option). Main's reader kept every row once the
    rows without a box were half or more: the titles and each note were questions."""
    doc = wf.new()
    doc.add_paragraph("Requirement 1 and 2")
    notes = wf.SaqNote(
        (
            "Applicability Notes",
            NOTE,
            "This requirement applies to employee-owned and company-owned computing devices.",
        )
    )
    rows = []
    for ident, requirement in NOTED:
        if ident.count(".") == 1:  # a section's title across the table
            rows.append(wf.SaqTitle(f"{ident} {requirement}"))
        else:
            rows += [(ident, requirement, "Examine settings."), notes]
    wf.saq_table(doc, rows)
    q = _printed(tmp_path, doc, "no rulings")
    asked = [(i, t) for i, t in NOTED if i.count(".") == 2]
    assert [(x.id, _fold(x.text)) for x in q.questions] == [(i, _fold(t)) for i, t in asked]
    assert all([_fold(c) for c in x.choices] == [_fold(o) for o in OPTIONS] for x in q.questions)
