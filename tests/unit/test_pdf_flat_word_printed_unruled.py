"""Word questionnaires printed as flat PDFs (#55), the PCI SAQ's families printed without rules: small
Word documents written here in the layouts of the shared PCI SAQ C-VT and AOC (a contact table of
labels beside empty cells, a title row between two of its labels; a signatory's row of two labels
side by side under the row to sign), printed by the bench's printer without rules and read by the flat
PDF reader beside a question table. Main's reader read none of those labels (a document that sets its
questions in tables reads a label only with a blank drawn after it)."""

from __future__ import annotations

import pymupdf
import pytest
from docx.shared import Inches

from tests import word_fixtures as wf

CONTACT = ["Company name:", "DBA (doing business as):", "Company mailing address:", "Contact e-mail address:"]
ASSESSOR = ["Company name:", "Lead Assessor name:", "Assessor certificate number:"]


REQUIREMENTS = [
    ("1.3.1", "Inbound traffic to the CDE is restricted to only traffic that is necessary."),
    ("1.3.2", "Outbound traffic from the CDE is restricted to only traffic that is necessary."),
]


def _question_table(doc) -> None:
    """A SAQ's requirement table read by its header (the document sets its questions in tables), on a
    page of its own: its requirements the first questions."""
    doc.add_paragraph("Requirement 1: Install and maintain network security controls")
    wf.saq_table(doc, [(ident, requirement, "Examine settings.") for ident, requirement in REQUIREMENTS])
    doc.add_page_break()


def _labels(doc, rows: list[str]) -> None:
    """A table of labels beside empty cells; a row without ":" is a title across the table."""
    table = doc.add_table(rows=len(rows), cols=2)
    table.columns[0].width, table.columns[1].width = Inches(2.0), Inches(4.5)
    for r, label in enumerate(rows):
        if label.endswith(":"):
            table.cell(r, 0).text = label
        else:
            table.cell(r, 0).merge(table.cell(r, 1)).text = label


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_form_of_labels_beside_empty_cells_printed_without_rules_is_one_question_per_label(tmp_path, paper):
    """Each label of the contact tables is a text question, a title row between two labels no break;
    a signatory's block (one of its labels a signature's) is none."""
    doc = wf.new()
    _question_table(doc)
    doc.add_paragraph("Part 1. Contact Information")
    _labels(doc, ["Part 1a. Assessed Merchant", *CONTACT])
    doc.add_paragraph("")
    _labels(doc, ["Internal Security Assessor", "ISA name(s):", "Qualified Security Assessor", *ASSESSOR])
    doc.add_paragraph("I confirm that the answers above are accurate.")
    _labels(doc, ["Supplier:", "Date:", "Name (print):", "Signature:"])
    q = wf.printed(tmp_path, doc, "no rulings", paper)
    texts = [x.text for x in q.questions]
    assert texts[2:] == [label.rstrip(":") for label in [*CONTACT, "ISA name(s):", *ASSESSOR]]
    assert all(x.text_cell and not x.answered for x in q.questions[2:])
    assert not any(t in texts for t in ("Supplier", "Date", "Name (print)", "Signature"))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_signatory_row_of_two_labels_side_by_side_printed_without_rules_is_two_questions(tmp_path, paper):
    """ "Merchant Executive Officer Name:" and "Title:" beside it, under the row to sign ("Signature of
    Merchant Executive Officer" | "Date: YYYY-MM-DD"): two text questions; the row to sign none."""
    doc = wf.new()
    _question_table(doc)
    doc.add_paragraph("Part 3b. Merchant Attestation")
    table = doc.add_table(rows=2, cols=2)
    table.columns[0].width, table.columns[1].width = Inches(3.5), Inches(3.0)
    table.cell(0, 0).text, table.cell(0, 1).text = "Signature of Merchant Executive Officer", "Date: YYYY-MM-DD"
    table.cell(1, 0).text, table.cell(1, 1).text = "Merchant Executive Officer Name:", "Title:"
    q = wf.printed(tmp_path, doc, "no rulings", paper)
    assert [x.text for x in q.questions][2:] == ["Merchant Executive Officer Name", "Title"]
    assert all(x.text_cell for x in q.questions[2:])


