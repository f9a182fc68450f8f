"""Word questionnaires printed as flat PDFs (#55), the PCI AOC's signatory rows: a label alone ending
with ":" right under a signature's row ("Signature of Lead QSA | Date: YYYY-MM-DD" over "Lead QSA
Name:", in any language the signature cue knows) is the signatory's name to write, one text question;
the signature itself none. Small Word documents written here, printed by the bench's printer without
rules and with horizontal rules, read by the flat PDF reader. Main's reader read no label alone."""

from __future__ import annotations

import pytest
from docx.shared import Inches

from tests import word_fixtures as wf

ROWS = [("1.3.1", "Inbound traffic to the CDE is restricted."), ("1.3.2", "Outbound traffic is restricted.")]


def _document(signature: str, name: str):
    doc = wf.new()
    wf.saq_table(doc, [(ident, requirement, "Examine.") for ident, requirement in ROWS])
    doc.add_page_break()
    doc.add_paragraph("Part 3c. Assessor Acknowledgement")
    block = doc.add_table(rows=2, cols=2)
    block.columns[0].width, block.columns[1].width = Inches(3.8), Inches(2.7)
    block.cell(0, 0).text, block.cell(0, 1).text = signature, "Date: YYYY-MM-DD"
    block.cell(1, 0).text = name
    doc.add_paragraph("Part 4. Action Plan")
    return doc


@pytest.mark.parametrize(
    ("signature", "name"),
    [("Signature of Lead QSA", "Lead QSA Name:"), ("Unterschrift des leitenden Prüfers", "Name des Prüfers:")],
)
@pytest.mark.parametrize("rulings", ["no rulings", "horizontal rules"])
def test_a_label_alone_under_a_signature_s_row_is_the_signatory_s_name(tmp_path, signature, name, rulings):
    q = wf.printed(tmp_path, _document(signature, name), rulings, "Letter")
    texts = [wf.fold(x.text) for x in q.questions]
    assert wf.fold(name.rstrip(":")) in texts
    assert not any(t.startswith(wf.fold(signature)[:9]) for t in texts)
