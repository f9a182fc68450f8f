"""The text of a PDF page as positioned words and lines: what the PDF readers look at around a
form field (its label to the left, above or right, a column's header) and along a page (its
numbered, bulleted and checklist lines).

Only horizontal text counts (a rotated margin note such as the W-9's "Print or type" is left
out). A *glyph* word is a box drawn as a character (☐ ☑ ☒ □ ❑, Wingdings' private-use boxes,
the keycap U+20E3 that OpenChain's checklist draws its boxes with): it marks where a box is,
never a label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import pymupdf

T = TypeVar("T")
DRAWN_BOX = "☐"  # a box drawn as a square (drawn_boxes) written as the character of one
DRAWN_MARKED = "☒"  # a drawn radio circle with a filled dot inside it (marked_boxes): the option chosen
MAX_DRAWN_BOXES = 2_000  # per page (the drawings themselves are bounded by Limits.check_rulings' count)
_BLANK = re.compile(r":[ \u2002\u00a0]{3,}$")
BOX_GLYPHS = frozenset("☐☑☒□■❑❒▢⃣\uf06f\uf0a8\uf0fe\uf071\uf0a1\uf0fd")
# a symbol font's list bullets as a word processor prints them, in the private-use area: Symbol's • (F0B7),
# Wingdings' ▪ (F0A7), ➢ (F0D8) and ❖ (F076): a list's marker, never a box to tick
SYMBOL_BULLETS = frozenset("\uf0b7\uf0a7\uf0d8\uf076")


def pdf_name(text: str) -> str:
    """A PDF name with its ``#xx`` escapes decoded, without its slash: PyMuPDF gives a box's on
    state escaped ("Federal#20Employee") and a key's value decoded ("/Federal Employee")."""
    return re.sub(r"#([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text.lstrip("/"))


def is_glyph(text: str) -> bool:
    """A word made only of drawn boxes (and spaces): a box's character, or a symbol font's private-use
    character but its list bullets (:data:`SYMBOL_BULLETS`)."""
    chars = [c for c in text if not c.isspace()]
    return bool(chars) and all(c in BOX_GLYPHS or "\ue000" <= c <= "\uf8ff" and c not in SYMBOL_BULLETS for c in chars)


@dataclass(frozen=True)
class Box:
    """A rectangle in page coordinates (y grows downwards, as PyMuPDF gives them)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def of(cls, rect: Iterable[float]) -> Box:
        x0, y0, x1, y1 = rect
        return cls(float(x0), float(y0), float(x1), float(y1))

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        return max(0.0, self.x1 - self.x0) * max(0.0, self.y1 - self.y0)

    def overlap(self, other: Box) -> float:
        """The area both boxes cover."""
        return Box(max(self.x0, other.x0), max(self.y0, other.y0), min(self.x1, other.x1), min(self.y1, other.y1)).area

    def same_row(self, other: Box) -> bool:
        """The two overlap vertically by at least half of the shorter one's height."""
        shared = min(self.y1, other.y1) - max(self.y0, other.y0)
        return shared >= 0.5 * max(1.0, min(self.height, other.height))

    def union(self, other: Box) -> Box:
        return Box(min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1))


@dataclass(frozen=True)
class Word:
    box: Box
    text: str
    round: bool = False  # a drawn radio circle (:func:`round_boxes`), where a form printed draws check boxes square

    @property
    def glyph(self) -> bool:
        return is_glyph(self.text)


@dataclass(frozen=True)
class Line:
    """One line of text as MuPDF groups it, its words left to right; ``block`` is its block's index."""

    box: Box
    words: tuple[Word, ...]
    block: int
    blank: bool = False  # a label's colon then a run of spaces: a blank left to fill ("Title:       ")

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def glyph(self) -> bool:
        return all(w.glyph for w in self.words)


