"""The date format a questionnaire expects for a date question (HECVAT's DATE-01 "Date"), so
the drafting date is written the questionnaire's way ("11/24/2026", not "2026-11-24").

:func:`date_format` decides, first match wins:

1. **The answer cell's own date format** (its number format: ``m/d/yyyy``, ``dd.mm.yyyy``,
   ``[$-409]mmmm d, yyyy;@``…): the draft reads as the cell will show the date; the export
   writes a real date into that cell (engine/questionnaire/sheet/writer.py), keeping the format.
   Excel's built-in short date (number format 14, which openpyxl reports as ``mm-dd-yy``) is
   shown as ``M/D/YYYY``, as Excel shows it on a US system.
2. **A format named in the question or on its row** (guidance, a note beside the answer
   cell): a pattern such as ``MM/DD/YYYY``, ``YYYY-MM-DD``, ``dd.mm.yyyy``, ``Month D, YYYY``,
   or an example after "e.g." / "example" / "format" / "such as" or in brackets
   (``e.g. January 5, 2024``, ``(2024-01-05)``).
3. **Dates already written in the workbook**, the question's sheet first: the formats of
   date cells and the shape of dates written as text ("05/20/2024"), the most frequent one.
   A numeric date whose day and month cannot be told apart ("05/06/2024") says nothing about
   their order unless another date of the same shape does ("05/20/2024": month first); a dotted
   one is read day first (the convention where dots are used).
4. **ISO** (``YYYY-MM-DD``): unambiguous everywhere.

A CSV questionnaire has no cell formats: the format named in the question's text, else ISO.
Month and weekday names are English. :class:`DateFormat` formats a date and reads back a text
written in that format (the export turns a reviewer's "11/24/2026" into the date 2026-11-24).
The workbook is read with openpyxl in read-only mode, once per file (path, size, modification
time) and a sheet at a time, the question's sheet first; a workbook that cannot be read falls
through to the question's text, then ISO.
"""

from __future__ import annotations

import calendar
import re
import threading
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path

from openpyxl.styles.numbers import is_date_format
from openpyxl.utils import get_column_letter

from engine.questionnaire.records import Question

# a format named after a question's words: "(MM/DD/YYYY)", "e.g. January 5, 2024", "format: 2024-01-05"
FORMAT_HINT = (
    r"(?:(?:e\.?\s?g\.?|i\.?\s?e\.?|for example|example|in the format|format|such as)\W*)?"
    r"(?:[dmy]{1,4}([/.\-])[dmy]{1,4}\1[dmy]{2,4}|(?:month|mmmm|mmm) dd?,? yyyy|dd? (?:month|mmmm|mmm) yyyy|"
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}([/.\-])\d{1,2}\2\d{2,4}|[a-z]{3,9}\.? \d{1,2},? \d{4}|\d{1,2} [a-z]{3,9}\.? \d{4})"
)
_TOKEN = re.compile(r"YYYY|YY|MMMM|MMM|MM|M|DDDD|DDD|DD|D")
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_FULL = {m.lower() for m in calendar.month_name if m}  # "May" is written in full
_MONTH_RE = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))


