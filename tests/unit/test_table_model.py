"""One table model for Word and PDF tables, placeholders and language-neutral cues (issue #55 items
1, 2 and 5), on small documents the tests write (python-docx and raw XML: tests/word_fixtures.py;
PyMuPDF draws the flat PDF's ruled table)."""

from __future__ import annotations

import pymupdf
import pytest

from engine.questionnaire import read_questionnaire
from engine.questionnaire.cues import ascii_digits, asks_by_mark
from engine.questionnaire.placeholders import is_placeholder, repeated_placeholders
from engine.questionnaire.places import PlaceKind, place_key
from engine.questionnaire.table_model import (
    Holds,
    Role,
    TableCell,
    infer,
    question_rows,
    role_of_label,
    translated_lines,
)
from engine.questionnaire.word.writer import write_docx
from engine.questionnaire.writes import CellWrite
from tests import word_fixtures as wf


def places(q, question):
    get = lambda cell: q.places.get(place_key(question.sheet, cell)) if cell else None  # noqa: E731
    return get(question.choice_cell), get(question.text_cell)


def _box() -> str:
    return wf.para(wf.formcheckbox())


def _option_table(tmp_path):
    """A requirement table whose response is one of two box columns under a two-level header."""
    doc = wf.new()
    wf.add(
        doc,
        wf.table(
            [
                ["No.", "Requirement", "Expected Testing", "gs2:Response (check one)"],
                ["", "", "", "In Place", "Not in Place"],
                ["1.3.1", "Inbound traffic is restricted.", "Examine configurations.", _box(), _box()],
                ["1.3.2", "Outbound traffic is restricted.", "Examine configurations.", _box(), _box()],
            ],
            widths=5,
        ),
    )
    return wf.save(doc, tmp_path / "saq.docx")


def test_option_columns_are_one_choice_per_row_and_the_header_is_no_question(tmp_path):
    q = read_questionnaire(_option_table(tmp_path))
    assert [(x.id, x.text) for x in q.questions] == [
        ("1.3.1", "Inbound traffic is restricted."),
        ("1.3.2", "Outbound traffic is restricted."),
    ]
    first = q.questions[0]
    choice, text = places(q, first)
    assert first.choices == ("In Place", "Not in Place") and choice.kind is PlaceKind.CHECKBOXES
    assert len(choice.options) == 2 and text is None  # no free text in an option column


def test_a_choice_of_option_columns_is_written_and_read_back(tmp_path):
    path = _option_table(tmp_path)
    q = read_questionnaire(path)
    out = write_docx(q, tmp_path / "answered.docx", [CellWrite("Document", q.questions[1].choice_cell, "Not in Place")])
    again = read_questionnaire(out)
    assert [x.existing_choice for x in again.questions] == [None, "Not in Place"]


def test_a_japanese_yes_no_table_with_full_width_numbers(tmp_path):
    doc = wf.new()
    wf.add(
        doc,
        wf.table(
            [
                ["番号", "質問", "はい", "いいえ"],
                ["１．１", "パスワードを定期的に変更していますか。", "", ""],
                ["１．２", "多要素認証を導入していますか？", "", ""],
            ]
        ),
    )
    q = read_questionnaire(wf.save(doc, tmp_path / "ja.docx"))
    assert [x.text for x in q.questions] == ["パスワードを定期的に変更していますか。", "多要素認証を導入していますか？"]
    choice, text = places(q, q.questions[0])
    assert q.questions[0].choices == ("はい", "いいえ") and choice.control == "X column" and text is None


def test_a_row_of_labelled_boxes_over_its_text_row_is_one_question(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Limit system access to authorized users.")))
    boxes = [wf.para(wf.formcheckbox(), wf.text(" " + label)) for label in ("Implemented", "Not Applicable")]
    wf.add(doc, wf.table([boxes, ["gs2:Describe the implementation."]], widths=2))
    q = read_questionnaire(wf.save(doc, tmp_path / "ssp.docx"))
    assert len(q.questions) == 1
    only = q.questions[0]
    choice, text = places(q, only)
    assert "Limit system access" in only.text and only.choices == ("Implemented", "Not Applicable")
    assert text is not None and text.kind is PlaceKind.TABLE_CELL


def test_a_list_of_records_under_a_form_is_no_question(tmp_path):
    doc = wf.new()
    wf.add(
        doc,
        wf.table(
            [
                ["Company name:", wf.para(wf.formtext())],
                ["Name of service provider:", "Description of services:"],
                [wf.para(wf.formtext()), wf.para(wf.formtext())],
                [wf.para(wf.formtext()), wf.para(wf.formtext())],
            ]
        ),
    )
    q = read_questionnaire(wf.save(doc, tmp_path / "form.docx"))
    assert [x.text for x in q.questions] == ["Company name"]
    assert any("list of records" in note for note in q.notes)


def test_a_date_mask_or_an_instruction_in_the_place_is_no_answer(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["Expiry date:", "YYYY-MM-DD"], ["CSP name:", "Insert CSP Name"], ["Region:", "London"]]))
    q = read_questionnaire(wf.save(doc, tmp_path / "form.docx"))
    assert [x.existing_answer for x in q.questions] == [None, None, "London"]


