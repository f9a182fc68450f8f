"""A printer's running header and footer: the lines a document prints in the top or bottom margin of
most of its pages, at the same height, with the same words (their numbers aside: "Page 3 of 30").
They are the page's furniture, never a question nor a row of the table under them: a line lying
wholly in the top or bottom ``_BAND`` of the page, one phrase, found on three pages or more and on
half of the pages or more at the same height (within 2 pt), is left out of the page's text before
it is read.

A running header may be taller than the band (two lines, the second under it: "<<Insert name>> SYSTEM
SECURITY PLAN … Last Updated: <<Insert date>>"): the row of lines next under a page's running header
(its top nearer the header's bottom than the row is high) is part of it when each of its lines is found
so on as many pages, at the same height, with the same words, whatever its phrases, down to ``_DEPTH``
rows. A row that heads columns is not: one whose phrases after its first start where words of two
lines or more under it start (within six of its heights under the header) is the header row of a
table repeated at each page's top, the header of the table's columns, and stays one."""

from __future__ import annotations

import re
from collections import defaultdict

from engine.questionnaire.pdf.layout import Line, PageText, line_rows

_BAND = 0.07  # of the page's height: the top and bottom margins a running header or footer sits in
_DEPTH = 3  # rows of a running header under the band, at most
_NUMBER = re.compile(r"\d+")

Key = tuple[int, str]


def _words(line: Line) -> Key:
    """(height, words) of a line: its height by 2 pt, its words casefolded and their numbers as "#"."""
    return round(line.box.y0 / 2), " ".join(_NUMBER.sub("#", line.text.casefold()).split())


def _phrases(line: Line) -> list[float]:
    """Where each phrase of a line starts: its words parted where a gap is over twice a word's height."""
    words = line.words
    return [words[0].box.x0] + [b.box.x0 for a, b in zip(words, words[1:]) if b.box.x0 - a.box.x1 > 2 * a.box.height]


def _key(line: Line, height: float) -> Key | None:
    """(height, words) of a line in the top or bottom band, or None (elsewhere, or more than one phrase)."""
    if not (line.box.y1 <= _BAND * height or line.box.y0 >= (1 - _BAND) * height):
        return None
    if len(_phrases(line)) > 1:
        return None  # columns of a table's header row, not one phrase
    return _words(line)


def _repeated(pages: dict[Key, set[int]], need: int) -> set[Key]:
    return {k for k, seen in pages.items() if len(seen) >= need}


def _seen(pages: dict[Key, set[int]], key: Key, n: int) -> None:
    """Page ``n`` holds ``key`` (counted at its height and the next ones up and down: within 2 pt)."""
    for k in (key, (key[0] - 1, key[1]), (key[0] + 1, key[1])):
        pages[k].add(n)


def running_lines(texts: list[tuple[PageText, float]]) -> set[Key]:
    """The keys of the lines repeated as a running header or footer (see the module docstring) among
    the pages' ``texts`` (each with its page's height)."""
    pages: dict[Key, set[int]] = defaultdict(set)
    for n, (text, height) in enumerate(texts):
        for line in text.lines:
            key = _key(line, height)
            if key is not None and key[1]:
                _seen(pages, key, n)
    need = max(3, (len(texts) + 1) // 2)
    running = _repeated(pages, need)
    for _ in range(_DEPTH):
        under: dict[Key, set[int]] = defaultdict(set)
        for n, (text, _height) in enumerate(texts):
            for line in _next_row(text, running):
                _seen(under, _words(line), n)
        more = _repeated(under, need) - running
        if not more:
            break
        running |= more
    return running


def _next_row(text: PageText, running: set[Key]) -> list[Line]:
    """The row of lines next under the page's running header, close under it and heading no columns
    (see the module docstring), or none."""
    rows = line_rows(list(text.lines))
    k = 0
    while k < len(rows) and all(_words(ln) in running for ln in rows[k]):
        k += 1
    if k == 0 or k == len(rows):
        return []
    row, bottom = rows[k], max(ln.box.y1 for ln in rows[k - 1])
    high = max(ln.box.height for ln in row)
    if min(ln.box.y0 for ln in row) - bottom > high or all(_words(ln)[1] == "" for ln in row):
        return []
    starts = sorted(x for ln in row for x in _phrases(ln))[1:]
    below = [ln for r in rows[k + 1 :] for ln in r if ln.box.y0 <= bottom + 6 * high]
    for x in starts:
        if sum(any(abs(w.box.x0 - x) <= 2 for w in ln.words) for ln in below) >= 2:
            return []  # a table's header row: the header of its columns
    return row


def without_running(text: PageText, height: float, running: set[Key]) -> tuple[PageText, tuple[Line, ...]]:
    """``text`` without its lines of a running header or footer, and the footer's lines (read with the
    page's lines after its tables: flat/lines.py reads a run of options on past a running footer)."""
    if not running:
        return text, ()
    keep = tuple(ln for ln in text.lines if _words(ln) not in running)
    foot = tuple(ln for ln in text.lines if ln.box.y0 >= (1 - _BAND) * height and _words(ln) in running)
    return PageText(keep), foot


__all__ = ["running_lines", "without_running"]
