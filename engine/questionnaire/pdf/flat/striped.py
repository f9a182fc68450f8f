"""Tables drawn with horizontal rules only (a rule above and below each row, no vertical line: Word's
"horizontal borders" and many printed questionnaires): MuPDF's ruled tables need lines both ways and
find none, so they are found here from the rules and the words between them, and given as
:class:`~engine.questionnaire.pdf.flat.ruled.Table` values to the same readers as a ruled table.

A **table** is a run of three or more horizontal rules of one width (their ends within 3 pt), one
under the other, with no vertical line between them and outside every ruled table; its **rows** are
the bands between consecutive rules. Its **columns** come from the text: a column starts where a
phrase (words closer than 0.45 of their height) starts in two rows or more (one, in a table of three
rows or fewer) and fewer rows of several cells cross that x with a word than start a phrase at it (a
row whose text all starts at one place is one cell across columns: a title, a note); the left edge is
the first column's. In a row whose phrases cross a column's edge (a title across the table, a cell
spanning columns, a header's line over the option columns it spans) the cells either side are one.
Only a table whose first or second row is a header naming a question column ("Question | Guidance |
Response", "PCI DSS Requirement": aligned.py's ``label_role``) is one: rules under a form's labels (a
signature block) and a printed web form's panels are no table. Among a header-less table's rows, runs
of labels each alone in its row ("Name:") are forms of fields (``_label_forms``), and a prompt ending with
":" beside a box over rows each starting with a box at that place ("If a QSA was involved … indicate the
role performed: | ☐ QSA performed testing procedures." over "☐ QSA provided other assistance.") a form of
two columns read as a ruled form's prompt merged down beside its boxes (``_box_forms``).
"""

from __future__ import annotations

import re

from engine.questionnaire.cues import SIGNATURE
from engine.questionnaire.pdf.flat.aligned import label_role, visual_rows
from engine.questionnaire.pdf.flat.ruled import Row, Table, cell_text, horizontal_rules
from engine.questionnaire.pdf.layout import Box, PageText, Word, is_glyph

_SAME_END = 3.0  # points: two rules of one table end within this
_MIN_BAND = 4.0  # points: a band lower than this is two rules drawn over each other
_CELL_TOP = 6.0  # points: a cell's first line starts within this of the rule above it (its padding)


def striped_tables(text: PageText, drawings: list[dict], ruled: list[Table]) -> list[Table]:
    """The tables of a page drawn with horizontal rules only (see the module docstring), outside
    ``ruled``."""
    rules = [r for r in horizontal_rules(drawings) if r[2] - r[1] > 60 and not any(_on(r, t.box) for t in ruled)]
    if len(rules) < 3:
        return []
    uprights = _vertical_lines(drawings)
    out: list[Table] = []
    for group in _groups(rules):
        for ys in (piece for run in _runs(group, uprights) for piece in _between(text, run, group[0][1], group[0][2])):
            table = _table(text, ys, group[0][1], group[0][2])
            if table is None:
                out += _label_forms(text, ys, group[0][1], group[0][2]) + _box_forms(text, ys, group[0][1], group[0][2])
            else:
                out.append(table)
    return out


def _on(rule: tuple[float, float, float], box: Box) -> bool:
    y, x0, x1 = rule
    return box.y0 - 1 <= y <= box.y1 + 1 and min(x1, box.x1) - max(x0, box.x0) > 0.5 * (x1 - x0)


def _groups(rules: list[tuple[float, float, float]]) -> list[list[tuple[float, float, float]]]:
    """The rules by width: those whose ends lie within ``_SAME_END`` of each other."""
    groups: list[list[tuple[float, float, float]]] = []
    for rule in sorted(rules, key=lambda r: (r[1], r[2], r[0])):
        group = next(
            (g for g in groups if abs(g[0][1] - rule[1]) <= _SAME_END and abs(g[0][2] - rule[2]) <= _SAME_END), None
        )
        if group is None:
            groups.append([rule])
        else:
            group.append(rule)
    return [sorted(g) for g in groups if len(g) >= 3]


def _vertical_lines(drawings: list[dict]) -> list[tuple[float, float, float]]:
    """(x, y0, y1) of the vertical lines drawn (a ruled table's, a box's side)."""
    out = []
    for d in drawings:
        for item in d.get("items", ()):
            if item[0] == "l" and abs(item[1].x - item[2].x) <= 1.0 and abs(item[1].y - item[2].y) > 4:
                out.append((item[1].x, min(item[1].y, item[2].y), max(item[1].y, item[2].y)))
    return out


