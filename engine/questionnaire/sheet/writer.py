"""A spreadsheet questionnaire's answers written back (the ``.xlsx``, ``.xlsm`` and ``.csv`` formats' writer,
engine/questionnaire/formats.py): a copy of the customer's file with only the answer cells filled.

XLSX / XLSM: the zip package is copied member by member, same names, same order, same
compression method; only the XML of the sheets that receive answers changes (plus
``calcChain.xml`` when an answer overwrites a formula, and ``workbook.xml``'s ``<calcPr>``
when formulas read the answers, see below). The sheet XML is edited as
text: the exact span of each ``<row>`` / ``<c>`` that receives an answer is located and
replaced, so every other byte of the sheet (x14 data-validation and conditional-format
extensions, merged cells, namespace prefixes, formulas) stays as it was. openpyxl is never
used to save: it drops the x14 extensions (see DESIGN).

An answer is written as an inline string (``t="inlineStr"``), so ``sharedStrings.xml`` stays
byte-identical and text such as ``=SUM(A1)`` stays text: inline strings are never evaluated.
A written cell keeps its style (``s``); a new cell takes the row style (rows with
``customFormat``) or the column style, as Excel does when someone types into an empty cell.
When an answer replaces a formula, that cell's entry is removed from ``calcChain.xml``
(Excel reports a damaged file when the chain lists a cell without a formula). When formulas
may read the answers (a formula on a filled sheet, or one on another sheet naming it, such as
HECVAT's ``Case-Specific!C13`` copying ``START HERE``), their saved values are stale: the
workbook then asks for a full recalculation on open (``fullCalcOnLoad="1"`` on ``<calcPr>`` in
``workbook.xml``, the one change made to that part). The sheet's
``<dimension ref>`` is widened when an answer falls outside it, and a row's ``spans`` hint
too. Writes into the hidden part of a merged range, or over the anchor of a shared or array
formula that covers other cells, are refused: both would damage what the workbook shows.

A date (``CellWrite.kind == "date"``: an ISO ``YYYY-MM-DD`` value, or a value in the
questionnaire's format such as "11/24/2026" with its ISO date in ``CellWrite.day``) is written as
a date — the Excel serial number, ``<v>``, keeping the cell's style — when the cell's style has a
date number format (the questionnaire's own format shows it), by the rule the reader drafts dates
with (engine/questionnaire/sheet/date_format.from_number_format, openpyxl's ``is_date_format``); into
any other cell it is written as the value's text. The serial counts from the workbook's own date
system: 1899-12-30, or 1904-01-01 when ``workbook.xml`` says ``<workbookPr date1904="1"/>`` (Mac
workbooks; counted from 1899 their dates showed 1,462 days late).

CSV: see :func:`export_csv`. Every write is atomic: a temporary file in the target's folder,
fsync, then ``os.replace``; the source is never modified. Before that temporary file replaces the
target, the format's no-other-change check (check.py: :func:`check_workbook`, :func:`check_csv`)
reads it against the source: a copy that differs anywhere but in the cells written is refused
(:class:`ExportError`, its first differences named) and nothing is written, as the Word and PDF
writers refuse theirs.

One answer never refuses the others: given an ``unwritten`` list, a write its cell cannot take (no
such sheet, not a cell reference, longer than a cell holds, the hidden part of a merged range, a
shared formula's anchor, a character the CSV's encoding cannot hold) is listed there
(:class:`~engine.questionnaire.places.Unwritten`) and the others are written.
"""

from __future__ import annotations

import csv
import posixpath
import re
import zipfile
from datetime import date, datetime
from pathlib import Path
from typing import BinaryIO, Callable, Sequence
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as ET  # entities are refused, never expanded
from openpyxl.styles.numbers import BUILTIN_FORMATS
from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, to_excel

from engine.core.decoding import detect_encoding
from engine.core.files import write_atomic
from engine.core.ooxml import PackageError, copy_package, is_ole
from engine.core.xml_text import xml_safe
from engine.questionnaire.csv_writer import FORMULA_TRIGGERS, csv_field
from engine.questionnaire.places import Unwritten
from engine.questionnaire.sheet.check import check_csv, check_workbook
from engine.questionnaire.sheet.date_format import from_number_format
from engine.questionnaire.writes import CellWrite, ExportError, check_paths

MAX_CELL_TEXT = 32_767  # Excel's limit on the characters of one cell

