"""Text in the workbooks the product makes (the expert's packet, a flat PDF's answers as XLSX):
every string cell typed as text (``data_type = "s"``), so a value that starts with "=" — a
question, an answer, a file name nobody vetted — stays text and is never a formula (openpyxl stores
such a string as a formula unless told otherwise), and without what XML 1.0 cannot hold (control
characters, U+FFFE and U+FFFF: engine/core/xml_text.py, the one rule of every writer). The CSV counterpart, a leading quote, is engine/questionnaire/csv_writer.py; the export into the
customer's own workbook writes inline strings (engine/questionnaire/sheet/writer.py)."""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl.cell.cell import Cell
from openpyxl.worksheet.worksheet import Worksheet

from engine.core.xml_text import xml_safe


def plain_text(value: object) -> str:
    """Text a workbook (or a Word document) can hold: what XML 1.0 cannot hold removed (the one
    rule, engine/core/xml_text.py: control characters, U+FFFE, U+FFFF)."""
    return xml_safe("" if value is None else str(value))


def set_text(cell: Cell, value: object) -> Cell:
    """``cell`` holding ``value`` as text (None: empty), never a formula."""
    cell.value = plain_text(value) if value is not None else None
    if isinstance(cell.value, str):
        cell.data_type = "s"
    return cell


def append_text(ws: Worksheet, values: Sequence[object]) -> int:
    """``values`` appended as a new row of ``ws``, every cell text (:func:`set_text`); its row number."""
    ws.append([None if v is None else plain_text(v) for v in values])
    for cell in ws[ws.max_row]:  # the row just appended
        if isinstance(cell.value, str):
            cell.data_type = "s"
    return ws.max_row


__all__ = ["append_text", "plain_text", "set_text"]
