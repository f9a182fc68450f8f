"""Dates exported into a customer's workbook land on the day written (issue #47, item 6).

Before #47 the export counted every date serial from 1899-12-30 and ignored the workbook's
``<workbookPr date1904="1"/>`` (the 1904 date system of Mac workbooks): 2026-11-24 showed as
2030-11-25, 1,462 days late. And it decided which cells show a date by a rule of its own, not the
reader's: a cell formatted as a time (``h:mm``) got the date's serial number and showed "0:00".
Workbooks generated here with openpyxl; the export is the product's own (engine/questionnaire/sheet/writer.py)."""

from __future__ import annotations

import datetime

import openpyxl
import pytest
from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900

from engine.questionnaire.export import export
from engine.questionnaire.writes import CellWrite


def workbook(path, epoch) -> None:
    wb = openpyxl.Workbook()
    wb.epoch = epoch
    ws = wb.active
    ws.title = "Vendor"
    ws.append(["ID", "Question", "Answer"])
    ws.append(["DATE-01", "Date of this response", None])
    ws.append(["TIME-01", "Time of day the backups run", None])
    ws["C2"].number_format = "m/d/yyyy"
    ws["C3"].number_format = "h:mm"
    wb.save(path)


@pytest.mark.parametrize("epoch", [CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900], ids=["1904", "1900"])
def test_a_date_lands_on_its_day_whatever_the_date_system(tmp_path, epoch):
    source = tmp_path / "vendor.xlsx"
    workbook(source, epoch)
    out = export(
        source,
        tmp_path / "out.xlsx",
        [CellWrite("Vendor", "C2", "2026-11-24", kind="date"), CellWrite("Vendor", "C3", "2026-11-24", kind="date")],
    )
    ws = openpyxl.load_workbook(out)["Vendor"]  # openpyxl reads the workbook's own date system
    assert ws.parent.epoch == epoch
    assert ws["C2"].value == datetime.datetime(2026, 11, 24) and ws["C2"].number_format == "m/d/yyyy"
    assert ws["C3"].value == "2026-11-24"  # a time cell is no date cell: the text, as the reader drafts it