_ESCAPED_CHAR = re.compile(r"_(x[0-9A-Fa-f]{4}_)")  # Excel reads "_x0041_" as "A"
_REF = re.compile(r"([A-Za-z]{1,3})([1-9][0-9]{0,6})")
_ATTRS = r"""((?:[^>"']|"[^"]*"|'[^']*')*)"""  # the attributes of a tag, quoted '>' included
RESAVE = "open the workbook in Excel, save it again and retry"
CHANGED = "nothing was written; open the questionnaire in Excel, save it again and retry, else report it (it is kept as it is)"


class _DateText(str):
    """An ISO date to write: its Excel serial number and the style ids (``s``) that format a date."""

    serial: int
    date_styles: frozenset

    def __new__(cls, iso: str, serial: int, date_styles: frozenset) -> "_DateText":
        obj = super().__new__(cls, iso)
        obj.serial, obj.date_styles = serial, date_styles
        return obj


def _date_styles(zin: zipfile.ZipFile, names: dict[str, str]) -> frozenset:
    """The cell style ids (cellXfs positions, as text) whose number format shows a date (the
    reader's rule: :func:`~engine.questionnaire.sheet.date_format.from_number_format`)."""
    part = names.get("xl/styles.xml")
    if part is None:
        return frozenset()
    try:
        root = ET.fromstring(zin.read(part))
    except (ET.ParseError, DefusedXmlException, KeyError, zipfile.BadZipFile, OSError):
        return frozenset()
    local = lambda el: el.tag.rsplit("}", 1)[-1]  # noqa: E731
    codes = {el.get("numFmtId"): el.get("formatCode", "") for el in root.iter() if local(el) == "numFmt"}
    found = set()
    for xfs in (el for el in root.iter() if local(el) == "cellXfs"):
        for i, xf in enumerate(x for x in xfs if local(x) == "xf"):
            fid = xf.get("numFmtId", "0")
            code = codes.get(fid) or (BUILTIN_FORMATS.get(int(fid)) if fid.isdigit() else None)
            if from_number_format(code) is not None:
                found.add(str(i))
    return frozenset(found)


def _epoch(zin: zipfile.ZipFile, workbook: str, source: Path) -> datetime:
    """The day a workbook's date serials count from: 1904-01-01 when it uses the 1904 date system."""
    for el in _parse_xml(zin, workbook, source).iter():
        if el.tag.rsplit("}", 1)[-1] == "workbookPr":
            return CALENDAR_MAC_1904 if el.get("date1904", "").lower() in ("1", "true") else CALENDAR_WINDOWS_1900
    return CALENDAR_WINDOWS_1900


def _date_value(w: "CellWrite", date_styles: frozenset, epoch: datetime, file: Path) -> str:
    try:
        day = date.fromisoformat((w.day or w.value).strip())
    except ValueError:
        return _xml_text(w, file)  # not an ISO date: the text as given
    shown = _xml_text(w, file) if w.day else day.isoformat()  # into a text cell: the text as formatted
    return _DateText(shown, int(to_excel(day, epoch)), date_styles)


# ---------------------------------------------------------------------------------- XLSX


def export_xlsx(
    source: Path, target: Path, writes: Sequence[CellWrite], unwritten: list[Unwritten] | None = None
) -> Path:
    """Copy ``source`` to ``target`` with only ``writes`` filled in (last write to a cell wins).
    Given ``unwritten``, a write its cell cannot take (no such sheet, not a cell reference, longer
    than a cell holds, the hidden part of a merged range, a shared formula's anchor) is listed there
    and the others are written; without it, that write refuses the export."""
    source, target = check_paths(source, target)
    if target.suffix.lower() != source.suffix.lower():
        raise ExportError(
            target,
            f"the export of a {source.suffix} workbook must keep that extension",
            f"name the target *{source.suffix}",
        )
    with _open_package(source) as zin:
        names = {n.lower(): n for n in zin.namelist()}
        workbook, sheets, calc_chain = _workbook_parts(zin, names, source)
        by_part: dict[str, tuple[str, str, dict[tuple[int, int], str]]] = {}
        dated = any(w.kind == "date" for w in writes)
        date_styles = _date_styles(zin, names) if dated else frozenset()
        epoch = _epoch(zin, workbook, source) if dated else CALENDAR_WINDOWS_1900
        for w in writes:
            try:
                if w.sheet not in sheets:
                    raise ExportError(
                        source,
                        f"no sheet named {w.sheet!r} (sheets: {', '.join(sheets)})",
                        "use one of these sheet names",
                    )
                part, sheet_id = sheets[w.sheet]
                ref = _parse_ref(w.cell, source, w.sheet)
                value = _date_value(w, date_styles, epoch, source) if w.kind == "date" else _xml_text(w, source)
            except ExportError as exc:
                if unwritten is None:
                    raise
                unwritten.append(Unwritten(f"{w.sheet}!{w.cell}", exc.problem, exc.fix))
                continue
            by_part.setdefault(part, (w.sheet, sheet_id, {}))[2][ref] = value
        edited: dict[str, bytes | None] = {}
        formulas_dropped: set[tuple[str, str]] = set()
        for part, (sheet, sheet_id, cells) in by_part.items():
            xml, dropped = _edit_sheet(_read_text(zin, part, source), cells, source, sheet, unwritten)
            edited[part] = xml.encode("utf-8")
            formulas_dropped |= {(sheet_id, ref) for ref in dropped}
        if formulas_dropped and calc_chain:
            edited.update(_drop_from_calc_chain(zin, names, calc_chain, formulas_dropped, source))
        if _formulas_read(zin, sheets, {sheet for sheet, _, _ in by_part.values()}, workbook, source):
            xml = _read_text(zin, workbook, source)
            if (recalc := _full_calc_on_load(xml, source)) != xml:
                edited[workbook] = recalc.encode("utf-8")
        write_atomic(target, lambda f: _copy_package(zin, f, edited), _only_answers(check_workbook, source, writes))
    return target


