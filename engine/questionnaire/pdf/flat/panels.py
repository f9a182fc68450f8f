"""Guidance panels and answer places on a flat PDF's page (#55), by position, outside its tables.

**A guidance panel** (a web form printed: "Guidance", "Help", "Hinweis" beside a question or below
its options) is no part of any question: its lines are left out of the page's items. It is a line
that is only such a label (:data:`_LABEL`, in any of the languages the readers know), with the
lines under it that start at its left edge, where either

- the label is the first line of a drawn panel (a stroked box or a shaded rectangle holding at
  most 15 lines, not half the page): the panel's lines; or
- the label starts right of 40 % of the page and its lines form a band of their own: no other line
  beside them reaches into it (the CCS RM6264's sidebar, under a coloured rule).

A panel that starts "Note: …" ("Anmerkung: …", "注記：…") is one too unless a line of it asks. **A
panel without a label** beside the questions (a drawn box or shaded panel, or a band under a rule
2 pt thick or more, right of 40 % of the page, its lines at one left edge, none asking nor a label,
a line left of it level with its first: the question it is beside) is left out the same way.

**An answer place** is an empty drawn box 40 pt wide or more and 8–80 pt high with no text in it,
or a drawn line 60 pt long or more (a blank to write on): a label right above one (within two
lines' height, starting near its left edge) is a question with a place for text.

**A form printed without rules** (a table of labels beside empty cells, no line drawn: the fields are
the space beside the labels): labels ending with ":" (ten words at most, none a signature's), each
alone on its row or beside other such labels only ("Name:      Title:"), two or more in rows one under
the other at one left edge (or one right under a signature's row: "Signature of Lead QSA | Date: …" over
"Lead QSA Name:", the signatory's name), each row apart from the one above by a third of a line or more (a table
row's padding, not a paragraph's wrapped lines) and at most three lines' height below it, with at most
one title row between two of them ("Qualified Security Assessor": one line at that edge, eight words
at most, not ending with ":" or "."), are labels with a blank after them (:func:`unruled_labels`):
each a question with a place for text wherever it is. A label row with a line right under it at a
label's left edge (within two lines' height, no label, no title between labels) leads in that line
("Cardholder Data includes:" over its list): no field; nor is a row of two labels or more over five
lines' height of empty space before the page's next line (a list of records' header over its empty
rows). A run holding a signature's label ("Supplier: /
Date: / Signature:") or title is a signatory's block, none.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.questionnaire.cues import SIGNATURE
from engine.questionnaire.pdf.flat.asking import asks
from engine.questionnaire.pdf.layout import Box, Line, is_glyph, line_rows

_LABEL = re.compile(
    r"^(guidance|guidance notes?|help|help text|hilfe|hinweise?|erläuterung(en)?|ausfüllhinweise?|aide|conseils?"
    r"|toelichting|ayuda|ガイダンス|ヘルプ|記入要領|記入上の注意|補足説明)\s*[:：]?$",
    re.IGNORECASE,
)
_NOTE = re.compile(  # a panel that starts "Note: …" ("Anmerkung: …", "注記：…"): no question's either, unless it asks
    r"^(note|nb|n\.b\.|anmerkung|remarque|nota|opmerking|注記|注意)\s*[:：]", re.IGNORECASE
)
_MAX_PANEL_LINES = 15


def rectangles(drawings: list[dict]) -> list[tuple[Box, bool]]:
    """The rectangles a page draws (a path of one rectangle), each with whether it is filled."""
    out: list[tuple[Box, bool]] = []
    for d in drawings:
        items = d.get("items") or ()
        if len(items) == 1 and items[0][0] == "re":
            out.append((Box.of(d["rect"]), d.get("fill") is not None))
    return out


def without_panels(lines: list[Line], drawings: list[dict], width: float, height: float) -> list[Line]:
    """``lines`` without those of the page's guidance panels (see the module docstring)."""
    rects = rectangles(drawings)
    dropped: set[int] = set()
    for label in lines:
        text = label.text.strip()
        if id(label) in dropped or not (_LABEL.match(text) or _NOTE.match(text)):
            continue
        panel = _panel(label, lines, rects, height)
        if panel is None and label.box.x0 >= 0.4 * width:
            panel = _band(label, lines)
        if panel and (_LABEL.match(text) or not any(asks(line.text) for line in panel)):
            dropped |= {id(line) for line in panel}
    for panel in _unlabelled(lines, drawings, rects, width, height):
        dropped |= {id(line) for line in panel}
    return [line for line in lines if id(line) not in dropped]