@pytest.mark.parametrize(
    "text",
    ["YYYY-MM-DD", "(mm/dd/yyyy)", "Insert CSP Name", "Click here to enter text.", "<Fill In>", "[Insert the identifier]",
     "…", "____", "Select One", "ここをクリックしてテキストを入力してください", "Klik hier om tekst in te voeren."],
)  # fmt: skip
def test_placeholders(text):
    assert is_placeholder(text)


@pytest.mark.parametrize(
    "text", ["Acme Cloud Ltd", "Yes", "N/A", "2024-01-05", "Provide your ISO 9001 certification", "Type 2 SOC report"]
)
def test_answers_are_not_placeholders(text):
    assert not is_placeholder(text)


def test_the_same_words_in_many_places_are_shipped_not_answered():
    assert repeated_placeholders(["Enter response here please"] * 6 + ["Annual review by the CISO."]) == {
        "Enter response here please"
    }
    answered = ["Customers retain control of their data."] * 6 + [f"Answer {n}" for n in range(20)]
    assert repeated_placeholders(answered) == set()  # a questionnaire answered: its answers, repeated or not


def test_question_cues_in_every_script():
    assert asks_by_mark("多要素認証を導入していますか？") and asks_by_mark("パスワードを変更していますか。")
    assert asks_by_mark("Is MFA enforced?") and not asks_by_mark("See https://example.com/?q=1 for details")
    assert ascii_digits("１．２") == "1.2"


def test_header_words_name_roles_in_several_languages():
    assert role_of_label("Fragentext") is Role.QUESTION and role_of_label("回答") is Role.ANSWER
    assert (
        role_of_label("Response / Not in Place") is Role.OPTION and role_of_label("Expected Testing") is Role.GUIDANCE
    )


@pytest.mark.parametrize(
    ("cell", "label"),
    [
        ("はい\nYes", "はい / Yes"),
        ("備考\nRemarks", "備考 / Remarks"),
        ("Ja\nYes", "Ja / Yes"),
        ("確認項目\nItem", "確認項目 / Item"),
        ("Yes\nNo", None),  # the options to write in the column, not one label said twice
        ("はい\nいいえ", None),
        ("Not Applicab\nle", None),  # a word broken over lines
        ("Yes", None),
    ],
)
def test_a_header_cell_that_says_its_label_again_on_a_line_of_its_own(cell, label):
    assert translated_lines(cell) == label


def test_the_model_skips_a_section_row_and_a_merged_notes_row():
    cell = TableCell
    rows = [
        [cell(0, 0, 1, "Requirement", Holds.TEXT), cell(0, 1, 1, "Yes", Holds.TEXT), cell(0, 2, 1, "No", Holds.TEXT)],
        [cell(1, 0, 3, "Section A", Holds.TEXT)],
        [cell(2, 0, 1, "Backups are tested.", Holds.TEXT), cell(2, 1, 1, "", Holds.BOX), cell(2, 2, 1, "", Holds.BOX)],
        [
            cell(3, 0, 1, "Notes: quarterly", Holds.TEXT),
            cell(3, 1, 1, "", Holds.BLANK, continued=True),
            cell(3, 2, 1, "", Holds.BLANK, continued=True),
        ],
    ]
    model = infer(rows, 3)
    assert model is not None and model.header_rows == (0,) and model.options == [1, 2]
    assert question_rows(rows, model) == [(2, "Section A")]


def test_a_flat_pdf_table_of_option_columns_is_read_like_its_word_twin(tmp_path):
    path = tmp_path / "flat.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    xs = [50, 110, 380, 460, 540]
    ys = [100, 130, 170, 210]
    rows = [["No.", "Requirement", "In Place", "Not in Place"], ["1.1", "Backups are tested.", "", ""],
            ["1.2", "Access is reviewed.", "", ""]]  # fmt: skip
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for r, row in enumerate(rows):
        for c, words in enumerate(row):
            if words:
                page.insert_text((xs[c] + 4, ys[r] + 20), words, fontsize=9)
    doc.save(path)
    q = read_questionnaire(path)
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        ("1.1", "Backups are tested.", ("In Place", "Not in Place")),
        ("1.2", "Access is reviewed.", ("In Place", "Not in Place")),
    ]
