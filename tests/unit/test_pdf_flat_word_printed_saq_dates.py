"""Word questionnaires printed as flat PDFs (#55), the PCI SAQ's and AOC's dated fields: a label
ending with ":" followed on its line by a date's format mask ("Self-assessment completion date:
YYYY-MM-DD", "Datum der Selbstbewertung: TT.MM.JJJJ") is a field to fill, one text question, in a
document that sets its questions in tables too; the same mask in a boxed option's text ("☐
Non-Compliant: … / Target Date for Compliance: YYYY-MM-DD") is the option's own. Small Word documents
written here, printed by the bench's printer and read by the flat PDF reader. Main's reader read the
label as a paragraph that is no question."""

from __future__ import annotations

import pytest
from docx.shared import Inches

from tests import word_fixtures as wf

ROWS = [("1.3.1", "Inbound traffic to the CDE is restricted."), ("1.3.2", "Outbound traffic is restricted.")]


def _document(label: str, mask: str):
    doc = wf.new()
    doc.add_paragraph("Section 2: Self-Assessment Questionnaire")
    doc.add_paragraph("Note: The following requirements mirror the requirements in the standard.")
    doc.add_paragraph(f"{label} {mask}")
    doc.add_paragraph("Requirement 1: Install and maintain network security controls")
    wf.saq_table(doc, [(ident, requirement, "Examine.") for ident, requirement in ROWS])
    return doc


@pytest.mark.parametrize(
    ("label", "mask"),
    [("Self-assessment completion date:", "YYYY-MM-DD"), ("Datum der Selbstbewertung:", "TT.MM.JJJJ")],
)
@pytest.mark.parametrize("rulings", ["no rulings", "ruled"])
def test_a_label_followed_by_a_date_s_mask_is_a_text_question(tmp_path, label, mask, rulings):
    q = wf.printed(tmp_path, _document(label, mask), rulings, "Letter")
    dated = [x for x in q.questions if wf.fold(x.text) == wf.fold(label.rstrip(":"))]
    assert len(dated) == 1 and dated[0].text_cell and not dated[0].choices
    assert [x.id for x in q.questions if x.id] == [ident for ident, _ in ROWS]


def test_a_date_s_mask_in_a_boxed_option_s_text_is_no_question(tmp_path):
    """A guard: the mask under a boxed option's text is that option's, no question of its own."""
    doc = _document("Self-assessment completion date:", "YYYY-MM-DD")
    doc.add_page_break()
    doc.add_paragraph("Part 3. Validation: select one:")
    table = doc.add_table(rows=2, cols=2)
    table.columns[0].width, table.columns[1].width = Inches(0.4), Inches(6.0)
    table.cell(0, 0).text, table.cell(1, 0).text = "☐", "☐"
    table.cell(0, 1).text = "Compliant: All sections of the questionnaire are complete."
    table.cell(1, 1).text = "Non-Compliant: Not all sections of the questionnaire are complete."
    table.cell(1, 1).add_paragraph("Target Date for Compliance: YYYY-MM-DD")
    q = wf.printed(tmp_path, doc, "no rulings", "Letter")
    assert not any(x.text.lower().startswith("target date") for x in q.questions)
    assert any(x.choices == ("Compliant", "Non-Compliant") for x in q.questions)