@dataclass(frozen=True)
class DateFormat:
    """A date format: ``parts`` are tokens (``YYYY``, ``YY``, ``MMMM`` month name, ``MMM`` its
    abbreviation, ``MM``/``M`` month number with/without a leading zero, ``DD``/``D`` day,
    ``DDDD``/``DDD`` weekday name) and literal text (a part starting with ``'``); ``source``
    says where it was found: "cell", "question", "workbook" or "iso"."""

    parts: tuple[str, ...]
    source: str = "iso"

    @classmethod
    def of(cls, pattern: str, source: str = "iso") -> DateFormat:
        """A format from a pattern in the token notation: ``DateFormat.of("MM/DD/YYYY")``."""
        parts, at = [], 0
        for m in _TOKEN.finditer(pattern):
            if m.start() > at:
                parts.append("'" + pattern[at : m.start()])
            parts.append(m.group())
            at = m.end()
        if at < len(pattern):
            parts.append("'" + pattern[at:])
        return cls(tuple(parts), source)

    @property
    def pattern(self) -> str:
        return "".join(p[1:] if p.startswith("'") else p for p in self.parts)

    def format(self, day: date) -> str:
        out = []
        for p in self.parts:
            out.append(
                p[1:]
                if p.startswith("'")
                else {
                    "YYYY": f"{day.year:04d}",
                    "YY": f"{day.year % 100:02d}",
                    "MMMM": calendar.month_name[day.month],
                    "MMM": calendar.month_abbr[day.month],
                    "MM": f"{day.month:02d}",
                    "M": str(day.month),
                    "DD": f"{day.day:02d}",
                    "D": str(day.day),
                    "DDDD": calendar.day_name[day.weekday()],
                    "DDD": calendar.day_abbr[day.weekday()],
                }[p]
            )
        return "".join(out)

    def parse(self, text: str) -> date | None:
        """The date a text written in this format shows; None when it is not one."""
        rx, names = [], []
        for p in self.parts:
            if p.startswith("'"):
                rx.append("".join(r"\s*" if c.isspace() else re.escape(c) for c in p[1:]))
                continue
            names.append(p)
            rx.append(
                {
                    "YYYY": r"(\d{4})",
                    "YY": r"(\d{2})",
                    "MMMM": r"([A-Za-z]+)\.?",
                    "MMM": r"([A-Za-z]+)\.?",
                    "DDDD": r"([A-Za-z]+)",
                    "DDD": r"([A-Za-z]+)\.?",
                }.get(p, r"(\d{1,2})")
            )
        m = re.fullmatch(r"\s*" + "".join(rx) + r"\s*", text or "", re.I)
        if not m:
            return None
        y = mo = d = None
        for name, value in zip(names, m.groups()):
            if name in ("YYYY", "YY"):
                y = int(value) + (2000 if name == "YY" else 0)
            elif name in ("MMMM", "MMM"):
                mo = _MONTHS.get(value.lower().rstrip("."))
            elif name in ("MM", "M"):
                mo = int(value)
            elif name in ("DD", "D"):
                d = int(value)
        try:
            return date(y, mo, d) if None not in (y, mo, d) else None
        except ValueError:
            return None


ISO = DateFormat.of("YYYY-MM-DD")


# ---------------------------------------------------------------- reading formats


def from_number_format(code: str | None) -> DateFormat | None:
    """The date part of an Excel number format; None for a format that shows no date."""
    if not code or not is_date_format(code):
        return None
    if code.lower() in ("mm-dd-yy", "m/d/yyyy"):  # built-in 14: the system's short date
        return DateFormat.of("M/D/YYYY", "cell")
    code = re.sub(r"\[[^\]]*\]", "", code.split(";")[0])
    parts: list[str] = []
    i = 0
    while i < len(code):
        ch = code[i]
        if ch == '"':
            j = code.find('"', i + 1)
            j = len(code) if j < 0 else j
            parts.append("'" + code[i + 1 : j])
            i = j + 1
            continue
        if ch == "\\" and i + 1 < len(code):
            parts.append("'" + code[i + 1])
            i += 2
            continue
        run = re.match(r"y+|m+|d+|e+|h+|s+|am/pm|a/p", code[i:], re.I)
        if run is None:
            parts.append("'" + ch)
            i += 1
            continue
        r = run.group().lower()
        if r[0] in "hs" or r in ("am/pm", "a/p") or (r[0] == "m" and parts and parts[-1] == "h"):
            break  # the time part: not written
        n = len(r)
        parts.append(
            {
                "y": "YYYY" if n > 2 else "YY",
                "e": "YYYY",
                "m": ("M", "MM", "MMM", "MMMM")[min(n, 4) - 1] if n < 5 else "MMMM",
                "d": ("D", "DD", "DDD", "DDDD")[min(n, 4) - 1],
            }[r[0]]
        )
        i += n
    while parts and parts[-1].startswith("'"):
        parts.pop()  # the separator before a dropped time part
    merged: list[str] = []
    for p in parts:
        if p.startswith("'") and merged and merged[-1].startswith("'"):
            merged[-1] += p[1:]
        else:
            merged.append(p)
    kinds = {p[0] for p in merged if not p.startswith("'")}
    return DateFormat(tuple(merged), "cell") if {"Y", "M", "D"} <= kinds else None


_NAMED = re.compile(
    r"(?<![A-Za-z])(?P<f>(?:dd?|mm?|yyyy|yy)(?P<sep>[/.\-])(?:dd?|mm?|yyyy|yy)(?P=sep)(?:dd?|mm?|yyyy|yy))"
    r"(?![A-Za-z])",
    re.I,
)
_SPELLED = re.compile(
    r"\b(?:(?P<m1>month|mmmm|mmm)\s+(?P<d1>dd?)(?P<c>,?)\s+yyyy|(?P<d2>dd?)\s+(?P<m2>month|mmmm|mmm)\s+yyyy)\b", re.I
)
_CUE = re.compile(r"(?:\be\.?\s?g\b\.?|\bi\.?\s?e\b\.?|\bexample\b|\bformat\b|\bsuch as\b|\blike\b|\()\W{0,4}", re.I)


