"""Spreadsheet loaders: XLSX/XLSM (openpyxl) and CSV; one unit per data row.

A row's text is "header: value" lines for its non-empty cells. The header row is the
first row with at least two non-empty, non-numeric cells (the first non-empty row when
nothing qualifies, e.g. a one-column sheet); rows above it (titles) are not data.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import openpyxl
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from engine.core.limits import Limits
from engine.core.ooxml import is_ole
from engine.core.types import IngestError, LoadedDocument, SourceKind, Unit

_NO_ROWS_FIX = "check it has a header row and at least one data row, then add it again"

Row = tuple[int, Sequence[str]]  # (1-based row number, cell texts; "" = empty)


def cell_text(value: object) -> str:
    """A cell value as clean text: 3.0 -> "3", dates ISO, strings stripped, None -> ""."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else format(value, ".15g")
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value).strip()


def rows_to_units(rows: Iterable[Row], sheet: str) -> list[Unit]:
    """Find the header row, then make one unit per non-empty data row."""
    rows = [(n, cells) for n, cells in rows if any(cells)]
    if not rows:
        return []
    header_at = next((i for i, (_, cells) in enumerate(rows) if len({c for c in cells if _is_label(c)}) >= 2), 0)
    header = rows[header_at][1]
    units = []
    for number, cells in rows[header_at + 1 :]:
        lines = [f"{_header(header, col)}: {value}" for col, value in enumerate(cells) if value]
        if lines:
            units.append(Unit(text="\n".join(lines), sheet=sheet, row=number))
    return units


def _is_label(text: str) -> bool:
    """A non-empty cell that is not a number: what a header cell looks like."""
    try:
        float(text.replace(",", ""))
    except ValueError:
        return bool(text)
    return False


def _header(header: Sequence[str], col: int) -> str:
    """Header text of 0-based column ``col``, or "Column C" when it has none."""
    text = header[col] if col < len(header) else ""
    return text or f"Column {get_column_letter(col + 1)}"


# ---------------------------------------------------------------- XLSX / XLSM


def _worksheet_rows(ws: Worksheet) -> list[Row]:
    """Cell texts per row. A merged range's top-left value fills its first column on every
    row it covers (a category merged over three rows belongs to each of them); the other
    columns of the range stay empty, so a title merged across the sheet is one cell, not a
    row of identical "headers"."""
    merged: dict[tuple[int, int], object] = {}
    for rng in ws.merged_cells.ranges:
        value = ws.cell(rng.min_row, rng.min_col).value
        for r in range(rng.min_row, rng.max_row + 1):
            merged[(r, rng.min_col)] = value
            for c in range(rng.min_col + 1, rng.max_col + 1):
                merged[(r, c)] = None
    rows: list[Row] = []
    for cells in ws.iter_rows():
        if not cells:
            continue
        texts = []
        for cell in cells:
            value = merged.get((cell.row, cell.column), cell.value)
            text = cell_text(value)
            if cell.data_type == "f" and text.startswith("="):
                text = ""  # formula without a cached value: never index the formula
            texts.append(text)
        rows.append((cells[0].row, texts))
    return rows


def load_workbook_file(path: Path, name: str, limits: Limits) -> LoadedDocument:
    """Load every worksheet (hidden ones too, with a note) of an .xlsx/.xlsm file; its
    uncompressed size, rows and cells are checked against ``limits`` before openpyxl reads it."""
    if is_ole(path):
        raise IngestError(
            name,
            "is password-protected (encrypted) or an old .xls file",
            "remove the password / save it as .xlsx and add it again",
        )
    limits.check_workbook(path, name)
    try:
        with warnings.catch_warnings():  # "extension is not supported": irrelevant to reading
            warnings.simplefilter("ignore", UserWarning)
            wb = openpyxl.load_workbook(path, data_only=True)
    except Exception as exc:  # BadZipFile, KeyError, InvalidFileException, XML errors...
        raise IngestError(
            name,
            "is not a readable Excel workbook (corrupt, truncated or not an .xlsx)",
            "open it in Excel, save it again as .xlsx and add that",
        ) from exc
    units: list[Unit] = []
    notes: list[str] = []
    try:
        for ws in wb.worksheets:
            sheet_units = rows_to_units(_worksheet_rows(ws), ws.title)
            if sheet_units and ws.sheet_state in ("hidden", "veryHidden"):
                notes.append(f"sheet '{ws.title}' is hidden; its rows were indexed too")
            units.extend(sheet_units)
    finally:
        wb.close()
    if not units:
        raise IngestError(name, "has no data rows", _NO_ROWS_FIX)
    return LoadedDocument(name=name, kind=SourceKind.SHEET, units=tuple(units), notes=tuple(notes))


# ---------------------------------------------------------------- CSV


def sniff_delimiter(text: str) -> str:
    """The delimiter csv.Sniffer finds among , ; tab |, else ","."""
    sample = text[:65536]
    if len(text) > len(sample) and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # whole lines only
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def load_csv(path: Path, name: str, limits: Limits) -> LoadedDocument:
    """Load a CSV file; sheet = file stem, row = record number (header usually row 1)."""
    text = limits.read_text(path, name)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(text))
    try:
        records = limits.bounded_rows(name, Path(name).stem, reader)
        rows = [(n, [cell.strip() for cell in record]) for n, record in records]
    except csv.Error as exc:
        raise IngestError(name, f"is not valid CSV ({exc})", "re-export it from the spreadsheet as CSV") from exc
    units = rows_to_units(rows, Path(name).stem)
    if not units:
        raise IngestError(name, "has no data rows", _NO_ROWS_FIX)
    return LoadedDocument(name=name, kind=SourceKind.SHEET, units=tuple(units))
