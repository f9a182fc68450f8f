"""Pages set in two or three columns (#55): the lines of a flat PDF's page outside its tables, in
reading order, as parts read one after the other: the lines above the columns, each column left to
right, the lines below (the questions keep their part: engine/questionnaire/pdf/questions.py orders
a page's questions part by part). Without this, a line of the left column and one of the right that share a
baseline are one row to lines.py ("… of all system  5. The provider shall log …").

**Two columns** are a run of the page's visual rows (lines sharing a baseline) that no word crosses
at a gutter ``x`` (an empty band 6 pt wide or more left of where the right column's lines start, in
the middle 30–70 % of the page; of several, the longest run, then the widest band: not the options
marked at the left column's right), in which each side holds two rows or more that are items (a
number "1." "1.2" "a)" or a box first, or a question or a label ending it with "?" or ":", "？" "："
in Japanese: questions in each column, numbered or not, not a sidebar of guidance beside them) and
four rows or more of text or answer places (flat/panels.py: the boxes and lines under labels), no
row's side ending with an item's number just left of the gutter (the gutter is then the item's
indent), side by side (over half of the shorter's height), alike in width with their answer places
(neither under 0.6 of the other, each a quarter of the page or more: not a column of labels beside
their values or guidance), each holding running text (two rows or more reaching into the last third
of its width) or two answer places or more. **Three columns** are the same at two gutters, one in
20–55 % of the page and one in 45–80 %, a fifth of the page apart, where two lines or more start,
each a sixth of the page wide or more and the narrowest 0.4 of the widest or more (2 : 1 : 1); they
are read where two are not found, or over as many rows as two (columns of 2 : 1 : 1 also part in two
at the wide one's edge, into two sides of like width: the three are the page's). Everything else keeps its
order: a page set in one column is one part.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from engine.questionnaire.cues import ascii_digits
from engine.questionnaire.pdf.layout import Box, Line, is_glyph, line_rows

_GUTTER = 6.0  # points left of the right column's start that no word may reach into
_ITEM = re.compile(r"^(\(?\d{1,3}[.)]|\d{1,3}(?:\.\d{1,3})+\.?|\(?[a-zA-Z][.)])$")  # "1." "1.2" "a)": a numbered item
_ASKS = re.compile(r"[?？:：]$")  # a row ending a question or a label ("Name of the provider:"): an unnumbered item


def column_parts(lines: list[Line], width: float, places: Sequence[Box] = ()) -> list[list[Line]]:
    """``lines`` (a page's, outside its tables) as parts in reading order (see the module docstring);
    ``places``: the page's answer places (flat/panels.py), part of the columns' width."""
    rows = line_rows(lines)
    found: list[tuple[int, float, int, tuple[float, ...]] | None] = []  # (rows, gutter, first row, gutters' x)
    for gutters in _gutters(lines, width):  # two columns, then three
        best: tuple[int, float, int, tuple[float, ...]] | None = None
        for xs in gutters:
            for a, b in _runs(rows, xs):
                if _columns(rows[a:b], xs, width, places):
                    gutter = min(_gutter(rows[a:b], x) for x in xs)
                    best = max(best or (0, 0.0, 0, ()), (b - a, gutter, a, xs))
        found.append(best)
    two, three = found
    best = three if three is not None and (two is None or three[0] >= two[0]) else two  # three parts the wide side
    if best is None:
        return [lines]
    n, _, a, xs = best
    b = a + n
    sides: list[list[Line]] = [[] for _ in range(len(xs) + 1)]
    edges = (-1e9, *xs, 1e9)
    for row in rows[a:b]:
        for line in row:
            pieces = [
                tuple(w for w in line.words if w.box.x0 >= lo - 1 and (hi >= 1e9 or w.box.x1 <= hi - _GUTTER))
                for lo, hi in zip(edges, edges[1:])
            ]
            if sum(1 for p in pieces if p) == 1:
                sides[next(k for k, p in enumerate(pieces) if p)].append(line)
                continue
            for k, piece in enumerate(pieces):  # MuPDF joined the columns' words into one line
                if piece:
                    sides[k].append(Line(_box(piece), piece, line.block + k * 100_000, line.blank and k == len(xs)))
    above = [line for row in rows[:a] for line in row]
    below = [line for row in rows[b:] for line in row]
    return [above, *sides, below]


def _gutter(rows: list[list[Line]], x: float) -> float:
    return x - max((w.box.x1 for row in rows for ln in row for w in ln.words if w.box.x1 <= x), default=0.0)


def _gutters(lines: list[Line], width: float) -> Iterator[list[tuple[float, ...]]]:
    """Where two columns may part (one ``x`` each), then where three may (two): the places a column
    may start (:func:`_starts`); for three columns only where three lines or more start, one left
    of the page's middle and one right of it, a fifth of the page apart, where two lines or more start."""
    yield [(x,) for x in _starts(lines, width, 0.3, 0.7)]
    many = [x for x in _starts(lines, width, 0.2, 0.8) if sum(1 for ln in lines if abs(ln.box.x0 - x) <= 1) >= 2]
    yield [(x, y) for x in many for y in many if x <= 0.55 * width and y >= 0.45 * width and y - x >= 0.2 * width]


def table_part(box: Box, parts: list[list[Line]]) -> int:
    """The part of a page in columns (``parts``: :func:`column_parts`'s, above, the columns, below) a
    table's question at ``box`` comes in: above the columns (0) when it is above their first line,
    else below (the last)."""
    top = min(line.box.y0 for part in parts[1:-1] for line in part)
    return 0 if box.y1 <= top + 1 else len(parts) - 1


def _starts(lines: list[Line], width: float, low: float, high: float) -> list[float]:
    """Where a line, or a run of words after a gap of the gutter's width, starts between ``low`` and
    ``high`` of the page's width (the middle 30–70 % for two columns): the places a column may start."""
    out: set[float] = set()
    for line in lines:
        for before, w in zip((None, *line.words), line.words):
            if low * width <= w.box.x0 <= high * width and (before is None or w.box.x0 - before.box.x1 >= _GUTTER):
                out.add(round(w.box.x0, 1))
    return sorted(out)


def _box(words) -> Box:
    box = words[0].box
    for w in words[1:]:
        box = box.union(w.box)
    return box


def _crosses(row: list[Line], xs: tuple[float, ...]) -> bool:
    return any(w.box.x0 < x - 1 and w.box.x1 > x - _GUTTER for x in xs for line in row for w in line.words)


def _runs(rows: list[list[Line]], xs: tuple[float, ...]) -> list[tuple[int, int]]:
    """The runs of consecutive rows that no word crosses at any of ``xs``, as (first, end)."""
    out: list[tuple[int, int]] = []
    start = None
    for i, row in enumerate([*rows, None]):
        if row is not None and not _crosses(row, xs):
            start = i if start is None else start
        elif start is not None:
            out.append((start, i))
            start = None
    return out


def _columns(rows: list[list[Line]], xs: tuple[float, ...], width: float, places: Sequence[Box]) -> bool:
    """Whether ``rows`` are set in columns parted at ``xs`` (see the module docstring)."""
    edges = (-1e9, *xs, 1e9)
    sides: list[list[Box]] = [[] for _ in edges[1:]]
    items = [0] * len(sides)  # rows starting with a number or a box, or ending a question or a label, on each side
    for row in rows:
        words = sorted((w for line in row for w in line.words), key=lambda w: w.box.x0)
        for k, (lo, hi) in enumerate(zip(edges, edges[1:])):
            side = [w for w in words if w.box.x0 >= lo - 1 and (hi >= 1e9 or w.box.x1 <= hi - _GUTTER)]
            if side and k < len(xs) and _ITEM.match(ascii_digits(side[-1].text)) and xs[k] - side[-1].box.x1 < 20:
                return False  # a row's number left of the gutter: its text right of it (the gutter is its indent)
            if side:
                sides[k].append(_box_of([w.box for w in side]))
                first = side[0].text
                items[k] += bool(_ITEM.match(ascii_digits(first)) or is_glyph(first) or _ASKS.search(side[-1].text))
    if min(len(side) for side in sides) < 2 or min(items) < 2:
        return False  # not a column of questions beside another (a sidebar of guidance beside the questions)
    spans = [(min(b.y0 for b in side), max(b.y1 for b in side)) for side in sides]
    shared = min(b for _, b in spans) - max(a for a, _ in spans)
    if shared < 0.5 * min(b - a for a, b in spans):
        return False  # not side by side
    filled = [  # each side with its answer places
        [*side, *(p for p in places if p.x0 >= lo - 1 and p.x1 <= hi - _GUTTER and top <= p.y0 <= bottom + 30)]
        for (lo, hi), side, (top, bottom) in zip(zip(edges, edges[1:]), sides, spans)
    ]
    if min(len(side) for side in filled) < 4:
        return False  # four rows of text or answer places in each column at least
    widths = [max(b.x1 for b in side) - min(b.x0 for b in side) for side in filled]
    if min(widths) < width / (2 * len(sides)) or min(widths) < (0.6 if len(sides) == 2 else 0.4) * max(widths):
        return False
    # running text in each, or two answer places or more (labels over boxes, not labels beside values)
    return all(_running(side) or len(full) - len(side) >= 2 for side, full in zip(sides, filled))


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
