"""The no-other-change check of a spreadsheet's export (the ``.xlsx``, ``.xlsm`` and ``.csv`` formats'
check, engine/questionnaire/formats.py): the copy written by writer.py, read again and compared with
the original, differs only in the cells written.

- XLSX / XLSM: the package's parts are the original's, in the same order and compression, byte for
  byte, but for the sheets written, ``calcChain.xml`` (an overwritten formula's entry removed; an
  emptied chain removed with its content type and relationship) and ``workbook.xml``'s one
  ``fullCalcOnLoad="1"``; in a sheet written, everything outside ``<sheetData>`` is the original's
  (its ``<dimension ref>`` aside), and so is every row and cell not written, and a written row's
  own attributes (its ``spans`` hint aside).
- CSV: every field not written holds the original's value, or that value behind the leading quote
  that neutralises a formula (engine/questionnaire/csv_writer.py).

Read by regular expressions and ``csv``, not by the writer's own code, so that a fault of the writer
is not repeated by its check. Each difference is one line; none: nothing else changed.
"""

from __future__ import annotations

import csv
import html
import io
import posixpath
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

from engine.core.decoding import detect_encoding
from engine.questionnaire.csv_writer import FORMULA_TRIGGERS
from engine.questionnaire.records import Questionnaire
from engine.questionnaire.writes import CellWrite

_P = r"(?:\w+:)?"  # a namespace prefix, as some generators write
_ROW = re.compile(rf'<{_P}row\b[^>]*?\br="(\d+)"(?:[^>]*?/>|[^>]*>.*?</{_P}row>)', re.S)
_CELL = re.compile(rf'<{_P}c\b[^>]*?\br="([A-Za-z]+\d+)"(?:[^>]*?/>|[^>]*>.*?</{_P}c>)', re.S)
_SHEET_DATA = re.compile(rf"<{_P}sheetData\b[^>]*?(?:/>|>.*</{_P}sheetData>)", re.S)
_CALC_CHAIN = re.compile(r"calcChain", re.I)
_A1 = re.compile(r"[A-Z]{1,3}[1-9]\d*")
_ROW_TAG = re.compile(rf"<{_P}row\b[^>]*>")


def check_workbook(
    original: Path, written: Path, writes: Sequence[CellWrite], questionnaire: Questionnaire | None = None
) -> list[str]:
    """Where the workbook ``written`` differs from ``original`` other than in the cells ``writes`` fill."""
    with zipfile.ZipFile(original) as a, zipfile.ZipFile(written) as b:
        names_a, names_b = a.namelist(), b.namelist()
        dropped = [n for n in names_a if n not in names_b]
        if [n for n in names_a if n not in dropped] != names_b or any(not _CALC_CHAIN.search(n) for n in dropped):
            return [f"{written.name}: the package's parts are not the original's, in its order"]
        out = []
        if [i.compress_type for i in a.infolist() if i.filename in names_b] != [i.compress_type for i in b.infolist()]:
            out.append(f"{written.name}: a part's compression changed")
        cells: dict[str, set[str]] = {}
        parts = _sheet_parts(a)
        for w in writes:
            if w.sheet in parts and _A1.fullmatch(ref := w.cell.strip().upper()):  # a write not a cell: none written
                cells.setdefault(parts[w.sheet], set()).add(ref)
        for name in names_b:
            old, new = a.read(name), b.read(name)
            if old == new or _CALC_CHAIN.search(name):
                continue
            if name in cells:
                out += _sheet_changes(name, old.decode("utf-8"), new.decode("utf-8"), cells[name])
            elif not _allowed_change(name, old.decode("utf-8", "replace"), new.decode("utf-8", "replace"), dropped):
                out.append(f"{written.name}: the part {name} changed")
        return out


