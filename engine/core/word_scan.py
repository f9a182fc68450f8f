"""One streaming pass over the XML a Word reader parses (the main document part, found by its
relationship whatever its name, and its styles and numbering parts), before any reader builds a
tree of it (issue #56). lxml's pull parser reads the part 1 MiB at a time from the zip (the bytes
counted against the unpacked-size budget) and each element is dropped once its end is read, so
the pass holds one path from the root, never the document. It checks:

* **nesting**: how deep elements sit inside each other (tables in tables, content controls,
  hyperlinks, tracked insertions, smart tags): a reader that walks them recursively would hit
  Python's recursion limit; counted here with a stack, never by recursion;
* **paragraphs** and **table cells** of the whole file (6.6 million empty paragraphs fit in 90 kB);
* **every whole number a reader turns into a size or an index**: a cell's ``w:gridSpan``, a row's
  ``w:gridBefore`` / ``w:gridAfter`` (at most the columns its table's grid has, or the 63 Word
  allows, whichever is more), a list level ``w:ilvl`` (0–8, as in Word), a list's ``w:numId``, a
  legacy drop-down's ``w:result`` / ``w:default``, a text field's ``w:maxLength``, a check box's
  ``w14:checkedState`` glyph (a Unicode code point). A value that is no number, or one far past
  the document's real size, is refused before anything is allocated for it.

Over a limit: :class:`Over` (the caller, engine/core/limits.py, words it with the limit's flag);
an impossible value or malformed XML: :class:`~engine.core.types.UnreadableFile`.
"""

from __future__ import annotations

import re
import zipfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from engine.core.ooxml import declares_entities
from engine.core.types import UnreadableFile

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = f"{{{W_NS}}}"
W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
WORD_COLUMNS = 63  # the most columns a Word table holds
LIST_LEVELS = 9  # w:ilvl 0–8
_INT = re.compile(r"\s*[+-]?\d{1,18}\s*")  # what int() takes, at most 18 digits (int() refuses past 4,300)
_HEX = re.compile(r"\s*[0-9A-Fa-f]{1,6}\s*")
_NESTED = {  # an element that nests, in a responder's words
    "tbl": "tables",
    "sdt": "content controls",
    "hyperlink": "hyperlinks",
    "ins": "tracked insertions",
    "del": "tracked deletions",
    "smartTag": "smart tags",
    "customXml": "custom XML elements",
    "fldSimple": "fields",
    "txbxContent": "text boxes",
}
_SPANS = {  # (what the value says, what it is)
    f"{W}gridSpan": ("a cell says it spans", "a cell's column span"),
    f"{W}gridBefore": ("a row says it skips", "a row's columns skipped before it"),
    f"{W}gridAfter": ("a row says it leaves", "a row's columns left after it"),
}


@dataclass(frozen=True)
class WordBounds:
    """The limits the pass checks (engine/core/limits.py ``Limits``)."""

    nesting: int
    paragraphs: int
    table_cells: int


@dataclass(frozen=True)
class Over:
    """A limit crossed: its name in ``Limits``, what was measured, the value that would let it through."""

    limit: str
    measured: str
    needed: int | None


class _Damaged(Exception):
    """A value no reader can use (worded for the one line)."""


@dataclass
class _Count:
    paragraphs: int = 0
    cells: int = 0


def scan_word_parts(
    zf: zipfile.ZipFile, parts: Iterable[str], chunks, name: str, bounds: WordBounds, fix: str
) -> Over | None:
    """Scan ``parts`` of ``zf`` (their bytes from ``chunks(zf, info)``) against ``bounds``: the first
    limit crossed, or None; :class:`~engine.core.types.UnreadableFile` for an impossible value."""
    count = _Count()
    for part in parts:
        try:
            over = _scan(chunks(zf, zf.getinfo(part)), bounds, count)
        except _Damaged as exc:
            raise UnreadableFile(name, f"is damaged or crafted: in its part {part}, {exc}", fix) from None
        except etree.XMLSyntaxError as exc:
            line = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
            raise UnreadableFile(name, f"is damaged: its part {part} is not well-formed XML{line}", fix) from None
        if over is not None:
            return over
    return None


def _number(el: etree._Element, attr: str, what: str) -> int | None:
    value = el.get(attr)
    if value is None:
        return None
    if not _INT.fullmatch(value):
        raise _Damaged(f"{what} is {value[:40]!r}, not a whole number a document could hold")
    return int(value)


