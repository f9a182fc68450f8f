"""Word questionnaires printed as flat PDFs (#55), the PCI SAQ's requirement tables: an ID longer than
its narrow column wraps at its last dot ("9.4.1." over "1"), as a word processor wraps it. Small Word
documents written here at the SAQ's column widths, printed by the bench's printer and read by the flat
PDF reader: the ID is read whole. Main's reader read "9.4.1" and the "1" as the requirement's word."""

from __future__ import annotations

import pytest
from docx.shared import Inches

from tests import word_fixtures as wf

ROWS = [
    ("9.4.1", "All media with cardholder data is physically secured."),
    ("9.4.1.1", "Offline media backups with cardholder data are stored in a secure location."),
    ("9.4.1.2", "The security of the offline media backup location(s) is reviewed at least once every 12 months."),
]


@pytest.mark.parametrize("rulings", ["no rulings", "horizontal rules", "ruled"])
def test_an_id_wrapped_at_its_dot_in_a_narrow_column_is_read_whole(tmp_path, rulings):
    doc = wf.new()
    doc.add_paragraph("Requirement 9: Restrict Physical Access to Cardholder Data")
    table = wf.saq_table(doc, [(ident, requirement, "Examine media.") for ident, requirement in ROWS])
    table.columns[0].width = Inches(0.4)  # the ID column as narrow as the SAQ's: "9.4.1.1" does not fit
    q = wf.printed(tmp_path, doc, rulings, "Letter")
    assert [(x.id, wf.fold(x.text)) for x in q.questions] == [(i, wf.fold(t)) for i, t in ROWS]
