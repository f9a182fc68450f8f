"""A PDF's structure checked from its objects before any page is loaded or laid out (issue #56):
what MuPDF would otherwise meet as ``code=7: Invalid number of pages`` or ``code=4: Indirect
object required``, and what a reader would allocate for, one page or one field at a time.

* **The page tree**, walked with a stack (never by recursion): a node met twice (a /Kids loop) is
  refused; so is a tree whose root claims more pages than it holds (10⁹ pages in a 1 kB file),
  and one holding more pages than the page limit (counted as it is walked, so never past it).
* **The form's field tree** (/Fields, /Kids, /Parent), the same way: a loop is refused.
* **Fields per page**, from each page's annotation list, against ``Limits.page_fields``.
* **Every field's rectangle** against its page: one far larger than the page it is on (a text
  field 2·10⁹ points tall) is refused, before a reader sizes anything by it.
* **The inflated size of the streams** (Flate; pictures aside), unpacked 1 MiB at a time and counted
  against the unpacked-size limit: a 1 MB file whose one stream inflates to 1 GB is refused at
  the limit.

Over a limit: :class:`~engine.core.word_scan.Over` (the caller words it with the flag); a structure
no reader can use: :class:`~engine.core.types.UnreadableFile`.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.types import UnreadableFile
from engine.core.word_scan import Over

if TYPE_CHECKING:
    import pymupdf

PDF_FIX = "open it in a PDF viewer, save (or print to PDF) a new copy and try again, or ask the sender for one"
_REF = re.compile(rb"(\d+)\s+\d+\s+R")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)")
_CHUNK = 1 << 20
_TOLERANCE = 3  # points: MuPDF's snap, join and intersection tolerance in find_tables
_PAIRS = 4_000_000  # line pairs compared at most on one page (a few MB)
_COUNTED = 10  # pages are counted up to ten times the limit, for a fix that names a value that works
_SLACK = 1.0  # a rectangle may reach one page's width or height past each edge of its page


@dataclass(frozen=True)
class PdfBounds:
    pages: int
    page_fields: int
    unzipped_bytes: int


def _refs(value: str) -> list[int]:
    return [int(m.group(1)) for m in _REF.finditer(value.encode())]


def _key(doc: pymupdf.Document, xref: int, key: str) -> tuple[str, str]:
    try:
        return doc.xref_get_key(xref, key)
    except Exception:  # MuPDF's error on a damaged object  # noqa: BLE001
        return ("null", "null")


def scan_pdf(doc: pymupdf.Document, name: str, bounds: PdfBounds, *, form: bool = True) -> Over | None:
    """The checks of the module docstring on ``doc`` (shown as ``name``), in that order: the first
    limit crossed, or None; :class:`~engine.core.types.UnreadableFile` for a damaged structure.
    ``form``: the form's checks too (its field tree, fields per page, rectangles, check boxes),
    what a questionnaire reader needs; indexing reads only the pages' text."""
    if not doc.is_pdf:
        return None
    try:
        catalog = doc.pdf_catalog()
    except Exception:  # noqa: BLE001 (no catalog: MuPDF rebuilt what it could; the reader says what it finds)
        return None
    leaves, over = _page_tree(doc, name, catalog, bounds)
    if over is not None:
        return over
    if form:
        _field_tree(doc, name, catalog)
        over = _page_widgets(doc, name, leaves, bounds)
        if over is not None:
            return over
    return _streams(doc, name, bounds)


def _page_tree(doc: pymupdf.Document, name: str, catalog: int, bounds: PdfBounds) -> tuple[list[int], Over | None]:
    kind, value = _key(doc, catalog, "Pages")
    root = _refs(value)
    if kind != "xref" or not root:
        return [], None  # no page tree: MuPDF finds the pages by scanning the file, and the reader says what it has
    leaves: list[int] = []
    seen: set[int] = set()
    stack = [root[0]]
    while stack:
        node = stack.pop()
        kids_kind, kids = _key(doc, node, "Kids")
        inner = _key(doc, node, "Type")[1] == "/Pages" or kids_kind == "array"
        if node in seen:
            if inner:
                raise UnreadableFile(
                    name, "is damaged: its page tree loops back on itself (a page is its own ancestor)", PDF_FIX
                )
            continue  # a page listed twice: MuPDF reads it once
        seen.add(node)
        if inner:
            stack.extend(reversed(_refs(kids)))
            continue
        leaves.append(node)
        if len(leaves) > _COUNTED * bounds.pages:  # counted this far only: the walk stays bounded
            return leaves, Over("pages", f"has more than {_COUNTED * bounds.pages:,} pages", None)
    if len(leaves) > bounds.pages:
        return leaves, Over("pages", f"has {len(leaves):,} pages", len(leaves))
    claimed = _key(doc, root[0], "Count")[1]
    if claimed.lstrip("-").isdigit() and int(claimed) != len(leaves) and int(claimed) > bounds.pages:
        raise UnreadableFile(
            name,
            f"is damaged: its page tree claims {int(claimed):,} pages but holds {len(leaves):,}",
            PDF_FIX,
        )
    return leaves, None


