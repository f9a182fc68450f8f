"""Headings and list numbers of a Word document: which paragraphs are headings (by style name,
"Heading N" / "Title", or an outline level in the style chain) and the number Word draws before
each numbered paragraph ("3.", "1.2.a", "iv)"), counted in document order as Word counts them
(numbering set on the paragraph or by its style; a level restarts after a higher one; a list's
start values and overrides). A bullet's glyph is kept too: a list whose bullet is a box (❏, ☐)
draws options to tick (the merger-and-acquisition checklist's "Yes / No / Not available").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from engine.questionnaire.word.xmltree import W, wval

_HEADING = re.compile(r"^(?:heading|kop|titre|überschrift|titolo)\s*(\d)$", re.IGNORECASE)
BOX_BULLETS = set("☐□❏❑▢◻")
TICKED_BULLETS = set("☒☑■")


@dataclass(frozen=True)
class Level:
    fmt: str  # decimal, lowerLetter, upperRoman, bullet, none…
    text: str  # "%1.%2." or the bullet glyph
    start: int


@dataclass(frozen=True)
class ListMark:
    """What Word draws before a list paragraph: ``label`` ("3.", "1.2.a") or the bullet glyph
    (``bullet`` True); ``num_id`` / ``level`` its list."""

    num_id: str
    level: int
    label: str
    bullet: bool

    @property
    def box(self) -> bool:
        return self.bullet and (self.label in BOX_BULLETS or self.label in TICKED_BULLETS)

    @property
    def ticked(self) -> bool:
        return self.bullet and self.label in TICKED_BULLETS

    @property
    def number(self) -> str | None:
        """The label as an ID ("3", "1.2.a"), None for a bullet."""
        if self.bullet or not self.label.strip():
            return None
        return self.label.strip().rstrip(".)").strip() or None


class Styles:
    """The paragraph styles: each one's name, outline level and numbering, through ``basedOn``."""

    def __init__(self, root: etree._Element | None) -> None:
        self._styles: dict[str, etree._Element] = {}
        self.default: str | None = None
        if root is not None:
            for s in root.iter(f"{W}style"):
                if s.get(f"{W}type") in ("paragraph", None):
                    sid = s.get(f"{W}styleId") or ""
                    self._styles[sid] = s
                    if s.get(f"{W}default") in ("1", "true"):
                        self.default = sid

    def _chain(self, sid: str | None):
        seen = set()
        while sid and sid in self._styles and sid not in seen:
            seen.add(sid)
            yield self._styles[sid]
            sid = wval(self._styles[sid].find(f"{W}basedOn"))

    def name(self, sid: str | None) -> str:
        s = self._styles.get(sid or "")
        return (wval(s.find(f"{W}name"), sid) or "") if s is not None else (sid or "")

    def heading_level(self, sid: str | None) -> int | None:
        """1 for Title / Heading 1 (or outline level 0), N for Heading N; None for body text."""
        for s in self._chain(sid):
            name = (wval(s.find(f"{W}name"), "") or "").strip()
            if (
                name.lower() == "title"
                or re.search(r"title", name, re.I)
                and not re.search(r"subtitle|cover", name, re.I)
            ):
                return 1  # "Title", and a template's own title styles ("GSA Title - Not for TOC")
            m = _HEADING.match(name)
            if m:
                return int(m.group(1))
            outline = wval(s.find(f"{W}pPr/{W}outlineLvl"))
            if outline is not None and outline.isdigit() and int(outline) < 9:
                return int(outline) + 1
        if sid and _HEADING.match(sid):
            return int(_HEADING.match(sid).group(1))  # type: ignore[union-attr]
        return None

    def numbering(self, sid: str | None) -> tuple[str | None, int]:
        """(numId, ilvl) the style gives its paragraphs (None: none)."""
        for s in self._chain(sid):
            pr = s.find(f"{W}pPr/{W}numPr")
            if pr is not None:
                return wval(pr.find(f"{W}numId")), int(wval(pr.find(f"{W}ilvl"), "0") or 0)
        return None, 0


