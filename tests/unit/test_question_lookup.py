"""A question row whose question cell holds only its own ID (a vendor pasted values over the
workbook's lookup formula, as in Parchment's HECVAT Full, AAAI-11) is read with the question
beside that ID in another sheet, a hidden one too (engine/questionnaire/sheet/question_lookup.py).
The workbooks are written here with openpyxl; the real row is checked in
tests/integration/test_questionnaire_real.py's shared-data tests."""

from __future__ import annotations

import openpyxl

from engine.questionnaire import read_questionnaire

QUESTIONS = {
    "AAAI-10": "Do you support differentiation between email address and user identifier?",
    "AAAI-11": "Do you allow the customer to specify attribute mappings beyond a user identifier?",
    "AAAI-12": "Does your portal support multi-factor authentication?",
}


def _workbook(path, bare: dict[str, str]) -> None:
    """A vendor sheet whose question cells hold the questions, but those of ``bare`` hold their
    ID; a hidden "Questions" sheet lists every ID with its question (and a crosswalk sheet that
    holds the IDs beside codes, which are not questions)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Vendor Response"
    ws.append(["ID", "Question", "Answer", "Additional Information"])
    for ident, text in {**QUESTIONS, **bare}.items():
        ws.append([ident, ident if ident in bare else text, None, None])
    cross = wb.create_sheet("Crosswalk")
    for ident in QUESTIONS:
        cross.append([ident, "NIST 800-53", "IA-2"])
    hidden = wb.create_sheet("Questions")
    hidden.sheet_state = "hidden"
    hidden.append(["#", "ID", "Question"])
    for n, (ident, text) in enumerate(QUESTIONS.items(), 1):
        hidden.append([n, ident, text])
    wb.save(path)


def test_a_question_cell_holding_its_id_is_read_with_the_question_kept_elsewhere(tmp_path):
    path = tmp_path / "vendor.xlsx"
    _workbook(path, {"AAAI-11": "AAAI-11"})
    q = read_questionnaire(path)
    texts = {x.id: x.text for x in q.questions}
    assert texts == QUESTIONS
    row = next(x for x in q.questions if x.id == "AAAI-11")
    assert row.question_cell == "B3"  # the answer places are the row's own
    assert row.text_cell == "C3"
    assert any("AAAI-11 B3 from 'Questions'!C3" in n for n in q.notes), q.notes


def test_an_id_found_nowhere_keeps_its_id_and_the_note_says_what_to_do(tmp_path):
    path = tmp_path / "vendor.xlsx"
    _workbook(path, {"ZZZZ-01": "ZZZZ-01"})
    q = read_questionnaire(path)
    assert {x.id: x.text for x in q.questions}["ZZZZ-01"] == "ZZZZ-01"
    note = next(n for n in q.notes if "ZZZZ-01" in n)
    assert "no question text anywhere in the workbook" in note and "type the question into the cell" in note


def test_a_workbook_without_such_rows_is_read_as_before(tmp_path):
    path = tmp_path / "vendor.xlsx"
    _workbook(path, {})
    q = read_questionnaire(path)
    assert {x.id: x.text for x in q.questions} == QUESTIONS
    assert not any("only their row's ID" in n for n in q.notes)