def _field_tree(doc: pymupdf.Document, name: str, catalog: int) -> None:
    kind, value = _key(doc, catalog, "AcroForm/Fields")
    if kind != "array":
        return
    seen: set[int] = set()
    stack = _refs(value)
    while stack:
        node = stack.pop()
        if node in seen:
            raise UnreadableFile(
                name,
                "is damaged: its form's fields loop back on themselves (a field is its own parent)",
                PDF_FIX,
            )
        seen.add(node)
        kids_kind, kids = _key(doc, node, "Kids")
        if kids_kind == "array":
            stack.extend(_refs(kids))
    # every field's chain of parents ends (a /Parent loop a widget reaches from below)
    for node in seen:
        up: set[int] = {node}
        parent = _refs(_key(doc, node, "Parent")[1])
        while parent:
            if parent[0] in up:
                raise UnreadableFile(
                    name,
                    "is damaged: its form's fields loop back on themselves (a field is its own parent)",
                    PDF_FIX,
                )
            up.add(parent[0])
            parent = _refs(_key(doc, parent[0], "Parent")[1])


def _numbers(value: str) -> list[float]:
    try:
        return [float(x) for x in _NUMBER.findall(value)]
    except ValueError:
        return []


def _page_widgets(doc: pymupdf.Document, name: str, leaves: list[int], bounds: PdfBounds) -> Over | None:
    for number, page in enumerate(leaves, 1):
        kind, value = _key(doc, page, "Annots")
        if kind == "xref":  # the list is an object of its own
            kind, value = "array", doc.xref_object(_refs(value)[0]) if _refs(value) else ""
        if kind != "array":
            continue
        widgets = [a for a in _refs(value) if _key(doc, a, "Subtype")[1] == "/Widget"]
        if len(widgets) > bounds.page_fields:
            return Over("page_fields", f"has {len(widgets):,} form fields on page {number}", len(widgets))
        if not widgets:
            continue
        box = _numbers(_inherited(doc, page, "MediaBox")) or [0, 0, 612, 792]
        if len(box) != 4:
            continue
        x0, y0, x1, y1 = min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3])
        width, height = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        for a in widgets:
            rect = _numbers(_key(doc, a, "Rect")[1])
            if len(rect) != 4:
                continue
            lo_x, hi_x = min(rect[0], rect[2]), max(rect[0], rect[2])
            lo_y, hi_y = min(rect[1], rect[3]), max(rect[1], rect[3])
            if (
                lo_x < x0 - _SLACK * width
                or hi_x > x1 + _SLACK * width
                or lo_y < y0 - _SLACK * height
                or hi_y > y1 + _SLACK * height
            ):
                raise UnreadableFile(
                    name,
                    f"is damaged or crafted: a form field ({_field_name(doc, a)}) on page {number} is "
                    f"{hi_x - lo_x:,.0f} × {hi_y - lo_y:,.0f} points, far outside its page of "
                    f"{width:,.0f} × {height:,.0f}",
                    PDF_FIX,
                )
            if _box_without_appearance(doc, a):
                raise UnreadableFile(
                    name,
                    f"is damaged: a check box or option ({_field_name(doc, a)}) on page {number} has no appearance "
                    "(nothing a viewer could show ticked or not)",
                    PDF_FIX,
                )
    return None


def _field_name(doc: pymupdf.Document, widget: int) -> str:
    for key in ("T", "Parent/T"):
        kind, value = _key(doc, widget, key)
        if kind == "string" and value:
            return value
    return "unnamed"


def _box_without_appearance(doc: pymupdf.Document, widget: int) -> bool:
    """A check box or option button (not a push button) with no normal appearance dictionary."""
    field_type = next((v for k in ("FT", "Parent/FT") if (v := _key(doc, widget, k)[1]) != "null"), "")
    if field_type != "/Btn":
        return False
    flags = next((v for k in ("Ff", "Parent/Ff") if (v := _key(doc, widget, k)[1]) != "null"), "0")
    if flags.lstrip("-").isdigit() and int(flags) & (1 << 16):  # a push button: no on/off appearance
        return False
    return _key(doc, widget, "AP/N")[0] not in ("dict", "xref")


