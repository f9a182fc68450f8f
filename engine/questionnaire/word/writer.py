"""Write answers into a copy of a Word questionnaire: only its answer places change.

Each value goes to the :class:`~engine.questionnaire.places.AnswerPlace` its pseudo-cell names
(``Questionnaire.places``), the way the document draws that place:

* an empty **table cell** or **paragraph** (or one showing a placeholder: "Click here to enter
  text.", "<Fill In>", an underscore line) gets the answer in place of its text; a cell holding
  guidance gets the answer in new paragraphs below it; a **label** ("Responsible Role:") gets it
  after itself, in its paragraph; a question with no space gets a **new paragraph** after it (its
  paragraph's properties, without its numbering);
* a **content control** keeps its tag, alias and id: its placeholder text is replaced (and
  ``showingPlcHdr`` removed), a dropdown or combo box takes one of its items, a date control its
  date (``w:fullDate`` too); a control bound to the document's custom XML is unbound, or Word would
  put the bound value back on opening;
* a legacy **FORMTEXT** field gets the answer as its result, a **FORMDROPDOWN** its index;
* **boxes** are ticked the way the document draws them: a checkbox control's ``w14:checked`` and
  its glyph (☒ from its ``checkedState``), a FORMCHECKBOX's ``w:checked``, a ☐ glyph as ☒, a list
  item whose bullet is a box through a list drawing ☒ instead (a ``w:num`` added to the numbering
  part), a Yes / No column with "X". A pick of several options ("SaaS; PaaS") ticks each.

The text takes the place's formatting: the properties of the paragraph mark (what Word types
with in an empty paragraph), never a placeholder's grey style; after a label, the label's run
without its bold or underline. Then the written package is read again and compared with the
original (engine/questionnaire/word/check.py): if anything outside the answer places differs,
nothing is written. The file is written atomically (engine/core/files.py).

One answer never refuses the others: given an ``unwritten`` list, an answer that cannot be written
(not one of a dropdown's items or a choice's options, a place no longer in the document) is left
out and listed there (:class:`~engine.questionnaire.places.Unwritten`), the others written. A one-box
question takes Yes or No: "No" leaves its box unticked (or unticks it).
"""

from __future__ import annotations

import copy
import io
import re
import zipfile
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from lxml import etree

from engine.core.files import write_atomic
from engine.core.ooxml import PackageError, copy_package
from engine.core.xml_text import xml_safe
from engine.questionnaire.places import AnswerPlace, AnswerWrite, PlaceKind, Unwritten, answer_values
from engine.questionnaire.records import Questionnaire, QuestionnaireError, picked_choices
from engine.questionnaire.word.check import verify
from engine.questionnaire.word.package import RESAVE, DeclaredEntities, main_part, parse_xml, refuse_doc, relationships
from engine.questionnaire.word.xmltree import (
    ANSWER_BOOKMARK,
    PRIVATE_BOXES,
    W14,
    W_NS,
    Resolver,
    W,
    guidance_look,
    is_blank,
    line_pieces,
    read_inline,
    sdt_kind,
    wval,
)

_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_LABEL_EMPHASIS = ("b", "bCs", "u", "caps", "smallCaps", "highlight", "shd")
_CHECKED_SYM = {"F06F": "F078", "F0A8": "F0FE", "F071": "F078"}
_YES = {"yes", "y", "x", "true", "checked", "ticked", "ja", "oui", "sí", "si", "はい", "1"}
_NO = {"no", "n", "false", "unchecked", "unticked", "off", "nee", "nein", "non", "いいえ", "0"}


class DocumentWriteError(QuestionnaireError):
    """A Word questionnaire the answers cannot be written into; nothing was written."""