def _sheet_parts(z: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> its part, by the workbook's relationships."""
    lower = {n.lower(): n for n in z.namelist()}
    rels = z.read(lower["_rels/.rels"]).decode("utf-8")
    workbook = re.search(r'<Relationship\b[^>]*?Target="/?([^"]+)"[^>]*?/officeDocument"|'
                         r'<Relationship\b[^>]*?/officeDocument"[^>]*?Target="/?([^"]+)"', rels)  # fmt: skip
    if workbook is None:
        return {}
    part = workbook[1] or workbook[2]
    folder, base = posixpath.split(part)
    book = z.read(lower[part.lower()]).decode("utf-8")
    book_rels = z.read(lower[posixpath.join(folder, "_rels", base + ".rels").lower()]).decode("utf-8")
    targets = {}
    for rel in re.finditer(r"<Relationship\b[^>]*>", book_rels):
        rid, target = re.search(r'\bId="([^"]+)"', rel[0]), re.search(r'\bTarget="([^"]+)"', rel[0])
        if rid and target:
            path = target[1].lstrip("/") if target[1].startswith("/") else posixpath.join(folder, target[1])
            targets[rid[1]] = lower.get(posixpath.normpath(path).lower(), path)
    out = {}
    for sheet in re.finditer(rf"<{_P}sheet\b[^>]*>", book):
        name, rid = re.search(r'\bname="([^"]*)"', sheet[0]), re.search(r'\b\w+:id="([^"]+)"', sheet[0])
        if name and rid and rid[1] in targets:
            out[_unescaped(name[1])] = targets[rid[1]]
    return out


def _unescaped(text: str) -> str:
    """An attribute's text, its references (the five XML entities, ``&#39;``, ``&#x27;``) resolved."""
    return html.unescape(text)


def _allowed_change(name: str, old: str, new: str, dropped: list[str]) -> bool:
    """workbook.xml asking for a full recalculation, and the content types and relationships that
    named a removed calculation chain: the changes an export makes outside its sheets."""
    if re.search(rf"<{_P}workbook\b", old):
        return _no_recalc(old) == _no_recalc(new) and 'fullCalcOnLoad="1"' in new
    if dropped and (name == "[Content_Types].xml" or name.endswith(".rels")):
        return re.sub(r"<[^>]*calcChain[^>]*/>", "", old, flags=re.I) == new
    return False


def _no_recalc(xml: str) -> str:
    """workbook.xml without the full recalculation an export may ask for."""
    return re.sub(r'\s+fullCalcOnLoad="[^"]*"', "", re.sub(rf'<{_P}calcPr fullCalcOnLoad="1"/>', "", xml))


def _sheet_changes(part: str, old: str, new: str, cells: set[str]) -> list[str]:
    def outside(xml: str) -> str:
        return re.sub(rf"<{_P}dimension\b[^>]*>", "<dimension/>", _SHEET_DATA.sub("<sheetData/>", xml, count=1))

    out = [] if outside(old) == outside(new) else [f"{part}: changed outside its cells"]
    old_rows = {int(m[1]): m[0] for m in _ROW.finditer(old)}
    new_rows = {int(m[1]): m[0] for m in _ROW.finditer(new)}
    by_row: dict[int, set[str]] = {}  # the cells written, by row
    for ref in cells:
        by_row.setdefault(int(ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")), set()).add(ref)
    for number in sorted((old_rows.keys() | new_rows.keys()) - by_row.keys()):
        if old_rows.get(number) != new_rows.get(number):
            out.append(f"{part}: row {number}, where nothing was written, changed")
    for number in sorted(by_row.keys() & old_rows.keys()):
        old_row, new_row = old_rows[number], new_rows.get(number, "")
        if _row_tag(old_row) != _row_tag(new_row):
            out.append(f"{part}: row {number}'s own attributes changed")
        if _but(old_row, by_row[number]) == _but(new_row, by_row[number]) is not None:
            continue  # every byte but the written cells the same (quick: the cells are compared only when not)
        before = {m[1]: m[0] for m in _CELL.finditer(old_rows[number])}
        after = {m[1]: m[0] for m in _CELL.finditer(new_rows.get(number, ""))}
        for ref in sorted((before.keys() | after.keys()) - cells):
            if before.get(ref) != after.get(ref):
                out.append(f"{part}: {ref}, which was not written, changed")
    return out


def _but(row: str, refs: set[str]) -> str | None:
    """A row's content without its start tag and the cells ``refs`` (None: a cell not found as a cell)."""
    tag = _ROW_TAG.match(row)
    body = row[tag.end() :] if tag else row
    for ref in refs:
        at = body.find(f'r="{ref}"')
        if at < 0:
            continue  # a new cell
        cell = _CELL.match(body, body.rfind("<", 0, at))
        if cell is None or cell[1] != ref:
            return None
        body = body[: cell.start()] + body[cell.end() :]
    return body


def _row_tag(row: str) -> str:
    """A row's start tag, its ``spans`` hint (which the writer widens) aside, open or self-closing alike."""
    tag = _ROW_TAG.match(row)
    return re.sub(r'\s+spans="[^"]*"', "", tag[0]).rstrip("/>").rstrip() if tag else ""


def check_csv(
    original: Path, written: Path, writes: Sequence[CellWrite], questionnaire: Questionnaire | None = None
) -> list[str]:
    """Where the CSV ``written`` differs from ``original`` other than in the cells ``writes`` fill
    (a field's neutralising quote aside)."""
    raw_a, raw_b = Path(original).read_bytes(), Path(written).read_bytes()
    encoding = detect_encoding(raw_a)
    if encoding is None or not raw_b.startswith(encoding.bom):
        return [f"{written.name}: not in the original's encoding"]
    try:
        text_a = raw_a[len(encoding.bom) :].decode(encoding.codec)
        text_b = raw_b[len(encoding.bom) :].decode(encoding.codec)
    except UnicodeDecodeError:
        return [f"{written.name}: not in the original's encoding {encoding.codec}"]
    try:
        delimiter = csv.Sniffer().sniff(text_a[:65_536], delimiters=",;\t|").delimiter
    except csv.Error:
        delimiter = ","
    before, after = _grid(text_a, delimiter), _grid(text_b, delimiter)
    cells = {_cell(w.cell) for w in writes}
    out = []
    for key in sorted((before.keys() | after.keys()) - cells):
        old, new = before.get(key, ""), after.get(key, "")
        if new != old and not (old.startswith(FORMULA_TRIGGERS) and new == "'" + old):
            out.append(f"{written.name}: row {key[0]}, column {key[1]}, which was not written, changed")
    return out


def _grid(text: str, delimiter: str) -> dict[tuple[int, int], str]:
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return {(r, c): v for r, row in enumerate(rows, 1) for c, v in enumerate(row, 1) if v}


def _cell(ref: str) -> tuple[int, int]:
    m = re.fullmatch(r"([A-Za-z]{1,3})(\d+)", ref.strip())
    if m is None:
        return (0, 0)
    col = 0
    for ch in m[1].upper():
        col = col * 26 + ord(ch) - 64
    return int(m[2]), col


__all__ = ["check_csv", "check_workbook"]
