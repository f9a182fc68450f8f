"""Word questionnaires printed as flat PDFs (#55), the PCI SAQ's requirement tables drawn with horizontal
rules only (no vertical line: the columns come from the text). Between the requirements, rows of one cell
across columns: a section's title across the table ("8.2 User identification …"), a note across the
requirement and testing columns ("Applicability Notes" over its text), "SAQ Completion Guidance:". Small
Word documents written here at the SAQ's widths, printed by the bench's printer with horizontal rules and
read by the flat PDF reader: every requirement is one question with its ID and the four options.

Main's reader counted those one-cell rows' words as crossing the columns under them, so the "Expected
Testing" and option columns were lost (the requirement's text and its testing read as one, its boxes as
one cell, "In Place" and "In Place with CCW" as one option), cut the header's "(Check one response for
each" at a gap between two words (its option read "for each Not Applicable") and did not read a table
whose header says "PCI DSS Requirement" (a label naming its last word's column) over one requirement."""

from __future__ import annotations

import pytest

from tests import word_fixtures as wf

TITLE = "8.2 User identification and related accounts for users and administrators are strictly managed."
ROWS = [
    ("8.2.1", "All users are assigned a unique ID before access to system components or cardholder data is allowed."),
    (
        "8.2.2",
        "Group, shared, or generic accounts, or other shared authentication credentials are only used when "
        "necessary on an exception basis.",
    ),
    (
        "8.2.4",
        "Addition, deletion, and modification of user IDs, authentication factors, and other identifier objects "
        "are managed.",
    ),
]
NOTE = (
    "This requirement is not intended to apply to user accounts within point-of-sale terminals that have access "
    "to only one card number at a time to facilitate a single transaction."
)
GUIDANCE = (
    "Selection of any of the In Place responses for Requirement 8.2 means that the merchant has policies and "
    "procedures in place that govern merchant activities for Requirement 8."
)


def _saq_table(doc, rows: list[tuple[str, str]], notes: bool) -> None:
    """A SAQ requirement table: its two header rows, a section's title across it, each requirement
    (ID, text, testing, four boxes) followed, where ``notes``, by an "Applicability Notes" row and its
    note across the requirement and testing columns, and a completion guidance across the table."""
    extra = 1 + (3 if notes else 0) * len(rows) + (1 if notes else 0)
    table = doc.add_table(rows=2 + len(rows) + extra, cols=7)
    wf.saq_header(table)
    r = 2
    table.cell(r, 0).merge(table.cell(r, 6)).text = TITLE
    r += 1
    for ident, requirement in rows:
        table.cell(r, 0).text, table.cell(r, 1).text = ident, requirement
        table.cell(r, 2).text = "Interview responsible personnel. Examine audit logs and other evidence."
        for c in range(3, 7):
            table.cell(r, c).text = "☐"
        r += 1
        if notes:
            table.cell(r, 1).merge(table.cell(r, 2)).text = "Applicability Notes"
            table.cell(r + 1, 1).merge(table.cell(r + 1, 2)).text = NOTE
            table.cell(r + 2, 1).merge(table.cell(r + 2, 2)).text = NOTE
            r += 3
    if notes:
        cell = table.cell(r, 0).merge(table.cell(r, 6))
        cell.text = "SAQ Completion Guidance:"
        cell.add_paragraph(GUIDANCE)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_requirements_between_notes_across_columns_keep_their_columns(tmp_path, paper):
    doc = wf.new()
    doc.add_paragraph("Requirement 8: Identify Users and Authenticate Access to System Components")
    _saq_table(doc, ROWS, notes=True)
    q = wf.printed(tmp_path, doc, "horizontal rules", paper)
    assert [(x.id, wf.fold(x.text)) for x in q.questions] == [(i, wf.fold(t)) for i, t in ROWS]
    assert [[wf.fold(c) for c in x.choices] for x in q.questions] == [[wf.fold(o) for o in wf.SAQ_OPTIONS]] * len(ROWS)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_table_of_one_requirement_under_its_header_is_read(tmp_path, paper):
    doc = wf.new()
    doc.add_paragraph("Requirement 12: Support Information Security with Organizational Policies and Programs")
    _saq_table(doc, ROWS[:1], notes=False)
    q = wf.printed(tmp_path, doc, "horizontal rules", paper)
    assert [(x.id, wf.fold(x.text), [wf.fold(c) for c in x.choices]) for x in q.questions] == [
        (ROWS[0][0], wf.fold(ROWS[0][1]), [wf.fold(o) for o in wf.SAQ_OPTIONS])
    ]