def from_text(text: str | None) -> DateFormat | None:
    """A format named in a question's text or guidance: a pattern (``MM/DD/YYYY``,
    ``Month D, YYYY``) or an example after a cue ("e.g. January 5, 2024", "(2024-01-05)")."""
    if not text:
        return None
    for m in _NAMED.finditer(text):
        f = m["f"].upper()
        kinds = [p[0] for p in re.split(r"[/.\-]", f)]
        if sorted(kinds) == ["D", "M", "Y"]:
            return DateFormat.of(f, "question")
    m = _SPELLED.search(text)
    if m:
        month = "MMM" if (m["m1"] or m["m2"]).lower() == "mmm" else "MMMM"
        if m["m1"]:
            return DateFormat.of(f"{month} {m['d1'].upper()}{m['c']} YYYY", "question")
        return DateFormat.of(f"{m['d2'].upper()} {month} YYYY", "question")
    for cue in _CUE.finditer(text):
        found = _shape(text[cue.end() : cue.end() + 30], prefix=True)
        if isinstance(found, DateFormat):
            return DateFormat(found.parts, "question")
    return None


def _shape(text: str, prefix: bool = False) -> DateFormat | tuple[str, str] | None:
    """The format of a date written as text (the whole text, or its start when ``prefix``):
    a DateFormat, or for a numeric date whose day and month cannot be told apart its shape
    ``("ambiguous", key)``; None when it is no date."""
    end = r"(?!\d)" if prefix else r"\s*$"
    m = re.match(r"\s*(\d{4})([-/.])(\d{1,2})\2(\d{1,2})" + end, text)
    if m and date_ok(int(m[1]), int(m[3]), int(m[4])):
        return DateFormat.of(f"YYYY{m[2]}{_pad(m[3], 'M')}{m[2]}{_pad(m[4], 'D')}", "workbook")
    m = re.match(r"\s*(\d{1,2})([/.\-])(\d{1,2})\2(\d{4}|\d{2})" + end, text)
    if m:
        a, b, sep, y = m[1], m[3], m[2], "YYYY" if len(m[4]) == 4 else "YY"
        if int(a) > 12 >= int(b) or (sep == "." and int(a) <= 31 and int(b) <= 12):
            return DateFormat.of(f"{_pad(a, 'D')}{sep}{_pad(b, 'M')}{sep}{y}", "workbook")
        if int(b) > 12 >= int(a):
            return DateFormat.of(f"{_pad(a, 'M')}{sep}{_pad(b, 'D')}{sep}{y}", "workbook")
        if int(a) <= 12 and int(b) <= 12:
            return ("ambiguous", sep, y)
        return None
    m = re.match(rf"\s*({_MONTH_RE})(\.?)\s+(\d{{1,2}})(,?)\s+(\d{{4}})" + end, text, re.I)
    if m:
        month = "MMMM" if m[1].lower() in _FULL else "MMM"
        return DateFormat.of(f"{month}{m[2]} {_pad(m[3], 'D')}{m[4]} YYYY", "workbook")
    m = re.match(rf"\s*(\d{{1,2}})\s+({_MONTH_RE})(\.?),?\s+(\d{{4}})" + end, text, re.I)
    if m:
        month = "MMMM" if m[2].lower() in _FULL else "MMM"
        return DateFormat.of(f"{_pad(m[1], 'D')} {month}{m[3]} YYYY", "workbook")
    return None


def date_ok(y: int, m: int, d: int) -> bool:
    try:
        date(y, m, d)
        return True
    except ValueError:
        return False


def _pad(digits: str, token: str) -> str:
    """``MM`` for "05" or "11", ``M`` for "5"."""
    return token * 2 if len(digits) == 2 else token


# ---------------------------------------------------------------- the workbook


@dataclass(frozen=True)
class _Sheet:
    formats: dict  # "C2" -> DateFormat of a date-formatted cell
    rows: dict  # row -> the texts of the row
    written: Counter  # the formats of dates written on the sheet (DateFormat or ambiguous shapes)