def line_rows(lines: list[Line]) -> list[list[Line]]:
    """The lines by visual row, top to bottom (a line joins the row whose first line it shares a row with)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.box.y0, ln.box.x0)):
        if rows and rows[-1][0].box.same_row(line.box):
            rows[-1].append(line)
        else:
            rows.append([line])
    return rows


def page_widgets(page: pymupdf.Page) -> Iterator[pymupdf.Widget]:
    """A page's widgets, first to last. PyMuPDF's ``page.widgets()`` looks each one up from the
    start of the page's annotations (quadratic: 2,000 fields took minutes); this walks them."""
    widget = page.first_widget
    while widget is not None:
        yield widget
        widget = widget.next


class Bands:
    """Boxes indexed by 20-point horizontal bands: the ones near a box, without a scan of all."""

    def __init__(self, items: Iterable[T], box_of: Callable[[T], Box]) -> None:
        self.box_of = box_of
        self.bands: dict[int, list[T]] = {}
        for item in items:
            box = box_of(item)
            for band in range(int(box.y0 // 20), int(box.y1 // 20) + 1):
                self.bands.setdefault(band, []).append(item)

    def near(self, box: Box) -> list[T]:
        """The items whose band range meets ``box``'s (each once, in index order)."""
        seen: dict[int, T] = {}
        for band in range(int(box.y0 // 20), int(box.y1 // 20) + 1):
            for item in self.bands.get(band, ()):
                seen.setdefault(id(item), item)
        return list(seen.values())


def line_spans(line: Line, box: Box) -> bool:
    """Whether ``box`` lies between the line's first and last words (a box between two labels)."""
    return line.box.x0 <= box.x0 and box.x1 <= line.box.x1


def drawn_boxes(drawings: list[dict]) -> list[Box]:
    """The boxes a page draws as small empty shapes, not as characters: a square (one stroked
    rectangle, not filled, 5–16 pt a side and as high as wide: the Yes / No boxes of the PCI SAQ's
    flat PDF), a radio circle and a square of four bars (a web form printed: a closed path of curves,
    stroked or a filled ring, and four thin filled bars, 6–24 pt a side: the CCS RM6264's options);
    none when the page draws more than :data:`MAX_DRAWN_BOXES` (a grid of squares, not boxes to tick)."""
    out: list[Box] = []
    for d in drawings:
        items = d.get("items") or ()
        if _square(d, items) or _circle(d, items):
            out.append(Box.of(d["rect"]))
            if len(out) > MAX_DRAWN_BOXES:
                return []
    out.extend(_bar_squares(drawings))
    return out if len(out) <= MAX_DRAWN_BOXES else []


def round_boxes(drawings: list[dict]) -> frozenset[Box]:
    """The drawn boxes that are radio circles (:func:`drawn_boxes`' circles): a web form printed draws
    its radio buttons round and its check boxes square."""
    return frozenset(Box.of(d["rect"]) for d in drawings if _circle(d, d.get("items") or ()))


def marked_boxes(drawings: list[dict], boxes: list[Box]) -> frozenset[Box]:
    """The drawn ``boxes`` with a filled dot inside (a radio button chosen: a filled circle of
    curves, smaller than the box, centred in it)."""
    if not boxes:
        return frozenset()
    index = Bands(boxes, lambda b: b)
    out: set[Box] = set()
    for d in drawings:
        items = d.get("items") or ()
        r = d.get("rect")
        if d.get("fill") is None or len(items) != 4 or any(i[0] != "c" for i in items) or r is None:
            continue
        dot = Box.of(r)
        for box in index.near(dot):
            if dot.x1 - dot.x0 <= 0.8 * (box.x1 - box.x0) and abs(dot.cx - box.cx) <= 2 and abs(dot.cy - box.cy) <= 2:
                out.add(box)
    return frozenset(out)


def _square(d: dict, items: Sequence) -> bool:
    if d.get("fill") is not None or "s" not in (d.get("type") or "") or len(items) != 1 or items[0][0] != "re":
        return False
    r = items[0][1]
    return 5 <= r.width <= 16 and abs(r.width - r.height) <= 1.5


def _circle(d: dict, items: Sequence) -> bool:
    """An empty radio circle: curves only, 6–24 pt and round, either stroked and not filled (four
    curves) or filled as a ring (eight: an outer and an inner circle, filled even-odd). A filled
    disk (a bullet, a radio's dot) is not one."""
    r = d.get("rect")
    if r is None or not items or any(i[0] != "c" for i in items) or not (6 <= r.width <= 24):
        return False
    if abs(r.width - r.height) > 1.5:
        return False
    kind = d.get("type") or ""
    if d.get("fill") is None:
        return "s" in kind and len(items) == 4
    return len(items) == 8 and bool(d.get("even_odd"))


def _bar_squares(drawings: list[dict]) -> list[Box]:
    """Squares drawn as four thin filled bars (top, bottom, left and right, 6–24 pt long)."""
    bars: set[tuple[int, int, int, int]] = set()
    for d in drawings:
        items = d.get("items") or ()
        if d.get("fill") is None or len(items) != 1 or items[0][0] != "re":
            continue
        r = items[0][1]
        if min(r.width, r.height) <= 2 and 6 <= max(r.width, r.height) <= 24:
            bars.add((round(r.x0), round(r.y0), round(r.x1), round(r.y1)))
    if len(bars) > MAX_DRAWN_BOXES:  # a grid of short rules, not boxes
        return []
    out: list[Box] = []
    for x0, y0, x1, y1 in sorted(bars):
        side = x1 - x0
        if y1 - y0 > 2 or side < 6:  # a top bar: horizontal
            continue
        bottom = next(
            (b for b in bars if abs(b[0] - x0) <= 2 and abs(b[2] - x1) <= 2 and abs(b[3] - y0 - side) <= 2), None
        )
        left = any(
            abs(b[0] - x0) <= 2 and b[2] - b[0] <= 2 and abs(b[3] - b[1] - side) <= 2 and abs(b[1] - y0) <= 2
            for b in bars
        )
        right = any(
            abs(b[2] - x1) <= 2 and b[2] - b[0] <= 2 and abs(b[3] - b[1] - side) <= 2 and abs(b[1] - y0) <= 2
            for b in bars
        )
        if bottom is not None and left and right:
            out.append(Box(float(x0), float(y0), float(x1), float(bottom[3])))
    return out


def page_lines(page: pymupdf.Page) -> list[Line]:
    """The horizontal text lines of a page with their words (from MuPDF's characters), without
    the text drawn by its form fields (MuPDF's text extraction reads their appearances: a filled
    field's answer, a combo box's prompt)."""
    fields = Bands((Box.of(w.rect) for w in page_widgets(page)), lambda b: b)
    raw = page.get_text("rawdict")
    lines: list[Line] = []
    for b, block in enumerate(raw.get("blocks", ())):
        for line in block.get("lines", ()):
            dx, dy = line.get("dir", (1, 0))
            if abs(dy) > 0.01 or dx <= 0:
                continue  # rotated text: a margin note, not a label
            words = [w for w in _words(line) if not any(_within(w.box, f) for f in fields.near(w.box))]
            if words:
                box = words[0].box
                for w in words[1:]:
                    box = box.union(w.box)
                raw = "".join(ch.get("c", "") for span in line.get("spans", ()) for ch in span.get("chars", ()))
                lines.append(Line(box, tuple(words), b, bool(_BLANK.search(raw))))
    return lines


def _within(word: Box, field: Box) -> bool:
    return field.x0 <= word.cx <= field.x1 and field.y0 <= word.cy <= field.y1


def _words(line: dict) -> list[Word]:
    words: list[Word] = []
    text, box = "", None
    for span in line.get("spans", ()):
        for ch in span.get("chars", ()):
            c = ch.get("c", "")
            if c.isspace():
                if text:
                    words.append(Word(box, text))
                text, box = "", None
                continue
            cbox = Box.of(ch["bbox"])
            if box is not None and (cbox.x0 - box.x1 > 0.6 * max(cbox.height, 1.0) or is_glyph(c) != is_glyph(text)):
                words.append(Word(box, text))  # a wide gap with no space character: two words
                text, box = "", None
            text += c
            box = cbox if box is None else box.union(cbox)
    if text:
        words.append(Word(box, text))
    return words


@dataclass(frozen=True)
class PageText:
    """The lines of one page and the geometric questions the PDF readers ask of them."""

    lines: tuple[Line, ...]

    @classmethod
    def of(cls, page: pymupdf.Page) -> PageText:
        return cls(tuple(page_lines(page)))

    def with_boxes(
        self, boxes: Iterable[Box], marked: frozenset[Box] = frozenset(), round: frozenset[Box] = frozenset()
    ) -> PageText:
        """These lines with a :data:`DRAWN_BOX` word for each box drawn on the page (not written as
        a character; :data:`DRAWN_MARKED` for one of ``marked``), in the line it sits on (the
        nearest on its row, within 30 pt), else a line of its own: the readers then see it as they
        see a ☐ in the text. A box already written as a character there is not counted twice."""
        lines = list(self.lines)
        for box in boxes:
            if any(w.glyph and w.box.overlap(box) > 0 for line in lines for w in line.words):
                continue
            near = [
                (min(abs(box.x0 - line.box.x1), abs(line.box.x0 - box.x1)), i)
                for i, line in enumerate(lines)
                if line.box.same_row(box)
            ]
            gap, at = min(near, default=(1e9, -1))
            word = Word(box, DRAWN_MARKED if box in marked else DRAWN_BOX, round=box in round)
            if gap <= 30 or (at >= 0 and line_spans(lines[at], box)):
                line = lines[at]
                words = tuple(sorted((*line.words, word), key=lambda w: w.box.x0))
                lines[at] = Line(line.box.union(box), words, line.block, line.blank)
            else:
                lines.append(Line(box, (word,), -1))
        return PageText(tuple(lines))

    def words(self) -> Iterable[Word]:
        for line in self.lines:
            yield from line.words

    def right_of(self, box: Box, limit_x: float, max_gap: float = 30.0) -> tuple[str, float]:
        """The run of words just right of ``box`` on its row (a box's own label: "Yes", "C
        Corporation"), up to ``limit_x`` (the next field), a drawn box or a wide gap; and where
        the run ends (``box.x1`` when there is none)."""
        row = sorted(
            (w for w in self.words() if box.same_row(w.box) and w.box.cx > box.x1 and w.box.x0 < limit_x),
            key=lambda w: w.box.x0,
        )
        out: list[str] = []
        edge = box.x1
        for w in row:
            gap = w.box.x0 - edge
            if w.glyph or gap > (max_gap if not out else max(12.0, 1.2 * w.box.height)):
                break
            out.append(w.text)
            edge = w.box.x1
        return " ".join(out), edge

    def left_of(self, box: Box, min_x: float, rows: Sequence[Box] = ()) -> str:
        """The text left of ``box`` on its row, right of ``min_x`` (the field before it): a label
        in the cell before a field ("Company Name"); several lines when the field is tall or the
        label's sentence goes on below its first line ("Is there a date by which / this change
        must be / operational?"), though not into a line on the row of one of ``rows`` (other
        fields': the label of the next row of a grid of boxes)."""
        band = Box(box.x0, box.y0 - 2, box.x1, box.y1 + 2)
        picked: list[Line] = []
        for line in self.lines:
            if line.glyph or not (band.y0 <= line.box.cy <= band.y1 or box.same_row(line.box)):
                continue
            words = tuple(w for w in line.words if not w.glyph and w.box.x1 <= box.x0 + 2 and w.box.x0 >= min_x - 2)
            if words:
                picked.append(Line(_span(words), words, line.block))
        if picked:  # the nearest column of text only (not a row header further left)
            nearest = max(picked, key=lambda line: line.box.x1)
            picked = [line for line in picked if line.block == nearest.block or line.box.x0 >= nearest.box.x0 - 2]
        picked = self._sentence(picked, box, min_x, rows)
        picked.sort(key=lambda line: (line.block, line.box.y0, line.box.x0))
        return _joined(line.text for line in picked)

    def _sentence(self, picked: list[Line], box: Box, min_x: float, rows: Sequence[Box] = ()) -> list[Line]:
        """One picked line with the lines of its block around it while the label's sentence goes
        on: the lines above it that do not end one ("Exemption from FATCA reporting / code (if
        any)") and the lines below it until one ends with ``?``, ``:`` or ``.``."""
        if len(picked) != 1:
            return picked
        first = picked[0]
        block = sorted(  # its block's lines, and lines aligned with it (a label set as two blocks)
            (
                line
                for line in self.lines
                if (line.block == first.block or abs(line.box.x0 - first.box.x0) < 3)
                and (line.box.x1 <= box.x0 + 2 or line.box.y1 <= first.box.y0 + 1)  # a line above may run on
                and line.box.x0 >= min_x - 2
                and not line.glyph
            ),
            key=lambda line: line.box.y0,
        )
        out = [first]
        for line in reversed([ln for ln in block if ln.box.y1 <= first.box.y0 + 1]):
            # another block's line joins only when set as close as a paragraph's lines (not a header above)
            tight = 0.8 if line.block == out[0].block else 0.45
            if _TERMINAL.search(line.text) or out[0].box.y0 - line.box.y1 > tight * max(line.box.height, 1.0):
                break
            if any(line.box.same_row(r) for r in rows):
                break
            out.insert(0, line)
        last = first
        for line in (ln for ln in block if ln.box.y0 >= first.box.y1 - 1):
            tight = 0.8 if line.block == last.block else 0.45
            if _TERMINAL.search(last.text) or line.box.y0 - last.box.y1 > tight * max(line.box.height, 1.0):
                break
            if any(line.box.same_row(r) for r in rows):
                break
            out.append(line)
            last = line
        return out

    def above(self, box: Box, max_gap: float = 26.0) -> str:
        """The nearest line above ``box`` that overlaps it horizontally (a label over a field),
        with the lines of its block just above it."""
        over = [
            line
            for line in self.lines
            if not line.glyph
            and line.box.y1 <= box.y0 + 3
            and line.box.x0 < box.x1
            and line.box.x1 > box.x0
            and box.y0 - line.box.y1 <= max_gap
        ]
        if not over:
            return ""
        nearest = max(over, key=lambda line: (line.box.y1, -line.box.x0))
        return _joined(line.text for line in self._block_up_to(nearest, box))

    def header_above(self, box: Box) -> str:
        """The text heading the column ``box`` is in: the first line above it (past drawn boxes)
        whose span covers the box's centre, with the lines just above it in that column
        ("Implementation Status Notes / (If “Pending …”")."""
        over = [
            line
            for line in self.lines
            if not line.glyph and line.box.y1 <= box.y0 + 1 and line.box.x0 - 2 <= box.cx <= line.box.x1 + 2
        ]
        if not over:
            return ""
        out = [max(over, key=lambda line: line.box.y1)]
        for line in sorted(over, key=lambda line: -line.box.y1):
            top = out[0]
            if line is top or line.box.y1 > top.box.y0 + 1:
                continue
            if top.box.y0 - line.box.y1 > 0.8 * max(line.box.height, 1.0):
                break
            left, right = min(x.box.x0 for x in out), max(x.box.x1 for x in out)
            phrase = self._phrase(line)
            width = phrase.x1 - phrase.x0
            if line.block != top.block and not (left - 15 <= line.box.cx <= right + 15 and width <= 2 * (right - left)):
                break  # much wider than the column: a caption or a header over several columns
            out.insert(0, line)
        return _joined(line.text for line in out)

    def _phrase(self, line: Line) -> Box:
        """``line``'s box widened by the lines that touch it on its row (one phrase set in pieces:
        "Applicability" + "(Check one per row.)")."""
        box = line.box
        grown = True
        while grown:
            grown = False
            for other in self.lines:
                if other is line or not box.same_row(other.box):
                    continue
                if (
                    0 <= other.box.x0 - box.x1 < 6 or 0 <= box.x0 - other.box.x1 < 6
                ) and other.box.x1 - other.box.x0 > 0:
                    box, grown = box.union(other.box), True
        return box

    def text_between(self, row: Box, x0: float, x1: float) -> bool:
        """Whether any word (not a drawn box) lies on ``row`` between ``x0`` and ``x1``."""
        return any(not w.glyph and row.same_row(w.box) and x0 < w.box.cx < x1 for w in self.words())

    def _block_up_to(self, last: Line, box: Box) -> list[Line]:
        """``last`` and the lines of its block above it, while each is close to the next, starts
        where it starts (a label's lines are aligned) and does not end a sentence of its own."""
        same = sorted(
            (
                line
                for line in self.lines
                if line.block == last.block and line.box.y1 <= last.box.y1 and line.box.x0 < box.x1
            ),
            key=lambda line: line.box.y0,
        )
        out = [last]
        for line in reversed(same):
            if line is last or line.box.y0 >= out[0].box.y0:
                continue
            if out[0].box.y0 - line.box.y1 > 0.8 * max(line.box.height, 1.0):
                break
            if abs(line.box.x0 - out[0].box.x0) > 3 or _TERMINAL.search(line.text):
                break
            out.insert(0, line)
        return out


def reading_order(items: Iterable[T], box_of: Callable[[T], Box], page_of: Callable[[T], int]) -> list[T]:
    """``items`` top to bottom, and left to right along a row: an item whose top is above the
    middle of a row's first item is on that row (a form's fields on one line rarely share their
    exact top)."""
    by_top = sorted(items, key=lambda it: (page_of(it), box_of(it).y0, box_of(it).x0))
    keyed: list[tuple[int, int, float, T]] = []
    row, middle, page = -1, None, None
    for it in by_top:
        box = box_of(it)
        if page_of(it) != page or middle is None or box.y0 >= middle:
            row, middle, page = row + 1, max(box.cy, box.y0 + 1.0), page_of(it)
        keyed.append((page_of(it), row, box.x0, it))
    return [it for *_, it in sorted(keyed, key=lambda k: k[:3])]


_TERMINAL = re.compile(r"[?:.;)▶►]\s*$")


def _span(words: tuple[Word, ...]) -> Box:
    box = words[0].box
    for w in words[1:]:
        box = box.union(w.box)
    return box


def _joined(texts: Iterable[str]) -> str:
    """Lines joined into one text as :func:`wrapped` joins them."""
    out = ""
    for text in texts:
        out = wrapped(out, " ".join(text.split()))
    return out


def cjk(char: str) -> bool:
    """A character of Japanese (or Chinese) writing, full-width punctuation included."""
    return bool(char) and ("\u3000" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef")


def wrapped(text: str, line: str) -> str:
    """``line`` after ``text``, the line a wrapped text goes on with: after a space, but with none after
    a word broken at a hyphen ("standards-" "based") or between two characters of Japanese or Chinese
    writing, which puts no spaces between its words ("方針を" "定めていますか。")."""
    if not text or not line:
        return text or line
    return text + ("" if text.endswith("-") or cjk(text[-1]) and cjk(line[0]) else " ") + line


__all__ = [
    "BOX_GLYPHS",
    "SYMBOL_BULLETS",
    "Bands",
    "Box",
    "Line",
    "PageText",
    "Word",
    "cjk",
    "is_glyph",
    "page_lines",
    "page_widgets",
    "wrapped",
    "pdf_name",
    "reading_order",
]
