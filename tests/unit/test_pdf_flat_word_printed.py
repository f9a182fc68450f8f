"""Word questionnaires printed as flat PDFs (#55, engine/bench/word_printed.py): small Word documents
written here in the layouts of the shared ones (a checklist of statements with boxes after a tab, a
ruled form whose answer cells show placeholders, a control's summary table, a requirement table
without rules whose option labels wrap inside words), printed by the bench's printer and read by the
flat PDF reader. Main's reader refused the checklist and the requirement table (no question found)
and found none of the form's or the summary table's questions. The printer's own rule (its header
rows repeated, each row's page carried to the truth) is tested last."""

from __future__ import annotations

import pymupdf
import pytest
from docx.shared import Inches, Pt

from engine.bench.word_printed import print_docx, truth_items
from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed  # one printer and comparison for the printed-PDF tests


STATEMENTS = [
    "All files in the PDF Portfolio were tested with the appropriate test process",
    "The PDF shows Adobe LiveCycle under Document Properties",
    "Advanced Document Properties displays Tagged PDF",
    "All meaningful content is also tagged content",
]


@pytest.mark.parametrize("rulings", ["no rulings", "ruled"])
def test_statements_each_ending_with_its_boxes_are_questions_of_those_options(tmp_path, rulings):
    doc = wf.new()
    doc.add_paragraph("Accessibility test checklist").paragraph_format.space_after = Pt(24)
    for k, statement in enumerate(STATEMENTS):
        boxes = "☐ Yes ☐ No ☐ NA" if k % 2 == 0 else "☐ Yes ☐ No"
        doc.add_paragraph(f"{statement}\t{boxes}")
    q = _printed(tmp_path, doc, rulings)
    # (a paragraph right above a statement, less than a line apart, is read as part of it: not met)
    assert [_fold(x.text) for x in q.questions] == [_fold(s) for s in STATEMENTS]
    assert [x.choices for x in q.questions] == [("Yes", "No", "NA"), ("Yes", "No")] * 2