def test_labels_ending_with_a_colon_in_a_paragraph_s_lines_are_no_form(tmp_path):
    """Lead-ins one under the other as paragraphs' lines ("For example:" over a list) stay no question."""
    doc = wf.new()
    _question_table(doc)
    for lead in ("For example:", "Note:"):
        doc.add_paragraph(lead)
        doc.add_paragraph("Connections into and out of the cardholder data environment are documented.")
    q = wf.printed(tmp_path, doc, "no rulings")
    assert [x.id for x in q.questions] == [i for i, _ in REQUIREMENTS]


NOTE = "This requirement applies to the automated mechanism."


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_table_of_one_requirement_with_boxes_keeps_only_that_row(tmp_path, paper):
    """A SAQ's page whose table holds one requirement with a box under each option, under its section's
    title and over its applicability notes (rows without a box, across the requirement's columns):
    the requirement is the one question. Main's reader read every row as a question (it took rows
    without a box for a section's title or a note only where two rows or more held boxes)."""
    doc = wf.new()
    doc.add_paragraph("Requirement 5: Protect All Systems and Networks from Malicious Software")
    ident, requirement = "5.4.1", "Processes and automated mechanisms are in place to detect and protect personnel."
    wf.saq_table(
        doc,
        [
            wf.SaqTitle("5.4 Anti-phishing mechanisms protect users against phishing attacks."),
            (ident, requirement, "Observe mechanisms."),
            wf.SaqNote(("Applicability Notes", NOTE)),
        ],
    )
    q = wf.printed(tmp_path, doc, "no rulings", paper)
    assert [(x.id, wf.fold(x.text)) for x in q.questions] == [(ident, wf.fold(requirement))]
    assert q.questions[0].choices == wf.SAQ_OPTIONS


def test_rows_of_boxes_at_the_next_page_s_top_go_on_with_the_table_above(tmp_path):
    """The SAQ's summary ("PCI DSS Requirement | Requirement Responses" over the four options, a row
    "Requirement n:" with a box under each) broken by a page: the rows at the next page's top, no ID
    and the header not repeated, are questions of the same options. Main's reader went on with a
    table at the next page's top only by rows starting with an ID."""
    doc = wf.new()
    for _ in range(27):
        doc.add_paragraph("Guidance to read before the summary, a line of it.")
    doc.add_paragraph("Part 2g. Summary of Assessment")
    table = doc.add_table(rows=2 + 12, cols=5)
    for i, width in enumerate((1.4, 1.3, 1.3, 1.3, 1.3)):
        table.columns[i].width = Inches(width)
    table.cell(0, 0).text = "PCI DSS Requirement"
    table.cell(0, 1).merge(table.cell(0, 4)).text = "Requirement Responses"
    for i, option in enumerate(wf.SAQ_OPTIONS):
        table.cell(1, 1 + i).text = option
    for r in range(12):
        table.cell(2 + r, 0).text = f"Requirement {r + 1}:"
        for c in range(1, 5):
            table.cell(2 + r, c).text = "☐"
    doc.add_paragraph("")
    doc.add_paragraph("* The requirements above refer to Section 2.")
    q = wf.printed(tmp_path, doc, "no rulings")
    with pymupdf.open(tmp_path / "printed.pdf") as pdf:  # the table runs onto the next page
        assert "Requirement 2:" not in pdf[-1].get_text() and "Requirement 12:" in pdf[-1].get_text()
    assert [x.text for x in q.questions] == [f"Requirement {r + 1}:" for r in range(12)]
    assert all(x.choices == wf.SAQ_OPTIONS for x in q.questions)