def _unlabelled(
    lines: list[Line], drawings: list[dict], rects: list[tuple[Box, bool]], width: float, height: float
) -> list[list[Line]]:
    """The guidance panels without a label beside the questions: the lines of a drawn panel, or of a
    band under a rule 2 pt thick or more, right of 40 % of the page, all starting at one left edge,
    none asking, with a line left of the panel level with its first (the question it is beside)."""
    out: list[list[Line]] = []
    for box, _ in rects:
        if box.x0 < 0.4 * width or box.y1 - box.y0 >= 0.5 * height:
            continue
        within = sorted((ln for ln in lines if _inside(ln.box, box)), key=lambda ln: ln.box.y0)
        if 0 < len(within) <= _MAX_PANEL_LINES:
            out.append(within)
    for d in drawings:
        r = Box.of(d["rect"])
        if (d.get("width") or 0) >= 2 and r.x0 >= 0.4 * width and r.y1 - r.y0 <= 4 and r.x1 - r.x0 >= 60:
            first = min((ln for ln in lines if 0 <= ln.box.y0 - r.y1 <= 14 and abs(ln.box.x0 - r.x0) <= 8),
                        key=lambda ln: ln.box.y0, default=None)  # fmt: skip
            band = _band(first, lines) if first is not None else None
            if band:
                out.append(band)
    return [
        panel
        for panel in out
        if len({round(ln.box.x0) // 4 for ln in panel}) <= 2
        and not any(asks(ln.text) or _LABEL.match(ln.text.strip()) for ln in panel)
        and any(ln.box.x1 < panel[0].box.x0 and ln.box.same_row(panel[0].box) for ln in lines if ln not in panel)
    ]


def _inside(inner: Box, outer: Box, slack: float = 2.0) -> bool:
    return (
        inner.x0 >= outer.x0 - slack
        and inner.y0 >= outer.y0 - slack
        and inner.x1 <= outer.x1 + slack
        and inner.y1 <= outer.y1 + slack
    )


def _panel(label: Line, lines: list[Line], rects: list[tuple[Box, bool]], height: float) -> list[Line] | None:
    """The lines of the smallest drawn panel whose first line is ``label``, or None."""
    holding = [r for r, _ in rects if _inside(label.box, r) and r.y1 - r.y0 < 0.5 * height]
    if not holding:
        return None
    panel = min(holding, key=lambda r: (r.x1 - r.x0) * (r.y1 - r.y0))
    within = [line for line in lines if _inside(line.box, panel)]
    if len(within) > _MAX_PANEL_LINES or min(line.box.y0 for line in within) < label.box.y0 - 1:
        return None
    return within


def _band(label: Line, lines: list[Line]) -> list[Line] | None:
    """The label and the lines under it starting at its left edge, one after the other (a gap of
    at most two lines), when no other line on their rows reaches into their band; else None."""
    block = [label]
    for line in sorted((ln for ln in lines if ln.box.y0 > label.box.y0 + 1), key=lambda ln: ln.box.y0):
        last = block[-1].box
        if line.box.y0 - last.y1 > 2 * max(last.y1 - last.y0, 1.0):
            break
        if abs(line.box.x0 - label.box.x0) <= 3:
            block.append(line)
    top, bottom = label.box.y0, max(line.box.y1 for line in block)
    left, right = label.box.x0, max(line.box.x1 for line in block)
    for line in lines:
        if line in block or line.box.y1 < top or line.box.y0 > bottom:
            continue
        if line.box.x1 > left - 6 and line.box.x0 < right:
            return None  # a line beside reaches into the band: not a sidebar of its own
    return block if len(block) >= 2 else None


def answer_places(drawings: list[dict], lines: list[Line]) -> list[Box]:
    """The page's empty answer boxes and lines to write on (see the module docstring)."""
    out: list[Box] = []
    for d in drawings:
        items = d.get("items") or ()
        if len(items) != 1 or d.get("fill") is not None and d.get("color") is None:
            continue
        kind = items[0][0]
        box = Box.of(d["rect"])
        w, h = box.x1 - box.x0, box.y1 - box.y0
        if kind == "re" and w >= 40 and 8 <= h <= 80 and not any(_inside(ln.box, box, 0.5) for ln in lines):
            out.append(box)
        elif kind == "l" and w >= 60 and h <= 1.5:
            out.append(Box(box.x0, box.y0 - 8, box.x1, box.y1))
    return out


def over_place(box: Box, places: list[Box]) -> bool:
    """Whether an answer place lies right under ``box`` (a label's), starting near its left edge."""
    line = max(box.y1 - box.y0, 8.0)
    return any(
        box.y1 - 2 <= p.y0 <= box.y1 + 2.5 * min(line, 12.0) and abs(p.x0 - box.x0) <= 20 and p.x1 > box.x0
        for p in places
    )


def unruled_labels(lines: list[Line]) -> list[Line]:
    """``lines`` with the labels of a form printed without rules marked as labels with a blank after
    them (see the module docstring)."""
    rows = [sorted(row, key=lambda ln: ln.box.x0) for row in line_rows(lines)]
    runs: list[list[int]] = []
    labelled = [all(_field_label(line) for line in row) and not _records_header(rows, i) for i, row in enumerate(rows)]
    for i, row in enumerate(rows):
        if not labelled[i] or _lead_in(rows, labelled, i):
            continue
        last = runs[-1][-1] if runs else -9
        if (i - last == 1 and _goes_on(rows[last], row)) or (i - last == 2 and _title_between(rows, last, i)):
            runs[-1].append(i)
        else:
            runs.append([i])
    marked: set[int] = set()
    for run in runs:
        between = [rows[i][0] for i in range(run[0], run[-1] + 1) if i not in run]
        signed = any(SIGNATURE.match(ln.text) for i in run for ln in rows[i]) or any(
            SIGNATURE.match(ln.text) for ln in between
        )
        if (sum(len(rows[i]) for i in run) >= 2 or _under_signature(rows, run[0])) and not signed:
            marked |= {id(ln) for i in run for ln in rows[i]}
    return [replace(ln, blank=True) if id(ln) in marked else ln for ln in lines]


def _under_signature(rows: list[list[Line]], i: int) -> bool:
    """Whether label row ``i`` is right under a signature's row ("Signature of Lead QSA | Date: …"
    over "Lead QSA Name:"): the row above starts with a signature's label at its left edge, a table
    row's padding apart (the signatory's name to write under the signature)."""
    return i > 0 and bool(SIGNATURE.match(rows[i - 1][0].text)) and _goes_on(rows[i - 1], rows[i])


def _field_label(line: Line) -> bool:
    """A short label ending with ":", no box before it (see unruled_labels; a signature's among them)."""
    text = line.text.strip()
    return (
        bool(re.search(r"[:：]$", text))
        and len(text.split()) <= 10
        and len(text) <= 80
        and not is_glyph(text.split()[0])
    )


def _records_header(rows: list[list[Line]], i: int) -> bool:
    """Whether row ``i`` is two labels or more side by side over five lines' height or more of empty
    space before the next line of its page (a list of records' header over its empty rows: "Name of
    service provider: | Description of service(s) provided:")."""
    height = max(rows[i][0].box.height, 1.0)
    return len(rows[i]) >= 2 and i + 1 < len(rows) and rows[i + 1][0].box.y0 - rows[i][0].box.y1 >= 5 * height


def _lead_in(rows: list[list[Line]], labelled: list[bool], i: int) -> bool:
    """Whether label row ``i`` leads in the lines right under it ("Cardholder Data includes:" over its
    list): the row below starts at one of its labels' left edges within two lines' height, is no label
    row, and is no title between two rows of labels."""
    if i + 1 >= len(rows) or labelled[i + 1]:
        return False
    below, height = rows[i + 1][0], max(rows[i][0].box.height, 1.0)
    under = any(abs(below.box.x0 - ln.box.x0) <= 2 for ln in rows[i]) and below.box.y0 - rows[i][0].box.y0 <= 2 * height
    return under and not (i + 2 < len(rows) and labelled[i + 2] and _title_between(rows, i, i + 2))


def _goes_on(above: list[Line], row: list[Line]) -> bool:
    """Whether label row ``row`` is the next row of the form of label row ``above``: at its left edge,
    apart from it by a third of a line or more, at most three lines' height below it."""
    height = max(above[0].box.height, 1.0)
    gap = row[0].box.y0 - above[0].box.y1
    return (
        abs(row[0].box.x0 - above[0].box.x0) <= 2
        and 0.3 * height <= gap
        and row[0].box.y0 - above[0].box.y0 <= 3 * height
    )


def _title_between(rows: list[list[Line]], last: int, at: int) -> bool:
    """Whether the one row between label rows ``last`` and ``at`` is a title across the form."""
    (title,) = rows[last + 1] if len(rows[last + 1]) == 1 else (None,)
    if title is None:
        return False
    text = title.text.strip()
    return (
        abs(title.box.x0 - rows[last][0].box.x0) <= 2
        and len(text.split()) <= 8
        and not re.search(r"[:：.]$", text)
        and _goes_on(rows[last], [title])
        and _goes_on([title], rows[at])
    )


__all__ = ["answer_places", "over_place", "unruled_labels", "without_panels"]
