"""An exported workbook asks for recalculation when formulas read its answers (#23 item 6).

After HECVAT 4.1.4's START HERE answers were exported, the other sheets' formulas that copy
them (``Case-Specific!C13 = VLOOKUP($A13,'START HERE'!$A$13:$C$21,3,0)``) kept their saved
blank values and the workbook did not ask to be recalculated (``<calcPr calcId="191029"/>``
unchanged), so any tool that reads saved values saw blanks. Now, when a formula may read a
filled sheet (one on that sheet, or one on another sheet naming it), the export sets
``fullCalcOnLoad="1"`` on ``<calcPr>`` (adding the element when there is none), the one change
to ``workbook.xml``; the lossless check of tests/unit/test_export.py still holds.

Workbooks written here with openpyxl, their ``<calcPr>`` then set as Excel writes it (openpyxl
itself writes ``fullCalcOnLoad="1"``); and the real blank HECVAT 4.1.4 from ../shared/data
(skipped, saying so, when absent; never copied into the repo).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from engine.questionnaire.export import export
from engine.questionnaire.writes import CellWrite
from tests.unit.test_export import assert_lossless, sheet_part

EXCEL_CALC_PR = '<calcPr calcId="191029"/>'


def _with_calc_pr(path: Path, calc_pr: str) -> Path:
    """The workbook with its <calcPr> replaced by ``calc_pr`` ("" removes it)."""
    with zipfile.ZipFile(path) as z:
        members = {info.filename: z.read(info) for info in z.infolist()}
    workbook = members["xl/workbook.xml"].decode()
    new, n = re.subn(r"<calcPr\b[^>]*/>", calc_pr, workbook)
    assert n == 1, workbook
    members["xl/workbook.xml"] = new.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def questionnaire(path: Path, answers: str, reader: str | None, calc_pr: str = EXCEL_CALC_PR) -> Path:
    """Sheet ``answers`` with questions and empty answer cells (C2:C3); sheet "Summary" whose
    C13 copies ``answers``!C2 when ``reader`` is its formula, else holds only a formula on
    itself."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = answers
    sheet.append(["ID", "Question", "Answer"])
    sheet.append(["GNRL-01", "Do you encrypt data at rest?", None])
    sheet.append(["GNRL-02", "Do you enforce MFA?", None])
    summary = wb.create_sheet("Summary")
    summary["A1"], summary["B1"] = 2, "=A1*2"
    summary["C13"] = reader
    wb.save(path)
    return _with_calc_pr(path, calc_pr)


def calc_pr(path: Path) -> str | None:
    with zipfile.ZipFile(path) as z:
        found = re.search(r"<calcPr\b[^>]*>", z.read("xl/workbook.xml").decode())
    return found[0] if found else None


WRITES = [CellWrite("START HERE", "C2", "Yes"), CellWrite("START HERE", "C3", "No")]


@pytest.mark.parametrize(
    ("answers", "reader"),
    [
        ("START HERE", "='START HERE'!C2"),  # HECVAT's pattern: another sheet copies a START HERE answer
        ("START HERE", '=VLOOKUP("GNRL-01",\'START HERE\'!$A$2:$C$3,3,0)&""'),
        ("Answers", "=Answers!C2"),  # a sheet name needing no quotes
        ("Vendor's Answers", "='Vendor''s Answers'!C2"),  # an apostrophe, doubled inside the quotes
    ],
)
def test_a_formula_on_another_sheet_reading_an_answer_asks_for_recalculation(tmp_path, answers, reader):
    src = questionnaire(tmp_path / "q.xlsx", answers, reader)
    writes = [CellWrite(answers, w.cell, w.value) for w in WRITES]
    out = export(src, tmp_path / "answered.xlsx", writes)
    assert calc_pr(out) == '<calcPr calcId="191029" fullCalcOnLoad="1"/>'
    assert_lossless(src, out, writes)  # workbook.xml: only that attribute changed
    assert openpyxl.load_workbook(out)["Summary"]["C13"].value == reader  # the formula itself is kept


def test_a_workbook_without_calc_pr_gets_one_in_its_place(tmp_path):
    src = questionnaire(tmp_path / "q.xlsx", "START HERE", "='START HERE'!C2", calc_pr="")
    out = export(src, tmp_path / "answered.xlsx", WRITES)
    with zipfile.ZipFile(out) as z:
        workbook = z.read("xl/workbook.xml").decode()
    assert re.search(
        r'</sheets>(<definedNames/>|<definedNames>.*</definedNames>)?<calcPr fullCalcOnLoad="1"/></workbook>', workbook
    ), workbook
    assert_lossless(src, out, WRITES)
    assert openpyxl.load_workbook(out).calculation.fullCalcOnLoad is True


def test_no_formula_reads_the_answers_so_the_workbook_part_is_unchanged(tmp_path):
    src = questionnaire(tmp_path / "q.xlsx", "START HERE", None)  # Summary's only formula reads Summary
    out = export(src, tmp_path / "answered.xlsx", WRITES)
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
        assert a.read("xl/workbook.xml") == b.read("xl/workbook.xml")
        changed = {n for n in a.namelist() if a.read(n) != b.read(n)}
    assert changed == {sheet_part(src, "START HERE")}
    assert calc_pr(out) == EXCEL_CALC_PR


@pytest.fixture(scope="module")
def hecvat(shared_data: Path) -> Path:
    path = shared_data / "hecvat_blank" / "HECVAT414.xlsx"
    if not path.is_file():
        pytest.skip(f"{path} is absent: the real HECVAT 4.1.4 export cannot be checked")
    return path


@pytest.mark.filterwarnings("ignore:.* extension is not supported:UserWarning")
def test_hecvat_start_here_answers_ask_for_recalculation(hecvat, tmp_path):
    assert calc_pr(hecvat) == EXCEL_CALC_PR  # as shipped: nothing asks Excel to recalculate
    writes = [CellWrite("START HERE", f"C{row}", f"answer {row}") for row in range(13, 22)]  # GNRL-01..09
    out = export(hecvat, tmp_path / "HECVAT414-answered.xlsx", writes)
    assert calc_pr(out) == '<calcPr calcId="191029" fullCalcOnLoad="1"/>'
    assert_lossless(hecvat, out, writes, read_only=True)
    case = openpyxl.load_workbook(out, read_only=True)["Case-Specific"]
    assert "'START HERE'!$A$13:$C$21" in case["C13"].value  # the formula that copies the answers is kept