def write_docx(
    questionnaire: Questionnaire,
    target: str | Path,
    writes: Iterable[AnswerWrite],
    unwritten: list[Unwritten] | None = None,
) -> Path:
    """Copy the questionnaire's document to ``target`` with each write's value put into its answer
    place (``questionnaire.places``; the last write to a place wins; see the module docstring);
    refused, with nothing written, when the check finds a change outside the answer places, or
    when a place cannot be found or written and no ``unwritten`` list is given (given one, that
    answer is listed there and the others are written)."""
    source, target = Path(questionnaire.path), Path(target)
    values, places = answer_values(writes), questionnaire.places
    refuse_doc(source, source.name)
    if target.suffix.lower() != source.suffix.lower():
        raise DocumentWriteError(target, f"the export of a {source.suffix} document must keep that extension",
                                 f"name the target *{source.suffix}")  # fmt: skip
    try:
        zin = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError):
        raise DocumentWriteError(
            source, "is not a readable Word document (damaged, cut off or not a .docx)", RESAVE
        ) from None
    with zin:
        parts = _Parts(zin, source)
        find = Resolver(parts.document)
        edits, chosen = [], []
        for key, value in values.items():
            try:
                if key not in places:
                    raise DocumentWriteError(source, f"{key} is no answer place of this document",
                                             "read the questionnaire again and draft it anew")  # fmt: skip
                _check_value(places[key], _clean(value), source)
                edits.append((key, places[key], _resolve(parts, find, key, places[key]), _clean(value)))
            except DocumentWriteError as exc:
                if unwritten is None:
                    raise
                unwritten.append(Unwritten(key, exc.problem, exc.fix))
        for key, place, elements, value in edits:
            try:  # a value its place refuses is refused before the place changes
                _write(parts, place, elements, value, source)
                chosen.append(place)
            except DocumentWriteError as exc:
                if unwritten is None:
                    raise
                unwritten.append(Unwritten(key, exc.problem, exc.fix))
        edited = parts.serialized()
        buffer = io.BytesIO()
        try:
            copy_package(zin, buffer, edited)
        except PackageError as exc:
            raise DocumentWriteError(source, str(exc), RESAVE) from None
        with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as written:  # read again what would be written
            verify(zin, written, parts.document_part, parts.numbering_part, chosen, source)
    write_atomic(target, buffer.getvalue())
    return target


class _Parts:
    """The document part (and the numbering part, when a list item is ticked) being edited."""

    def __init__(self, zin: zipfile.ZipFile, source: Path) -> None:
        lower = {n.lower(): n for n in zin.namelist()}
        try:
            self.document_part = main_part(zin, lower)
            self.document = parse_xml(zin.read(self.document_part))
            self.numbering_part = relationships(zin, lower, self.document_part).get("/numbering")
        except (KeyError, etree.XMLSyntaxError, zipfile.BadZipFile, OSError, DeclaredEntities) as exc:
            raise DocumentWriteError(source, f"is damaged ({exc})", RESAVE) from None
        self._zin = zin
        self._numbering: etree._Element | None = None
        self.source = source
        self.bookmark = max((int(b) for b in self.document.xpath("//w:bookmarkStart/@w:id", namespaces={"w": W_NS})
                             if b.isdigit()), default=0)  # fmt: skip

    @property
    def numbering(self) -> etree._Element:
        if self._numbering is None:
            if self.numbering_part is None:
                raise DocumentWriteError(self.source, "a list item to tick has no numbering part", RESAVE)
            self._numbering = parse_xml(self._zin.read(self.numbering_part))
        return self._numbering

    def serialized(self) -> dict[str, bytes]:
        out = {self.document_part: _bytes(self.document)}
        if self._numbering is not None and self.numbering_part is not None:
            out[self.numbering_part] = _bytes(self._numbering)
        return out


