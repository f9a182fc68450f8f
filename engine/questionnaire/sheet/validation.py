"""What openpyxl does not give a reader: the raw sheet XML of an .xlsx/.xlsm package.

One streaming pass over a worksheet part collects the cells that hold formulas (and each
formula as written), the cells whose saved value is an error (``#DIV/0!``, ``#REF!``…), the merged
ranges, the last row with a value, and the list data validations (dropdowns) in both forms:

* ordinary: ``<dataValidation type="list" sqref="C3:C9"><formula1>"Yes,No"</formula1>``
* the x14 extension (``<extLst>…<x14:dataValidation type="list"><x14:formula1><xm:f>
  Values!$A$4:$A$5</xm:f></x14:formula1><xm:sqref>C3:C9</xm:sqref>``), which openpyxl
  drops with a warning; real HECVAT workbooks keep most dropdowns there.

A list's source is literal (``"Yes,No,N/A"``), a range (maybe on a hidden sheet) or a defined
name; :func:`resolve_list` turns it into the allowed values.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from defusedxml import ElementTree as ET  # entities are refused, never expanded
from openpyxl.formula.translate import Translator
from openpyxl.utils.cell import column_index_from_string, get_column_letter, range_boundaries

from engine.core.ooxml import MAIN, SheetInfo

X14 = "{http://schemas.microsoft.com/office/spreadsheetml/2009/9/main}"
XM = "{http://schemas.microsoft.com/office/excel/2006/main}"

MAX_ROW = 1_048_576
MAX_LIST_CELLS = 2_000  # a dropdown source larger than this is not a list of answers

Bounds = tuple[int, int, int, int]  # (min_col, min_row, max_col, max_row), 1-based
# read_range(sheet, bounds) -> the non-empty cell texts of that range, row by row
RangeReader = Callable[[str, Bounds], list[str]]

_CELL = re.compile(r"^([A-Z]{1,3})(\d+)$")
_RANGE = re.compile(
    r"^(?:(?:'(?P<q>(?:[^']|'')+)'|(?P<s>[^'!]+))!)?"
    r"(?P<r>\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)$"
)


@dataclass(frozen=True)
class ListValidation:
    """One list data validation: where it applies and the source of its values."""

    ranges: tuple[Bounds, ...]
    formula: str

    def covers(self, row: int, col: int) -> bool:
        return any(c0 <= col <= c1 and r0 <= row <= r1 for c0, r0, c1, r1 in self.ranges)


@dataclass(frozen=True)
class SheetScan:
    """What one pass over a worksheet part found."""

    formulas: frozenset[tuple[int, int]]  # (row, col) of cells holding a formula
    merges: tuple[Bounds, ...]
    validations: tuple[ListValidation, ...]
    last_row: int  # last row with a value (0 when none)
    errors: frozenset[tuple[int, int]] = frozenset()  # (row, col) of cells whose saved value is an error
    texts: Mapping[tuple[int, int], str] = field(default_factory=dict)  # each formula as written, without "="
    # the cells of a shared formula (``<f t="shared" si="N"/>``, no text of their own) → N, and
    # each group's first cell with its text: translated to the cell when asked (:meth:`formula`)
    shared: Mapping[tuple[int, int], str] = field(default_factory=dict)
    groups: Mapping[str, tuple[tuple[int, int], str]] = field(default_factory=dict)

    def formula(self, row: int, col: int) -> str | None:
        """The formula of a cell as written (``C27``, ``VLOOKUP($A18,'START HERE'!…)``), without
        its ``=``; None for a cell without one (or a shared formula whose first cell is missing)."""
        text = self.texts.get((row, col))
        if text is not None or (row, col) not in self.shared:
            return text
        group = self.groups.get(self.shared[(row, col)])
        if group is None:
            return None
        (r0, c0), first = group
        origin, here = f"{get_column_letter(c0)}{r0}", f"{get_column_letter(col)}{row}"
        try:
            return Translator("=" + first, origin=origin).translate_formula(here)[1:]
        except Exception:  # noqa: BLE001 - a formula openpyxl cannot tokenize: its first cell's text
            return first


def defined_names(zf: zipfile.ZipFile) -> dict[tuple[str, int | None], str]:
    """``{(lower-case name, localSheetId or None): formula}`` from ``xl/workbook.xml``."""
    book = ET.fromstring(zf.read("xl/workbook.xml"))
    names = {}
    for el in book.iter(f"{MAIN}definedName"):
        local = el.get("localSheetId")
        names[(el.get("name", "").lower(), int(local) if local is not None else None)] = (el.text or "").strip()
    return names


def parse_sqref(sqref: str) -> tuple[Bounds, ...]:
    """``"C3:C9 E5"`` -> bounds; whole columns/rows (``C:C``) are opened to the sheet edge."""
    out = []
    for part in sqref.split():
        try:
            c0, r0, c1, r1 = range_boundaries(part.replace("$", ""))
        except (ValueError, TypeError):
            continue
        out.append((c0 or 1, r0 or 1, c1 or 16_384, r1 or MAX_ROW))
    return tuple(out)


def _cell_rc(ref: str | None, row: int, col: int) -> tuple[int, int]:
    """(row, col) of a ``<c r="C12">``; cells without ``r`` follow the previous one."""
    m = _CELL.match(ref or "")
    return (int(m.group(2)), column_index_from_string(m.group(1))) if m else (row, col + 1)


def scan_sheet(zf: zipfile.ZipFile, part: str) -> SheetScan:
    """One streaming pass over a worksheet part (see the module docstring)."""
    formulas: set[tuple[int, int]] = set()
    errors: set[tuple[int, int]] = set()
    texts: dict[tuple[int, int], str] = {}
    shared: dict[tuple[int, int], str] = {}
    groups: dict[str, tuple[tuple[int, int], str]] = {}
    merges: list[Bounds] = []
    validations: list[ListValidation] = []
    row = col = last_row = 0
    with zf.open(part) as fh:
        for event, el in ET.iterparse(fh, events=("start", "end")):
            tag = el.tag
            if event == "start":
                if tag == f"{MAIN}row":
                    row, col = int(el.get("r") or row + 1), 0
                continue
            if tag == f"{MAIN}c":
                row, col = _cell_rc(el.get("r"), row, col)
                f = el.find(f"{MAIN}f")
                if f is not None:
                    formulas.add((row, col))
                    si = f.get("si") if f.get("t") == "shared" else None
                    if f.text:
                        texts[(row, col)] = f.text
                        if si is not None:
                            groups.setdefault(si, ((row, col), f.text))
                    elif si is not None:
                        shared[(row, col)] = si
                if el.get("t") == "e":
                    errors.add((row, col))
                if el.find(f"{MAIN}v") is not None or el.find(f"{MAIN}is") is not None:
                    last_row = max(last_row, row)
                el.clear()
            elif tag == f"{MAIN}row":
                el.clear()
            elif tag == f"{MAIN}mergeCell":
                merges.extend(parse_sqref(el.get("ref", "")))
            elif tag == f"{MAIN}dataValidation" and el.get("type") == "list":
                formula = el.findtext(f"{MAIN}formula1") or ""
                validations.append(ListValidation(parse_sqref(el.get("sqref", "")), formula.strip()))
            elif tag == f"{X14}dataValidation" and el.get("type") == "list":
                formula = el.findtext(f"{X14}formula1/{XM}f") or ""
                sqref = el.findtext(f"{XM}sqref") or ""
                validations.append(ListValidation(parse_sqref(sqref), formula.strip()))
    return SheetScan(
        frozenset(formulas), tuple(merges), tuple(validations), last_row, frozenset(errors), texts, shared, groups
    )


def _literal_list(formula: str) -> tuple[str, ...]:
    """``"Yes,No,N/A"`` -> ("Yes", "No", "N/A")."""
    inner = formula[1:-1] if formula.endswith('"') else formula[1:]
    return tuple(v.strip() for v in inner.replace('""', '"').split(",") if v.strip())


def resolve_list(
    formula: str,
    sheet: SheetInfo,
    names: dict[tuple[str, int | None], str],
    read_range: RangeReader,
) -> tuple[str, ...] | None:
    """The allowed values of a list validation, or None when its source cannot be resolved
    (``INDIRECT(…)``, ``#REF!``, a missing sheet): the caller then treats the cell as free text.
    """
    text = formula.strip().lstrip("=")
    for _ in range(5):  # a defined name may point at another name
        if text.startswith('"'):
            return _literal_list(text)
        target = names.get((text.lower(), sheet.index), names.get((text.lower(), None)))
        if target is None:
            break
        text = target.strip().lstrip("=")
    m = _RANGE.match(text)
    if not m:
        return None
    source = m.group("q").replace("''", "'") if m.group("q") else (m.group("s") or sheet.name)
    bounds = range_boundaries(m.group("r").replace("$", ""))
    c0, r0, c1, r1 = bounds
    if (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_LIST_CELLS:
        return None
    try:
        values = read_range(source, bounds)
    except KeyError:  # no such sheet
        return None
    return tuple(dict.fromkeys(values))  # unique, in order