def _only_answers(
    check: Callable[[Path, Path, Sequence[CellWrite]], list[str]], source: Path, writes: Sequence[CellWrite]
) -> Callable[[Path], None]:
    """The no-other-change check (``check``: check.py's) of the copy about to be written: one that
    differs from ``source`` anywhere but in the cells ``writes`` fill is refused, its first
    differences named, and nothing is written."""

    def refuse_other_changes(written: Path) -> None:
        try:
            found = [line.removeprefix(f"{written.name}: ") for line in check(source, written, writes)]
        except (zipfile.BadZipFile, KeyError, UnicodeDecodeError, OSError) as exc:
            found = [f"the copy cannot be read back ({exc})"]
        if found:
            more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
            raise ExportError(
                source, f"the export would change more than the answers: {'; '.join(found[:3])}{more}", CHANGED
            )

    return refuse_other_changes


def _open_package(source: Path) -> zipfile.ZipFile:
    if is_ole(source):
        raise ExportError(
            source,
            "the workbook is password-protected (or an old binary .xls)",
            "remove the password in Excel (File > Info > Protect Workbook), save as .xlsx and export again",
        )
    try:
        zin = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ExportError(source, f"the workbook is corrupt or not an .xlsx file ({exc})", RESAVE) from None
    if any(info.flag_bits & 1 for info in zin.infolist()):
        zin.close()
        raise ExportError(source, "the workbook's package is encrypted", "save an unencrypted copy and export again")
    return zin


def _read_text(zin: zipfile.ZipFile, part: str, source: Path) -> str:
    try:
        return zin.read(part).decode("utf-8")
    except (KeyError, zipfile.BadZipFile, UnicodeDecodeError, OSError) as exc:
        raise ExportError(source, f"the part {part} is missing or corrupt ({exc})", RESAVE) from None


def _rels(zin: zipfile.ZipFile, names: dict[str, str], part: str, source: Path) -> list[tuple[str, str, str]]:
    """(Id, Type, absolute target part) of the internal relationships of ``part``."""
    folder, base = posixpath.split(part)
    rels_part = names.get(posixpath.join(folder, "_rels", base + ".rels").lower())
    if rels_part is None:
        return []
    out = []
    for rel in _parse_xml(zin, rels_part, source):
        if rel.get("TargetMode") == "External" or not rel.get("Target"):
            continue
        target = rel.get("Target", "")
        if not target.startswith("/"):
            target = posixpath.normpath(posixpath.join(folder, target))
        target = target.lstrip("/")
        out.append((rel.get("Id", ""), rel.get("Type", ""), names.get(target.lower(), target)))
    return out


def _parse_xml(zin: zipfile.ZipFile, part: str, source: Path) -> Element:
    try:
        return ET.fromstring(zin.read(part))
    except (KeyError, zipfile.BadZipFile, ET.ParseError, DefusedXmlException, OSError) as exc:
        raise ExportError(source, f"the part {part} is missing or corrupt ({exc})", RESAVE) from None