def _scan(chunks: Iterable[bytes], bounds: WordBounds, count: _Count) -> Over | None:
    parser = etree.XMLPullParser(
        events=("start", "end"), resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True
    )
    stack: list[str] = []  # the local names from the root to the element being read
    widths: list[int] = []  # the grid columns of each table being read, innermost last
    dropdowns: list[list[int]] = []  # per drop-down being read: [its items, then the chosen numbers]
    first = True
    for chunk in chunks:
        if first and declares_entities(chunk):
            return None  # refused by the reader before it parses (engine/core/ooxml.py), never expanded here
        first = False
        parser.feed(chunk)
        for event, el in parser.read_events():
            tag = el.tag if isinstance(el.tag, str) else ""
            if event == "end":
                if tag == f"{W}tbl" and widths:
                    widths.pop()
                elif tag == f"{W}ddList" and dropdowns:
                    _dropdown(dropdowns.pop())
                stack.pop()
                el.clear(keep_tail=False)  # drop what was read: the pass holds one path, never the tree
                parent = el.getparent()
                if parent is not None:
                    while el.getprevious() is not None:
                        del parent[0]
                continue
            if tag == f"{W}gridCol" and widths and stack and stack[-1] == "tblGrid":
                widths[-1] += 1
            elif tag == f"{W}ddList":
                dropdowns.append([0])
            elif tag == f"{W}listEntry" and dropdowns:
                dropdowns[-1][0] += 1
            elif tag in (f"{W}result", f"{W}default") and dropdowns:
                value = _number(el, f"{W}val", "a drop-down's chosen item")
                if value is not None:
                    dropdowns[-1].append(value)
            stack.append(tag.rsplit("}", 1)[-1])
            if len(stack) > bounds.nesting:
                return Over("nesting", _nesting_words(stack, bounds.nesting), None)
            over = _element(el, tag, widths, bounds, count)
            if over is not None:
                return over
    parser.close()
    return None


def _element(el: etree._Element, tag: str, widths: list[int], bounds: WordBounds, count: _Count) -> Over | None:
    if tag == f"{W}p":
        count.paragraphs += 1
        if count.paragraphs > bounds.paragraphs:
            return Over("paragraphs", f"has more than {bounds.paragraphs:,} paragraphs", None)
    elif tag == f"{W}tc":
        count.cells += 1
        if count.cells > bounds.table_cells:
            return Over("table_cells", f"has more than {bounds.table_cells:,} table cells", None)
    elif tag == f"{W}tbl":
        widths.append(0)
    elif tag in _SPANS:
        says, what = _SPANS[tag]
        value = _number(el, f"{W}val", what)
        most = max(widths[-1] if widths else 0, WORD_COLUMNS)
        if value is not None and not 0 <= value <= most:
            table = f"its table has {widths[-1]}" if widths and widths[-1] else "no table"
            raise _Damaged(f"{says} {value:,} columns ({table}; Word allows {WORD_COLUMNS})")
    elif tag == f"{W}ilvl":
        _level(_number(el, f"{W}val", "a list level"))
    elif tag in (f"{W}lvl", f"{W}lvlOverride"):
        _level(_number(el, f"{W}ilvl", "a list level"))
    elif tag == f"{W}numId":
        _number(el, f"{W}val", "a list number")
    elif tag == f"{W}maxLength":
        if (_number(el, f"{W}val", "a text field's length limit") or 0) < 0:
            raise _Damaged("a text field's length limit is below 0")
    elif tag in (f"{W14}checkedState", f"{W14}uncheckedState"):
        glyph = el.get(f"{W14}val")
        if glyph is not None and (not _HEX.fullmatch(glyph) or int(glyph, 16) > 0x10FFFF):
            raise _Damaged(f"a check box's mark is {glyph[:40]!r}, not a character code")
    return None


def _level(value: int | None) -> None:
    if value is not None and not 0 <= value < LIST_LEVELS:
        raise _Damaged(f"a list level is {value:,} (Word's levels are 0 to {LIST_LEVELS - 1})")


def _dropdown(counts: list[int]) -> None:
    entries, *chosen = counts
    for value in chosen:
        if not 0 <= value <= max(entries, 1):
            raise _Damaged(f"a drop-down's chosen item is number {value:,} of its {entries}")


def _nesting_words(stack: list[str], limit: int) -> str:
    """ "nests tables inside each other more than 100 levels deep" — what repeats most on the path."""
    counted = Counter(t for t in stack if t in _NESTED)
    if counted:
        what, times = counted.most_common(1)[0]
        return f"nests {_NESTED[what]} inside each other, at least {times:,} deep (its elements more than {limit:,} levels deep)"
    return f"nests its elements more than {limit:,} levels deep"


__all__ = ["LIST_LEVELS", "WORD_COLUMNS", "Over", "WordBounds", "scan_word_parts"]
