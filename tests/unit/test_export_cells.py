"""Where answers go on export (engine/review/export_cells.py, engine/questionnaire/export.py, the
``answer_writes`` mapping beside it), on workbooks generated with openpyxl and read
back with the real reader: a choice and its explanation go into their own cells where the sheet
has an explanation column; a date goes into a date-formatted cell as a date (its serial number,
the cell's own format kept) and into any other cell as text; the export stays lossless
(tests/unit/test_export.py's check)."""

from __future__ import annotations

import datetime
import zipfile
from pathlib import Path

import openpyxl
from openpyxl.worksheet.datavalidation import DataValidation

from engine.core.types import DraftStatus
from engine.drafting.records import Draft
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.writes import CellWrite
from engine.review.export_cells import answer_writes, export_drafts
from tests.unit.test_export import assert_lossless, sheet_part


def book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "HECVAT"
    ws.append(["ID", "Question", "Vendor Answer", "Additional Information"])
    ws.append(["DATE-01", "Date", None, None])
    ws.append(["QUAL-07", "Who hosts the product?", None, None])
    ws.append(["ENC-01", "Is data encrypted at rest?", None, None])
    ws.append(["GNRL-01", "Vendor Name", None, None])
    ws["C2"].number_format = "m/d/yyyy"
    dv = DataValidation(type="list", formula1='"Yes,No"', allow_blank=True)
    ws.add_data_validation(dv)
    dv.add("C4")
    wb.save(path)
    return path


def test_choice_and_explanation_in_their_own_cells_and_the_date_as_a_date(tmp_path):
    q = read_questionnaire(book(tmp_path / "h.xlsx"))
    date_q, host, enc, vendor = q.questions
    assert q.sheets[0].comment_col == "D" and host.choice_cell is None and host.text_cell == "C3"
    answers = {
        question_key(date_q): ("2026-11-24", None),
        question_key(host): ("4) AWS — Hosted in AWS us-east-1.", None),
        question_key(enc): ("AES-256 everywhere.", "Yes"),
        question_key(vendor): ("Instructure — Inc.", None),
    }
    writes = answer_writes(q, answers, dates={question_key(date_q)})
    assert [(w.cell, w.value, w.kind) for w in writes] == [
        ("C2", "2026-11-24", "date"),
        ("C3", "4) AWS", "text"),
        ("D3", "Hosted in AWS us-east-1.", "text"),
        ("C4", "Yes", "text"),
        ("D4", "AES-256 everywhere.", "text"),
        ("C5", "Instructure — Inc.", "text"),
    ]  # a name, not a choice: not split
    out = export(q.path, tmp_path / "out.xlsx", writes)
    with zipfile.ZipFile(out) as z:
        xml = z.read(sheet_part(out, "HECVAT")).decode()
    assert '<c r="C2" s="1"><v>46350</v></c>' in xml  # a number in the date-formatted cell
    ws = openpyxl.load_workbook(out)["HECVAT"]
    assert ws["C2"].value == datetime.datetime(2026, 11, 24) and ws["C2"].number_format == "m/d/yyyy"
    dated = {(w.sheet, w.cell): w for w in writes}
    lossless = [w for w in writes if w.kind != "date"]
    assert_lossless(q.path, export(q.path, tmp_path / "text.xlsx", lossless), lossless)
    assert dated["HECVAT", "C2"].kind == "date"


def test_a_date_into_a_cell_without_a_date_format_is_text_and_drafts_export_dates(tmp_path):
    q = read_questionnaire(book(tmp_path / "h.xlsx"))
    date_q, host, *_ = q.questions
    out = export(
        q.path,
        tmp_path / "o.xlsx",
        [CellWrite("HECVAT", "C3", "2026-11-24", kind="date"), CellWrite("HECVAT", "C5", "not a date", kind="date")],
    )
    ws = openpyxl.load_workbook(out)["HECVAT"]
    assert (ws["C3"].value, ws["C5"].value) == ("2026-11-24", "not a date")
    draft = Draft(
        question_key(date_q),
        "DATE-01",
        "HECVAT",
        2,
        "Date",
        "2026-11-24",
        None,
        DraftStatus.DRAFTED,
        profile_fact="date",
    )
    ws = openpyxl.load_workbook(export_drafts(q, [draft], tmp_path / "d.xlsx"))["HECVAT"]
    assert ws["C2"].value == datetime.datetime(2026, 11, 24)