def _bytes(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _clean(value: str) -> str:
    return xml_safe(str(value).replace("\r\n", "\n").replace("\r", "\n")).strip()


def _resolve(parts: _Parts, find: Resolver, key: str, place: AnswerPlace) -> list[etree._Element]:
    """The elements of a place (its options' for boxes), found before anything is changed."""
    locators = [loc for _, loc in place.options] if place.kind is PlaceKind.CHECKBOXES else [place.locator]
    found = []
    for loc in locators:
        el = find(loc.split("#", 1)[0])
        if el is None:
            raise DocumentWriteError(parts.source, f"the answer place of {key} ({loc}) is not in the document",
                                     "read the questionnaire again and draft it anew")  # fmt: skip
        found.append(el)
    return found


def _check_value(place: AnswerPlace, value: str, source: Path) -> None:
    """Refuse, before anything changes, a value its place cannot take: none of a choice's options,
    or a part of a choice of several's value ("Cleaning; Laundry") that is none."""
    if place.kind is not PlaceKind.CHECKBOXES or not value or _unticks(place, value):
        return
    parts = picked_choices(value, [label for label, _ in place.options]) if len(place.options) > 1 else (value,)
    wrong = next((p.strip() for p in parts if not any(_chosen(place, p))), None)
    if wrong is not None:
        raise DocumentWriteError(source, f"'{wrong[:60]}' is none of the options "
                                 f"({', '.join(label for label, _ in place.options)})", "choose one of them")  # fmt: skip


def _write(parts: _Parts, place: AnswerPlace, elements: list[etree._Element], value: str, source: Path) -> None:
    kind = place.kind
    el = elements[0]
    if kind is PlaceKind.CHECKBOXES:
        _tick(parts, place, elements, value)
    elif not value:
        return
    elif kind is PlaceKind.TABLE_CELL:
        before = set(_own_paragraphs(el))
        _fill_cell(el, value)
        added = [p for p in _own_paragraphs(el) if p not in before]  # below the question or guidance in its cell
        _mark_answer(parts, added[0] if added else _own_paragraphs(el)[0])  # (a cell filled: still a place)
    elif kind is PlaceKind.PARAGRAPH:
        _fill_paragraph(el, value)
        _mark_answer(parts, el)  # (in a text box, or a blank line: nothing else tells it from the document's own)
    elif kind is PlaceKind.AFTER_LABEL and "#" in place.locator:
        _on_line(parts, el, int(place.locator.rsplit("#", 1)[1]), value)
    elif kind is PlaceKind.AFTER_LABEL:
        _after_label(el, value)
    elif kind is PlaceKind.NEW_PARAGRAPH:
        _insert_after(el, el, value, _first_rpr(el))
        _mark_answer(parts, el.getnext())  # nothing else tells it from guidance after the question
    elif kind is PlaceKind.CONTENT_CONTROL:
        _fill_control(el, value, place, source)
    elif kind is PlaceKind.FORM_FIELD:
        _fill_field(el, value, place, source)
    else:
        raise DocumentWriteError(source, f"cannot write a {kind.value} answer place into a Word document",
                                 "report this document")  # fmt: skip


# ------------------------------------------------------------------------------------ text


def _run(text: str, rpr: etree._Element | None) -> etree._Element:
    r = etree.Element(f"{W}r")
    if rpr is not None and len(rpr):
        r.append(copy.deepcopy(rpr))
    t = etree.SubElement(r, f"{W}t")
    t.text = text
    if text != text.strip() or "  " in text:
        t.set(_XML_SPACE, "preserve")
    return r


def _runs(text: str, rpr: etree._Element | None) -> list[etree._Element]:
    """Runs for one paragraph of text: its lines joined by line breaks."""
    out = []
    for i, line in enumerate(text.split("\n")):
        if i:
            br = etree.Element(f"{W}r")
            if rpr is not None and len(rpr):
                br.append(copy.deepcopy(rpr))
            etree.SubElement(br, f"{W}br")
            out.append(br)
        if line:
            out.append(_run(line, rpr))
    return out


def _mark_rpr(p: etree._Element) -> etree._Element | None:
    """The paragraph mark's run properties as run properties (what Word types with): no
    placeholder style, no tracked-change marks."""
    src = p.find(f"{W}pPr/{W}rPr")
    if src is None:
        return None
    rpr = etree.Element(f"{W}rPr")
    for child in src:
        if child.tag in (f"{W}ins", f"{W}del", f"{W}moveFrom", f"{W}moveTo", f"{W}rPrChange"):
            continue
        if child.tag == f"{W}rStyle" and "placeholder" in (wval(child) or "").lower():
            continue
        rpr.append(copy.deepcopy(child))
    return rpr


def _first_rpr(p: etree._Element, emphasis: bool = True) -> etree._Element | None:
    """The run properties of the first run with text in ``p`` (without bold or underline when
    ``emphasis`` is False): the question's or label's look, for text written after it."""
    for r in p.iter(f"{W}r"):
        if r.find(f"{W}t") is not None:
            rpr = r.find(f"{W}rPr")
            if rpr is None:
                return None
            rpr = copy.deepcopy(rpr)
            for child in list(rpr):
                if child.tag == f"{W}rStyle" and "placeholder" in (wval(child) or "").lower():
                    rpr.remove(child)
                elif not emphasis and etree.QName(child).localname in _LABEL_EMPHASIS:
                    rpr.remove(child)
            return rpr
    return _mark_rpr(p)


def _replace_content(p: etree._Element, text: str, rpr: etree._Element | None) -> None:
    """``p`` holding only ``text`` (its paragraph properties kept; its runs, placeholder or
    underscore line, replaced)."""
    for child in list(p):
        if child.tag != f"{W}pPr":
            p.remove(child)
    for r in _runs(text, rpr):
        p.append(r)


def _paragraphs_of(text: str) -> list[str]:
    return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()] or [text]