def test_labels_beside_cells_showing_placeholders_are_a_form(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Identification of Organization that Prepared this Document")
    rows = [
        ("Organization Name", "<Enter Company/Organization>."),
        ("Street Address", "<Enter Street Address>"),
        ("Suite/Room/Building", "Click here to enter text."),
        ("City, State Zip", "<Enter Zip Code>"),
    ]
    table = doc.add_table(rows=len(rows), cols=2)
    for r, (label, placeholder) in enumerate(rows):
        table.cell(r, 0).text, table.cell(r, 1).text = label, placeholder
    q = _printed(tmp_path, doc, "ruled")
    assert [x.text for x in q.questions] == [label for label, _ in rows]
    assert all(x.text_cell and not x.answered for x in q.questions)


def test_a_summary_table_label_over_its_boxes_is_one_choice_and_a_label_alone_a_text(tmp_path):
    doc = wf.new()
    table = doc.add_table(rows=4, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "AC-2", "Control Summary Information"
    for r in (1, 2, 3):
        table.cell(r, 0).merge(table.cell(r, 1))
    table.cell(1, 0).text = "Responsible Role:"
    table.cell(2, 0).text = "Parameter AC-2(a):"
    cell = table.cell(3, 0)
    cell.text = "Implementation Status (check all that apply):"
    for option in ("Implemented", "Partially implemented", "Planned"):
        cell.add_paragraph(f"☐ {option}")
    q = _printed(tmp_path, doc, "ruled")
    by_text = {x.text: x for x in q.questions}
    assert set(by_text) == {"Responsible Role", "Parameter AC-2(a)", "Implementation Status (check all that apply)"}
    assert by_text["Responsible Role"].text_cell and not by_text["Responsible Role"].choices
    status = by_text["Implementation Status (check all that apply)"]
    assert status.choices == ("Implemented", "Partially implemented", "Planned")


OPTIONS = wf.SAQ_OPTIONS
REQUIREMENTS = [
    (
        "1.1.1",
        "All security policies and operational procedures are documented and kept up to date.",
        "Examine documentation.",
    ),
    (
        "1.1.2",
        "Roles and responsibilities for performing activities are documented and assigned.",
        "Interview personnel.",
    ),
    (
        "1.2.1",
        "Configuration standards for network security controls are defined and maintained.",
        "Examine configuration standards.",
    ),
    ("1.2.2", "All changes to network connections are approved and managed.", "Examine change records."),
]


def _requirement_table(doc) -> None:
    wf.saq_table(
        doc,
        [
            wf.SaqTitle("1.1 Processes and mechanisms for network security controls are defined and understood."),
            *REQUIREMENTS[:2],
            wf.SaqTitle("1.2 Network security controls are configured and maintained."),
            *REQUIREMENTS[2:],
        ],
    )


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_requirement_table_without_rules_whose_option_labels_wrap_is_read_as_its_rows(tmp_path, paper):
    doc = wf.new()
    doc.add_paragraph("Requirement 1: Install and Maintain Network Security Controls")
    _requirement_table(doc)
    q = _printed(tmp_path, doc, "no rulings", paper)
    assert [(x.id, _fold(x.text)) for x in q.questions] == [(i, _fold(t)) for i, t, _ in REQUIREMENTS]
    assert all([_fold(c) for c in x.choices] == [_fold(o) for o in OPTIONS] for x in q.questions)


def test_the_printer_repeats_a_tables_header_rows_and_carries_each_rows_page(tmp_path):
    doc = wf.new()
    table = doc.add_table(rows=61, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Question", "Answer"
    header = table.rows[0]._tr.get_or_add_trPr()
    header.append(wf.element("<w:tblHeader/>"))
    for r in range(1, 61):
        table.cell(r, 0).text = f"Q{r:02d} Does the provider keep record number {r} of its assets?"
    path = wf.save(doc, tmp_path / "long.docx")
    pdf = tmp_path / "long.pdf"
    root, drawn = print_docx(path, pdf, "ruled", "Letter")
    items = [{"text": f"Q{r:02d} Does the provider", "answer": [0, r, 1]} for r in range(1, 61)]
    carried = truth_items(root, drawn, items)
    with pymupdf.open(pdf) as printed:
        assert printed.page_count >= 2
        for page in printed:  # the header row on every page the table runs onto
            assert page.get_text().startswith("Question\nAnswer")
        for item in carried:  # each row's question on the page its truth names
            assert item["text"] in printed[item["page"] - 1].get_text().replace("\n", " ")
    assert len({i["page"] for i in carried}) >= 2


GUIDED = [
    ("Provide your ISO 9001 certification", "Upload a current certificate.", "Upload"),
    (
        "Are you reliant on the Cloud Service Provider for some accreditations required by the specification?",
        "The service may be accredited in the provider's name.",
        "Yes/No",
    ),
    ("Provide your ISO 27001 certification", "", "Upload"),
    ("List the cloud service suppliers you intend to resell", "You may enter up to 100.", "Free text"),
]


def _table_doc(lead: str, header: tuple[str, ...], rows, widths: tuple[float, ...]):
    """A Word document: a lead paragraph, then a table of ``header`` over ``rows`` at ``widths`` (inches)."""
    doc = wf.new()
    doc.add_paragraph(lead)
    table = doc.add_table(rows=1 + len(rows), cols=len(header))
    for i, width in enumerate(widths):
        table.columns[i].width = Inches(width)
    for r, row in enumerate([header, *rows]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    return doc


def test_a_question_guidance_response_table_with_horizontal_rules_only_is_read_by_its_rows(tmp_path):
    """Read as a table by its header, columns from the text (main's reader found the same questions
    in the lines: a guard that the table keeps them and takes no guidance line)."""
    header = ("Question", "Guidance", "Response")
    doc = _table_doc("Mandatory questions for lots 1a and 1b", header, GUIDED, (2.2, 2.4, 1.8))
    q = _printed(tmp_path, doc, "horizontal rules")
    assert [_fold(x.text) for x in q.questions] == [_fold(question) for question, _, _ in GUIDED]
    assert all(x.text_cell for x in q.questions)


STATED = [
    ("1.1", "The supplier maintains a certified information security management system."),
    ("1.2", "Backups of customer data are encrypted and tested every quarter."),
    ("1.3", "Administrative access to production systems requires two factors."),
    ("2.1", "Security incidents are reported to the customer within 24 hours."),
]


def test_a_requirement_table_with_horizontal_rules_only_takes_its_columns_from_the_text(tmp_path):
    """Rows parted by horizontal rules, no vertical line (MuPDF's ruled tables need lines both ways):
    read as a table whose columns come from the text (main's reader found the same rows by their
    numbered lines: a guard that the table does not lose them)."""
    rows = [(ident, statement, "") for ident, statement in STATED]
    doc = _table_doc("Part B: Security requirements", ("ID", "Requirement", "Response"), rows, (0.6, 3.8, 2.0))
    q = _printed(tmp_path, doc, "horizontal rules")
    assert [(x.id, _fold(x.text)) for x in q.questions] == [(i, _fold(s)) for i, s in STATED]
    assert all(x.text_cell for x in q.questions)


def test_events_beside_a_dates_placeholder_are_the_issuers_timetable_not_a_form(tmp_path):
    """Main's reader took each event of a tender's timetable ("Issue of Invitation to Tender |
    [Insert date]") as a form's question; a label ending with ":" beside the same placeholder stays one."""
    doc = wf.new()
    doc.add_paragraph("Timetable")
    events = ["Issue of Invitation to Tender", "Last date for Clarification questions", "Submission of Tenders"]
    timetable = doc.add_table(rows=len(events), cols=2)
    for r, event in enumerate(events):
        timetable.cell(r, 0).text = event
        timetable.cell(r, 1).text = "[Insert date and time]" if r % 2 else "[Insert date]"
    doc.add_paragraph("Declaration")
    form = doc.add_table(rows=2, cols=2)
    form.cell(0, 0).text, form.cell(0, 1).text = "Organisation Name", "<Enter Company/Organization>"
    form.cell(1, 0).text, form.cell(1, 1).text = "Date signed:", "[Insert date]"
    q = _printed(tmp_path, doc, "ruled")
    assert [x.text for x in q.questions] == ["Organisation Name", "Date signed"]