def _workbook_parts(
    zin: zipfile.ZipFile, names: dict[str, str], source: Path
) -> tuple[str, dict[str, tuple[str, str]], str | None]:
    """The workbook part, sheet name -> (sheet part, sheetId), and the calcChain part if there is one."""
    package_rels = _rels(zin, names, "", source)
    workbook = next((t for _, kind, t in package_rels if kind.endswith("/officeDocument")), None)
    if workbook is None:
        raise ExportError(source, "the package has no workbook part", RESAVE)
    rels = _rels(zin, names, workbook, source)
    targets = {rid: t for rid, _, t in rels}
    chains = [t for _, kind, t in rels if kind.endswith("/calcChain") and t in zin.NameToInfo]
    sheets = {}
    for el in _parse_xml(zin, workbook, source).iter():
        if el.tag.rsplit("}", 1)[-1] == "sheet":
            rid = next(
                (v for k, v in el.attrib.items() if k.startswith("{") and k.endswith("}id")), None
            )  # r:id, whatever the relationships namespace (transitional or strict)
            if rid in targets:
                sheets[el.get("name", "")] = (targets[rid], el.get("sheetId", ""))
    return workbook, sheets, chains[0] if chains else None


def _parse_ref(ref: str, file: Path, sheet: str) -> tuple[int, int]:
    """(row, column), both 1-based, of an A1 reference."""
    m = _REF.fullmatch(ref.strip())
    if m:
        col = 0
        for ch in m[1].upper():
            col = col * 26 + ord(ch) - 64
        if col <= 16_384 and int(m[2]) <= 1_048_576:
            return int(m[2]), col
    raise ExportError(
        file,
        f"{ref!r} on sheet {sheet!r} is not a cell reference",
        "use an A1 reference such as D12 (columns A..XFD, rows 1..1048576)",
    )


def _ref(row: int, col: int) -> str:
    letters = ""
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row}"


def _range(ref: str) -> tuple[int, int, int, int]:
    """(row1, col1, row2, col2) of "A1:C3" or "A1"."""
    first, _, last = ref.partition(":")
    (r1, c1), (r2, c2) = _parse_ref(first, Path(), ""), _parse_ref(last or first, Path(), "")
    return r1, c1, r2, c2


def _xml_text(w: CellWrite, file: Path) -> str:
    """The answer as cell text: characters illegal in XML 1.0 dropped, line breaks as "\\n"
    (what Excel stores for Alt+Enter)."""
    text = xml_safe(w.value.replace("\r\n", "\n").replace("\r", "\n"))
    if len(text) > MAX_CELL_TEXT:
        raise ExportError(
            file,
            f"the answer for {w.sheet}!{w.cell} has {len(text)} characters, Excel's limit is {MAX_CELL_TEXT}",
            "shorten the answer",
        )
    return text


def _attr(attrs: str, name: str) -> str | None:
    m = re.search(rf"""(?:^|\s){name}\s*=\s*(["'])(.*?)\1""", attrs, re.S)
    return m[2] if m else None


def _set_attr(attrs: str, name: str, value: str) -> str:
    m = re.search(rf"""(?:^|\s){name}\s*=\s*(["'])(.*?)\1""", attrs, re.S)
    return attrs[: m.start(2)] + value + attrs[m.end(2) :] if m else f'{attrs} {name}="{value}"'