def _fill_paragraph(p: etree._Element, value: str) -> None:
    """An empty (or placeholder) paragraph: the answer in it, more paragraphs after it."""
    rpr = _mark_rpr(p)
    blocks = _paragraphs_of(value)
    _replace_content(p, blocks[0], rpr)
    anchor = p
    for block in blocks[1:]:
        anchor = _insert_after(anchor, p, block, rpr)


def _new_paragraph(like: etree._Element, text: str, rpr: etree._Element | None) -> etree._Element:
    """A paragraph with ``like``'s properties (no numbering, section break or page break) holding ``text``."""
    p = etree.Element(f"{W}p")
    ppr = like.find(f"{W}pPr")
    if ppr is not None:
        ppr = copy.deepcopy(ppr)
        for tag in ("numPr", "sectPr", "pageBreakBefore", "pPrChange"):
            for child in ppr.findall(f"{W}{tag}"):
                ppr.remove(child)
        rmark = ppr.find(f"{W}rPr")
        if rmark is not None:
            for child in list(rmark):
                if child.tag in (f"{W}ins", f"{W}del", f"{W}moveFrom", f"{W}moveTo", f"{W}rPrChange"):
                    rmark.remove(child)
        if like.find(f"{W}pPr/{W}pStyle") is not None and _styled_list(like):
            num = etree.SubElement(ppr, f"{W}numPr")  # the style numbers its paragraphs: not this one (a list
            # item's own numbering removed above, its style's would number the answer as the next item)
            etree.SubElement(num, f"{W}ilvl").set(f"{W}val", "0")
            etree.SubElement(num, f"{W}numId").set(f"{W}val", "0")
            _order_ppr(ppr)
        p.append(ppr)
    for r in _runs(text, rpr):
        p.append(r)
    return p


def _styled_list(p: etree._Element) -> bool:
    style = (wval(p.find(f"{W}pPr/{W}pStyle")) or "").lower()
    return "list" in style or "number" in style or "bullet" in style


_PPR_ORDER = [
    "pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr", "suppressLineNumbers",
    "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap", "overflowPunct", "topLinePunct",
    "autoSpaceDE", "autoSpaceDN", "bidi", "adjustRightInd", "snapToGrid", "spacing", "ind", "contextualSpacing",
    "mirrorIndents", "suppressOverlap", "jc", "textDirection", "textAlignment", "textboxTightWrap",
    "outlineLvl", "divId", "cnfStyle", "rPr", "sectPr", "pPrChange",
]  # fmt: skip


def _order_ppr(ppr: etree._Element) -> None:
    """Paragraph properties in the schema's order (Word refuses a file with them out of order)."""
    rank = {name: i for i, name in enumerate(_PPR_ORDER)}
    children = sorted(ppr, key=lambda c: rank.get(etree.QName(c).localname, len(rank)))
    for child in children:
        ppr.append(child)


def _insert_after(
    anchor: etree._Element, like: etree._Element, value: str, rpr: etree._Element | None
) -> etree._Element:
    """New paragraphs holding ``value`` after ``anchor`` (a paragraph); the last one inserted."""
    for block in _paragraphs_of(value):
        p = _new_paragraph(like, block, rpr)
        anchor.addnext(p)
        anchor = p
    return anchor


def _own_paragraphs(container: etree._Element) -> list[etree._Element]:
    """A cell's or control's paragraphs, without those of nested tables."""
    out = []
    for p in container.iter(f"{W}p"):
        parent, nested = p.getparent(), False
        while parent is not None and parent is not container:
            if parent.tag == f"{W}tbl":
                nested = True
                break
            parent = parent.getparent()
        if not nested:
            out.append(p)
    return out


def _fill_cell(tc: etree._Element, value: str) -> None:
    """A blank cell: the answer in its first paragraph; a cell of guidance: below it; a cell already
    holding an answer (or marks): the answer in place of its text."""
    paragraphs = _own_paragraphs(tc)
    texts = [read_inline(p).text for p in paragraphs]
    if all(is_blank(t) for t in texts):
        for extra in paragraphs[1:]:
            if not texts[paragraphs.index(extra)].strip():
                continue
            _replace_content(extra, "", None)  # a second placeholder line ("<Copy and Paste this Row…>")
        _fill_paragraph(paragraphs[0], value)
        return
    last = paragraphs[-1]
    rpr = _mark_rpr(last) if not texts[-1].strip() else _first_rpr(last, emphasis=False)
    for el in guidance_look(rpr):  # not in the guidance's italics or grey: it would read as more guidance
        rpr.remove(el)
    _insert_after(last, last, value, rpr)