def _runs(group: list[tuple[float, float, float]], uprights: list[tuple[float, float, float]]) -> list[list[float]]:
    """The distinct heights of a group's rules, cut into runs of three or more where a vertical line
    runs across the band between two of them (a table ruled both ways: not this kind)."""
    x0, x1 = group[0][1], group[0][2]
    ys: list[float] = []
    for y, _, _ in group:
        if not ys or y - ys[-1] >= _MIN_BAND:
            ys.append(y)
    runs: list[list[float]] = [[ys[0]]] if ys else []
    for a, b in zip(ys, ys[1:]):
        crossed = any(x0 - 1 <= x <= x1 + 1 and v0 <= a + 2 and v1 >= b - 2 for x, v0, v1 in uprights)
        if crossed:
            runs.append([b])
        else:
            runs[-1].append(b)
    return [r for r in runs if len(r) >= 3]


def _between(text: PageText, ys: list[float], x0: float, x1: float) -> list[list[float]]:
    """A run of rules cut at each band without text right over a header (in its first two bands
    below): the gap between two tables drawn one under the other, the second with a header of its own."""
    words = [w for w in text.words() if x0 - 2 <= w.box.cx <= x1 + 2 and ys[0] <= w.box.cy <= ys[-1]]
    per_band = [[w for w in words if a <= w.box.cy <= b] for a, b in zip(ys, ys[1:])]
    heads = [_heads(band) for band in per_band]
    line = min((w.box.y1 - w.box.y0 for w in text.words()), default=_MIN_BAND)
    pieces, start = [], 0
    for k, band in enumerate(per_band):
        gap = ys[k + 1] - ys[k] < line  # too low to hold a line: no row, the gap between two tables
        if not band and k > start and (gap or any(heads[k + 1 : k + 3])):
            pieces.append(ys[start : k + 1])
            start = k + 1
        elif band and min(w.box.y0 for w in band) - ys[k] > 2 * _CELL_TOP and 0 < k < len(per_band) - 1:
            pieces.append(ys[start : k + 1])  # text far under the rule: a paragraph between two tables, no row
            start = k + 1
    pieces.append(ys[start:])
    return [p for p in pieces if len(p) >= 3]


def _heads(words: list[Word]) -> bool:
    """Whether a band's words are a header's: two phrases or more, one naming a question column (as
    aligned.py's ``label_role`` reads a label: "PCI DSS Requirement" names its last word's column)."""
    phrases = [" ".join(w.text for w in p) for row in visual_rows(words) for p in row.phrases]
    return len(phrases) >= 2 and any(label_role(p) == "question" for p in phrases)


def _table(text: PageText, ys: list[float], x0: float, x1: float) -> Table | None:
    """The table between rules ``ys`` from ``x0`` to ``x1``, or None when its text makes fewer than
    two columns."""
    bands = [Box(x0, a, x1, b) for a, b in zip(ys, ys[1:])]
    words = [w for w in text.words() if x0 - 2 <= w.box.cx <= x1 + 2 and ys[0] <= w.box.cy <= ys[-1]]
    per_band = [[w for w in words if band.y0 <= w.box.cy <= band.y1] for band in bands]
    if sum(1 for b in per_band if b) < 2:
        return None
    phrases = [[p for row in visual_rows(b) for p in row.phrases] for b in per_band]
    edges = _edges(phrases, per_band, x0, len(bands))
    if len(edges) < 2:
        return None
    edges = [x0, *edges[1:], x1]
    rows = tuple(Row(band, _cells(edges, band, found)) for band, found in zip(bands, per_band))
    if not any(_header(text, row) for row in rows[:2]):
        top = _option_header(text, rows)
        if top is None:
            return None  # rules under a form's labels, a web form's panels: no table read by its header
        rows, ys = rows[top:], ys[top:]  # the titles above a table of boxes: lines of the page
    rules = tuple((y, x0, x1) for y in ys)
    return Table(Box(x0, ys[0], x1, ys[-1]), rows, rules)


def _label_forms(text: PageText, ys: list[float], x0: float, x1: float) -> list[Table]:
    """The forms of labelled fields among a header-less table's rows: runs of two or more rows
    one under the other that each hold one short label ending with ":" at the row's left, the rest
    of the row empty (its answer band: "Name:", "Company mailing address:"), each a table of rows of
    one cell; none where a label is a signature's (the signatory's block: "Supplier: / Date: /
    Signature:")."""
    words = [w for w in text.words() if x0 - 2 <= w.box.cx <= x1 + 2 and ys[0] <= w.box.cy <= ys[-1]]
    runs: list[list[Row]] = [[]]
    for a, b in zip(ys, ys[1:]):
        band = Box(x0, a, x1, b)
        label = _label(visual_rows([w for w in words if a <= w.box.cy <= b]), x0, a, b)
        if label is None:
            runs.append([])
        elif not SIGNATURE.match(label):
            runs[-1].append(Row(band, (band,)))
        else:
            runs[-1] = [Row(band, ())]  # a signature: its run is a signatory's block, no form
    out = []
    for run in runs:
        if len(run) >= 2 and all(row.cells for row in run):
            box = Box(x0, run[0].band.y0, x1, run[-1].band.y1)
            out.append(Table(box, tuple(run), tuple((y, x0, x1) for y in ys if box.y0 <= y <= box.y1)))
    return out


