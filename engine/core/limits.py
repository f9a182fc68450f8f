"""Size limits on what the engine reads, checked before the expensive work.

A hostile or accidental file must not take the machine: a 3 MB workbook can unpack to
gigabytes of cells (a zip bomb), a one-line text file can hold 50 million characters. Each
limit has a default sized for a 2-core / 24 GB machine, a ``python -m engine`` flag and an
``RFP_*`` environment variable (the app reads the variables when it starts):

=====================  ==================  =======================  ==========================
limit                  default             flag                     environment variable
=====================  ==================  =======================  ==========================
uncompressed content   200 MB per file     ``--max-unzipped-mb``    ``RFP_MAX_UNZIPPED_MB``
cells per sheet        1,000,000           ``--max-cells``          ``RFP_MAX_CELLS``
rows per sheet         200,000             ``--max-rows``           ``RFP_MAX_ROWS``
characters per file    20,000,000          ``--max-chars``          ``RFP_MAX_CHARS``
pages per PDF          2,000               ``--max-pages``          ``RFP_MAX_PAGES``
nesting depth (Word)   100 levels          ``--max-nesting``        ``RFP_MAX_NESTING``
paragraphs (Word)      200,000             ``--max-paragraphs``     ``RFP_MAX_PARAGRAPHS``
table cells (Word)     200,000             ``--max-table-cells``    ``RFP_MAX_TABLE_CELLS``
cell formats (Excel)   65,490              ``--max-cell-formats``   ``RFP_MAX_CELL_FORMATS``
fields per PDF page    500                 ``--max-page-fields``    ``RFP_MAX_PAGE_FIELDS``
crossings per page     4,500               ``--max-page-crossings`` ``RFP_MAX_PAGE_CROSSINGS``
crossings per PDF      60,000              ``--max-crossings``      ``RFP_MAX_CROSSINGS``
=====================  ==================  =======================  ==========================

Where each is checked:

* **Zip packages** (.xlsx, .xlsm, .docx, .docm): the sizes in the zip directory, every member and the
  total, before anything is unpacked. Python's ``zipfile`` (which openpyxl and python-docx read
  through) never inflates a member past the size its directory entry declares — a member
  whose data is longer fails its CRC check — so the directory bounds what any reader unpacks.
  Then, before openpyxl or python-docx builds anything, one streaming pass (1 MiB at a time,
  the bytes counted against the same limit) counts the rows and cells of every part of a
  workbook, and the characters of text of its shared strings or of a document's body; the pass
  stops at the first limit crossed and estimates the whole from what it read.
* **Word** (.docx, .docm), besides the zip checks: every member unpacked once (a damaged part, two
  parts of one name, a compression method Office never writes: refused, engine/core/zip_parts.py),
  then the main document part — found by its relationship, whatever its name — with its styles
  and numbering parts, in one streaming pass (engine/core/word_scan.py): how deep elements nest,
  the paragraphs and table cells, and every number a reader would size something by (spans,
  list levels, a drop-down's choice).
* **Workbooks** also count the cell formats of ``xl/styles.xml`` (Excel's own limit is 65,490):
  190 MB of ``<xf/>`` fit in a 0.3 MB packet.
* **PDF**: the page count, read from the file's page tree before any text is extracted; then,
  before any page is laid out (engine/core/pdf_scan.py), the page tree walked without
  recursion (a loop refused), the fields of each page counted from its annotation list, every
  field's rectangle held to its page, and the inflated size of the content streams counted
  against the unpacked-size limit. A flat PDF questionnaire's ruling lines are counted before its
  tables are looked for (where they cross: the table finder's work grows with its square), per
  page and per file.
* **Text** (CSV, Markdown, TXT): the characters after decoding; a file whose size alone proves
  it is over (more than 4 bytes per allowed character) is refused without being read. CSV rows
  and cells are counted as they are parsed, and kept only while under the limits.
* **Every document**: the characters of its text once loaded (PDF pages, DOCX sections,
  sheet rows).

Over a limit, :class:`LimitError` (a :class:`~engine.core.types.FileProblem`): one line naming the
file, what was measured, the limit, and the flag and variable that raise it.
"""

from __future__ import annotations

import argparse
import codecs
import os
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path

from defusedxml import DefusedXmlException