def _after_label(p: etree._Element, value: str) -> None:
    """The answer after a label ("Responsible Role: CISO"), in the label's paragraph."""
    text = read_inline(p).text
    rpr = _first_rpr(p, emphasis=False)
    runs = _runs(value.replace("\n\n", "\n"), rpr)
    colon = text.rstrip().endswith(":")
    if runs and (not colon or not text.endswith((" ", "\t"))):  # "Parameter PE-14(b) " too: the colon ends the label
        t = runs[0].find(f"{W}t")
        t.text = (" " if colon else ": ") + t.text
        t.set(_XML_SPACE, "preserve")
    for r in runs:
        p.append(r)


_UNDERSCORES = re.compile(r"_{5,}")


def _mark_answer(parts: _Parts, p: etree._Element) -> None:
    """A hidden bookmark (xmltree.ANSWER_BOOKMARK) around the text of ``p``, an answer written
    where the document drew no place: a new paragraph, a text box."""
    parts.bookmark += 1
    n = str(parts.bookmark)
    start = etree.Element(f"{W}bookmarkStart", {f"{W}id": n, f"{W}name": f"{ANSWER_BOOKMARK}{n}"})
    ppr = p.find(f"{W}pPr")
    p.insert(p.index(ppr) + 1 if ppr is not None else 0, start)
    p.append(etree.Element(f"{W}bookmarkEnd", {f"{W}id": n}))


def _on_line(parts: _Parts, p: etree._Element, n: int, value: str) -> None:
    """The answer on the paragraph's n-th underscore line ("Bank Name______ Account Name______"), an
    answer written there before counting as its line: in a run of its own (the line's run's look) in
    place of the line's underscores, inside an answer bookmark (how the reader finds it there again);
    an answer written before is replaced. No such line: after the label."""
    pieces = line_pieces(p)
    starts, at = [], 0
    for text, _, _ in pieces:
        starts.append(at)
        at += len(text)
    lines = list(_UNDERSCORES.finditer("".join(text for text, _, _ in pieces)))
    if n >= len(lines):
        _after_label(p, value)
        return
    start, end = lines[n].span()
    answer = " ".join(value.split())
    for (text, el, written), at in zip(pieces, starts):
        if written is not None and at == start:  # an answer written there before: replaced
            _replace_marked(el, answer)
            return
    first = True
    for (text, t, written), at in zip(pieces, starts):
        lo, hi = max(start - at, 0), min(end - at, len(text))
        if written is not None or lo >= hi:
            continue
        if not first:  # the rest of a line drawn over several runs
            t.text = text[:lo] + text[hi:]
            continue
        first = False
        run = t.getparent()
        rpr = run.find(f"{W}rPr")
        after = etree.Element(f"{W}r")
        if rpr is not None:
            after.append(copy.deepcopy(rpr))
        rest = etree.SubElement(after, f"{W}t")
        rest.text = text[hi:]
        rest.set(_XML_SPACE, "preserve")
        for sibling in list(t.itersiblings()):  # what the run holds after the line goes with the rest
            after.append(sibling)
        t.text = text[:lo]
        t.set(_XML_SPACE, "preserve")
        said = _runs(f" {answer} ", copy.deepcopy(rpr) if rpr is not None else None)
        parts.bookmark += 1
        mark = str(parts.bookmark)
        anchor = run
        for el in [etree.Element(f"{W}bookmarkStart", {f"{W}id": mark, f"{W}name": f"{ANSWER_BOOKMARK}{mark}"}),
                   *said, etree.Element(f"{W}bookmarkEnd", {f"{W}id": mark}), after]:  # fmt: skip
            anchor.addnext(el)
            anchor = el


def _replace_marked(start: etree._Element, answer: str) -> None:
    """The runs inside an answer bookmark (from ``start``) hold ``answer`` instead."""
    texts, el = [], start.getnext()
    while el is not None and not (el.tag == f"{W}bookmarkEnd" and el.get(f"{W}id") == start.get(f"{W}id")):
        texts += list(el.iter(f"{W}t"))
        el = el.getnext()
    for n, t in enumerate(texts):
        t.text = f" {answer} " if n == 0 else ""
        t.set(_XML_SPACE, "preserve")


# -------------------------------------------------------------------------------- controls