def _elements(xml: str, tag: str, start: int = 0, end: int | None = None):
    """(start, end, attributes, content or None when self-closing) of each ``tag`` element;
    ``tag`` must not nest inside itself (rows, cells)."""
    end = len(xml) if end is None else end
    opening = re.compile(rf"<{tag}\b{_ATTRS}>")
    pos = start
    while (m := opening.search(xml, pos, end)) is not None:
        attrs = m[1]
        if attrs.rstrip().endswith("/"):
            yield m.start(), m.end(), attrs.rstrip()[:-1], None
            pos = m.end()
        else:
            close = xml.index(f"</{tag}>", m.end(), end)
            yield m.start(), close + len(tag) + 3, attrs, xml[m.end() : close]
            pos = close + len(tag) + 3


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply (start, end, new) edits; insertions at one offset keep their order and go
    before a replacement starting there."""
    out, pos = [], 0
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1])):
        out += [text[pos:start], new]
        pos = end
    return "".join(out) + text[pos:]


def _edit_sheet(
    xml: str, cells: dict[tuple[int, int], str], file: Path, sheet: str, unwritten: list[Unwritten] | None = None
) -> tuple[str, set[str]]:
    """The sheet XML with ``cells`` written, and the refs of the formulas they replaced; a cell
    that cannot be written refuses the sheet, or (given ``unwritten``) is listed there and left as
    it is."""
    root = re.search(r"<(?:(\w+):)?worksheet\b", xml)
    if root is None:
        raise ExportError(
            file, f"sheet {sheet!r} is not a worksheet (a chart or dialog sheet)", "write answers to a worksheet"
        )
    p = f"{root[1]}:" if root[1] else ""
    cells = dict(cells)
    for _, _, attrs, _ in _elements(xml, f"{p}mergeCell"):
        r1, c1, r2, c2 = _range(_attr(attrs, "ref") or "A1")
        for row, col in list(cells):
            if r1 <= row <= r2 and c1 <= col <= c2 and (row, col) != (r1, c1):
                anchor = _ref(r1, c1)
                problem = ExportError(
                    file,
                    f"{sheet}!{_ref(row, col)} lies inside the merged range "
                    f"{anchor}:{_ref(r2, c2)}, where only {anchor} shows",
                    f"write to {anchor} instead",
                )
                if unwritten is None:
                    raise problem
                unwritten.append(Unwritten(f"{sheet}!{_ref(row, col)}", problem.problem, problem.fix))
                del cells[(row, col)]
    if not cells:
        return xml, set()
    col_styles: dict[int, str] = {}
    for _, _, attrs, _ in _elements(xml, f"{p}col"):
        if (style := _attr(attrs, "style")) is not None:
            first, last = int(_attr(attrs, "min") or 1), min(int(_attr(attrs, "max") or 1), 16_384)
            col_styles.update(dict.fromkeys(range(first, last + 1), style))

    data = re.search(rf"<{p}sheetData\b{_ATTRS}>", xml)
    if data is None:
        raise ExportError(file, f"sheet {sheet!r} has no <sheetData>", RESAVE)
    if data[1].rstrip().endswith("/"):  # <sheetData/>: an empty sheet
        opened = f"<{p}sheetData{data[1].rstrip()[:-1]}></{p}sheetData>"
        xml = xml[: data.start()] + opened + xml[data.end() :]
        data = re.search(rf"<{p}sheetData\b{_ATTRS}>", xml)
    body_start, body_end = data.end(), xml.index(f"</{p}sheetData>", data.end())

    by_row: dict[int, dict[int, str]] = {}
    for (row, col), text in cells.items():
        by_row.setdefault(row, {})[col] = text
    edits: list[tuple[int, int, str]] = []
    dropped: set[str] = set()
    pending, number = sorted(by_row), 0
    for start, end, attrs, content in _elements(xml, f"{p}row", body_start, body_end):
        number = int(_attr(attrs, "r") or number + 1)
        while pending and pending[0] < number:
            edits.append((start, start, _new_row(p, (r := pending.pop(0)), by_row[r], col_styles)))
        if pending and pending[0] == number:
            row_xml, gone = _edit_row(
                p, number, attrs, content, by_row[pending.pop(0)], col_styles, file, sheet, unwritten
            )
            edits.append((start, end, row_xml))
            dropped |= gone
    edits += [(body_end, body_end, _new_row(p, r, by_row[r], col_styles)) for r in pending]
    xml = _splice(xml, edits)
    return _widen_dimension(xml, p, cells), dropped


def _cell_xml(p: str, ref: str, style: str | None, text: str) -> str:
    s = f' s="{style}"' if style is not None else ""
    if isinstance(text, _DateText) and style in text.date_styles:
        return f'<{p}c r="{ref}"{s}><{p}v>{text.serial}</{p}v></{p}c>'
    if not text:
        return f'<{p}c r="{ref}"{s}/>'
    text = _ESCAPED_CHAR.sub(r"_x005F_\1", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    inline = f'<{p}is><{p}t xml:space="preserve">{text}</{p}t></{p}is>'
    return f'<{p}c r="{ref}"{s} t="inlineStr">{inline}</{p}c>'


def _new_row(p: str, row: int, cols: dict[int, str], col_styles: dict[int, str]) -> str:
    cells = "".join(_cell_xml(p, _ref(row, c), col_styles.get(c), cols[c]) for c in sorted(cols))
    return f'<{p}row r="{row}">{cells}</{p}row>'


def _edit_row(
    p: str,
    row: int,
    attrs: str,
    content: str | None,
    cols: dict[int, str],
    col_styles: dict[int, str],
    file: Path,
    sheet: str,
    unwritten: list[Unwritten] | None = None,
) -> tuple[str, set[str]]:
    content = content or ""
    row_style = _attr(attrs, "s") if _attr(attrs, "customFormat") in ("1", "true") else None
    edits, dropped, pending, number = [], set(), sorted(cols), 0

    def new_cell(c: int) -> str:
        return _cell_xml(p, _ref(row, c), row_style or col_styles.get(c), cols[c])

    for start, end, cell_attrs, cell in _elements(content, f"{p}c"):
        number = _parse_ref(r, file, sheet)[1] if (r := _attr(cell_attrs, "r")) else number + 1
        while pending and pending[0] < number:
            c = pending.pop(0)
            edits.append((start, start, new_cell(c)))
        if pending and pending[0] == number:
            ref = _ref(row, number)
            formula = re.search(rf"<{p}f\b{_ATTRS}>", cell or "")
            if formula is not None:
                span = _attr(formula[1], "ref")
                if span and _range(span) != _range(ref):
                    problem = ExportError(
                        file,
                        f"{sheet}!{ref} holds the formula that the cells {span} share",
                        "write the answer to another cell, or remove that formula in Excel first",
                    )
                    if unwritten is None:
                        raise problem
                    unwritten.append(Unwritten(f"{sheet}!{ref}", problem.problem, problem.fix))
                    pending.pop(0)
                    continue  # the cell stays as it is
                dropped.add(ref)
            edits.append((start, end, _cell_xml(p, ref, _attr(cell_attrs, "s"), cols[pending.pop(0)])))
    edits += [(len(content), len(content), new_cell(c)) for c in pending]
    spans = _attr(attrs, "spans")
    if spans and re.fullmatch(r"\d+:\d+(\s+\d+:\d+)*", spans):
        bounds = [int(n) for n in re.findall(r"\d+", spans)] + list(cols)
        if min(bounds) < int(spans.split(":")[0]) or max(bounds) > int(spans.rsplit(":")[-1]):
            attrs = _set_attr(attrs, "spans", f"{min(bounds)}:{max(bounds)}")
    return f"<{p}row{attrs}>{_splice(content, edits)}</{p}row>", dropped


def _widen_dimension(xml: str, p: str, cells: dict[tuple[int, int], str]) -> str:
    m = re.search(rf"<{p}dimension\b{_ATTRS}>", xml)
    ref = _attr(m[1], "ref") if m else None
    if not ref or not re.fullmatch(r"[A-Za-z]{1,3}\d+(:[A-Za-z]{1,3}\d+)?", ref):
        return xml  # no (or an odd) dimension: it is an optional hint, leave it as it is
    r1, c1, r2, c2 = _range(ref)
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    wide = (min(r1, *rows), min(c1, *cols), max(r2, *rows), max(c2, *cols))
    if wide == (r1, c1, r2, c2):
        return xml
    new = f"{_ref(wide[0], wide[1])}:{_ref(wide[2], wide[3])}"
    return xml[: m.start(1)] + _set_attr(m[1], "ref", new) + xml[m.end(1) :]


def _drop_from_calc_chain(
    zin: zipfile.ZipFile, names: dict[str, str], part: str, drop: set[tuple[str, str]], source: Path
) -> dict[str, bytes | None]:
    """Remove the entries of replaced formulas from calcChain.xml; an emptied chain is removed
    with its relationship and content type (Excel rebuilds it)."""
    xml = _read_text(zin, part, source)
    current, emitted, kept = None, None, 0

    def entry(m: re.Match) -> str:
        nonlocal current, emitted, kept
        sheet = _attr(m[1], "i")
        current = sheet or current  # an entry without i= belongs to the previous entry's sheet
        if (current, _attr(m[1], "r")) in drop:
            return ""
        kept += 1
        fixed = m[0]
        if not sheet and current is not None and emitted != current:  # its sheet was on a dropped entry
            fixed = fixed.replace("<c ", f'<c i="{current}" ', 1)
        emitted = current
        return fixed

    xml = re.sub(rf"<c\b{_ATTRS}>", entry, xml)
    if kept:
        return {part: xml.encode("utf-8")}
    out: dict[str, bytes | None] = {part: None}
    for meta, pattern in (
        ("[Content_Types].xml", rf"<Override\b[^>]*PartName=\"/{re.escape(part)}\"[^>]*/>"),
        ("xl/_rels/workbook.xml.rels", r"<Relationship\b[^>]*/calcChain\"[^>]*/>"),
    ):
        if (name := names.get(meta.lower())) is not None:
            xml = re.sub(pattern, "", _read_text(zin, name, source), flags=re.I)
            out[name] = xml.encode("utf-8")
    return out


_FORMULA = re.compile(r"<(?:\w+:)?f\b[^>]*?(?<!/)>(.*?)</(?:\w+:)?f>", re.S)
_DEFINED_NAME = re.compile(r"<(?:\w+:)?definedName\b" + _ATTRS + r">(.*?)</(?:\w+:)?definedName>", re.S)
# the children of <workbook> that come after <calcPr>, in the schema's order (CT_Workbook)
_AFTER_CALC_PR = (
    "oleSize",
    "customWorkbookViews",
    "pivotCaches",
    "smartTagPr",
    "smartTagTypes",
    "webPublishing",
    "fileRecoveryPr",
    "webPublishObjects",
    "extLst",
)


def _unescaped(text: str) -> str:
    return (
        text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&apos;", "'")
        .replace("&amp;", "&")
    )


def _names_sheet(formula: str, sheet: str) -> bool:
    """Whether ``formula`` refers to a cell of ``sheet`` by name (``'START HERE'!C5``,
    ``Questions!C2:C20``), in any letter case."""
    quoted = "'" + sheet.replace("'", "''") + "'!"
    plain = re.compile(rf"(?<![\w.'\]]){re.escape(sheet)}!", re.I)
    return quoted.lower() in formula.lower() or bool(plain.search(formula))


def _formulas_read(
    zin: zipfile.ZipFile, sheets: dict[str, tuple[str, str]], filled: set[str], workbook: str, source: Path
) -> bool:
    """Whether a formula of the workbook may read a cell of the ``filled`` sheets, by a
    conservative rule: a formula on a filled sheet itself, a formula on another sheet that
    names a filled sheet, or any formula when a defined name (other than Excel's own
    ``_xlnm.`` print areas and filters) points into a filled sheet."""
    formulas = {
        name: [_unescaped(f) for f in _FORMULA.findall(_read_text(zin, part, source))]
        for name, (part, _) in sheets.items()
        if part in zin.NameToInfo
    }
    if any(formulas.get(sheet) for sheet in filled):
        return True
    if any(_names_sheet(f, sheet) for fs in formulas.values() for f in fs for sheet in filled):
        return True
    named = [
        _unescaped(text)
        for attrs, text in _DEFINED_NAME.findall(_read_text(zin, workbook, source))
        if not (_attr(attrs, "name") or "").startswith("_xlnm.")
    ]
    return any(_names_sheet(text, sheet) for text in named for sheet in filled) and any(formulas.values())


def _full_calc_on_load(xml: str, source: Path) -> str:
    """workbook.xml asking for a full recalculation when the file is opened
    (``<calcPr fullCalcOnLoad="1">``): the formulas that read an answer cell still hold the
    values saved before the answers were written. Only that attribute changes (or a
    ``<calcPr>`` is added, in its place in the schema's order)."""
    root = re.search(r"<(?:(\w+):)?workbook\b", xml)
    if root is None:
        raise ExportError(source, "the workbook part has no <workbook> element", RESAVE)
    p = f"{root[1]}:" if root[1] else ""
    calc = re.search(rf"<{p}calcPr\b{_ATTRS}>", xml)
    if calc is not None:
        attrs = calc[1].rstrip()
        closed = attrs.endswith("/")
        attrs = attrs[:-1] if closed else calc[1]
        if _attr(attrs, "fullCalcOnLoad") in ("1", "true"):
            return xml
        kept = attrs.rstrip()  # the space before "/>" stays, as every other byte of the part
        new = f"<{p}calcPr{_set_attr(kept, 'fullCalcOnLoad', '1')}{attrs[len(kept) :]}{'/' if closed else ''}>"
        return xml[: calc.start()] + new + xml[calc.end() :]
    following = [m.start() for tag in _AFTER_CALC_PR if (m := re.search(rf"<{p}{tag}\b", xml))]
    at = min(following) if following else xml.rindex(f"</{p}workbook>")
    return xml[:at] + f'<{p}calcPr fullCalcOnLoad="1"/>' + xml[at:]


def _copy_package(zin: zipfile.ZipFile, out: BinaryIO, edited: dict[str, bytes | None]) -> None:
    try:
        copy_package(zin, out, edited)
    except PackageError as exc:
        raise ExportError(zin.filename or "", str(exc), RESAVE) from None


# ----------------------------------------------------------------------------------- CSV


def export_csv(
    source: Path, target: Path, writes: Sequence[CellWrite], unwritten: list[Unwritten] | None = None
) -> Path:
    """Copy a CSV questionnaire with only ``writes`` filled in; ``cell`` addresses the grid
    (column letter + 1-based row; ``sheet`` is ignored), the last write to a cell wins.

    The encoding (the one the reader found: :func:`engine.core.decoding.detect_encoding`, byte-order
    mark included), the delimiter and the line endings are kept, and every field not written
    keeps its exact characters (quoting included): the new fields are spliced into the text,
    which is never re-serialised.

    Formula injection: every written field goes through :func:`engine.questionnaire.csv_writer.csv_field`, so
    an answer or a choice starting with ``= + - @`` (or a tab / carriage return) gets a leading
    single quote (``'=SUM(A1)``) — and so does every field of the file that starts with one: a
    questionnaire that arrives with ``=HYPERLINK(…)`` in a question does not leave with a live
    formula (that field gains its ``'``; nothing else changes). (XLSX export needs no such
    prefix: its inline strings are never evaluated.)
    """
    source, target = check_paths(source, target)
    raw = source.read_bytes()
    encoding = detect_encoding(raw)
    if encoding is None:
        raise ExportError(
            source, "is not UTF-8, UTF-16, UTF-32 or Windows-1252 text", "save the questionnaire as UTF-8 CSV first"
        )
    bom, codec = encoding.bom, encoding.codec
    text = raw[len(bom) :].decode(codec)
    try:
        delimiter = csv.Sniffer().sniff(text[:65_536], delimiters=",;\t|").delimiter
    except csv.Error:
        delimiter = ","
    rows = _csv_rows(text, delimiter)
    newline = next((text[e:t] for _, e, t in rows if t > e), "\r\n")

    by_row = _csv_writes(writes, source, delimiter, codec, unwritten)
    edits: list[tuple[int, int, str]] = []
    for number, (fields, _, _) in enumerate(rows, 1):  # the file's own fields that a spreadsheet would run
        for col, (start, end) in enumerate(fields, 1):
            value = _unquoted(text[start:end])
            if col not in by_row.get(number, {}) and value.startswith(FORMULA_TRIGGERS):
                edits.append((start, end, csv_field(value, delimiter)))
    for number, cols in by_row.items():
        if number > len(rows):
            continue
        fields, end, _ = rows[number - 1]
        extra = [""] * (max(cols) - len(fields))
        for col, value in cols.items():
            if col <= len(fields):
                edits.append((*fields[col - 1], value))
            else:
                extra[col - len(fields) - 1] = value
        if extra:
            edits.append((end, end, "".join(delimiter + v for v in extra)))
    text = _splice(text, edits)
    new = [r for r in by_row if r > len(rows)]
    if new:
        if rows and rows[-1][1] == rows[-1][2]:  # the last line has no line ending
            text += newline
        for number in range(len(rows) + 1, max(new) + 1):
            cols = by_row.get(number, {})
            width = max(cols, default=1)
            text += delimiter.join(cols.get(c, "") for c in range(1, width + 1)) + newline
    _encodable(text, codec, source)
    write_atomic(target, bom + text.encode(codec), _only_answers(check_csv, source, writes))
    return target


def _csv_writes(
    writes: Sequence[CellWrite], source: Path, delimiter: str, codec: str, unwritten: list[Unwritten] | None
) -> dict[int, dict[int, str]]:
    """The writes as ``{row: {column: field}}`` (each neutralised against formula injection); one
    that cannot be written refuses the export, or (given ``unwritten``) is listed there."""
    by_row: dict[int, dict[int, str]] = {}
    for w in writes:
        try:
            row, col = _parse_ref(w.cell, source, w.sheet or source.name)
            value = csv_field(w.value, delimiter)
            _encodable(value, codec, source)
        except ExportError as exc:
            if unwritten is None:
                raise
            unwritten.append(Unwritten(f"{w.sheet}!{w.cell}", exc.problem, exc.fix))
            continue
        by_row.setdefault(row, {})[col] = value
    return by_row


def _encodable(value: str, codec: str, source: Path) -> None:
    try:
        value.encode(codec)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end]
        raise ExportError(
            source,
            f"an answer has {bad!r}, which the file's encoding {codec} cannot hold",
            "replace that character, or save the questionnaire as UTF-8 CSV first",
        ) from None


