"""Two pages printed on one sheet (#55: "2-up", a printer's "pages per sheet: 2"): a landscape sheet
whose left and right halves are each a page of the questionnaire. Read as one page, a row of the
left page and one of the right that share a baseline become one line, and a question of the left
page runs on into the right's; read half by half, each is a page again (its questions keep the
sheet's page number, the left half's first).

A sheet is **two pages side by side** when it is wider than it is high, printed reduced (the median
size of its type under 7.9 pt: a page set in 10 or 11 pt comes out at 7.1 or 7.8 pt, two on a sheet)
and a band 10 pt wide or
more in its middle (its centre within 45–55 % of the width; the sheet parts at its middle where
the band holds it) is crossed by no text line and no
drawing, over the whole sheet, with three lines or more on each side, most of the right side's
lines level with none of the left's (a page's lines beside each other, its options at its right
edge or a column of notes, share their rows; two pages' rows fall where each page puts them): two pages, not a title over two columns (a line across the
middle) nor a one-column page (text across the middle). The last sheet of an odd count has its
right half empty: its left half is its page. A sheet higher than it is wide holds **two pages one
over the other** (landscape pages) by the same rule turned, only where its lines are under 8 pt
high (below): a page printed at its size has gaps of its own between its sections. Each half is then read as a page of
its own, drawn alone on a page of the half's size (MuPDF's ``show_pdf_page``: its text and
drawings as printed, nothing of the other half).

**Two pages printed reduced on a sheet** are read at the size they were set: where the median height of
the sheet's lines is under 8 pt (text under about 6 pt: an 8 pt font's lines are 11 pt high), its halves are drawn enlarged
(both halves of a sheet by the same factor, so that a table's columns line up from one to the next)
until that median is 11 pt, so that the readers' distances in points (a line's gap, an indent, a
box's size) mean what they mean on a page printed at its size. So is a landscape sheet (the last of an
odd count holds one page). A portrait page that is no sheet of two is read as it is: enlarged, the AWS
CAIQ's rows set in 7 pt type lost 11 of its 261 questions.
"""

from __future__ import annotations

import statistics

import pymupdf

from engine.questionnaire.pdf.layout import PageText

_BAND = 10.0  # the least width of the empty band between the two pages
_SMALL, _LINE = 8.0, 11.0  # lines under _SMALL pt high (median) are enlarged to _LINE
_TWO_UP = 7.9  # two pages side by side: type under 7.9 pt (median, by characters)


def _type_size(page: pymupdf.Page) -> float:
    """The median size of the page's type, by characters (0.0 without text)."""
    sizes = [
        span["size"]
        for block in page.get_text("dict").get("blocks", ())
        for line in block.get("lines", ())
        for span in line.get("spans", ())
        for _ in span.get("text", "").strip()
    ]
    return statistics.median(sizes) if sizes else 0.0


def two_up(page: pymupdf.Page, text: PageText, drawings: list[dict]) -> tuple[float, bool] | None:
    """Where a sheet of two pages parts (the middle of its empty band) and whether they lie side by
    side (else one over the other), or None (see the module docstring)."""
    rect = page.rect
    w, h = rect.width, rect.height
    if len(text.lines) < 6:
        return None
    side = w > h
    if side and _type_size(page) >= _TWO_UP:
        return None  # two pages on a sheet are printed reduced
    if not side and statistics.median(ln.box.y1 - ln.box.y0 for ln in text.lines) >= _SMALL:
        return None  # one over the other only where printed small (a page's own gaps are not a sheet's)
    boxes = [(ln.box.x0, ln.box.x1, ln.box.y0, ln.box.y1) for ln in text.lines]
    rects = [(d["rect"].x0, d["rect"].x1, d["rect"].y0, d["rect"].y1) for d in drawings]
    if not side:  # the same, turned: y for x
        boxes, rects, w, h = [(c, d, a, b) for a, b, c, d in boxes], [(c, d, a, b) for a, b, c, d in rects], h, w
    if any(b - a >= 0.9 * w and d - c < 0.9 * h for a, b, c, d in rects):
        return None  # a rule or a panel across the sheet
    spans = [(a, b) for a, b, _, _ in boxes] + [(a, b) for a, b, _, _ in rects if b - a < 0.9 * w]
    free = [x for x in range(int(0.4 * w), int(0.6 * w)) if not any(a - 0.5 < x < b + 0.5 for a, b in spans)]
    if not free:
        return None
    runs: list[list[int]] = [[free[0]]]
    for x in free[1:]:
        if x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    band = max(runs, key=len)
    middle = w / 2 if band[0] <= w / 2 <= band[-1] else (band[0] + band[-1]) / 2  # a sheet's halves are equal
    if band[-1] - band[0] + 1 < _BAND or not 0.45 * w <= middle <= 0.55 * w:
        return None
    first = [bx for bx in boxes if bx[1] <= middle]
    second = [bx for bx in boxes if bx[0] >= middle]
    if len(first) < 3 or 0 < len(second) < 3:  # no second half: the last sheet of an odd count
        return None
    beside = sum(1 for *_, c, d in second if any(_level((c, d), (e, f)) for *_, e, f in first))
    if beside > 0.5 * len(second):
        return None  # the right side's lines level with the left's: one page with its marks or a column beside
    return middle, side


def _level(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two lines (their tops and bottoms) share a row: over half of the lower one's height."""
    return min(a[1], b[1]) - max(a[0], b[0]) > 0.5 * min(a[1] - a[0], b[1] - b[0])


def views(page: pymupdf.Page, text: PageText, drawings: list[dict]) -> list[tuple[pymupdf.Rect, float]]:
    """The parts of a sheet read as pages (the whole, or its halves) and the factor each is
    enlarged by (1.0: read as it is; see the module docstring)."""
    rect = page.rect
    parted = two_up(page, text, drawings)
    if parted is None:
        clips = [rect]
    elif parted[1]:
        clips = [pymupdf.Rect(0, 0, parted[0], rect.height), pymupdf.Rect(parted[0], 0, rect.width, rect.height)]
    else:
        clips = [pymupdf.Rect(0, 0, rect.width, parted[0]), pymupdf.Rect(0, parted[0], rect.width, rect.height)]
    heights = [ln.box.y1 - ln.box.y0 for ln in text.lines]
    median = statistics.median(heights) if heights else _LINE
    # one for the sheet: its halves' columns line up; a portrait page that is no sheet of two is read as it
    # is (enlarged, the AWS CAIQ's 7 pt rows lost 11 of its 261 questions)
    sheet = parted is not None or rect.width > rect.height
    factor = _LINE / median if sheet and 1.0 < median < _SMALL else 1.0
    inside = [any(clip.contains(pymupdf.Point(ln.box.cx, ln.box.cy)) for ln in text.lines) for clip in clips]
    return [(clip, factor) for clip, full in zip(clips, inside) if full]  # an empty half is not read


def drawn(page: pymupdf.Page, clips: list[tuple[pymupdf.Rect, float]]) -> pymupdf.Document:
    """A document of ``clips`` of ``page``, each a page of its own enlarged by its factor."""
    doc = pymupdf.open()
    for clip, factor in clips:
        view = doc.new_page(width=clip.width * factor, height=clip.height * factor)
        view.show_pdf_page(view.rect, page.parent, page.number, clip=clip)
    return doc


__all__ = ["drawn", "two_up", "views"]
