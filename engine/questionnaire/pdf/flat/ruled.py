"""The ruled tables of a flat PDF's page (MuPDF's ``find_tables``) and the text of their cells: a
table inside another is none, a header-less table right under another, across its width, is its
lower half (joined to it), a frame around text (one cell covering 80 % of it or more) is none, and
the page's horizontal rules cut a table's rows where MuPDF's own rows follow every partial rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pymupdf

from engine.questionnaire.pdf.layout import Box, PageText, Word, cjk, wrapped


@dataclass(frozen=True)
class Row:
    """A table row: its band and its cells as MuPDF found them (None: merged into another)."""

    band: Box
    cells: tuple[Box | None, ...] = ()


@dataclass(frozen=True)
class Table:
    """A ruled table: its box, MuPDF's rows (for the header) and the page's horizontal rules."""

    box: Box
    rows: tuple[Row, ...]
    rules: tuple[tuple[float, float, float], ...]  # (y, x0, x1) of every horizontal rule on the page

    def bands(self, x0: float, x1: float, below: float) -> list[Row]:
        """The rows of the table below ``below``, cut by the rules that cross the column
        ``x0``–``x1`` (the question column). MuPDF's own rows follow every partial rule (a CAIQ's
        control columns are ruled more finely than its questions) and miss a row continued from
        the page before, which has no rule above it. A table whose question column no rule crosses
        inside it (each cell drawn as a closed path of its own: a word processor's print) is cut
        by MuPDF's own rows, where that column is one of its own cells' (not a column continued
        from another table's header)."""
        inner = [y for y, r0, r1 in self.rules if r0 <= x0 + 3 and r1 >= x1 - 3 and below + 4 < y < self.box.y1 - 4]
        own = sorted({round(r.band.y0, 1) for r in self.rows if below + 4 < r.band.y0 < self.box.y1 - 4})
        mine = any(c is not None and abs(c.x0 - x0) < 3 and abs(c.x1 - x1) < 3 for r in self.rows for c in r.cells)
        if not inner and own and mine:
            ys = [round(below, 1), *own, round(self.box.y1, 1)]
            return [Row(Box(self.box.x0, a, self.box.x1, b)) for a, b in zip(ys, ys[1:]) if b - a > 4]
        ys = sorted(
            {
                round(y, 1)
                for y, r0, r1 in self.rules
                if r0 <= x0 + 3 and r1 >= x1 - 3 and below - 1 <= y <= self.box.y1 + 1
            }
            | {round(below, 1), round(self.box.y1, 1)}
        )
        return [Row(Box(self.box.x0, a, self.box.x1, b)) for a, b in zip(ys, ys[1:]) if b - a > 4]


def ruled_tables(page: pymupdf.Page, drawings: list[dict]) -> list[Table]:
    """The ruled tables of a page (``drawings``: its ``get_drawings()``)."""
    if not drawings:
        return []  # no lines drawn: no ruled table (and find_tables would look for nothing)
    rules = tuple(horizontal_rules(drawings))
    out = []
    # use_layout=False: MuPDF's own ruled tables, whether or not PyMuPDF's layout analyser is loaded
    # (it is when pymupdf is imported before engine; see engine/__init__.py). With it, find_tables
    # keeps only the tables its model sees, cut to the model's boxes: the AWS CAIQ lost 7 of its 261
    # questions and the IDs' prefixes, and the read took 5x longer.
    for table in page.find_tables(use_layout=False).tables:
        rows = tuple(_row(row) for row in table.rows if any(row.cells))
        if rows and not _frame(Box.of(table.bbox), rows):
            out.append(Table(Box.of(table.bbox), rows, rules))
    out = [t for t in out if not any(o is not t and inside(t.box, o.box) and o.box.area > t.box.area for o in out)]
    return _joined(sorted(out, key=lambda t: (t.box.y0, t.box.x0)))


def _frame(box: Box, rows: tuple[Row, ...]) -> bool:
    """Whether a ruled "table" is a frame around text: one of its cells covers 80 % of it or more,
    the rest thin strips (a web form printed: a page's white panel with a box to tick or a
    header drawn at its edge, the CCS RM6264's). Its lines are the page's lines, not a table's."""
    return any(c is not None and c.area >= 0.8 * box.area for row in rows for c in row.cells)


def _joined(tables: list[Table]) -> list[Table]:
    """Tables that start where the one above them ends, across most of its width, joined to it: the
    halves MuPDF makes of one table (the PCI SAQ's row 4.2.1.2 cut from its header); the lower
    half's first cells reach the upper's left edge (MuPDF's lower half may leave out the ID column)."""
    out: list[Table] = []
    for t in tables:
        prev = out[-1] if out else None
        shared = min(t.box.x1, prev.box.x1) - max(t.box.x0, prev.box.x0) if prev else 0.0
        if prev is None or not (-1 <= t.box.y0 - prev.box.y1 <= 2 and t.box.x0 >= prev.box.x0 - 3):
            out.append(t)
        elif shared < 0.8 * min(t.box.x1 - t.box.x0, prev.box.x1 - prev.box.x0):
            out.append(t)
        else:
            rows = tuple(_widened(r, prev.box.x0) for r in t.rows)
            out[-1] = Table(prev.box.union(t.box), prev.rows + rows, prev.rules)
    return out


def _widened(row: Row, x0: float) -> Row:
    """``row`` with its first cell reaching ``x0``."""
    first = next((i for i, c in enumerate(row.cells) if c is not None), None)
    if first is None or row.cells[first].x0 <= x0 + 3:
        return row
    cell = row.cells[first]
    cells = (*row.cells[:first], Box(x0, cell.y0, cell.x1, cell.y1), *row.cells[first + 1 :])
    return Row(Box(x0, row.band.y0, row.band.x1, row.band.y1), cells)


def horizontal_rules(drawings: list[dict]) -> list[tuple[float, float, float]]:
    """(y, x0, x1) of the horizontal lines drawn: lines, thin filled rectangles, and the top and
    bottom edges of stroked rectangles."""
    out = []
    for d in drawings:
        for item in d.get("items", ()):
            if item[0] == "l" and abs(item[1].y - item[2].y) <= 1.0:
                out.append(((item[1].y + item[2].y) / 2, min(item[1].x, item[2].x), max(item[1].x, item[2].x)))
            elif item[0] == "re":
                r = item[1]
                if r.height <= 2.0:
                    out.append(((r.y0 + r.y1) / 2, r.x0, r.x1))
                elif "s" in (d.get("type") or ""):
                    out += [(r.y0, r.x0, r.x1), (r.y1, r.x0, r.x1)]
    return out


def _row(row) -> Row:
    """A row of MuPDF's table: its band runs from its cells' top to the bottom of its shortest
    cell (a cell merged down over the rows below, the CAIQ's control column, reaches further)."""
    cells = tuple(Box.of(c) if c else None for c in row.cells)
    present = [c for c in cells if c is not None]
    x0, _, x1, _ = row.bbox
    return Row(Box(x0, min(c.y0 for c in present), x1, min(c.y1 for c in present)), cells)


def starts_page(text: PageText, box: Box, height: float) -> bool:
    """Whether a table is the first thing on its page (no text above it but a running header in
    the top 7 %; from the page's first line where none is in the paper's top 7 %: a page printed
    lower on the paper): only then can its first rows go on from the page before. The AWS CAIQ's
    "Document Revisions" table, under a heading on its last page, is not the end of UEM-14.1."""
    top = min((ln.box.y0 for ln in text.lines if ln.text.strip()), default=0.0)
    top = top if top > 0.07 * height else 0.0  # nothing in the paper's top 7 %: the page printed lower, from its top
    return not any(ln.text.strip() and top + 0.07 * height < ln.box.y1 <= box.y0 + 1 for ln in text.lines)


def inside(inner: Box, outer: Box) -> bool:
    return inner.overlap(outer) >= 0.6 * max(inner.area, 1.0)


_DOTTED_ID = re.compile(r"^\d{1,3}(?:\.\d{1,3}){1,4}\.$")  # "9.4.1.": an ID wrapped at its last dot


def wrapped_id(above: Word, below: Word, after: Word | None) -> bool:
    """Whether ``below`` ends the ID ``above`` wrapped at its last dot in a narrow column ("9.4.1." over
    "1", as a word processor breaks a word wider than its column): a number of one to three digits at
    the ID's left edge on the next line, alone there (``after``, the next word on its line, if any, a
    column's gap away: not a sentence's line starting with a number)."""
    return (
        bool(_DOTTED_ID.match(above.text) and re.fullmatch(r"\d{1,3}", below.text))
        and abs(below.box.x0 - above.box.x0) <= 1.0
        and 0 <= below.box.y0 - above.box.y1 + 1.0 <= below.box.height
        and (after is None or after.box.x0 - below.box.x1 > 0.45 * below.box.height)
    )


def joined_ids(lines: list[list[Word]]) -> list[list[Word]]:
    """``lines`` (words left to right) with each ID wrapped at its last dot joined (:func:`wrapped_id`):
    the number moved up to the ID's end ("9.4.1.1")."""
    out = [list(ws) for ws in lines]
    for i, ws in enumerate(out):
        if not ws:
            continue
        for above in out[:i]:
            if above and wrapped_id(above[0], ws[0], ws[1] if len(ws) > 1 else None):
                above[0] = replace(above[0], box=above[0].box.union(ws[0].box), text=above[0].text + ws[0].text)
                del ws[0]
                break
    return [ws for ws in out if ws]


def cell_words(text: PageText, cell: Box | None) -> list[list[Word]]:
    """The words inside ``cell`` (by each word's centre) line by line, an ID wrapped at its dot joined."""
    if cell is None:
        return []
    lines = []
    for line in text.lines:
        words = [w for w in line.words if cell.x0 <= w.box.cx <= cell.x1 and cell.y0 <= w.box.cy <= cell.y1]
        if words:
            lines.append(words)
    return joined_ids(lines)


def cell_lines(text: PageText, cell: Box | None) -> list[str]:
    """The lines of text inside ``cell`` (by each word's centre), an ID wrapped at its dot joined."""
    return [" ".join(w.text for w in ws) for ws in cell_words(text, cell)]


def unbroken(lines: Sequence[Sequence[Word]], cell: Box | None = None) -> str:
    """A label's lines in a narrow column joined: without a space where a word too long for the column
    was broken at a line's end (the line filled to the column's edge, the next line going on in lower
    case, and that word with the next line's first wider than the label's widest line: "Umgeset" /
    "zt mit" / "CCW", "Nicht" / "zutreffen" / "d", "Not Applicab" / "le") and between CJK characters
    ("CCW で" / "実施済み"); elsewhere with a space ("Werden Daten" / "verschlüsselt?": a line that
    ends a word's width short of its cell's edge was wrapped at a space). The column's edge is the
    ``cell``'s, less the padding its text keeps on the left (the same on the right), within a line's
    height; without a cell, the label's widest line's, within 2 pt."""
    widest = max(line[-1].box.x1 - line[0].box.x0 for line in lines)
    left = min(line[0].box.x0 for line in lines)
    right = left + widest if cell is None else max(left + widest, cell.x1 - (left - cell.x0))
    out = " ".join(w.text for w in lines[0])
    for before, line in zip(lines, lines[1:]):
        text = " ".join(w.text for w in line)
        filled = before[-1].box.x1 >= right - (2 if cell is None else before[-1].box.height)
        whole = (before[-1].box.x1 - before[-1].box.x0) + (line[0].box.x1 - line[0].box.x0) > widest + 1
        broken = filled and whole and text[:1].islower() and out[-1:].isalpha()
        out += text if broken or (cjk(out[-1]) and cjk(text[0])) else f" {text}"
    return out


def cell_text(text: PageText, cell: Box | None, compact: bool = False) -> str:
    """A cell's text; ``compact`` joins its lines and words without spaces (an ID broken over
    lines: "A&A-" "01.1")."""
    lines = cell_lines(text, cell)
    if compact:
        return "".join("".join(lines).split())
    out = ""
    for piece in lines:
        out = wrapped(out, piece)
    return out.strip()
