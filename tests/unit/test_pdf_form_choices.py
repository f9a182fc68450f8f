"""PDF forms whose check boxes are the options of one choice (issue #55), on forms the tests draw
with PyMuPDF (tests/pdf_forms.py): rows of boxes under the same labels on every row (You / Spouse /
No), the boxes of one XFA subform drawn on several lines, and the fields a form keeps for someone
else (a preparer's part, a table of records, a signature line) left alone; each choice written back
as its box ticked and read back."""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.pdf.writer import write_pdf
from engine.questionnaire.places import FORM_SHEET, PlaceKind, place_key
from tests.pdf_forms import CHECKBOX, TEXT, add_field, label, save


@dataclass(frozen=True)
class Write:
    sheet: str
    cell: str
    value: str


def _ticked(path) -> set[str]:
    with pymupdf.open(path) as d:
        return {
            w.field_name
            for page in d
            for w in page.widgets()
            if w.field_type == CHECKBOX and w.field_value not in ("Off", "", False)
        }


def test_rows_of_boxes_under_the_same_labels_are_one_choice_each_written_as_the_box_ticked(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 80, "Check if you or your spouse were:")
    rows = ("A U.S. citizen", "In the U.S. on a visa", "A full-time student")
    for r, row in enumerate(rows):
        y = 95 + 16 * r
        label(page, 50, y + 9, row)
        for c, choice in enumerate(("You", "Spouse", "No")):
            x = 200 + 60 * c
            add_field(page, CHECKBOX, f"b{r}{c}", (x, y, x + 9, y + 9))  # names that say nothing
            label(page, x + 13, y + 9, choice)
    path = save(doc, tmp_path / "rows.pdf")
    q = read_pdf_questionnaire(path)
    assert [(x.text, x.choices) for x in q.questions] == [(row, ("You", "Spouse", "No")) for row in rows]
    visa = q.questions[1]
    assert q.places[place_key(FORM_SHEET, visa.choice_cell)].kind is PlaceKind.PDF_BUTTONS
    out = write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, visa.choice_cell, "Spouse")])
    assert _ticked(out) == {"b11"}  # the row's Spouse box, no other
    back = read_pdf_questionnaire(out)
    assert [x.existing_choice for x in back.questions] == [None, "Spouse", None]


def test_boxes_of_one_xfa_subform_are_one_question_and_other_peoples_fields_are_left_alone(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=792, height=612)
    sub = "form1[0].page1[0]"
    label(page, 50, 60, "Your name")
    add_field(page, TEXT, f"{sub}.yourName[0]", (150, 48, 300, 62), tooltip="Your name.")
    # one question's four boxes on two lines, its "If other, explain" field beside the last
    label(page, 50, 90, "If due a refund, how would you like your refund")
    options = (("deposit", "Direct deposit"), ("check", "Check by mail"), ("split", "Split refund"), ("other", "Other"))
    for i, (name, text) in enumerate(options):
        x, y = 50 + 120 * (i % 2), 100 + 16 * (i // 2)
        tip = f"If due a refund, how would you like your refund. {text}."
        add_field(page, CHECKBOX, f"{sub}.dueARefund[0].{name}[0]", (x, y, x + 9, y + 9), tooltip=tip)
        label(page, x + 13, y + 9, text)
    add_field(page, TEXT, f"{sub}.dueARefund[0].otherExplain[0]", (230, 114, 330, 128), tooltip="If other, explain.")
    # the volunteer's column, its notes field beside it
    label(page, 400, 40, "(To be completed by certified volunteer) Income to be included")
    tip = "(To be completed by certified volunteer) Income to be included. W-2s."
    add_field(page, CHECKBOX, f"{sub}.incomeIncluded[0].formW2s[0]", (400, 50, 409, 59), tooltip=tip)
    label(page, 413, 59, "W-2s")
    add_field(page, TEXT, f"{sub}.incomeIncluded[0].formW2sNumber[0]", (500, 48, 540, 62), tooltip="W-2s. #.")
    add_field(page, CHECKBOX, f"{sub}.incomeIncluded[0].tips[0]", (400, 70, 409, 79), tooltip="Tips.")
    label(page, 413, 79, "Tips")
    add_field(page, TEXT, f"{sub}.incomeComment[0].comments[0]", (600, 48, 760, 90), tooltip="Notes/Comments.")
    # a table of records, and a signature line drawn as a text field
    label(page, 50, 170, "List everyone who lived with you")
    for r in (1, 2, 3):
        for c, col in enumerate(("name", "dateOfBirth")):
            rect = (50 + 150 * c, 165 + 16 * r, 190 + 150 * c, 179 + 16 * r)
            add_field(page, TEXT, f"{sub}.namesOf[0].Row{r}[0].{col}[0]", rect, tooltip=f"Row: {r}. Column: {col}.")
    add_field(page, TEXT, f"{sub}.signature[0]", (50, 300, 300, 316), tooltip="Taxpayer printed name and signature")
    add_field(page, TEXT, f"{sub}.dateSigned[0]", (320, 300, 400, 316), tooltip="Date")
    path = save(doc, tmp_path / "xfa.pdf")

    q = read_pdf_questionnaire(path)
    name, refund = q.questions
    assert name.text == "Your name."
    assert refund.text == "If due a refund, how would you like your refund"
    assert refund.choices == ("Direct deposit", "Check by mail", "Split refund", "Other")
    assert q.places[place_key(FORM_SHEET, refund.text_cell)].locator == f"{sub}.dueARefund[0].otherExplain[0]"
    note = next(n for n in q.notes if n.startswith("left alone"))
    assert "4 office-use fields" in note and "6 table row fields" in note and "2 signature line fields" in note
    assert any(n.startswith("a table of 3 rows on page 1 (namesOf)") for n in q.notes)

    out = write_pdf(
        q,
        tmp_path / "out.pdf",
        [Write(FORM_SHEET, refund.choice_cell, "Other"), Write(FORM_SHEET, refund.text_cell, "Half to savings")],
    )
    assert _ticked(out) == {f"{sub}.dueARefund[0].other[0]"}
    back = read_pdf_questionnaire(out).questions[1]
    assert (back.existing_choice, back.existing_answer) == ("Other", "Half to savings")
