"""Word questionnaires printed as flat PDFs (#55), p55charn: a form typed as lines of labels each glued
to a run of underscores to write on, two to a line and no colon ("Bank Name_____ Account Name_____"),
written here, printed by the bench's printer and read by the flat PDF reader. Main's reader read none
of them (a blank typed after a label was a field only after a colon)."""

from __future__ import annotations

import pytest
from docx.shared import Pt

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

BLANK = "_" * 22


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


@pytest.mark.parametrize("rulings", ["no rulings", "ruled"])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_labels_glued_to_underscores_are_a_forms_fields(tmp_path, rulings, paper):
    """Each label glued to its blank is a question, two on a line as well as one, and one glued after
    the blank of the field before ("_____Postcode_____"), a label after a blank alone ("_____ Account
    No.") too; a sentence ending with a blank to sign is none."""
    doc = wf.new()
    _para(doc, "Please complete your bank and relevant company details below.", 12)
    _para(doc, f"Bank Name{BLANK} Account Name{BLANK}", 12)
    _para(doc, f"Bank Address{BLANK}", 12)
    _para(doc, f"{BLANK} Account No.", 12)
    _para(doc, f"{BLANK}Postcode{BLANK}", 12)
    _para(doc, f"Kontoinhaber{BLANK} IBAN{BLANK}", 12)
    _para(doc, f"We confirm that the details given above are correct and complete, signed {BLANK}", 12)
    q = _printed(tmp_path, doc, rulings, paper)
    want = ["Bank Name", "Account Name", "Bank Address", "Account No.", "Postcode", "Kontoinhaber", "IBAN"]
    assert [_fold(x.text) for x in q.questions] == [_fold(t) for t in want]
    assert all(x.text_cell and not x.choices and not x.answered and x.id is None for x in q.questions)