def _fill_control(sdt: etree._Element, value: str, place: AnswerPlace, source: Path) -> None:
    kind = sdt_kind(sdt)
    pr = sdt.find(f"{W}sdtPr")
    content = sdt.find(f"{W}sdtContent")
    if content is None:
        raise DocumentWriteError(source, f"the content control at {place.locator} has no content", RESAVE)
    if kind == "dropdown":
        items = _items(pr)
        match = next((i for i in items if i.casefold() == value.casefold()), None)
        if match is None:
            raise DocumentWriteError(source, f"'{value[:60]}' is not one of the dropdown's items ({', '.join(items)})",
                                     "choose one of its items")  # fmt: skip
        value = match
    for s in sdt.iter(f"{W}sdtPr"):  # the control and the controls inside it show an answer now
        for flag in s.findall(f"{W}showingPlcHdr"):
            s.remove(flag)
        for binding in s.findall(f"{W}dataBinding"):
            s.remove(binding)  # bound to custom XML: Word would restore the bound value over the answer
    if kind == "date" and pr is not None:
        _set_date(pr.find(f"{W}date"), value)
    if content.find(f"{W}tc") is not None:
        _fill_cell(content.find(f"{W}tc"), value)
        return
    paragraphs = _own_paragraphs(content)
    if paragraphs:
        rpr = _mark_rpr(paragraphs[0])
        first = paragraphs[0]
        for extra in paragraphs[1:]:
            extra.getparent().remove(extra)
        blocks = _paragraphs_of(value) if kind == "rich text" else [value]
        _replace_content(first, blocks[0], rpr)
        anchor = first
        for block in blocks[1:]:
            anchor = _insert_after(anchor, first, block, rpr)
        return
    rpr = _first_rpr(content)
    for child in list(content):
        content.remove(child)
    for r in _runs(value, rpr):
        content.append(r)


def _items(pr: etree._Element | None) -> list[str]:
    if pr is None:
        return []
    box = pr.find(f"{W}dropDownList")
    box = box if box is not None else pr.find(f"{W}comboBox")
    if box is None:
        return []
    return [(i.get(f"{W}displayText") or i.get(f"{W}value") or "") for i in box.findall(f"{W}listItem")]


def _set_date(el: etree._Element | None, value: str) -> None:
    if el is None:
        return
    day = _parse_date(value)
    if day is not None:
        el.set(f"{W}fullDate", f"{day.isoformat()}T00:00:00Z")


def _parse_date(value: str) -> date | None:
    from datetime import datetime

    for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%d/%m/%Y", "%d-%m-%Y", "%B %d, %Y", "%d %B %Y"):
        try:
            return datetime.strptime(value.strip(), fmt).date()
        except ValueError:
            continue
    return None


def _fill_field(ff: etree._Element, value: str, place: AnswerPlace, source: Path) -> None:
    """A legacy form field: FORMTEXT's result runs replaced, FORMDROPDOWN's index set."""
    dd = ff.find(f"{W}ddList")
    if dd is not None:
        entries = [wval(e, "") or "" for e in dd.findall(f"{W}listEntry")]
        index = next((i for i, e in enumerate(entries) if e.casefold() == value.casefold()), None)
        if index is None:
            raise DocumentWriteError(source, f"'{value[:60]}' is not one of the field's entries ({', '.join(entries)})",
                                     "choose one of its entries")  # fmt: skip
        result = dd.find(f"{W}result")
        if result is None:
            result = etree.Element(f"{W}result")
            dd.insert(0, result)
        result.set(f"{W}val", str(index))
        runs = _field_runs(ff.getparent().getparent())
        if runs is not None and runs[1]:  # the entry it showed, drawn in its result: the one picked now
            _replace_result(runs, entries[index])
        return
    begin_run = ff.getparent().getparent()  # w:r / w:fldChar / w:ffData
    runs = _field_runs(begin_run)
    if runs is None:
        raise DocumentWriteError(source, f"the form field at {place.locator} has no result to write into", RESAVE)
    _replace_result(runs, value, begin_run)


def _replace_result(runs, value: str, begin_run: etree._Element | None = None) -> None:
    """A field's result runs (``runs``: :func:`_field_runs`) replaced by ``value`` in their look."""
    separate, results, end = runs
    rpr = _first_rpr(results[0]) if results else (begin_run.find(f"{W}rPr"))
    for r in results:
        r.getparent().remove(r)
    anchor = separate
    for r in _runs(value, rpr):
        anchor.addnext(r)
        anchor = r