def _box_forms(text: PageText, ys: list[float], x0: float, x1: float) -> list[Table]:
    """The prompts beside their boxes among a header-less table's rows, as a ruled form's prompt merged
    down (boxes.py ``form_rows``): a row whose words are a label ending with ":" at its left and, right
    of it past a gap, a box starting a phrase ("If a QSA was involved … indicate the role performed: |
    ☐ QSA performed testing procedures."), with each row right under it whose words all start at that
    box's place or right of it, a box first ("☐ QSA provided other assistance." / "If selected,
    describe …:"); each such run of two rows or more a table of two columns parted at the box."""
    words = [w for w in text.words() if x0 - 2 <= w.box.cx <= x1 + 2 and ys[0] <= w.box.cy <= ys[-1]]
    bands = [(a, b, [w for w in words if a <= w.box.cy <= b]) for a, b in zip(ys, ys[1:])]
    out = []
    for k, (a, b, band) in enumerate(bands):
        x = _box_beside(band, x0)
        if x is None:
            continue
        run = [(a, b)]
        for c, d, under in bands[k + 1 :]:
            lines = visual_rows(under)
            first = lines[0].phrases[0][0] if lines and lines[0].phrases else None
            if first is None or not is_glyph(first.text) or abs(first.box.x0 - x) > 2:
                break
            if any(w.box.x0 < x - 2 for w in under):
                break
            run.append((c, d))
        if len(run) >= 2:
            rows = tuple(Row(Box(x0, c, x1, d), (Box(x0, c, x - 2, d), Box(x - 2, c, x1, d))) for c, d in run)
            box = Box(x0, run[0][0], x1, run[-1][1])
            out.append(Table(box, rows, tuple((y, x0, x1) for y in ys if box.y0 <= y <= box.y1)))
    return out


def _box_beside(band: list[Word], left: float) -> float | None:
    """Where a box stands beside a label in a band: the first box starting a phrase right of the
    band's left (8 pt on), every word either side wholly left or right of it, those left of it a label
    ending with ":" starting at the left; None where there is none."""
    phrases = [p for row in visual_rows(band) for p in row.phrases]
    boxes = [p[0].box.x0 for p in phrases if is_glyph(p[0].text) and p[0].box.x0 > left + 8]
    if not boxes:
        return None
    x = min(boxes)
    before = [w for w in band if w.box.x1 <= x - 2]
    if not before or any(w.box.x0 < x - 2 < w.box.x1 for w in band) or min(w.box.x0 for w in before) > left + 8:
        return None
    label = " ".join(w.text for w in sorted(before, key=lambda w: (round(w.box.y0), w.box.x0)))
    return x if re.search(r"[:：]$", label) and len(label.split()) <= 40 else None


def _label(rows: list, left: float, top: float, bottom: float) -> str | None:
    """The text of a band from ``top`` to ``bottom`` that is one short label ending with a colon at
    its left, alone, at the band's top as a cell's text, within ``_CELL_TOP`` of the rule above (not
    a label over its line to write on, the space above it the answer space of the label before)."""
    if len(rows) != 1 or len(rows[0].phrases) != 1 or rows[0].phrases[0][0].box.x0 > left + 8:
        return None
    y0, y1 = min(w.box.y0 for w in rows[0].phrases[0]), max(w.box.y1 for w in rows[0].phrases[0])
    if y0 - top > _CELL_TOP or y0 - top > bottom - y1 + 2:
        return None
    label = " ".join(w.text for w in rows[0].phrases[0])
    return label if re.search(r"[:：]$", label) and len(label.split()) <= 10 and len(label) <= 80 else None


def _header(text: PageText, row: Row) -> bool:
    """Whether a row is a table's header: two cells or more, one naming a question column (as
    aligned.py's ``label_role`` reads a label: "PCI DSS Requirement", the noun its words qualify)."""
    cells = [c for c in row.cells if c is not None]
    return len(cells) >= 2 and any(label_role(cell_text(text, c)) == "question" for c in cells)


