"""A flat PDF's answers written beside it (engine/questionnaire/pdf/response.py): the Word response
document lists every question in the PDF's order with its number and its answer (or "No answer
yet"), the XLSX and CSV hold the same rows as text (a formula-looking answer is never a formula),
and a target of the wrong kind is refused with one line."""

from __future__ import annotations

import docx
import openpyxl
import pytest

from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.pdf.response import NO_ANSWER, write_response_docx, write_response_table
from engine.questionnaire.writes import CellWrite, ExportError
from tests.pdf_forms import flat_pdf


@pytest.fixture()
def questionnaire(tmp_path):
    path = flat_pdf(
        tmp_path / "supplier questionnaire.pdf",
        [
            [(50, 90, "1. Do you have a documented security policy?"), (50, 120, "2. Describe your backup process.")],
            [(50, 90, "3. Is customer data encrypted at rest?")],
        ],
    )
    return read_pdf_questionnaire(path)


def _writes(q):
    first, second, third = q.questions
    return [
        CellWrite(first.sheet, first.choice_cell, "Yes"),
        CellWrite(first.sheet, first.text_cell, "Reviewed every year.\nApproved by the board."),
        CellWrite(second.sheet, second.text_cell, '=HYPERLINK("http://x")'),
        CellWrite(third.sheet, third.choice_cell, "No"),
    ]


def test_response_document_lists_every_question_in_order_with_its_answer(questionnaire, tmp_path):
    out = write_response_docx(questionnaire, tmp_path / "answers.docx", _writes(questionnaire))
    paragraphs = [p.text for p in docx.Document(out).paragraphs]
    assert paragraphs[0] == "supplier questionnaire.pdf"  # the title: the PDF's name
    body = paragraphs[2:]
    assert body == [
        "1 Do you have a documented security policy? (page 1)",
        "Answer: Yes",
        "Reviewed every year.",
        "Approved by the board.",
        "2 Describe your backup process. (page 1)",
        '=HYPERLINK("http://x")',
        "3 Is customer data encrypted at rest? (page 2)",
        "Answer: No",
    ]
    empty = write_response_docx(questionnaire, tmp_path / "blank.docx", [])
    assert [p.text for p in docx.Document(empty).paragraphs].count(NO_ANSWER) == 3


def test_response_table_as_xlsx_and_csv_holds_text_only(questionnaire, tmp_path):
    xlsx = write_response_table(questionnaire, tmp_path / "answers.xlsx", _writes(questionnaire))
    ws = openpyxl.load_workbook(xlsx).active
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    assert rows[0] == ["Number", "Page", "Question", "Answer", "Explanation"]
    assert rows[2] == ["2", "1", "Describe your backup process.", None, '=HYPERLINK("http://x")']
    assert ws["E3"].data_type == "s"  # text, not a formula
    csv = write_response_table(questionnaire, tmp_path / "answers.csv", _writes(questionnaire)).read_text()
    assert "'=HYPERLINK" in csv and "3,2,Is customer data encrypted at rest?,No," in csv


def test_response_target_of_the_wrong_kind_is_refused(questionnaire, tmp_path):
    with pytest.raises(ExportError, match="answers.pdf: a response document must be .docx"):
        write_response_docx(questionnaire, tmp_path / "answers.pdf", [])
    with pytest.raises(ExportError, match="must be .xlsx or .csv"):
        write_response_table(questionnaire, tmp_path / "answers.docx", [])