def _field_runs(begin: etree._Element):
    """(separate run, result runs, end run) of the complex field that ``begin`` opens."""
    depth, separate, results = 0, None, []
    node = begin.getnext()
    while node is not None:
        fc = node.find(f"{W}fldChar") if node.tag == f"{W}r" else None
        kind = fc.get(f"{W}fldCharType") if fc is not None else None
        if kind == "begin":
            depth += 1
        elif kind == "separate" and depth == 0:
            separate = node
        elif kind == "end":
            if depth == 0:
                return (separate, results, node) if separate is not None else None
            depth -= 1
        elif separate is not None and node.tag == f"{W}r":
            results.append(node)
        node = node.getnext()
    return None


# ----------------------------------------------------------------------------------- boxes


def _chosen(place: AnswerPlace, value: str) -> list[bool]:
    """Which options ``value`` picks: a label, several ("SaaS; PaaS"), or Yes / No for one box. "In
    Place" picks "In Place", never "In Place with CCW" too: a label is matched as written first,
    and a beginning only when it begins one label alone."""
    labels = [label for label, _ in place.options]
    wanted = [v.strip().casefold() for v in picked_choices(value, labels)]  # a label may hold "; "
    if len(labels) == 1:
        return [bool(wanted) and (wanted[0] in _YES or wanted[0] == labels[0].casefold())]
    keys = [label.casefold() for label in labels]
    picks = [False] * len(labels)
    for w in wanted:  # a label as written, else the one label it starts ("Partially" of "Partially implemented")
        starts = [i for i, key in enumerate(keys) if key == w] or [
            i for i, key in enumerate(keys) if len(w) >= 3 and key.startswith(w)
        ]
        if len(starts) == 1 or (starts and keys[starts[0]] == w):
            for i in starts:
                picks[i] = True
    return picks


def _unticks(place: AnswerPlace, value: str) -> bool:
    """Whether ``value`` is a one-box question's No (its box left or made unticked)."""
    return len(place.options) == 1 and value.strip().casefold() in _NO


def _tick(parts: _Parts, place: AnswerPlace, elements: list[etree._Element], value: str) -> None:
    _check_value(place, value, parts.source)
    picks = _chosen(place, value)
    for (label, loc), el, on_ in zip(place.options, elements, picks):
        control = _box_of(el, place.control)
        if control == "checkbox":
            _tick_control(el, on_)
        elif control == "FORMCHECKBOX":
            _tick_field(el, on_)
        elif control == "glyph":
            _tick_glyph(el, loc, on_)
        elif control == "list glyph":
            _tick_list_item(parts, el, on_)
        elif control == "X column":
            _mark_cell(el, on_)


def _box_of(el: etree._Element, control: str | None) -> str | None:
    """The kind of one box as its own element draws it: a row may mix kinds (a "☐" typed beside
    FORMCHECKBOX fields, a content control among glyphs), each ticked its own way."""
    if el.tag == f"{W}ffData":
        return "FORMCHECKBOX"
    if el.tag == f"{W}sdt" and el.find(f"{W}sdtPr/{W14}checkbox") is not None:
        return "checkbox"
    if el.tag in (f"{W}t", f"{W}sym") and control in ("checkbox", "FORMCHECKBOX", "glyph"):
        return "glyph"
    return control


def _tick_control(sdt: etree._Element, on_: bool) -> None:
    box = sdt.find(f"{W}sdtPr/{W14}checkbox")
    checked = box.find(f"{W14}checked")
    if checked is None:
        checked = etree.Element(f"{W14}checked")
        box.insert(0, checked)
    was = wval(checked, "1") not in ("0", "false")
    if was == on_:
        return
    checked.set(f"{W14}val", "1" if on_ else "0")
    state = box.find(f"{W14}checkedState" if on_ else f"{W14}uncheckedState")
    glyph = (
        chr(int(state.get(f"{W14}val"), 16)) if state is not None and state.get(f"{W14}val") else ("☒" if on_ else "☐")
    )
    content = sdt.find(f"{W}sdtContent")
    for t in content.iter(f"{W}t"):
        t.text = glyph
        break
    for sym in content.iter(f"{W}sym"):
        if state is not None:
            sym.set(f"{W}char", state.get(f"{W14}val", ""))
        break


def _tick_field(ff: etree._Element, on_: bool) -> None:
    box = ff.find(f"{W}checkBox")
    checked = box.find(f"{W}checked")
    if checked is None:
        checked = etree.Element(f"{W}checked")
        default = box.find(f"{W}default")
        if default is not None:
            default.addnext(checked)
        else:
            box.append(checked)
    checked.set(f"{W}val", "1" if on_ else "0")


