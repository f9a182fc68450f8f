"""Word questionnaires printed as flat PDFs (#55), fifth round: small Word documents written here in
the layout of the shared FedRAMP SSP's control sections (a "Control Summary Information" table: a
"Responsible Role:" row and labels over their boxes; a table titled "<control> What is the solution
and how is it implemented?" over rows "Part a | ___"), printed ruled by the bench's printer and read
by the flat PDF reader. Main's reader found none of the parts (299 of the FedRAMP SSP print's 386
misses) and no "Responsible Role:" in a summary table holding it alone beside its boxes."""

from __future__ import annotations

import pytest
from docx.shared import Inches

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

STATUS = ("Implemented", "Partially implemented", "Planned", "Not applicable")
ORIGIN = ("Service Provider Corporate", "Service Provider System Specific", "Provided by Customer")


def _summary(doc, control: str, parameters: list[str]) -> None:
    """A control's summary table: its ID and title, "Responsible Role:" and its parameters, each
    across the table, then two labels over their boxes."""
    rows = [f"Parameter {p}:" for p in parameters]
    table = doc.add_table(rows=4 + len(rows), cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = control, "Control Summary Information"
    for r, label in enumerate(["Responsible Role:", *rows], start=1):
        table.cell(r, 0).merge(table.cell(r, 1)).text = label
    for r, (label, options) in enumerate(
        [
            ("Implementation Status (check all that apply):", STATUS),
            ("Control Origination (check all that apply):", ORIGIN),
        ],
        start=1 + len(parameters) + 1,
    ):
        cell = table.cell(r, 0).merge(table.cell(r, 1))
        cell.text = label
        for option in options:
            cell.add_paragraph(f"☐ {option}")
    doc.add_paragraph("")


def _parts(doc, control: str, parts: list[str]) -> None:
    """A control's "What is the solution and how is it implemented?" table: its title across,
    one row per part with an empty cell for the answer."""
    table = doc.add_table(rows=1 + len(parts), cols=2)
    table.cell(0, 0).merge(table.cell(0, 1)).text = f"{control} What is the solution and how is it implemented?"
    for r, part in enumerate(parts, start=1):
        table.cell(r, 0).text = part
    doc.add_paragraph("")


def _section(doc, control: str, parameters: list[str], parts: list[str]) -> None:
    doc.add_paragraph(f"{control} Access Enforcement")
    doc.add_paragraph("The information system enforces approved authorizations for logical access.")
    _summary(doc, control, parameters)
    _parts(doc, control, parts)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_table_of_a_controls_parts_under_its_question_is_one_text_question_per_part(tmp_path, paper):
    """Each "Part a | ___" row under "AC-3 What is the solution and how is it implemented?" is a
    question named "AC-3 Part a", answered as text; the title alone is none. Main's reader read the
    table as no table (no header, nothing asking in a column) and its title as a line that asks."""
    doc = wf.new()
    _section(doc, "AC-2", ["AC-2(a)", "AC-2(j)"], ["Part a", "Part b", "Part c"])
    _section(doc, "AC-8", [], ["Req. 1", "Req. 2"])
    q = _printed(tmp_path, doc, "ruled", paper)
    named = [_fold(f"{x.id or ''} {x.text}") for x in q.questions]
    for control, part in [
        ("AC-2", "Part a"),
        ("AC-2", "Part b"),
        ("AC-2", "Part c"),
        ("AC-8", "Req. 1"),
        ("AC-8", "Req. 2"),
    ]:
        hits = [x for x, n in zip(q.questions, named) if _fold(f"{control} {part}") in n]
        assert len(hits) == 1, (control, part, named)
        assert hits[0].text_cell and not hits[0].choices and not hits[0].answered
    assert not any(_fold(x.text).endswith(_fold("implemented?")) for x in q.questions)


def test_a_responsible_role_alone_beside_labels_over_their_boxes_is_a_question(tmp_path):
    """A summary table with no parameter: "Responsible Role:" is its only label alone across a row,
    beside the two labels over their boxes; main's reader took it for a lead-in ("For example:")."""
    doc = wf.new()
    _section(doc, "AC-3", [], ["Part a", "Part b"])
    q = _printed(tmp_path, doc, "ruled")
    texts = [x.text for x in q.questions]
    assert texts[:3] == [
        "Responsible Role",
        "Implementation Status (check all that apply)",
        "Control Origination (check all that apply)",
    ]
    assert q.questions[0].text_cell and not q.questions[0].choices
    assert q.questions[1].choices == STATUS and q.questions[2].choices == ORIGIN


def _saq_doc(requirements: int = 24):
    """A PCI SAQ requirement table longer than a page, its two header rows repeated on each page: a
    section's title across the table ("2.1 Secure configurations …") over three requirements, each
    ("2.1.1 | … | Examine … | ☐ ☐ ☐ ☐", its testing longer than its text: a row a page break may cut,
    its rest only testing) followed by an "Applicability Notes" row and a row of its note, both across
    the requirement's and the testing's columns, with no ID and no box (the rows a page break leaves
    at the next page's top, under the header)."""
    doc = wf.new()
    doc.add_paragraph("Requirement 2: Apply Secure Configurations to All System Components")
    rows = []
    for i in range(requirements):
        if i % 3 == 0:
            rows.append(wf.SaqTitle(f"2.{1 + i // 3} Secure configurations of group {i // 3}."))
        testing = " ".join(f"Examine the {what} of component {i + 1}." for what in ("standards", "records", "logs"))
        note = " ".join(
            f"This includes component {i + 1}'s administrators, the vendors' defaults and the accounts of "
            "applications, as the requirement describes them."
            for _ in range(1 + i % 4)
        )
        rows += [
            (f"2.{1 + i // 3}.{1 + i % 3}", f"System component {i + 1} is configured securely.", testing),
            wf.SaqNote(("Applicability Notes",)),
            wf.SaqNote((note,)),
        ]
    wf.saq_table(doc, rows, repeat_header=True)
    return doc


@pytest.mark.parametrize(("requirements", "paper"), [(24, "A4"), (18, "Letter")])
def test_a_requirements_rest_under_the_repeated_header_is_no_question(tmp_path, requirements, paper):
    """Rows without ID or box under the header a page repeats (the rest of the note of the requirement
    before the page break) are the last requirement's, and the requirements under them are read.
    Main's reader read the rest as a question of its own (no ID, the note's last words)."""
    from engine.bench.word_printed import print_docx  # noqa: PLC0415
    from engine.questionnaire.pdf.reader import read_pdf_questionnaire  # noqa: PLC0415

    path = wf.save(_saq_doc(requirements), tmp_path / "saq.docx")
    pdf = tmp_path / "saq.pdf"
    print_docx(path, pdf, "ruled", paper)
    q = read_pdf_questionnaire(pdf)
    want = [f"2.{1 + i // 3}.{1 + i % 3}" for i in range(requirements)]
    assert [x.id for x in q.questions] == want
    assert all(x.choices == wf.SAQ_OPTIONS for x in q.questions)
    assert all(_fold(x.text).startswith(_fold("System component")) for x in q.questions)


WORKSHEET = [
    ("Constraints", "Document the legitimate technical or business constraints precluding compliance."),
    ("Definition of Compensating Controls", "Define the compensating controls and how they address the objectives."),
    ("Objective", "Define the objective of the original control."),
    ("", "Identify the objective met by the compensating control."),
    ("Identified Risk", "Identify any additional risk posed by the lack of the original control."),
    ("Maintenance", "Define process(es) and controls in place to maintain compensating controls."),
]


def test_a_worksheet_whose_cells_are_each_drawn_is_read_row_by_row(tmp_path):
    """A header naming only the answer column ("Information Required | Explanation", the PCI SAQ's
    compensating controls worksheet) over rows of a topic, what to give and an empty cell, printed
    ruled (each cell drawn as a closed path of its own): one text question per row. Main's reader
    cut the rows by the page's horizontal rules alone, found none across the asking column, and
    read the six rows as one question."""
    doc = wf.new()
    doc.add_paragraph("Appendix B: Compensating Controls Worksheet")
    table = doc.add_table(rows=1 + len(WORKSHEET), cols=3)
    table.cell(0, 1).text, table.cell(0, 2).text = "Information Required", "Explanation"
    for r, (topic, asked) in enumerate(WORKSHEET, start=1):
        table.cell(r, 0).text, table.cell(r, 1).text = topic, asked
    q = _printed(tmp_path, doc, "ruled")
    assert [_fold(x.text) for x in q.questions] == [_fold(asked) for _, asked in WORKSHEET]
    assert all(x.text_cell and not x.choices for x in q.questions)


STATEMENTS = [
    "Compliant: All sections of the SAQ are complete and all requirements are marked as being in place.",
    "Non-Compliant: Not all sections of the SAQ are complete, or some requirements are not in place.",
    "Compliant but with Legal exception: One or more requirements are not in place due to a legal restriction.",
]


def test_a_list_of_statements_with_boxes_under_its_title_and_over_an_empty_table_is_one_choice(tmp_path):
    """A table of statements each after a box (the PCI AOC's "Select one:"), with its part's title and
    a lead-in across the table above them and an empty table of the exceptions to detail below them:
    one question, its options the statements. Main's reader read only tables of statements alone."""
    doc = wf.new()
    doc.add_paragraph("Section 3: Validation and Attestation Details")
    table = doc.add_table(rows=2 + len(STATEMENTS) + 3, cols=2)
    table.columns[0].width, table.columns[1].width = Inches(0.5), Inches(6.0)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "Part 3. PCI DSS Validation"
    table.cell(1, 0).merge(
        table.cell(1, 1)
    ).text = "Indicate below whether a full or partial assessment was completed. Select one:"
    for r, statement in enumerate(STATEMENTS, start=2):
        table.cell(r, 0).text, table.cell(r, 1).text = "☐", statement
    r = 2 + len(STATEMENTS)
    table.cell(r, 0).text, table.cell(r, 1).text = "Affected Requirement", "Details of how legal constraint prevents it"
    q = _printed(tmp_path, doc, "ruled")
    assert len(q.questions) == 1
    assert q.questions[0].choices == ("Compliant", "Non-Compliant", "Compliant but with Legal exception")
    assert _fold(q.questions[0].text).startswith(_fold(STATEMENTS[0]))


def test_a_summary_of_responses_without_rules_under_two_labels_is_an_option_table(tmp_path):
    """ "PCI DSS Requirement * | Requirement Responses" over notes and the four option labels, then
    "Requirement 1: ☐ ☐ ☐ ☐" … printed without rules: a choice of the four options per requirement.
    Main's reader found no table (a header of two labels is too few phrases) and no question."""
    doc = wf.new()
    doc.add_paragraph("Part 2g. Summary of Assessment")
    doc.add_paragraph("Indicate below all responses that were selected for each PCI DSS requirement.")
    labels = [f"Requirement {n}:" for n in (1, 2, 3, 4, 5)]
    table = doc.add_table(rows=2 + len(labels), cols=5)
    for i, width in enumerate((1.4, 1.25, 1.25, 1.25, 1.25)):
        table.columns[i].width = Inches(width)
    table.cell(0, 0).text = "PCI DSS Requirement *"
    response = table.cell(0, 1).merge(table.cell(0, 4))
    response.text = "Requirement Responses"
    response.add_paragraph("More than one response may be selected for a given requirement.")
    for i, option in enumerate(wf.SAQ_OPTIONS):
        table.cell(1, 1 + i).text = option
    for r, label in enumerate(labels, start=2):
        table.cell(r, 0).text = label
        for c in range(1, 5):
            table.cell(r, c).text = "☐"
    q = _printed(tmp_path, doc, "no rulings")
    assert [x.text.rstrip(":") for x in q.questions] == [label.rstrip(":") for label in labels]
    assert all(x.choices == wf.SAQ_OPTIONS for x in q.questions)
