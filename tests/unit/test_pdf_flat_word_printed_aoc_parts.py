"""Word questionnaires printed as flat PDFs (#55), an attestation's parts (the PCI AOC's Part 3: its
acknowledgements, signatories and assessors' roles, any questionnaire laid out so). Small Word documents
written here, printed by the bench's printer and read by the flat PDF reader:

- ruled: a prompt in a cell merged down over two rows, each row's cell beside it one box with its label
  ("If a QSA was involved … indicate the role performed:" beside "☐ QSA performed testing procedures." over
  "☐ QSA provided other assistance."), is one question of those options; a row right under a signature's
  row whose cells each hold a short label ending with ":" ("Merchant Executive Officer Name: | Title:",
  "Lead QSA Name:") is one text field per label. Main's reader read neither (the prompt's one box in its
  own row is no row of boxes; a label beside a label is no label beside its field). Labels side by side
  over empty rows (a records table's header) are still no questions.
- not ruled: a lead-in ending with ":" and an instruction in brackets ("Signatory(s) confirms: (Select
  all that apply)"), read as one paragraph with a title set close above it, over statements each after a
  box, is one question of those options. Main's reader read each statement as a question of its own (the
  lead-in ended with ")": no question's).
"""

from __future__ import annotations

import pytest
from docx.shared import Inches

from tests import word_fixtures as wf

ENGLISH = {
    "title": "Part 3c. Qualified Security Assessor (QSA) Acknowledgement",
    "prompt": "If a QSA was involved or assisted with this assessment, indicate the role performed:",
    "options": ("QSA performed testing procedures.", "QSA provided other assistance."),
    "field": "If selected, describe all role(s) performed:",
    "signed": ("Signature of Merchant Executive Officer", "Date: YYYY-MM-DD"),
    "officer": ("Merchant Executive Officer Name:", "Title:"),
    "signature": ("Signature of Lead QSA", "Date:"),
    "name": "Lead QSA Name:",
}
GERMAN = {
    "title": "Teil 3c. Bestätigung des Prüfers (QSA)",
    "prompt": "Falls ein QSA an dieser Bewertung beteiligt war, geben Sie seine Rolle an:",
    "options": ("Der QSA hat Prüfungen durchgeführt.", "Der QSA hat anderweitig unterstützt."),
    "field": "Falls ausgewählt, beschreiben Sie die Rolle(n):",
    "signed": ("Unterschrift des Geschäftsführers", "Datum: TT.MM.JJJJ"),
    "officer": ("Name des Geschäftsführers:", "Funktion:"),
    "signature": ("Unterschrift des leitenden QSA", "Datum:"),
    "name": "Name des leitenden QSA:",
}


def _part(doc, words: dict) -> None:
    """The signatory's rows and the assessor's part as the AOC sets them: the signature's row and the
    officer's labels under it, a title across the table, the prompt merged down beside its two boxes,
    the assessor's signature's row and the name under it."""
    table = doc.add_table(rows=7, cols=2)
    table.columns[0].width, table.columns[1].width = Inches(3.2), Inches(3.2)
    table.cell(0, 0).text, table.cell(0, 1).text = words["signed"]
    table.cell(1, 0).text, table.cell(1, 1).text = words["officer"]
    table.cell(2, 0).merge(table.cell(2, 1)).text = words["title"]
    table.cell(3, 0).merge(table.cell(4, 0)).text = words["prompt"]
    table.cell(3, 1).text = f"☐ {words['options'][0]}"
    table.cell(4, 1).text = f"☐ {words['options'][1]}"
    table.cell(4, 1).add_paragraph(words["field"])
    table.cell(5, 0).text, table.cell(5, 1).text = words["signature"]
    table.cell(6, 0).text = words["name"]


@pytest.mark.parametrize("words", [ENGLISH, GERMAN], ids=["English", "German"])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_prompt_merged_down_beside_its_boxes_and_a_signatorys_labels_are_read(tmp_path, words, paper):
    doc = wf.new()
    doc.add_paragraph("Section 3: Validation and Attestation Details")
    _part(doc, words)
    q = wf.printed(tmp_path, doc, "ruled", paper)
    found = [(wf.fold(x.text), tuple(wf.fold(c) for c in x.choices)) for x in q.questions]
    prompt = (wf.fold(words["prompt"].rstrip(":")), tuple(wf.fold(o) for o in words["options"]))
    assert prompt in [(t.rstrip(":"), c) for t, c in found]
    labels = [*words["officer"], words["name"]]
    assert [t for t, c in found if not c] == [wf.fold(label.rstrip(":")) for label in labels]


def test_labels_side_by_side_over_empty_rows_are_no_fields(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Does the merchant share account data with any third-party service providers?")
    table = doc.add_table(rows=4, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Name of service provider:", "Description of service(s) provided:"
    q = wf.printed(tmp_path, doc, "ruled", "Letter")
    assert not [x for x in q.questions if "service" in x.text.lower() and x.text != doc.paragraphs[0].text]


STATEMENTS = (
    "PCI DSS Self-Assessment Questionnaire B, Version 4.0 was completed according to the instructions therein.",
    "All information within the above-referenced SAQ and in this attestation fairly represents the results.",
    "PCI DSS controls will be maintained at all times, as applicable to the merchant's environment.",
)


@pytest.mark.parametrize("rulings", ["no rulings", "horizontal rules"])
def test_a_lead_in_with_an_instruction_in_brackets_asks_its_statements(tmp_path, rulings):
    doc = wf.new()
    table = doc.add_table(rows=2 + len(STATEMENTS), cols=2)
    table.columns[0].width, table.columns[1].width = Inches(0.4), Inches(6.0)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "Part 3a. Merchant Acknowledgement"
    lead = table.cell(1, 0).merge(table.cell(1, 1))
    lead.text = "Signatory(s) confirms:"
    lead.add_paragraph("(Select all that apply)")
    for r, statement in enumerate(STATEMENTS, start=2):
        table.cell(r, 0).text, table.cell(r, 1).text = "☐", statement
    q = wf.printed(tmp_path, doc, rulings, "Letter")
    assert len(q.questions) == 1 and wf.fold("Signatory(s) confirms") in wf.fold(q.questions[0].text)
    choices = q.questions[0].choices
    assert len(choices) == len(STATEMENTS)
    assert all(wf.fold(s).startswith(wf.fold(c).rstrip(".")) for s, c in zip(STATEMENTS, choices))


@pytest.mark.parametrize("words", [ENGLISH, GERMAN], ids=["English", "German"])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_prompt_beside_its_boxes_with_horizontal_rules_is_one_question(tmp_path, words, paper):
    """Printed with horizontal rules only, the prompt's band holds it and the first box beside it, the
    band under it the second box and the field's label: one question of the two options (main's reader
    read the table as a header-less one's lines and found none)."""
    doc = wf.new()
    doc.add_paragraph("Section 3: Validation and Attestation Details")
    _part(doc, words)
    q = wf.printed(tmp_path, doc, "horizontal rules", paper)
    found = [(wf.fold(x.text).rstrip(":"), tuple(wf.fold(c) for c in x.choices)) for x in q.questions]
    assert (wf.fold(words["prompt"].rstrip(":")), tuple(wf.fold(o) for o in words["options"])) in found
    assert not [t for t, _ in found if any(wf.fold(o) in t for o in words["options"])]
