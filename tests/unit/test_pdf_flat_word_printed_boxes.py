"""Word questionnaires printed as flat PDFs with horizontal rules only (#55, fourth round): a table of
boxes to tick under option labels, in the layout of the shared PCI AOC's "Summary of Assessment" (titles
across the table, a header naming no question column, the options' labels over rows of one box each),
then a paragraph and a second table, all drawn with horizontal rules one under the other. Main's
reader read the whole run of rules as one table of two columns, named no header, and found none of
the requirements."""

from __future__ import annotations

import pytest

from engine.bench.word_printed import print_docx
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from tests import word_fixtures as wf

OPTIONS = ("In Place", "In Place with CCW", "Not Applicable", "Not in Place")
REQUIREMENTS = ("Requirement 3:", "Requirement 7:", "Requirement 9:", "Requirement 12:")


def _summary_doc():
    doc = wf.new()
    doc.add_paragraph("Part 2. Executive Summary (continued)")
    table = doc.add_table(rows=4 + len(REQUIREMENTS), cols=5)
    table.cell(0, 0).merge(table.cell(0, 4)).text = "Part 2g. Summary of Assessment"
    table.cell(1, 0).merge(table.cell(1, 4)).text = "Indicate below all responses that were selected for each item."
    table.cell(2, 0).text = "PCI DSS Requirement *"
    table.cell(2, 1).merge(table.cell(2, 4)).text = "Requirement Responses. More than one response may be selected."
    for c, label in enumerate(OPTIONS, 1):
        table.cell(3, c).text = label
    for r, requirement in enumerate(REQUIREMENTS, 4):
        table.cell(r, 0).text = requirement
        for c in range(1, 5):
            table.cell(r, c).text = "☐"
    doc.add_paragraph("")
    doc.add_paragraph("* The requirements indicated above refer to the requirements in Section 2 of the SAQ.")
    doc.add_paragraph("")
    second = doc.add_table(rows=3, cols=2)
    second.cell(0, 0).merge(second.cell(0, 1)).text = "Part 2h. Eligibility to complete the SAQ"
    second.cell(1, 0).text, second.cell(1, 1).text = "☐", "The merchant uses only an imprint machine."
    second.cell(2, 0).text, second.cell(2, 1).text = "☐", "The merchant does not store account data."
    return doc


@pytest.mark.parametrize("paper", ["Letter", "A4"])
def test_a_table_of_boxes_under_option_labels_with_horizontal_rules_is_one_choice_per_row(tmp_path, paper):
    path = wf.save(_summary_doc(), tmp_path / "summary.docx")
    pdf = tmp_path / "summary.pdf"
    print_docx(path, pdf, "horizontal rules", paper)
    q = read_pdf_questionnaire(pdf)
    asked = [x for x in q.questions if x.text.startswith("Requirement")]
    assert [x.text for x in asked] == list(REQUIREMENTS)
    assert all(tuple(x.choices) == OPTIONS for x in asked)
    assert not any(x.text.strip() in ("☐", "") or x.text.startswith("Part 2") for x in q.questions)