def _option_header(text: PageText, rows: tuple[Row, ...]) -> int | None:
    """Where a table of boxes to tick under option labels starts: among its first five rows, a
    row of two labels or more over two rows or more whose cells under those labels each hold a box
    and nothing else ("In Place | In Place with CCW | Not Applicable" over "Requirement 3: ☐ ☐ ☐"),
    with the row above it when that one has two cells or more (the header's upper row: "PCI DSS
    Requirement | Requirement Responses"); the rows above, titles, are none of it. None: no such table."""
    texts = [[cell_text(text, c).strip() if c is not None else None for c in row.cells] for row in rows]
    for k, labels in enumerate(texts[:5]):
        under = [c for c, label in enumerate(labels) if label and not is_glyph(label)]
        if len(under) < 2:
            continue
        boxed = [r for r in texts[k + 1 :] if len(r) == len(labels) and all(r[c] and is_glyph(r[c]) for c in under)]
        if len(boxed) >= 2 and len(under) < len(labels):
            return k - 1 if k and sum(c is not None for c in rows[k - 1].cells) >= 2 else k
    return None


def _edges(phrases: list[list[tuple[Word, ...]]], words: list[list[Word]], left: float, n: int) -> list[float]:
    """Where the columns start: the phrase starts (within 2 pt) that start phrases in more rows than
    words cross them in, in two rows or more (one where the table has three rows or fewer). Only a
    row of several cells (phrases starting at two places or more) counts as crossing: a row whose
    text all starts at one place is one cell across the table (a title, a note under a requirement,
    "Applicability Notes" over its text) and says nothing of the columns under it."""
    starts: list[list[float]] = []  # clusters of phrase starts
    for band in phrases:
        for x in sorted({round(p[0].box.x0, 1) for p in band}):
            cluster = next((c for c in starts if abs(c[0] - x) <= 2.0), None)
            if cluster is None:
                starts.append([x])
            else:
                cluster.append(x)
    several = [_places(band) >= 2 for band in phrases]
    out = []
    need = 1 if n <= 3 else 2
    for cluster in sorted(starts, key=lambda c: min(c)):
        x = min(cluster)
        began = sum(1 for band in phrases if any(abs(p[0].box.x0 - x) <= 2.0 for p in band))
        crossed = sum(
            1 for band, many in zip(words, several) if many and any(w.box.x0 < x - 2 and w.box.x1 > x + 1 for w in band)
        )
        if began >= need and began > crossed:
            out.append(x - 2 if out or x - left > 6 else left)
    if out and out[0] != left:
        out = [left, *out]
    return out


def _places(band: list[tuple[Word, ...]]) -> int:
    """How many places (2 pt apart or more) a band's phrases start at."""
    xs: list[float] = []
    for x in sorted(p[0].box.x0 for p in band):
        if not xs or x - xs[-1] > 2.0:
            xs.append(x)
    return len(xs)


def _cells(edges: list[float], band: Box, words: list[Word]) -> tuple[Box | None, ...]:
    """A band's cells between ``edges``; cells whose edge a phrase crosses are one (the first holds
    the span, the rest None): a phrase, words closer than 0.45 of their height, is one cell's line
    even where the edge falls in a space between its words ("(Check one response | for each" over
    the option columns a header's "Response" spans; "PCI DSS | Requirement" over the ID column and
    the requirement's), unless parted there by a wider space than its others (:func:`_spans`)."""
    spans = [span for row in visual_rows(words) for p in row.phrases for span in _spans(p, edges)]
    cells: list[Box | None] = []
    start = 0
    for k in range(1, len(edges)):
        crossed = k < len(edges) - 1 and any(a < edges[k] - 1 and b > edges[k] + 2 for a, b in spans)
        if not crossed:
            cells.append(Box(edges[start], band.y0, edges[k], band.y1))
            cells.extend([None] * (k - 1 - start))
            start = k
    return tuple(cells)


def _spans(phrase: tuple[Word, ...], edges: list[float]) -> list[tuple[float, float]]:
    """A phrase's extent, parted where a word starts at a column's start (within 2 pt) after a space
    half again as wide as the widest of the phrase's other spaces: a cell's line filled to its right
    edge, printed with little padding, then the next column's first word ("… según | Examinar los
    registros."), not one phrase across the edge (whose spaces are all alike: "(Check one response for
    each")."""
    gaps = [b.box.x0 - a.box.x1 for a, b in zip(phrase, phrase[1:])]
    out = [(phrase[0].box.x0, phrase[-1].box.x1)]
    for i, gap in enumerate(gaps):
        others = gaps[:i] + gaps[i + 1 :]
        start = phrase[i + 1].box.x0
        if others and gap > 1.5 * max(others) and any(abs(start - (e + 2)) <= 2 for e in edges[1:-1]):
            out[-1] = (out[-1][0], phrase[i].box.x1)
            out.append((start, phrase[-1].box.x1))
    return out


__all__ = ["striped_tables"]
