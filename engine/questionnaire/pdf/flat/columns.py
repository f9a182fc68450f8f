"""Pages set in two columns (#55): the lines of a flat PDF's page outside its tables, in reading
order, as parts read one after the other: the lines above the columns, the left column, the right
column, the lines below (the questions keep their part: engine/questionnaire/pdf/questions.py orders
a page's questions part by part). Without this, a line of the left column and one of the right that share a
baseline are one row to lines.py ("… of all system  5. The provider shall log …").

**Two columns** are a run of the page's visual rows (lines sharing a baseline) that no word crosses
at a gutter ``x`` (an empty band 6 pt wide or more left of where the right column's lines start, in
the middle 30–70 % of the page; of several, the longest run, then the widest band: not the options
marked at the left column's right), in which both sides hold text on four rows or more, two of them or more items (a
number "1." "1.2" "a)" or a box first: questions in each column, not a sidebar of guidance beside
them), side by side (over half
of the shorter's height), both sides are alike in width (neither under 0.6 of the other, each a quarter of
the page or more: not a column of labels beside their values or guidance) and each side holds
running text (two rows or more reaching into the last third of its width). Everything else
keeps its order: a page set in one column is one part.
"""

from __future__ import annotations

import re

from engine.questionnaire.cues import ascii_digits
from engine.questionnaire.pdf.layout import Box, Line, is_glyph

_GUTTER = 6.0  # points left of the right column's start that no word may reach into
_ITEM = re.compile(r"^(\(?\d{1,3}[.)]|\d{1,3}(?:\.\d{1,3})+\.?|\(?[a-zA-Z][.)])$")  # "1." "1.2" "a)": a numbered item


def column_parts(lines: list[Line], width: float) -> list[list[Line]]:
    """``lines`` (a page's, outside its tables) as parts in reading order (see the module docstring)."""
    rows = _rows(lines)
    best: tuple[int, float, int, float] | None = None  # (rows, gutter, first row, x): the longest run, widest gutter
    for x in _starts(lines, width):
        for a, b in _runs(rows, x):
            if _two_columns(rows[a:b], x, width):
                gutter = x - max(w.box.x1 for row in rows[a:b] for ln in row for w in ln.words if w.box.x1 <= x)
                best = max(best or (0, 0.0, 0, 0.0), (b - a, gutter, a, x))
    if best is None:
        return [lines]
    n, _, a, x = best
    b = a + n
    left: list[Line] = []
    right: list[Line] = []
    for row in rows[a:b]:
        for line in row:
            head = tuple(w for w in line.words if w.box.x1 <= x - _GUTTER)
            tail = tuple(w for w in line.words if w.box.x0 >= x - 1)
            if not tail:
                left.append(line)
            elif not head:
                right.append(line)
            else:  # MuPDF joined the two columns' words into one line
                left.append(Line(_box(head), head, line.block))
                right.append(Line(_box(tail), tail, line.block + 100_000, line.blank))
    above = [line for row in rows[:a] for line in row]
    below = [line for row in rows[b:] for line in row]
    return [above, left, right, below]


def table_part(box: Box, parts: list[list[Line]]) -> int:
    """The part of a page in two columns (``parts``: :func:`column_parts`'s four) a table's question
    at ``box`` comes in: above the columns (0) when it is above their first line, else below (3)."""
    top = min(line.box.y0 for line in parts[1] + parts[2])
    return 0 if box.y1 <= top + 1 else 3


def _starts(lines: list[Line], width: float) -> list[float]:
    """Where a line, or a run of words after a gap of the gutter's width, starts in the middle 30–70 %
    of the page: the places a right column may start."""
    out: set[float] = set()
    for line in lines:
        for before, w in zip((None, *line.words), line.words):
            if 0.3 * width <= w.box.x0 <= 0.7 * width and (before is None or w.box.x0 - before.box.x1 >= _GUTTER):
                out.add(round(w.box.x0, 1))
    return sorted(out)


def _box(words) -> Box:
    box = words[0].box
    for w in words[1:]:
        box = box.union(w.box)
    return box


def _rows(lines: list[Line]) -> list[list[Line]]:
    """The lines by visual row, top to bottom (a line joins the row whose first line it shares a row with)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.box.y0, ln.box.x0)):
        if rows and rows[-1][0].box.same_row(line.box):
            rows[-1].append(line)
        else:
            rows.append([line])
    return rows


def _crosses(row: list[Line], x: float) -> bool:
    return any(w.box.x0 < x - 1 and w.box.x1 > x - _GUTTER for line in row for w in line.words)


def _runs(rows: list[list[Line]], x: float) -> list[tuple[int, int]]:
    """The runs of consecutive rows that no word crosses at ``x``, as (first, end)."""
    out: list[tuple[int, int]] = []
    start = None
    for i, row in enumerate([*rows, None]):
        if row is not None and not _crosses(row, x):
            start = i if start is None else start
        elif start is not None:
            out.append((start, i))
            start = None
    return out


def _two_columns(rows: list[list[Line]], x: float, width: float) -> bool:
    """Whether ``rows`` are set in two columns parted at ``x`` (see the module docstring)."""
    sides: tuple[list[Box], list[Box]] = ([], [])
    items = [0, 0]  # rows starting with a number or a box, on each side
    for row in rows:
        words = sorted((w for line in row for w in line.words), key=lambda w: w.box.x0)
        for k, side in enumerate(
            ([w for w in words if w.box.x1 <= x - _GUTTER], [w for w in words if w.box.x0 >= x - 1])
        ):
            if side:
                sides[k].append(_box_of([w.box for w in side]))
                items[k] += bool(_ITEM.match(ascii_digits(side[0].text)) or is_glyph(side[0].text))
    if min(len(sides[0]), len(sides[1])) < 4 or min(items) < 2:
        return False  # not a column of questions beside another (a sidebar of guidance beside the questions)
    spans = [(min(b.y0 for b in side), max(b.y1 for b in side)) for side in sides]
    shared = min(spans[0][1], spans[1][1]) - max(spans[0][0], spans[1][0])
    if shared < 0.5 * min(b - a for a, b in spans):
        return False  # not side by side
    widths = [max(b.x1 for b in side) - min(b.x0 for b in side) for side in sides]
    if min(widths) < 0.25 * width or min(widths) < 0.6 * max(widths):
        return False
    return all(_running(side) for side in sides)


def _box_of(boxes: list[Box]) -> Box:
    out = boxes[0]
    for b in boxes[1:]:
        out = out.union(b)
    return out


def _running(side: list[Box]) -> bool:
    """Two rows or more of the side reach into the last third of its width (running text, not labels)."""
    left, right = min(b.x0 for b in side), max(b.x1 for b in side)
    return sum(1 for b in side if b.x1 >= right - (right - left) / 3) >= 2


__all__ = ["column_parts"]