from engine.core.decoding import count_chars, decode_text
from engine.core.ooxml import part_targets, word_main_part, workbook_sheets
from engine.core.pdf_scan import PDF_FIX, PdfBounds, rulings_over, scan_pdf
from engine.core.types import FileProblem, IngestError, UnreadableFile
from engine.core.word_scan import WordBounds, scan_word_parts
from engine.core.zip_parts import check_members, inflated

MB = 1_000_000
_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,63}:)?(row|c)[\s/>]")  # <row …>, <c …>, <x:c …>
_TAG_WINDOW = 80  # longer than any match of _TAG: a tag cut by a chunk boundary is kept whole
SHARED_STRINGS = "xl/sharedStrings.xml"
STYLES = "xl/styles.xml"
_XF = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,63}:)?xf[\s/>]")  # a cell format of xl/styles.xml
WORD_FIX = "open it in Word, save it again as .docx and try again"
SHEET_FIX = "open it in Excel, save it again as .xlsx and try again"
_XML_TAG = re.compile(r"<[^>]*>")
_ENTITY = re.compile(r"&#?\w{1,8};")
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
TEXT_SUFFIXES = (".csv", ".md", ".markdown", ".txt")
_UNREADABLE = (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, RuntimeError, NotImplementedError)
MAX_BYTES_PER_CHAR = 4  # UTF-8 and UTF-32: a file of N bytes holds at least N / 4 characters


@dataclass(frozen=True)
class _Spec:
    flag: str
    env: str
    unit: str  # what is counted, for messages
    help: str


_SPECS = {
    "unzipped_mb": _Spec(
        "--max-unzipped-mb", "RFP_MAX_UNZIPPED_MB", "MB", "most megabytes a .xlsx/.xlsm/.docx may unpack to"
    ),
    "cells": _Spec("--max-cells", "RFP_MAX_CELLS", "cells", "most cells in one sheet"),
    "rows": _Spec("--max-rows", "RFP_MAX_ROWS", "rows", "most rows in one sheet"),
    "chars": _Spec("--max-chars", "RFP_MAX_CHARS", "characters", "most characters of text in one file"),
    "pages": _Spec("--max-pages", "RFP_MAX_PAGES", "pages", "most pages in one PDF"),
    "nesting": _Spec(
        "--max-nesting", "RFP_MAX_NESTING", "levels", "most levels a Word document's elements nest (tables in tables…)"
    ),
    "paragraphs": _Spec("--max-paragraphs", "RFP_MAX_PARAGRAPHS", "paragraphs", "most paragraphs in one Word document"),
    "table_cells": _Spec(
        "--max-table-cells", "RFP_MAX_TABLE_CELLS", "table cells", "most table cells in one Word document"
    ),
    "cell_formats": _Spec(
        "--max-cell-formats", "RFP_MAX_CELL_FORMATS", "cell formats", "most cell formats in one workbook's styles"
    ),
    "page_fields": _Spec("--max-page-fields", "RFP_MAX_PAGE_FIELDS", "fields", "most form fields on one PDF page"),
    "page_crossings": _Spec(
        "--max-page-crossings",
        "RFP_MAX_PAGE_CROSSINGS",
        "crossings",
        "most ruling-line crossings on one page of a flat PDF questionnaire",
    ),
    "crossings": _Spec(
        "--max-crossings", "RFP_MAX_CROSSINGS", "crossings", "most ruling-line crossings in one flat PDF questionnaire"
    ),
}


class LimitError(IngestError):
    """A file over one of the limits. An IngestError, so that indexing reports it like any
    other file it cannot take; the questionnaire readers raise it as it is."""


