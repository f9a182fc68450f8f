"""The no-other-change check of a Word questionnaire's export: the package about to be written,
read again and compared with the original, must differ only in its answer places.

* every part of the package other than the document part (and the numbering part, when a list
  item was ticked) is byte for byte the original's, in the same order;
* in the document part, every element outside the answer places is the original's (tag,
  attributes, text), in the same order; an answer place's own element (its cell, paragraph,
  content control, form field, box) may differ, and paragraphs may be added right after a place
  (an answer of several paragraphs, a question with no space for its answer) and nowhere else;
* in the numbering part, the original's elements are all there, unchanged and in order, and the
  only additions are lists (``w:num``).

The comparison reads the written bytes with a fresh parser; whole subtrees without a place are
compared in canonical form (C14N) in one step. The first difference is reported as where it is
(the paragraph's number and words, or the part) and nothing is written.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from lxml import etree

from engine.questionnaire.places import AnswerPlace, PlaceKind
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.word.package import parse_xml
from engine.questionnaire.word.xmltree import Resolver, W, one_line

_FIX = "nothing was written; report this document, it is kept as it is"


class ChangedOutsidePlaces(QuestionnaireError):
    """The export would change the document outside its answer places (nothing was written)."""


def verify(
    zin: zipfile.ZipFile,
    written: zipfile.ZipFile,
    document_part: str,
    numbering_part: str | None,
    places: list[AnswerPlace],
    source: Path,
) -> None:
    """Raise :class:`ChangedOutsidePlaces` unless the package ``written`` (read back from the bytes
    about to be written) differs from ``zin`` only in ``places`` (see the module docstring)."""
    if written.namelist() != zin.namelist():
        raise ChangedOutsidePlaces(source, "the export would add, remove or reorder parts of the package", _FIX)
    for info in zin.infolist():
        if info.filename in (document_part, numbering_part):
            continue
        if written.read(info.filename) != zin.read(info):
            raise ChangedOutsidePlaces(source, f"the export would change the part {info.filename}", _FIX)
    original = parse_xml(zin.read(document_part))
    regions, anchors = _regions(original, places)
    _same_tree(original, parse_xml(written.read(document_part)), regions, anchors, source)
    if numbering_part:
        _same_numbering(parse_xml(zin.read(numbering_part)), parse_xml(written.read(numbering_part)), source)


def _regions(root: etree._Element, places: list[AnswerPlace]) -> tuple[set, set]:
    """The elements an answer may change, and the paragraphs new ones may follow."""
    regions, anchors = set(), set()
    find = Resolver(root)
    for place in places:
        locators = [loc for _, loc in place.options] if place.kind is PlaceKind.CHECKBOXES else [place.locator]
        for loc in locators:
            el = find(loc.split("#", 1)[0])
            if el is None:
                continue
            if place.kind is PlaceKind.NEW_PARAGRAPH:
                anchors.add(el)
                continue
            if el.tag == f"{W}ffData":  # a legacy field: its paragraph's runs change
                p = _ancestor(el, f"{W}p")
                el = p if p is not None else el
            elif el.tag == f"{W}p" and place.control == "list glyph":
                el = el.find(f"{W}pPr") if el.find(f"{W}pPr") is not None else el
            regions.add(el)
            if el.tag == f"{W}p":
                anchors.add(el)
    return regions, anchors


def _ancestor(el: etree._Element, tag: str) -> etree._Element | None:
    parent = el.getparent()
    while parent is not None and parent.tag != tag:
        parent = parent.getparent()
    return parent


def _c14n(el: etree._Element) -> bytes:
    """An element's serialisation: the same for the same subtree of two parses of one part (the
    part's namespace declarations are its root's, unchanged), and far faster than C14N."""
    return etree.tostring(el, with_tail=False)


def _same_tree(a: etree._Element, b: etree._Element, regions: set, anchors: set, source: Path) -> None:
    holders = set()  # the ancestors of regions and anchors: compared element by element
    for el in regions | anchors:
        parent = el.getparent()
        while parent is not None and parent not in holders:
            holders.add(parent)
            parent = parent.getparent()
    ordinals = {p: n for n, p in enumerate(a.iter(f"{W}p"), 1)}
    _compare(a, b, regions, anchors, holders, ordinals, source)


def _compare(a, b, regions, anchors, holders, ordinals, source: Path) -> None:
    if a in regions:
        if a.tag != b.tag:
            _differs(a, ordinals, source)
        return
    if a not in holders:
        if _c14n(a) != _c14n(b):
            _differs(a, ordinals, source)
        return
    if a.tag != b.tag or dict(a.attrib) != dict(b.attrib) or (a.text or "") != (b.text or ""):
        _differs(a, ordinals, source)
    ka, kb = list(a), list(b)
    j = 0
    for i, child in enumerate(ka):
        if j >= len(kb):
            _differs(child, ordinals, source)
        _compare(child, kb[j], regions, anchors, holders, ordinals, source)
        if (kb[j].tail or "") != (child.tail or "") and child not in regions:
            _differs(child, ordinals, source)
        j += 1
        if child in anchors:  # paragraphs added after an answer place
            following = ka[i + 1] if i + 1 < len(ka) else None
            while (
                j < len(kb)
                and kb[j].tag == f"{W}p"
                and (following is None or _c14n(kb[j]) != _c14n(following))
                and not (following in regions and _same_start(kb[j], following))
            ):  # (an answer place right after: the same paragraph, its answer added)
                if len(kb) - j <= len(ka) - i - 1:
                    break
                j += 1
    if j != len(kb):
        _differs(kb[j] if j < len(kb) else a, ordinals, source, added=True)


def _same_start(written: etree._Element, original: etree._Element) -> bool:
    """Whether ``written`` is ``original`` with an answer added: its text starts with the original's
    (an answer place after a label, "Company address: ____: Acme")."""
    before = "".join(t.text or "" for t in original.iter(f"{W}t"))
    after = "".join(t.text or "" for t in written.iter(f"{W}t"))
    return bool(before.strip()) and after.startswith(before)


def _differs(el: etree._Element, ordinals: dict, source: Path, added: bool = False) -> None:
    p = el if el.tag == f"{W}p" else _ancestor(el, f"{W}p")
    p = p if p is not None else next(el.iter(f"{W}p"), None)
    where = "the document"
    if p is not None and p in ordinals:
        words = one_line("".join(t.text or "" for t in p.iter(f"{W}t")))[:60]
        where = f"paragraph {ordinals[p]}" + (f" ('{words}')" if words else "")
    elif p is not None:
        where = "a paragraph the export added" if added else "the document"
    what = "would add content" if added else "would change"
    raise ChangedOutsidePlaces(source, f"the export {what} {where}, outside the answer places", _FIX)


def _same_numbering(a: etree._Element, b: etree._Element, source: Path) -> None:
    """The written numbering: the original's elements, in order, plus added lists (``w:num``) only."""
    ids = {n.get(f"{W}numId") for n in a.findall(f"{W}num")}
    kept = [c for c in b if not (c.tag == f"{W}num" and c.get(f"{W}numId") not in ids)]
    if [_c14n(c) for c in kept] != [_c14n(c) for c in a] or (a.attrib != b.attrib):
        raise ChangedOutsidePlaces(source, "the export would change the numbering part beyond adding lists", _FIX)


__all__ = ["ChangedOutsidePlaces", "verify"]
