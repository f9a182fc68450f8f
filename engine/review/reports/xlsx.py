"""A report as an XLSX workbook, written with openpyxl (a new file of ours, not a customer's): an
"About" sheet (the report's title, when it was made, each table with how it is computed), then one
sheet per table with its header frozen and an autofilter, and a "Figure rows" sheet listing the
rows each figure counts. A figure's cell holds its count and links to its first line there.

Every text is written as text, never as a formula (a question or an answer starting with ``=`` is
shown as it is, not run), without the control characters a workbook cannot hold."""

from __future__ import annotations

import io
from typing import Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.hyperlink import Hyperlink
from openpyxl.worksheet.worksheet import Worksheet

from engine.core.xml_text import xml_safe
from engine.review.reports.tables import Figure, Table

ROWS_SHEET = "Figure rows"
_WIDE = 60  # characters: the widest a column is made (longer texts wrap)
_BAD_TITLE = str.maketrans({c: "_" for c in "[]:*?/\\"})


def xlsx_bytes(title: str, made: str, tables: Sequence[Table]) -> bytes:
    """The workbook of ``tables`` (see the module docstring); ``made``: when the report was made."""
    wb = Workbook()
    about = wb.active
    about.title = "About"
    _put(about, 1, 1, title).font = Font(bold=True, size=14)
    _put(about, 2, 1, f"Made {made}. Each figure links to its rows on the sheet {ROWS_SHEET!r}.")
    about.append([])
    about.append(["Sheet", "What it shows"])
    titles = _titles([t.name for t in tables])
    for table, sheet in zip(tables, titles):
        about.append([sheet, table.about])
    _header(about, 4, 2)
    about.column_dimensions["A"].width, about.column_dimensions["B"].width = 24, 110
    figures: list[Figure] = [f for t in tables for f in t.figures() if f.value]
    first = _figure_rows(wb, figures)
    for table, sheet in zip(tables, titles):
        _table(wb.create_sheet(sheet), table, first)
    wb.move_sheet(ROWS_SHEET, offset=len(tables))  # last
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _titles(names: Sequence[str]) -> list[str]:
    """Sheet titles: at most 31 characters, none of ``[]:*?/\\``, each once."""
    seen: set[str] = {"about", ROWS_SHEET.casefold()}
    out = []
    for name in names:
        base = name.translate(_BAD_TITLE)[:31] or "Table"
        title, n = base, 1
        while title.casefold() in seen:
            n += 1
            title = f"{base[: 31 - len(str(n)) - 1]} {n}"
        seen.add(title.casefold())
        out.append(title)
    return out


def _put(ws: Worksheet, row: int, col: int, value):
    """One cell, a text always as text (never a formula)."""
    if isinstance(value, str):
        value = xml_safe(value)
    cell = ws.cell(row, col, value)
    if isinstance(value, str):
        cell.data_type = "s"
    return cell


def _header(ws: Worksheet, row: int, width: int) -> None:
    for col in range(1, width + 1):
        ws.cell(row, col).font = Font(bold=True)


def _figure_rows(wb: Workbook, figures: Sequence[Figure]) -> dict[int, int]:
    """The sheet of every figure's rows; the line of each figure's first row, by ``id(figure)``."""
    ws = wb.create_sheet(ROWS_SHEET)
    for col, name in enumerate(("Figure", "Row", "Question", "Where"), start=1):
        _put(ws, 1, col, name)
    _header(ws, 1, 4)
    first: dict[int, int] = {}
    line = 2
    for f in figures:
        first[id(f)] = line
        for ref in f.refs:
            for col, value in enumerate((f.name, ref.label, ref.question, ref.where), start=1):
                _put(ws, line, col, value)
            line += 1
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = f"A1:D{max(line - 1, 1)}"
    for letter, width in zip("ABCD", (40, 14, 80, 40)):
        ws.column_dimensions[letter].width = width
    return first


def _table(ws: Worksheet, table: Table, first: dict[int, int]) -> None:
    for col, name in enumerate(table.columns, start=1):
        _put(ws, 1, col, name)
    _header(ws, 1, len(table.columns))
    widths = [len(c) for c in table.columns]
    for r, row in enumerate(table.rows, start=2):
        for c, value in enumerate(row, start=1):
            if isinstance(value, Figure):
                cell = _put(ws, r, c, value.value)
                if id(value) in first:
                    cell.hyperlink = Hyperlink(ref=cell.coordinate, location=f"'{ROWS_SHEET}'!A{first[id(value)]}")
                    cell.style = "Hyperlink"
                continue
            cell = _put(ws, r, c, value)
            if isinstance(value, str) and len(value) > _WIDE:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
            widths[c - 1] = max(widths[c - 1], min(len(str(value or "")), _WIDE))
    for c, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(c)].width = width + 2
    ws.freeze_panes = "A2"
    last = get_column_letter(max(len(table.columns), 1))
    ws.auto_filter.ref = f"A1:{last}{max(len(table.rows) + 1, 1)}"