STATEMENTS = [
    "Compliant: All sections of the SAQ are complete and all requirements are marked as being In Place.",
    "Non-Compliant: Not all sections of the SAQ are complete, or one or more requirements are marked as Not in Place.",
    "Compliant but with Legal exception: One or more requirements are marked as Not in Place due to a legal restriction.",
]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_list_of_boxed_statements_under_a_lead_in_printed_without_rules_is_one_choice(tmp_path, paper):
    """ "Select one:" over statements each after a box (a table of a box cell beside a statement cell,
    printed without rules), in a document that sets its questions in tables: one question, its options
    the statements (as the ruled print's list reads). Main's reader read none, and the form's last label
    above took the statements for its options."""
    doc = wf.new()
    _question_table(doc)
    _labels(doc, ["Lead QSA Name:", "QSA Company:"])
    doc.add_paragraph("Part 3. PCI DSS Validation")
    doc.add_paragraph("Select one:")
    table = doc.add_table(rows=len(STATEMENTS), cols=2)
    table.columns[0].width, table.columns[1].width = Inches(0.4), Inches(6.0)
    for r, statement in enumerate(STATEMENTS):
        table.cell(r, 0).text, table.cell(r, 1).text = "☐", statement
    q = wf.printed(tmp_path, doc, "no rulings", paper)
    assert [x.text for x in q.questions][2:4] == ["Lead QSA Name", "QSA Company"]
    assert not q.questions[3].choices
    (listed,) = q.questions[4:]
    assert wf.fold(f"Select one: {STATEMENTS[0]}") in wf.fold(listed.text)
    assert listed.choices == ("Compliant", "Non-Compliant", "Compliant but with Legal exception")


WORKSHEET = [
    ("Constraints", "Document the legitimate technical or business constraints precluding compliance."),
    ("Definition of Compensating Controls", "Define the compensating controls: explain how they address the risk."),
    ("Identified Risk", "Identify any additional risk posed by the lack of the original control."),
    ("Maintenance", "Define process(es) and controls in place to maintain compensating controls."),
]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_worksheet_of_prompts_beside_an_empty_explanation_column_printed_without_rules(tmp_path, paper):
    """The SAQ's compensating controls worksheet ("| Information Required | Explanation" over a row's
    title, its prompt and an empty cell), printed without rules: one text question per prompt. Main's
    reader found no table (a header of two labels naming no question column) and no question. A
    glossary of the same header whose explanations are written is none."""
    doc = wf.new()
    _question_table(doc)
    table = doc.add_table(rows=1 + len(WORKSHEET), cols=3)
    for i, width in enumerate((1.3, 2.3, 2.8)):
        table.columns[i].width = Inches(width)
    table.cell(0, 1).text, table.cell(0, 2).text = "Information Required", "Explanation"
    for r, (title, prompt) in enumerate(WORKSHEET, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = title, prompt
    for _ in range(3):
        doc.add_paragraph("")
    doc.add_paragraph("Glossary")
    glossary = doc.add_table(rows=3, cols=2)
    glossary.cell(0, 0).text, glossary.cell(0, 1).text = "Term", "Explanation"
    glossary.cell(1, 0).text, glossary.cell(1, 1).text = "CDE", "The cardholder data environment of the merchant."
    glossary.cell(2, 0).text, glossary.cell(2, 1).text = "PAN", "The primary account number printed on the card."
    q = wf.printed(tmp_path, doc, "no rulings", paper)
    assert [wf.fold(x.text) for x in q.questions][2:] == [wf.fold(p) for _, p in WORKSHEET]
    assert all(x.text_cell and not x.choices for x in q.questions[2:])


def test_a_list_of_records_header_of_two_labels_over_empty_rows_is_no_form(tmp_path):
    """ "Name of service provider: | Description of service(s) provided:" over empty rows to fill (a list
    of records), printed without rules, is no question; the signatory's row of two labels is (above)."""
    doc = wf.new()
    _question_table(doc)
    table = doc.add_table(rows=8, cols=2)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "If Yes:"
    table.cell(1, 0).text, table.cell(1, 1).text = "Name of service provider:", "Description of service(s) provided:"
    doc.add_paragraph("Note: Requirement 12.8 applies to all entities in this list.")
    q = wf.printed(tmp_path, doc, "no rulings")
    assert [x.id for x in q.questions] == [i for i, _ in REQUIREMENTS]