class _Book:
    """A workbook's date formats and texts, read a sheet at a time: the question's sheet decides in
    nearly every questionnaire, and a HECVAT Full's other twelve sheets (≈ 200,000 styled cells) cost
    seconds of a drafting run's first pass. ``sheets`` reads the sheets asked for that are not read
    yet, in one opening of the file; None for a workbook that cannot be read."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._read: dict[str, _Sheet] = {}
        self._titles: list[str] | None = None  # every sheet's title, in order, once the file was opened
        self._lock = threading.Lock()
        self._unreadable = False

    def sheets(self, wanted: str | None = None) -> dict[str, _Sheet] | None:
        """``wanted``'s sheet (every sheet when None) as read, in the workbook's order."""
        with self._lock:
            if self._unreadable:
                return None
            if self._titles is None or any(t not in self._read for t in self._titles if wanted in (None, t)):
                try:
                    self._titles = _read_sheets(self.path, wanted, self._read)
                except Exception:  # unreadable here: the question's text, then ISO
                    self._unreadable = True
                    return None
            return {t: self._read[t] for t in self._titles if t in self._read and (wanted is None or t == wanted)}


def _read_sheets(path: str, wanted: str | None, read: dict[str, _Sheet]) -> list[str]:
    """Read ``wanted``'s sheet (every sheet when None) into ``read``, those not there yet; the titles."""
    import warnings

    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            for ws in wb.worksheets:
                if ws.title not in read and wanted in (None, ws.title):
                    read[ws.title] = _sheet(ws)
            return list(wb.sheetnames)
        finally:
            wb.close()


def _sheet(ws) -> _Sheet:
    formats: dict = {}
    rows: dict = {}
    seen: Counter = Counter()
    for row in ws.iter_rows():
        for c in row:
            if not hasattr(c, "column") or c.column is None:
                continue
            fmt = from_number_format(c.number_format)
            if fmt is not None:
                formats[f"{get_column_letter(c.column)}{c.row}"] = fmt
            v = c.value
            if isinstance(v, (datetime, date)) and fmt is not None:
                seen[DateFormat(fmt.parts, "workbook")] += 1
            elif isinstance(v, str) and v.strip():
                rows.setdefault(c.row, []).append(v)
                if len(v) <= 30:
                    shape = _shape(v)
                    if shape is not None:
                        seen[shape] += 1
    return _Sheet(formats, rows, seen)


def _most_written(counts: Counter) -> DateFormat | None:
    """The most frequent format of the dates written, ambiguous numeric ones counted for the
    order an unambiguous date of the same shape (separator, year digits) shows."""
    known = Counter({k: n for k, n in counts.items() if isinstance(k, DateFormat)})
    for k, n in counts.items():
        if not isinstance(k, DateFormat):
            for f in [f for f in known if _numeric_key(f) == k[1:]]:
                known[f] += n
    return known.most_common(1)[0][0] if known else None


def _numeric_key(f: DateFormat) -> tuple[str, str] | None:
    """(separator, year token) of a numeric day-month or month-day format ("MM/DD/YYYY")."""
    p = f.parts
    if (
        len(p) == 5
        and p[1] == p[3]
        and p[4] in ("YYYY", "YY")
        and {p[0][0], p[2][0]} == {"M", "D"}
        and len(p[0]) <= 2
        and len(p[2]) <= 2
    ):
        return (p[1][1:], p[4])
    return None


@lru_cache(maxsize=8)
def _book(path: str, size: int, mtime: int) -> _Book:
    return _Book(path)


def _book_of(path: Path | None) -> _Book | None:
    """The workbook at ``path``, its sheets read as they are asked for (kept per file: path, size,
    modification time); None for no workbook."""
    if path is None or path.suffix.lower() not in (".xlsx", ".xlsm") or not path.is_file():
        return None
    st = path.stat()
    return _book(str(path), st.st_size, st.st_mtime_ns)


def read_ahead(path: str | Path) -> None:
    """Read the workbook's formats and dates now (kept per file): what the first export of a
    questionnaire, or the first draft of its date question, would otherwise wait for."""
    book = _book_of(Path(path))
    if book is not None:
        book.sheets()


def date_format(q: Question, path: str | Path | None) -> DateFormat:
    """The format the drafting date is written in for date question ``q`` of the questionnaire
    at ``path`` (see the module docstring for the order). The other sheets are read only when the
    question's own says nothing."""
    book = _book_of(Path(path) if path else None)
    own = (book.sheets(q.sheet) or {}).get(q.sheet) if book is not None else None
    if own is not None:
        for cell in (q.text_cell, q.choice_cell):
            if cell and cell in own.formats:
                return own.formats[cell]
    texts = [q.text] + (own.rows.get(q.row, []) if own is not None else [])
    for t in texts:
        named = from_text(t)
        if named is not None:
            return named
    found = _most_written(own.written) if own is not None else None
    if found is not None:
        return found
    for sheet in (book.sheets() or {}).values() if book is not None else ():
        found = _most_written(sheet.written)
        if found is not None:
            return found
    return ISO


__all__ = ["FORMAT_HINT", "DateFormat", "ISO", "date_format", "from_number_format", "from_text"]