@dataclass(frozen=True)
class Limits:
    """The limits (see the module docstring); every value at least 1."""

    unzipped_mb: int = 200
    cells: int = 1_000_000
    rows: int = 200_000
    chars: int = 20_000_000
    pages: int = 2_000
    nesting: int = 100
    paragraphs: int = 200_000
    table_cells: int = 200_000
    cell_formats: int = 65_490
    page_fields: int = 500
    page_crossings: int = 4_500
    crossings: int = 60_000  # the filled AWS CAIQ PDF has 37,116 in 75 pages (a library import)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                spec = _SPECS[f.name]
                raise ValueError(
                    f"{spec.flag} / {spec.env} must be a whole number of {spec.unit}, 1 or more "
                    f"(got {value!r}); leave it out for the default {getattr(Limits, f.name):,}"
                )

    @classmethod
    def from_env(cls, **overrides: int | None) -> Limits:
        """Defaults, then the ``RFP_MAX_*`` environment variables, then ``overrides`` (None: not given)."""
        values: dict[str, int] = {}
        for name, spec in _SPECS.items():
            raw = os.environ.get(spec.env, "").strip().replace("_", "").replace(",", "")
            if raw:
                try:
                    values[name] = int(raw)
                except ValueError:
                    raise ValueError(
                        f"{spec.env}={os.environ[spec.env]!r} is not a whole number of {spec.unit}; "
                        f"unset it for the default {getattr(cls, name):,}"
                    ) from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Limits:
        """The limits of a command: its ``--max-*`` flags over the environment and the defaults."""
        return cls.from_env(**{name: getattr(args, f"max_{name}", None) for name in _SPECS})

    @property
    def unzipped_bytes(self) -> int:
        return self.unzipped_mb * MB

    # ---- checks ------------------------------------------------------------------------------
    def check_file(self, path: Path, name: str) -> None:
        """The checks that need no parsing, by the file type ``name`` (or ``path``) has: what a
        caller runs before anything expensive loads (a model, a parser)."""
        suffix = (Path(name).suffix or path.suffix).lower()
        if suffix in WORKBOOK_SUFFIXES:
            self.check_workbook(path, name)
        elif suffix in (".docx", ".docm"):
            self.check_docx(path, name)
        elif suffix == ".pdf":
            self.check_pdf(path, name)
        elif suffix in TEXT_SUFFIXES:
            self.check_text_file(path, name)

    def screen(self, files: Iterable[tuple[Path, str]]) -> tuple[list[tuple[Path, str]], list[IngestError]]:
        """``(path, name)`` pairs split into those :meth:`check_file` lets through and the errors
        of the others (:class:`LimitError`, :class:`~engine.core.types.UnreadableFile`)."""
        kept: list[tuple[Path, str]] = []
        refused: list[IngestError] = []
        for path, name in files:
            try:
                self.check_file(path, name)
            except IngestError as exc:
                refused.append(exc)
            else:
                kept.append((path, name))
        return kept, refused

    def check_zip(self, path: Path, name: str) -> None:
        """Every member's and the total uncompressed size, from the zip directory. A file that
        is not a readable zip is left to its loader, which says so."""
        try:
            with zipfile.ZipFile(path) as zf:
                infos = zf.infolist()
        except _UNREADABLE:
            return
        total = sum(i.file_size for i in infos)
        if total > self.unzipped_bytes:
            biggest = max(infos, key=lambda i: i.file_size)
            raise self._over(
                name,
                "unzipped_mb",
                f"unpacks to {_mb(total)} (its largest part, {biggest.filename}, to {_mb(biggest.file_size)})",
                _mb_needed(total),
            )

    def check_workbook(self, path: Path, name: str) -> None:
        """:meth:`check_zip` and the package's members (zip_parts.check_members: duplicate names,
        an unknown compression), then the rows and cells of each part, and the cell formats of its
        styles, counted in one streaming pass that stops at the first limit crossed."""
        self.check_zip(path, name)
        try:
            zf = zipfile.ZipFile(path)
        except _UNREADABLE:
            return
        with zf:
            check_members(zf, name, SHEET_FIX, unpack=False)
            sheets = _sheet_names(zf)
            budget = self.unzipped_bytes
            for info in zf.infolist():
                if info.is_dir():
                    continue
                try:
                    if info.filename == SHARED_STRINGS:  # every string of the workbook, read whole by openpyxl
                        self._check_xml_text(zf, info, name, "its shared strings")
                        continue
                    if info.filename == STYLES:  # every cell format, read whole by openpyxl
                        self._check_formats(zf, info, name)
                        continue
                    count = _count_tags(zf, info, budget, self.rows, self.cells)
                except zlib.error:
                    raise UnreadableFile(
                        name,
                        f"is damaged: the compressed data of its part {info.filename} cannot be unpacked",
                        SHEET_FIX,
                    ) from None
                except _UNREADABLE:
                    return  # encrypted, or a truncated package: the loader says so
                sheet = sheets.get(info.filename, info.filename)
                if count.size > budget:  # more than the limit allows, whatever its directory entry says
                    if count.size > info.file_size:
                        raise _lying(name, info, count.size, f"unpacks to more than {_mb(self.unzipped_bytes)}")
                    raise self._over(
                        name,
                        "unzipped_mb",
                        f"unpacks to more than {_mb(self.unzipped_bytes)} "
                        f"(part {info.filename}, counted while unpacking; the zip "
                        f"directory says {_mb(info.file_size)})",
                        None,
                    )
                if count.complete or count.size == info.file_size:  # read to its end: exact figures
                    self.check_sheet(name, sheet, count.rows, count.cells)
                    budget -= count.size
                    continue
                for limit, counted in (("cells", count.cells), ("rows", count.rows)):
                    if counted <= getattr(self, limit):
                        continue
                    over = f"sheet '{sheet}' has more than {getattr(self, limit):,} {limit}"
                    if count.size > info.file_size:  # its directory entry lies: no estimate, no limit helps
                        raise _lying(name, info, count.size, f"{over} ({counted:,} in its first {_mb(count.size)})")
                    about = round(counted * info.file_size / count.size)  # by what was read of the part
                    raise self._over(
                        name,
                        limit,
                        f"{over} (about {about:,}: {counted:,} in its first "
                        f"{_mb(count.size)} of {_mb(info.file_size)})",
                        about,
                    )

    def check_docx(self, path: Path, name: str) -> None:
        """:meth:`check_zip`; every member unpacked once (zip_parts.check_members: a damaged
        part, duplicate names, an unknown compression); then the characters of the text of the
        main document part, found by its relationship whatever its name, and one streaming pass
        over it and its styles and numbering (word_scan.py), all before python-docx or lxml
        builds anything. A file that is no zip is left to its loader, which says so."""
        self.check_zip(path, name)
        try:
            zf = zipfile.ZipFile(path)
        except _UNREADABLE:
            return
        with zf:
            check_members(zf, name, WORD_FIX, unpack=True)
            try:
                main = word_main_part(zf)
                related = part_targets(zf, main) if main else {}
            except DefusedXmlException:
                return  # a part that declares entities: the reader refuses it before it parses anything
            except (*_UNREADABLE, KeyError, SyntaxError):  # ElementTree.ParseError: the loader says so
                return
            if main is None:
                return  # not a Word document: the loader says so
            parts = [main, *(related[k] for k in ("/styles", "/numbering") if k in related)]
            bounds = WordBounds(self.nesting, self.paragraphs, self.table_cells)
            over = scan_word_parts(zf, parts, inflated, name, bounds, WORD_FIX)  # stops at the first limit
            if over is not None:
                raise self._over(name, over.limit, over.measured, over.needed)
            self._check_xml_text(zf, zf.getinfo(main), name, "its text")

    def _check_xml_text(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, what: str) -> None:
        chars, read = _xml_text_chars(zf, info, self.chars)
        if chars > self.chars:
            if read > info.file_size:  # its directory entry lies: an estimate from it would mislead
                raise _lying(name, info, read, f"{what} holds more than {self.chars:,} characters")
            about = round(chars * info.file_size / max(read, 1))  # by what was read of the part
            raise self._over(
                name,
                "chars",
                f"{what} holds more than {self.chars:,} characters (about {about:,}: "
                f"{chars:,} in the first {_mb(read)} of {info.filename}, "
                f"{_mb(info.file_size)})",
                max(about, chars),
            )

    def _check_formats(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> None:
        """The cell formats (``<xf>``) of a workbook's styles, counted 1 MiB at a time, up to the limit."""
        formats, size, tail = 0, 0, b""
        for chunk in inflated(zf, info):
            size += len(chunk)
            buf = tail + chunk
            cut = buf.rfind(b"<", max(0, len(buf) - _TAG_WINDOW))
            cut = len(buf) if cut < 0 else cut
            formats += len(_XF.findall(buf, 0, cut))
            tail = buf[cut:]
            if formats > self.cell_formats or size > self.unzipped_bytes:
                break
        else:
            formats += len(_XF.findall(tail))
        if size > max(info.file_size, self.unzipped_bytes):
            raise _lying(name, info, size, f"its styles unpack to more than {_mb(size)}")
        if formats > self.cell_formats:
            raise self._over(
                name,
                "cell_formats",
                f"its styles ({info.filename}) hold more than {self.cell_formats:,} cell formats, "
                "the most Excel itself allows",
                None,
            )

    def check_sheet(self, name: str, sheet: str, rows: int, cells: int) -> None:
        if cells > self.cells:
            raise self._over(name, "cells", f"sheet '{sheet}' has {cells:,} cells", cells)
        if rows > self.rows:
            raise self._over(name, "rows", f"sheet '{sheet}' has {rows:,} rows", rows)

    def check_pdf(self, path: Path, name: str) -> None:
        """:meth:`check_pdf_document` on the file (no text is extracted). A PDF MuPDF cannot open
        is left to its loader."""
        import pymupdf  # noqa: PLC0415 (deferred: a command that reads no PDF does not load MuPDF)

        try:
            doc = pymupdf.open(path, filetype="pdf")
        except Exception:  # MuPDF raises several types for damaged files
            return
        with doc:
            if doc.needs_pass:
                return  # encrypted: the loader says so
            self.check_pdf_document(doc, name, form=False)

    def check_pdf_document(self, doc, name: str, *, form: bool = True) -> None:
        """An open PDF's structure (engine/core/pdf_scan.py: its page tree, its form's fields, their
        rectangles, its content streams' inflated size), then its page count: before any page
        is loaded or laid out. What every PDF reader runs first (engine/ingest/pdf.py,
        engine/questionnaire/pdf/reader.py). ``form``: its form's checks too (a questionnaire's reader;
        indexing, which reads only the pages' text, leaves them out)."""
        over = scan_pdf(doc, name, PdfBounds(self.pages, self.page_fields, self.unzipped_bytes), form=form)
        if over is not None:
            raise self._over(name, over.limit, over.measured, over.needed)
        try:
            pages = doc.page_count
        except Exception as exc:  # MuPDF's error on a page tree it cannot count  # noqa: BLE001
            raise UnreadableFile(name, "is damaged: its pages cannot be counted", PDF_FIX) from exc
        self.check_pages(name, pages)

    def check_rulings(self, doc, name: str) -> None:
        """A flat PDF's ruling-line crossings, per page and in all (pdf_scan.rulings_over): before
        its tables are looked for (engine/questionnaire/pdf/reader.py)."""
        over = rulings_over(doc, self.page_crossings, self.crossings)
        if over is not None:
            raise self._over(name, over.limit, over.measured, over.needed)

    def check_pages(self, name: str, pages: int) -> None:
        if pages > self.pages:
            raise self._over(name, "pages", f"has {pages:,} pages", pages)

    def check_text_file(self, path: Path, name: str) -> None:
        """Refuse a text file whose size alone proves it holds too many characters; one that may
        be over has its characters counted 1 MiB at a time (never read whole)."""
        size = path.stat().st_size
        if size <= self.chars:  # never more characters than bytes
            return
        if size > MAX_BYTES_PER_CHAR * self.chars:
            raise self._over(name, "chars", f"is {_mb(size)}, at least {size // MAX_BYTES_PER_CHAR:,} characters", size)
        self.check_chars(name, count_chars(path))

    def read_text(self, path: Path, name: str, error: type[FileProblem] = IngestError) -> str:
        """The decoded text of a CSV, Markdown or TXT file (engine/core/decoding.py), refused when its
        size alone is over the character limit (before reading) or its text is (after)."""
        self.check_text_file(path, name)
        text = decode_text(path.read_bytes(), name, error)
        self.check_chars(name, len(text))
        return text

    def check_chars(self, name: str, chars: int) -> None:
        if chars > self.chars:
            raise self._over(name, "chars", f"has {chars:,} characters of text", chars)

    def check_text(self, name: str, texts: Iterable[str]) -> None:
        """The characters of a loaded document (its pages, sections or rows together)."""
        self.check_chars(name, sum(len(t) for t in texts))

    def bounded_rows(self, name: str, sheet: str, records: Iterable[list[str]]) -> Iterator[tuple[int, list[str]]]:
        """``(row number, cells)`` of parsed records (CSV); past a limit the rest is only counted,
        then :class:`LimitError` gives the exact figures."""
        rows = cells = 0
        for rows, record in enumerate(records, 1):
            cells += len(record)
            if rows <= self.rows and cells <= self.cells:
                yield rows, record
        self.check_sheet(name, sheet, rows, cells)

    def _over(self, name: str, limit: str, measured: str, needed: int | None) -> LimitError:
        spec = _SPECS[limit]
        value = getattr(self, limit)
        n = needed or "N"
        return LimitError(
            name,
            f"{measured}, over the limit of {value:,} {spec.unit}",
            f"If you trust the file, raise the limit: {spec.flag} {n} on the command line, "
            f"{spec.env}={n} for the app (set before it starts)",
        )


def add_limit_args(parser: argparse.ArgumentParser) -> None:
    """The ``--max-*`` flags of a command that reads files (see :meth:`Limits.from_args`)."""
    group = parser.add_argument_group("size limits (also RFP_MAX_* environment variables)")
    for name, spec in _SPECS.items():
        group.add_argument(
            spec.flag,
            dest=f"max_{name}",
            type=int,
            metavar="N",
            help=f"{spec.help} (default {getattr(Limits, name):,}; {spec.env})",
        )


def _lying(name: str, info: zipfile.ZipInfo, read: int, measured: str) -> UnreadableFile:
    """A part that unpacks to more than its zip directory says: crafted or damaged, and raising a
    limit by what the directory says would not let it through (issue #56: the line suggested
    ``--max-chars 2048``), so the fix is a new copy, not a limit."""
    return UnreadableFile(
        name,
        f"{measured}, though its zip directory says the part {info.filename} is {_mb(info.file_size)} "
        f"({_mb(read)} read before stopping): a crafted or damaged package",
        "no limit makes such a file safe to read; ask for a new copy, or open it in Word or Excel and save it again",
    )


def _mb(size: int) -> str:
    return f"{size / MB:,.1f} MB" if size >= MB // 10 else f"{size:,} bytes"


def _mb_needed(size: int) -> int:
    return -(-size // MB)  # rounded up


def _sheet_names(zf: zipfile.ZipFile) -> dict[str, str]:
    """Zip member → sheet name, for messages; empty when the workbook part is unreadable."""
    try:
        return {info.part: info.name for info in workbook_sheets(zf)}
    except Exception:  # a damaged workbook.xml: the loader reports it
        return {}


def _xml_text_chars(zf: zipfile.ZipFile, info: zipfile.ZipInfo, stop: int) -> tuple[int, int]:
    """(characters of text, bytes read) of one XML member — the text outside tags, an entity as
    one character — inflated and decoded 1 MiB at a time, until the end or past ``stop``."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    chars, read, inside = 0, 0, False  # inside: the previous piece ended within a tag
    for chunk in inflated(zf, info):
        if chars > stop:
            break
        read += len(chunk)
        piece = decoder.decode(chunk)
        start = 0
        if inside:
            start = piece.find(">") + 1
            if start == 0:
                continue  # the whole piece is inside one tag
        opened = piece.rfind("<", start)
        inside = opened > piece.rfind(">", start)
        text = piece[start:opened] if inside else piece[start:]
        chars += len(_ENTITY.sub("&", _XML_TAG.sub("", text)))
    return chars, read


@dataclass(frozen=True)
class _Count:
    rows: int
    cells: int
    size: int  # bytes inflated
    complete: bool  # False: stopped at a limit (or at the byte budget)


def _count_tags(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int, max_rows: int, max_cells: int) -> _Count:
    """The ``<row>`` and ``<c>`` elements of one zip member, inflated 1 MiB at a time, until the
    end, or until more than ``budget`` bytes, ``max_rows`` rows or ``max_cells`` cells."""
    rows = cells = size = 0
    tail = b""
    for chunk in inflated(zf, info):
        size += len(chunk)
        buf = tail + chunk
        cut = buf.rfind(b"<", max(0, len(buf) - _TAG_WINDOW))  # a tag may go on in the next chunk
        cut = len(buf) if cut < 0 else cut
        tags = _TAG.findall(buf, 0, cut)
        cells += tags.count(b"c")
        rows += len(tags) - tags.count(b"c")
        tail = buf[cut:]
        if size > budget or rows > max_rows or cells > max_cells:
            return _Count(rows, cells, size, False)
    tags = _TAG.findall(tail)
    cells += tags.count(b"c")
    rows += len(tags) - tags.count(b"c")
    return _Count(rows, cells, size, True)


__all__ = ["Limits", "LimitError", "add_limit_args"]
