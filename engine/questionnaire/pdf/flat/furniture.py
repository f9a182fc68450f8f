"""A printer's running header and footer: the lines a document prints in the top or bottom margin of
most of its pages, at the same height, with the same words (their numbers aside: "Page 3 of 30").
They are the page's furniture, never a question nor a row of the table under them: a line lying
wholly in the top or bottom ``_BAND`` of the page, one phrase, found on three pages or more and on
half of the pages or more at the same height (within 2 pt), is left out of the page's text before
it is read."""

from __future__ import annotations

import re
from collections import defaultdict

from engine.questionnaire.pdf.layout import Line, PageText

_BAND = 0.07  # of the page's height: the top and bottom margins a running header or footer sits in
_NUMBER = re.compile(r"\d+")


def _key(line: Line, height: float) -> tuple[int, str] | None:
    """(height, words) of a line in the top or bottom band, or None (elsewhere, or more than one phrase)."""
    if not (line.box.y1 <= _BAND * height or line.box.y0 >= (1 - _BAND) * height):
        return None
    words = line.words
    gaps = [b.box.x0 - a.box.x1 for a, b in zip(words, words[1:])]
    if any(g > 2 * (w.box.y1 - w.box.y0) for g, w in zip(gaps, words)):
        return None  # columns of a table's header row, not one phrase
    return round(line.box.y0 / 2), " ".join(_NUMBER.sub("#", line.text.casefold()).split())


def running_lines(texts: list[tuple[PageText, float]]) -> set[tuple[int, str]]:
    """The keys of the lines repeated as a running header or footer (see the module docstring) among
    the pages' ``texts`` (each with its page's height)."""
    pages: dict[tuple[int, str], set[int]] = defaultdict(set)
    for n, (text, height) in enumerate(texts):
        for line in text.lines:
            key = _key(line, height)
            if key is not None and key[1]:
                for k in (key, (key[0] - 1, key[1]), (key[0] + 1, key[1])):
                    pages[k].add(n)
    need = max(3, (len(texts) + 1) // 2)
    return {k for k, seen in pages.items() if len(seen) >= need}


def without_running(text: PageText, height: float, running: set[tuple[int, str]]) -> tuple[PageText, tuple[Line, ...]]:
    """``text`` without its lines of a running header or footer, and the footer's lines (read with the
    page's lines after its tables: flat/lines.py reads a run of options on past a running footer)."""
    if not running:
        return text, ()
    keep = tuple(ln for ln in text.lines if _key(ln, height) not in running)
    foot = tuple(ln for ln in text.lines if ln.box.y0 >= (1 - _BAND) * height and _key(ln, height) in running)
    return PageText(keep), foot


__all__ = ["running_lines", "without_running"]