def _tick_glyph(el: etree._Element, loc: str, on_: bool) -> None:
    if el.tag == f"{W}sym":
        char = (el.get(f"{W}char") or "").upper()
        if on_ and char in _CHECKED_SYM:
            el.set(f"{W}char", _CHECKED_SYM[char])
        elif not on_:
            back = {v: k for k, v in _CHECKED_SYM.items()}
            if char in back:
                el.set(f"{W}char", back[char])
        return
    offset = int(loc.rsplit("#", 1)[1]) if "#" in loc else 0
    text = el.text or ""
    if offset < len(text):
        was = text[offset]
        private = {v: k for k, v in PRIVATE_BOXES.items()}
        if was in PRIVATE_BOXES or was in private:  # a Wingdings box: its own font's ticked box
            mark = PRIVATE_BOXES.get(was, was) if on_ else private.get(was, was)
        else:
            mark = "☒" if on_ else "☐"
        el.text = text[:offset] + mark + text[offset + 1 :]


def _tick_list_item(parts: _Parts, p: etree._Element, on_: bool) -> None:
    """A list item whose bullet is a box: drawn by a list whose bullet at its level is ☒."""
    if not on_:
        return  # the blank questionnaire's items are all unticked: nothing to undo
    num_pr = p.find(f"{W}pPr/{W}numPr")
    if num_pr is None:
        return
    num_id = wval(num_pr.find(f"{W}numId"))
    ilvl = wval(num_pr.find(f"{W}ilvl"), "0") or "0"
    new_id = _ticked_list(parts, num_id, ilvl)
    num_pr.find(f"{W}numId").set(f"{W}val", new_id)


def _ticked_list(parts: _Parts, num_id: str | None, ilvl: str) -> str:
    """The id of a list like ``num_id`` whose bullet at ``ilvl`` is ☒ (added once per list and level)."""
    numbering = parts.numbering
    cache = parts.__dict__.setdefault("_ticked", {})
    if (num_id, ilvl) in cache:
        return cache[(num_id, ilvl)]
    num = next((n for n in numbering.findall(f"{W}num") if n.get(f"{W}numId") == num_id), None)
    if num is None:
        raise DocumentWriteError(
            parts.source, f"the list {num_id} of a box to tick is not in the numbering part", RESAVE
        )
    abstract_id = wval(num.find(f"{W}abstractNumId"))
    abstract = next(a for a in numbering.findall(f"{W}abstractNum") if a.get(f"{W}abstractNumId") == abstract_id)
    level = next((lv for lv in abstract.findall(f"{W}lvl") if (lv.get(f"{W}ilvl") or "0") == ilvl), None)
    ids = [int(n.get(f"{W}numId") or 0) for n in numbering.findall(f"{W}num")]
    new_id = str(max(ids, default=0) + 1)
    new = etree.Element(f"{W}num")
    new.set(f"{W}numId", new_id)
    etree.SubElement(new, f"{W}abstractNumId").set(f"{W}val", abstract_id or "0")
    if level is not None:
        override = etree.SubElement(new, f"{W}lvlOverride")
        override.set(f"{W}ilvl", ilvl)
        lvl = copy.deepcopy(level)
        lvl_text = lvl.find(f"{W}lvlText")
        if lvl_text is not None:
            lvl_text.set(f"{W}val", "☒")
        override.append(lvl)
    cleanup = numbering.find(f"{W}numIdMacAtCleanup")
    if cleanup is not None:
        cleanup.addprevious(new)
    else:
        numbering.append(new)
    cache[(num_id, ilvl)] = new_id
    return new_id


def _mark_cell(tc: etree._Element, on_: bool) -> None:
    paragraphs = _own_paragraphs(tc)
    if not paragraphs:  # a cell with no paragraph (Word accepts it): a mark gets one of its own
        if on_:
            _replace_content(etree.SubElement(tc, f"{W}p"), "X", None)
        return
    text = "".join(read_inline(p).text for p in paragraphs).strip()
    if on_ and not text:
        _replace_content(paragraphs[0], "X", _mark_rpr(paragraphs[0]))
    elif not on_ and text.casefold() in ("x", "✓", "✔"):
        _replace_content(paragraphs[0], "", None)


__all__ = ["DocumentWriteError", "write_docx"]