def _inherited(doc: pymupdf.Document, node: int, key: str) -> str:
    """A page attribute the page tree may give from above (MediaBox), up to 64 ancestors."""
    for _ in range(64):
        kind, value = _key(doc, node, key)
        if kind != "null":
            return value
        parent = _refs(_key(doc, node, "Parent")[1])
        if not parent:
            break
        node = parent[0]
    return ""


def _streams(doc: pymupdf.Document, name: str, bounds: PdfBounds) -> Over | None:
    """The Flate streams' inflated size, all together, against the unpacked-size limit: every
    stream but pictures (content streams, forms, fonts, object streams), which the text and the
    layout are read from; a scanned document's pictures may rightly inflate to gigabytes."""
    total = 0
    for xref in range(1, doc.xref_length()):
        try:
            if not doc.xref_is_stream(xref):
                continue
            filters = _key(doc, xref, "Filter")[1]
            if not filters.lstrip("[ ").startswith("/FlateDecode"):
                continue
            if _key(doc, xref, "Subtype")[1] == "/Image":
                continue  # a picture's pixels are decoded to draw it, never read as text or layout
            raw = doc.xref_stream_raw(xref)
        except Exception:  # noqa: BLE001 (a damaged object: MuPDF skips it, as the reader will)
            continue
        inflater = zlib.decompressobj()
        data = raw
        try:
            while data and not inflater.eof:
                total += len(inflater.decompress(data, _CHUNK))
                data = inflater.unconsumed_tail
                if total > bounds.unzipped_bytes:
                    return Over(
                        "unzipped_mb",
                        f"has streams that inflate to more than {bounds.unzipped_bytes / 1e6:,.0f} MB "
                        f"(object {xref} among them)",
                        None,
                    )
        except zlib.error:
            continue  # MuPDF reads what it can of a damaged stream, as it would anyway
    return None


def ruling_crossings(page: pymupdf.Page) -> int:
    """How many times a page's horizontal and vertical ruling lines cross (a rectangle gives its
    four edges), within MuPDF's 3-point tolerance. MuPDF's table finder (``find_tables``) compares
    every crossing with every other, so its work grows with the square of this: a 60 × 60 grid
    (3,721 crossings) took 3 s a page; a questionnaire's table of 40 rows and 5 columns has 246.
    Lines are kept once each (to the point); past :data:`_PAIRS` line pairs the count is their
    product, an upper bound, rather than a pairwise comparison."""
    rows: set[tuple[int, int, int]] = set()
    cols: set[tuple[int, int, int]] = set()
    for path in page.get_cdrawings():
        for item in path.get("items", ()):
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                edges = [(x0, y0, x1, y1)]
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                edges = [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)]
            else:
                continue
            for x0, y0, x1, y1 in edges:
                if abs(y1 - y0) <= 1:
                    rows.add((round(y0), round(min(x0, x1)), round(max(x0, x1))))
                elif abs(x1 - x0) <= 1:
                    cols.add((round(x0), round(min(y0, y1)), round(max(y0, y1))))
    if not rows or not cols:
        return 0
    if len(rows) * len(cols) > _PAIRS:
        return len(rows) * len(cols)
    import numpy as np  # noqa: PLC0415 (deferred: only a page with ruling lines needs it)

    h = np.array(sorted(rows), dtype=float)
    v = np.array(sorted(cols), dtype=float)
    t = _TOLERANCE
    cross = (
        (v[None, :, 0] >= h[:, None, 1] - t)
        & (v[None, :, 0] <= h[:, None, 2] + t)
        & (h[:, None, 0] >= v[None, :, 1] - t)
        & (h[:, None, 0] <= v[None, :, 2] + t)
    )
    return int(cross.sum())


def rulings_over(doc: pymupdf.Document, page_crossings: int, crossings: int) -> Over | None:
    """The first page with more ruling crossings than ``page_crossings``, or the page where the
    file's total passes ``crossings``: what a flat PDF's table reading would spend (see
    :func:`ruling_crossings`); counted before any table is looked for."""
    total = 0
    for number, page in enumerate(doc, 1):
        here = ruling_crossings(page)
        if here > page_crossings:
            return Over(
                "page_crossings",
                f"has {here:,} crossings of ruling lines on page {number} (a dense grid: finding its tables "
                "takes time that grows with their square)",
                here,
            )
        total += here
        if total > crossings:
            return Over(
                "crossings",
                f"has more than {crossings:,} crossings of ruling lines in its first {number:,} pages (finding "
                "its tables would take minutes)",
                None,
            )
    return None


__all__ = ["PDF_FIX", "PdfBounds", "ruling_crossings", "rulings_over", "scan_pdf"]