def _unquoted(field: str) -> str:
    """A field's value, without its quotes (and with a doubled quote inside made single)."""
    if len(field) >= 2 and field[0] == field[-1] == '"':
        return field[1:-1].replace('""', '"')
    return field


def _csv_rows(text: str, delimiter: str) -> list[tuple[list[tuple[int, int]], int, int]]:
    """Per record: the (start, end) of each field, where its content ends and where its line
    ending ends. Quoted fields may hold delimiters, quotes ("") and line breaks."""
    rows, fields, i, n = [], [], 0, len(text)
    while i < n:
        start = i
        if text[i] == '"':
            i += 1
            while i < n and not (text[i] == '"' and not text.startswith('""', i)):
                i += 2 if text.startswith('""', i) else 1
            i += 1
        while i < n and text[i] not in (delimiter, "\r", "\n"):
            i += 1
        fields.append((start, i))
        if i < n and text[i] == delimiter:
            i += 1
            if i == n:
                fields.append((i, i))
            continue
        end = i
        i += 2 if text.startswith("\r\n", i) else 1 if i < n else 0
        rows.append((fields, end, i))
        fields = []
    if fields:
        rows.append((fields, n, n))
    return rows


__all__ = ["MAX_CELL_TEXT", "export_csv", "export_xlsx"]