class Numbering:
    """The document's lists, and a counter that numbers their paragraphs in document order."""

    def __init__(self, root: etree._Element | None) -> None:
        self._abstract: dict[str, dict[int, Level]] = {}
        self._num: dict[str, tuple[str, dict[int, Level], dict[int, int]]] = {}
        self._counts: dict[str, dict[int, int]] = {}  # abstract list → level → current count
        self._started: set[tuple[str, int]] = set()  # (numId, level) whose start override was applied
        if root is None:
            return
        for a in root.iter(f"{W}abstractNum"):
            self._abstract[a.get(f"{W}abstractNumId") or ""] = _levels(a)
        for n in root.iter(f"{W}num"):
            abstract = wval(n.find(f"{W}abstractNumId"), "") or ""
            overrides: dict[int, Level] = {}
            starts: dict[int, int] = {}
            for o in n.findall(f"{W}lvlOverride"):
                ilvl = int(o.get(f"{W}ilvl") or 0)
                lvl = o.find(f"{W}lvl")
                if lvl is not None:
                    overrides[ilvl] = _level(lvl)
                so = wval(o.find(f"{W}startOverride"))
                if so is not None and so.lstrip("-").isdigit():
                    starts[ilvl] = int(so)
            self._num[n.get(f"{W}numId") or ""] = (abstract, overrides, starts)

    def level(self, num_id: str, ilvl: int) -> Level | None:
        if num_id not in self._num:
            return None
        abstract, overrides, _ = self._num[num_id]
        return overrides.get(ilvl) or self._abstract.get(abstract, {}).get(ilvl)

    def abstract_of(self, num_id: str) -> str | None:
        return self._num[num_id][0] if num_id in self._num else None

    def list_of(self, num_id: str) -> str:
        """The list a paragraph of ``num_id`` is an item of, as Word numbers it: the lists of one
        definition (``w:abstractNum``) continue each other's count, so they are one list, whatever
        the ``w:num`` each item names (LibreOffice saves each item of a list with its own); a
        ``w:num`` that restarts a level (``w:startOverride``) begins a list of its own."""
        if num_id not in self._num:
            return num_id
        abstract, _, starts = self._num[num_id]
        return f"num {num_id}" if starts else f"list {abstract}"

    def mark(self, num_id: str | None, ilvl: int) -> ListMark | None:
        """The mark of the next paragraph of list ``num_id`` at level ``ilvl`` (counting it)."""
        if not num_id or num_id == "0" or num_id not in self._num:
            return None
        lvl = self.level(num_id, ilvl)
        if lvl is None:
            return None
        abstract, _, starts = self._num[num_id]
        counts = self._counts.setdefault(abstract, {})  # lists of one definition continue each other…
        if ilvl in starts and (num_id, ilvl) not in self._started:  # …unless a list restarts it
            self._started.add((num_id, ilvl))
            counts[ilvl] = starts[ilvl] - 1
        counts[ilvl] = counts.get(ilvl, lvl.start - 1) + 1
        for deeper in [k for k in counts if k > ilvl]:
            del counts[deeper]
        if lvl.fmt == "bullet":
            return ListMark(num_id, ilvl, lvl.text, True)
        if lvl.fmt == "none":
            return ListMark(num_id, ilvl, "", True)

        def value(m: re.Match) -> str:
            n = int(m.group(1)) - 1
            level = self.level(num_id, n)
            count = counts.get(n, level.start if level else 1)
            return _format(count, level.fmt if level else "decimal")

        return ListMark(num_id, ilvl, re.sub(r"%(\d)", value, lvl.text), False)


def _levels(a: etree._Element) -> dict[int, Level]:
    return {int(lvl.get(f"{W}ilvl") or 0): _level(lvl) for lvl in a.findall(f"{W}lvl")}


def _level(lvl: etree._Element) -> Level:
    start = wval(lvl.find(f"{W}start"), "1") or "1"
    return Level(
        wval(lvl.find(f"{W}numFmt"), "decimal") or "decimal",
        wval(lvl.find(f"{W}lvlText"), "") or "",
        int(start) if start.lstrip("-").isdigit() else 1,
    )


def _format(n: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        s, k = "", n
        while k > 0:
            k, r = divmod(k - 1, 26)
            s = chr(97 + r) + s
        return s.upper() if fmt == "upperLetter" else s
    if fmt in ("lowerRoman", "upperRoman"):
        s = _roman(n)
        return s.upper() if fmt == "upperRoman" else s
    return str(n)


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                           (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):  # fmt: skip
        while n >= value:
            out += letters
            n -= value
    return out


def paragraph_numbering(p: etree._Element, styles: Styles) -> tuple[str | None, int]:
    """(numId, ilvl) of a paragraph: its own ``w:numPr`` first, else its style's."""
    pr = p.find(f"{W}pPr/{W}numPr")
    if pr is not None:
        num = wval(pr.find(f"{W}numId"))
        ilvl = wval(pr.find(f"{W}ilvl"))
        style_num, style_lvl = styles.numbering(wval(p.find(f"{W}pPr/{W}pStyle")))
        return (num if num is not None else style_num), int(ilvl) if ilvl and ilvl.isdigit() else style_lvl
    return styles.numbering(wval(p.find(f"{W}pPr/{W}pStyle")))


__all__ = ["BOX_BULLETS", "ListMark", "Numbering", "Styles", "paragraph_numbering"]
