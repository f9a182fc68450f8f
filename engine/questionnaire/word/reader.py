"""Read a Word questionnaire (.docx, .docm): which parts of the document are questions and where
each answer goes (engine/questionnaire/places.py).

The body is read in order, its headings giving each question its section:

* **Tables** (engine/questionnaire/word/tables.py): question and answer columns, forms, a
  question row over its answer row, lists of boxes, one row to fill under a header; tables
  nested in a cell are read as tables of their own.
* **Paragraphs that ask** (a question mark, or an asking verb: Describe, Provide, List,
  Explain, Indicate…) and are numbered or bulleted, or are followed by a place for the answer
  (a one-cell table, a content control, two or more empty paragraphs) or by the items they
  list; without a place, the answer goes in a new paragraph inserted after the question (after
  its items). A label ending with a colon over a blank line ("Name of ICT Item:" over
  "______") is a question too, and so is a label ended by a text control or form field.
* **Boxes**: "☐ Yes ☐ No" in one paragraph is a choice; a run of paragraphs each starting with
  a box is one choice under a prompt that asks for one ("Check one."), else a question per box
  (kind ``checkbox``).
* **A qualifier stated apart**: a paragraph that only says what an answer skips ("If No, skip to
  section 4.", "If you answered No, go to question 12") right after a question is part of that
  question's text, where the qualifier rules read it (engine/questionnaire/qualifiers.py).

The text of a content control inside a question's sentence is part of the question's text
("Does [CSP Name] have …"). A question's ID is the document's own numbering: an ID cell of its
row, the number Word draws before its paragraph, or a number its text starts with.

Corrections a reviewer made (:class:`~engine.questionnaire.sheet.reader.ReadOptions` ``exclude``,
``include``, ``like``) are applied here: questions left out by key, paragraphs added by their
number, and the paragraphs like an example question (same style and list, or same table column)
added.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from engine.core.limits import Limits
from engine.questionnaire.corrections import TableMap, corrected_questions
from engine.questionnaire.cues import asks_one, asks_several, takes_several
from engine.questionnaire.length_limits import limited, stated_limit
from engine.questionnaire.placeholders import repeated_placeholders
from engine.questionnaire.places import DOCUMENT_SHEET, AnswerPlace, PlaceKind, place_key
from engine.questionnaire.qualifiers import states_skip
from engine.questionnaire.records import Question, Questionnaire, QuestionnaireError, ReadOptions, SheetLayout
from engine.questionnaire.word.found import (
    LEADING_ID,
    Found,
    asks,
    ends_with_colon,
    is_instruction,
    is_label,
    without_translator_note,
)
from engine.questionnaire.word.lists import ListMark, Numbering, Styles, paragraph_numbering
from engine.questionnaire.word.package import DocxPackage, open_docx, style_of
from engine.questionnaire.word.places import (
    after_label_place,
    boxes_place,
    cell_place,
    control_place,
    label_of,
    new_paragraph_place,
    paragraph_place,
)
from engine.questionnaire.word.tables import TableContext, header_above, header_table, table_questions
from engine.questionnaire.word.xmltree import (
    Cell,
    Grid,
    Inline,
    W,
    blocks,
    clean,
    forget_locations,
    grid,
    is_blank,
    line_pieces,
    locator,
    one_line,
    read_inline,
    written_answer,
)

_ASKS_END = re.compile(r"\?\s*$")
_SPACE = re.compile(r"\bin the space (?:that follows|below|provided)\b", re.I)
_FRONT_MATTER = re.compile(r"^(?:version|v|date|revision|rev|datum|versie|page|pagina)\.?$", re.I)
# a heading's style on a sentence of prose (twelve words or more, ending in a full stop: Charnwood's
# "N.B. Tenders, cannot be opened until after the deadline has expired, …"): no section's title, and
# not read as a question either, as before
_PROSE = re.compile(r"^(?:\S+\s+){11,}.*[^.][.。]$")
_SKIP_STYLES = re.compile(r"^(?:toc|tableoffigures|caption|header|footer|title|subtitle)", re.I)
NO_SPACE = "a new paragraph after the question: the document leaves no space for the answer"
SKIP_REACH = 4  # paragraphs (the question's, its boxes, a blank line) between a question and its skip instruction


@dataclass
class _Para:
    el: etree._Element
    ordinal: int
    mark: ListMark | None
    heading: int | None
    style: str
    list_id: str | None = None  # the list it is an item of (Numbering.list_of), even one Word draws nothing for
    inline: Inline | None = None

    @property
    def read(self) -> Inline:
        if self.inline is None:
            self.inline = read_inline(self.el)
        return self.inline

    @property
    def line(self) -> str:
        return one_line(self.read.text)


@dataclass
class _Doc:
    pkg: DocxPackage
    styles: Styles
    paras: dict[etree._Element, _Para]
    found: list[Found] = field(default_factory=list)
    claimed: set[etree._Element] = field(default_factory=set)  # blocks taken as an answer place
    notes: list[str] = field(default_factory=list)
    section: list[str] = field(default_factory=list)
    options: ReadOptions = field(default_factory=ReadOptions)  # the responder's corrections (tables: by index)
    tables: list[TableMap] = field(default_factory=list)  # the tables read by columns
    table_count: int = 0

    def key_of(self, el: etree._Element) -> str:
        """The key a question whose first paragraph is ``el`` gets (``Document!A12``)."""
        para = self.paras.get(el)
        return f"{DOCUMENT_SHEET}!A{para.ordinal}" if para is not None else ""

    def section_path(self) -> str | None:
        return " > ".join(self.section) or None

    def glyph_boxes(self, cell: Cell) -> list[tuple[etree._Element, str, bool]]:
        """The paragraphs of a cell whose bullet Word draws as a box, with their labels and
        whether the box is ticked (☒)."""
        out = []
        for p in cell.own_paragraphs():
            para = self.paras.get(p)
            if para is not None and para.mark is not None and para.mark.box and para.line:
                out.append((p, para.line, para.mark.ticked))
        return out if len(out) >= 2 else []


def read_docx(path: Path, options: ReadOptions, limits: Limits) -> Questionnaire:
    """The questions of a Word questionnaire (see the module docstring)."""
    pkg = open_docx(path, limits)
    doc = _index(pkg)
    doc.options = options
    body = pkg.document.find(f"{W}body")
    try:
        flow = blocks(body)
        _walk(doc, flow)
        _text_box_places(doc, flow)
        found = _corrected(doc, options)
    finally:
        forget_locations()  # the places hold their locators; the tree is not kept
    shipped = repeated_placeholders(f.existing_answer for f in found)
    for f in found:  # the same words in many answer places: shipped with the form, not answered
        if f.existing_answer and " ".join(f.existing_answer.split()) in shipped:
            f.existing_answer = None
    questions, places = _questions(doc, found)
    questions, places = corrected_questions(questions, places, options.questions)
    if not questions:
        raise QuestionnaireError(
            path.name,
            "no questions found (no table of questions, no numbered question, no field to fill in)",
            "add the questions by hand on the Questionnaire screen (or --include PARAGRAPH), or ask the customer "
            "for the questionnaire as a spreadsheet",
        )
    lists = Counter(q.choices for q in questions if q.choices)
    layout = SheetLayout(
        sheet=DOCUMENT_SHEET,
        header_row=None,
        question_col="A",
        id_col=None,
        answer_col="C",
        comment_col=None,
        choices=lists.most_common(1)[0][0] if lists else (),
        questions=tuple(questions),
    )
    answered = sum(q.answered for q in questions)
    notes = pkg.notes + doc.notes
    if answered:
        notes.append(f"{answered} questions already answered in the document are kept (not drafted again)")
    return Questionnaire(path=path, sheets=(layout,), notes=tuple(notes), places=places, tables=tuple(doc.tables))


def _index(pkg: DocxPackage) -> _Doc:
    """Every paragraph of the document with its ordinal, list mark and heading level."""
    styles = Styles(pkg.styles)
    numbering = Numbering(pkg.numbering)
    paras: dict[etree._Element, _Para] = {}
    for n, p in enumerate(pkg.document.iter(f"{W}p"), 1):
        style = style_of(p) or (styles.default or "")
        num, ilvl = paragraph_numbering(p, styles)
        mark = numbering.mark(num, ilvl)
        listed = numbering.list_of(num) if num and num != "0" else None
        paras[p] = _Para(p, n, mark, styles.heading_level(style) if style else None, style, listed)
    return _Doc(pkg, styles, paras)


# ------------------------------------------------------------------------------- the walk


def _walk(doc: _Doc, flow: list[etree._Element]) -> None:
    flow[:] = _unframed(flow)
    i = 0
    header: tuple[list, str, Grid | None] | None = None  # a table that is the header of the next one, its caption
    while i < len(flow):
        el = flow[i]
        if el in doc.claimed:
            i += 1
            continue
        if el.tag == f"{W}tbl":
            before = header[1] if header else _before(doc, flow, i)
            below = _table_below(doc, flow, i)
            ctx = TableContext(None, glyph_boxes=doc.glyph_boxes)
            head = header_above(el, below, ctx) if below is not None else None
            rows = header_table(el, below, ctx) if below is not None and head is None else None
            if head is not None or rows is not None:  # only the header of the table below: read with it
                doc.notes.append(f"table {doc.table_count + 1} is the header of the table below it: read with it")
                doc.table_count += 1
                header = (head or [], before, rows)
            else:
                _table(doc, el, before, header[0] if header else [], header[2] if header else None)
                header = None
            i += 1
            continue
        i = _paragraph(doc, flow, i)


def _unframed(flow: list[etree._Element]) -> list[etree._Element]:
    """The blocks with each one-cell layout table around tables (:func:`_frame`) replaced by its
    blocks: a question before the frame sees the table in it as the block after it."""
    out: list[etree._Element] = []
    for el in flow:
        out += _unframed(blocks(grid(el).rows[0][0].el)) if el.tag == f"{W}tbl" and _frame(el) else [el]
    return out


def _frame(tbl: etree._Element) -> bool:
    """A table of one cell that holds tables and nothing else but empty paragraphs (a form's frame)."""
    g = grid(tbl)
    if len(g.rows) != 1 or len(g.rows[0]) != 1:
        return False
    inside = blocks(g.rows[0][0].el)
    return any(b.tag == f"{W}tbl" for b in inside) and all(
        b.tag == f"{W}tbl" or (b.tag == f"{W}p" and not read_inline(b).text.strip() and b.find(f".//{W}sdt") is None)
        for b in inside
    )


def _table_below(doc: _Doc, flow: list[etree._Element], i: int) -> etree._Element | None:
    """The table right after block i (one empty paragraph between allowed)."""
    for j in (i + 1, i + 2):
        if j < len(flow) and flow[j].tag == f"{W}tbl":
            return flow[j]
        if j >= len(flow) or flow[j].tag != f"{W}p" or doc.paras[flow[j]].line:
            return None
    return None


def _before(doc: _Doc, flow: list[etree._Element], i: int) -> str:
    """The text just before block i: a caption or a prompt ("Check one."), if close: the paragraph
    before it, or before the empty lines an author left between them (three at most)."""
    empty = 0
    for j in range(i - 1, -1, -1):
        el = flow[j]
        if el.tag != f"{W}p":
            return ""
        para = doc.paras[el]
        if para.heading is not None:
            return ""
        if para.line:
            return para.line if len(para.line) <= 160 else ""
        empty += 1
        if empty > 3:
            return ""
    return ""


def _table(doc: _Doc, tbl: etree._Element, before: str, header: list | None = None, head: Grid | None = None) -> None:
    moves = {c.key: c.column for c in doc.options.questions if c.column is not None}
    ctx = TableContext(doc.section_path(), before, doc.glyph_boxes, index=doc.table_count, corrections=doc.options.tables,
                       moves=moves, key_of=doc.key_of, header=header or [], head=head)  # fmt: skip
    doc.table_count += 1
    found = table_questions(tbl, ctx)
    last = doc.found[-1] if doc.found else None
    if (
        last is not None
        and last.text_place is not None
        and last.text_place.kind is PlaceKind.NEW_PARAGRAPH
        and any(f.how == "a row of boxes" and f.text.endswith(one_line(before)) for f in found)
        and doc.paras[last.anchor].line == before
    ):  # the question just before the table, answered in it ("Provide privacy … notices." over its boxes)
        doc.found.pop()
    doc.found += found
    doc.notes += ctx.notes
    doc.tables += ctx.tables
    for row in grid(tbl).rows:  # tables nested in a cell: tables of their own, in the same context
        for cell in row:
            if cell.merged_from is None:
                for nested in cell.nested():
                    _table(doc, nested, before)


def _paragraph(doc: _Doc, flow: list[etree._Element], i: int) -> int:
    """Read paragraph i (a heading, boxes, a label over a blank, a question); the index of the
    next block to read."""
    para = doc.paras[flow[i]]
    if para.heading is not None and para.line:
        if not _PROSE.search(para.line):
            level = para.heading
            doc.section = doc.section[: level - 1] + [clean(para.line)]
        return i + 1
    if not para.line and _text_box(para.el):
        return _question(doc, flow, i, text=_text_box(para.el)) if asks(_text_box(para.el)) else i + 1
    if not para.line:
        return i + 1
    if _SKIP_STYLES.match(doc.styles.name(para.style).replace(" ", "")) and not (
        _BODY_STYLED.match(doc.styles.name(para.style))
        and (asks(para.line) or _PROMPT_TAIL.search(para.line) or _answered_below(flow, i))
    ):  # a page header's style on a question of the body (the NIST SSP's "Header"): read it
        return i + 1
    prompted = _bracketed_prompt(doc, flow, i)
    if prompted is not None:
        return prompted
    inline = para.read
    if inline.boxes:
        return _boxes(doc, flow, i)
    if _control_at_end(doc, para):
        return i + 1
    m = _LABEL_LINE.match(para.line)
    if m and is_label(m.group(1)) and not asks(m.group(1)):  # "Company name:\t\t_______ (To be used on the Contract)"
        found = _found(doc, para, label_of(m.group(1)), "a label and its underscore line")
        found.text_place = AnswerPlace(PlaceKind.AFTER_LABEL, locator(para.el), note="after the label's line")
        found.existing_answer = (m.group("answer") or "").strip() or None
        doc.found.append(found)
        return i + 1
    if _labels_on_lines(doc, para):
        return i + 1
    if ends_with_colon(para.line) and is_label(para.line) and i + 1 < len(flow):
        taken = _label_over_blank(doc, para, flow, i)
        if taken:
            return taken
    if asks(para.line) and not _instruction_item(doc, flow, i):
        return _question(doc, flow, i)
    if states_skip(para.line):
        _skip_instruction(doc, para)
        return i + 1
    if _answered_below(flow, i) and para.heading is None:
        # an export's answer right under it (its bookmark says so), in place of a prompt no longer there
        found = _found(doc, para, para.line if asks(para.line) else label_of(para.line), "a paragraph answered below")
        found.text_place, found.existing_answer = paragraph_place(flow[i + 1])
        doc.found.append(found)
        doc.claimed.add(flow[i + 1])
        return i + 2
    return i + 1


_UNDERSCORES = re.compile(r"_{5,}")


def _labels_on_lines(doc: _Doc, para: _Para) -> bool:
    """A paragraph of labels run into underscore lines, one or several ("Bank Name______ Account
    Name______", "______ Account No.", "______Postcode______"): each label a question, answered on
    its line (the one after it, else, for a label ending the paragraph, the one before it when no
    label took it, else an empty text box the paragraph anchors: "Bank Address____Sort Code [box]")."""
    line, written = para.line, {}
    if written_answer(para.el):  # answers an export wrote on the lines: read where their lines were
        pieces, at = line_pieces(para.el), 0
        for text, _, answer in pieces:
            if answer is not None:
                written[at] = one_line(answer)
            at += len(text)
        line = "".join(text for text, _, _ in pieces)
    lines = list(_UNDERSCORES.finditer(line))
    if not lines:
        return False
    labels = [x.strip(" \t:") for x in _UNDERSCORES.split(line)]
    if not any(labels) or not all(not x or _line_label(x) for x in labels):
        return False
    on_line = [(label, n) for n, label in enumerate(labels[:-1]) if label]
    last, box = labels[-1], None
    if last and len(lines) - 1 not in {n for _, n in on_line}:
        on_line.append((last, len(lines) - 1))
    elif last:
        box = _empty_text_box(para.el)
    for label, n in on_line:
        found = _found(doc, para, label_of(label), "a label run into an underscore line")
        found.text_place = AnswerPlace(
            PlaceKind.AFTER_LABEL, f"{locator(para.el)}#{n}", note="on the underscore line after the label"
        )
        found.existing_answer = written.get(lines[n].start()) or None
        doc.found.append(found)
    if box is not None:
        found = _found(doc, para, label_of(last), "a label beside an empty text box")
        found.text_place, found.existing_answer = paragraph_place(box)
        doc.found.append(found)
    return bool(on_line) or box is not None


def _line_label(text: str) -> bool:
    """A field's label beside an underscore line, an abbreviation's full stop allowed ("Account No.")."""
    short = text[:-1] if _ABBREVIATED.search(text) else text
    return is_label(short) and not asks(text) and "_" not in text


_ABBREVIATED = re.compile(r"\b[A-Za-z]{1,3}\.$")
_STATES = re.compile(r"^(?:the|a|an|this|these|those|it|we|our|de|het|een|der|die|das)\s", re.I)  # not "Include …"
_GOES_ON = re.compile(r"\b(?:the|of|on|at|for|by|to|in|with|from|and|or|a|an|de|het|van|der|die|das)$", re.I)


def _answered_below(flow: list[etree._Element], i: int) -> bool:
    """The block after paragraph i is a paragraph holding an export's answer (its bookmark)."""
    return i + 1 < len(flow) and flow[i + 1].tag == f"{W}p" and written_answer(flow[i + 1])


_LABEL_LINE = re.compile(r"^([^:_]{2,60}):\s*_{4,}\s*(?:\([^()]{0,80}\))?\s*(?::\s*(?P<answer>.*))?$")
_BODY_STYLED = re.compile(r"^(?:header|footer)$", re.I)
# a bracketed instruction closing a paragraph: "[Insert the System Unique Identifier]", "[Yes/No - If no, explain:]"
_PROMPT_TAIL = re.compile(
    r"\[\s*(?:insert|state|provide|document|describe|enter|list|specify|identify|yes\s*/\s*no|vul|geef|beschrijf)\b"
    r"[^\[\]]{0,300}\]\s*\.?\s*(?P<tail>.*)$",
    re.I,
)


def _bracketed_prompt(doc: _Doc, flow: list[etree._Element], i: int) -> int | None:
    """A paragraph that ends with a bracketed instruction to the one who fills it in ("System
    Name/Title: [State the name …]", "List all software components … [Insert the reference/URL …]"):
    a question, answered after its label in the paragraph (a label's) or in a new paragraph after
    it. A paragraph that is only such a prompt ("[Insert a system topology graphic …]") is the place
    of the paragraph before it."""
    para = doc.paras[flow[i]]
    m = _PROMPT_TAIL.search(para.line)
    if m is None:
        return None
    head = para.line[: m.start()].strip()
    tail = m.group("tail").strip().lstrip(":").strip()  # an answer written after the label's prompt
    label = head.split(":", 1)[0] + ":" if ":" in head else ""
    if tail and not (label and head == label and is_label(label)):
        return None  # a bracket inside a sentence, not a prompt closing it
    if _GOES_ON.search(head):
        return None  # "… commencing on the [INSERT DATE].", "For and on behalf of [Insert …]": the sentence's own blank
    if not head:
        before = _previous_paragraph(doc, flow, i)
        if before is None or any(f.anchor is before.el for f in doc.found):
            return None
        m_before = _PROMPT_TAIL.search(before.line)
        if m_before is not None and not before.line[: m_before.start()].strip():
            return i + 1  # "[Insert Aim]" under "[Insert Contract Length …]": a list of the author's own prompts
        if _STATES.match(before.line) and not asks(before.line):
            return None  # a statement over the author's prompt ("The headings below are … exhaustive.")
        found = _found(doc, before, before.line, "an instruction over the placeholder of its answer")
        found.text_place, found.existing_answer = paragraph_place(para.el)
        doc.found.append(found)
        return i + 1
    if label and is_label(label) and len(head) > len(label) and not asks(head):
        text = head  # "General Description of Information: CUI information types … are documented."
    elif label and head == label:
        text = label_of(label)
    else:
        text = head
    found = _found(doc, para, text, "a paragraph closed by a bracketed prompt")
    if head == label and is_label(label):
        found.text_place = AnswerPlace(PlaceKind.AFTER_LABEL, locator(para.el), note="after the label's prompt")
        found.existing_answer = tail or None
        doc.found.append(found)
        return i + 1
    written = _written_answer(doc, para, flow, i + 1, True)
    if written is not None:  # the answer an export wrote after it
        found.text_place, found.existing_answer = paragraph_place(written)
        doc.found.append(found)
        doc.claimed.add(written)
        return i + 2
    found.text_place, _ = new_paragraph_place(para.el, "a new paragraph after the question (its prompt kept)")
    doc.found.append(found)
    return i + 1


def _instruction_item(doc: _Doc, flow: list[etree._Element], i: int) -> bool:
    """An item of a list introduced by "Instructions" (or "Guidance", "Note"; a paragraph or the
    heading of its section): how to fill the document in ("Provide Company Name and Contact
    details above."), not a question of it."""
    para = doc.paras[flow[i]]
    if para.mark is None and para.list_id is None:
        return False
    if doc.section and is_instruction(doc.section[-1]):
        return True
    for j in range(i - 1, -1, -1):
        if flow[j].tag != f"{W}p":
            return False
        before = doc.paras[flow[j]]
        if not before.line or before.list_id is not None and before.list_id == para.list_id:
            continue  # an empty line or an item of the same list
        return is_instruction(before.line)
    return False


def _previous_paragraph(doc: _Doc, flow: list[etree._Element], i: int) -> _Para | None:
    for j in range(i - 1, max(-1, i - 3), -1):
        if flow[j].tag != f"{W}p":
            return None
        para = doc.paras[flow[j]]
        if para.heading is not None:
            return None
        if para.line:
            return para
    return None


def _skip_instruction(doc: _Doc, para: _Para) -> None:
    """A paragraph stating what an answer skips, kept with the question it follows: the last one
    found, when it is a paragraph of the body (not a table's row) at most four paragraphs before."""
    last = doc.found[-1] if doc.found else None
    if last is None or last.anchor.getparent() is None or last.anchor.getparent().tag != f"{W}body":
        return
    if 0 < para.ordinal - doc.paras[last.anchor].ordinal <= SKIP_REACH and not states_skip(last.text):
        last.text = one_line(f"{last.text} {para.line}")


# a number typed before a question's words ("1.2 ", "3) ", "a) ", "(iii) ", "A-1 ", "１．", "（２）"): its ID
_TYPED_NUMBER = re.compile(
    r"^\s*(?:((?:\d{1,3}\.){1,4}\d{0,3}|\d{1,3}\)|[A-Z]{1,4}-\d{1,3}(?:\s?\(\d{1,2}\))?|\(?[a-z]\)|\([ivx]{1,5}\)"
    r"|\(\d{1,3}\))\s+(?:[-–—:]\s+)?|([０-９]{1,3}(?:[．.][０-９]{1,3}){0,3}[．.）)]|（[０-９]{1,3}）)\s*)(?=\S)"
)


def _found(doc: _Doc, para: _Para, text: str, how: str) -> Found:
    ident = para.mark.number if para.mark is not None else None
    m = _TYPED_NUMBER.match(text)
    if ident is None and m:  # the typed number is the ID, no part of the question's words
        ident = (m.group(1) or m.group(2)).strip().rstrip(".)．）") or None  # (as Word's drawn number: ListMark)
        text = text[m.end() :] if ident else text
    like = f"style:{para.style}|list:{para.mark.num_id if para.mark else ''}"
    return Found(para.el, one_line(text), ident, section=doc.section_path(), like=like, how=how)


def _control_at_end(doc: _Doc, para: _Para) -> bool:
    """A label or question ended by a text control or form field: its answer goes there."""
    controls = [c for c in para.read.controls if c.kind != "checkbox"]
    if not controls:
        return False
    last = controls[-1]
    shown = one_line(last.drawn)
    line = para.line
    head = line[: len(line) - len(shown)].strip() if shown and line.endswith(shown) else None
    if head is None and not shown and line:
        head = line
    if not head or not (ends_with_colon(head) or asks(head) or is_label(head)) or len(controls) > 1 and not shown:
        return False
    if _FRONT_MATTER.match(label_of(head)):
        return True  # the cover page's version and date: the document's, not a question
    doc.claimed.update(_paragraphs_of(last.el))
    found = _found(doc, para, label_of(head) if not asks(head) else head, "a label ended by a control")
    place, existing = control_place(last)
    found.existing_answer = existing
    if last.items and last.kind in ("dropdown", "FORMDROPDOWN"):
        found.choice_place, found.choices, found.existing_choice = place, last.items, existing
        found.existing_answer = None
    else:
        found.text_place = place
    doc.found.append(found)
    return True


def _paragraphs_of(el: etree._Element) -> list[etree._Element]:
    return list(el.iter(f"{W}p"))


def _label_over_blank(doc: _Doc, para: _Para, flow: list[etree._Element], i: int) -> int | None:
    nxt = flow[i + 1]
    if nxt.tag != f"{W}p" or is_instruction(para.line):
        return None
    below = doc.paras[nxt]
    if not below.line or not (is_blank(below.line) or _field_label(para) and _written_line(doc, below, flow, i + 2)):
        return None
    if _WEB_ADDRESS.fullmatch(below.line) and _links_listed(doc, flow, i):
        doc.claimed.add(nxt)  # a link the document gives, in its list of links: a reference, not a question
        return i + 2
    found = _found(doc, para, label_of(para.line), "a label over a blank line")
    found.text_place, found.existing_answer = paragraph_place(nxt)
    doc.found.append(found)
    doc.claimed.add(nxt)
    return i + 2


_WEB_ADDRESS = re.compile(r"(?:https?://|www\.)\S+", re.I)
_WEB_FIELD = re.compile(  # a label naming a field for an address, in the languages read
    r"\b(?:web\s?site|web\s?page|home\s?page|url|internet|link(?:ed\s?in)?|social|webseite|internetseite"
    r"|site\s+(?:web|internet)|sitio\s+web|p(?:á|a)gina\s+web)\b|ウェブ|ホームページ",
    re.I,
)


def _links_listed(doc: _Doc, flow: list[etree._Element], i: int) -> bool:
    """Label i (over a line that is only a web address) is an item of the document's own list of links
    ("… links to policies are detailed below: -" over "Health and Safety Policy:" and its policy's address,
    "Environmental Policy" and its): another web address on one of the two lines with text before the label
    or after its address (empty lines between them), and the label names no field for an address (a
    "Website:" answered with the supplier's own is still a question)."""
    if _WEB_FIELD.search(doc.paras[flow[i]].line):
        return False
    near: list[str] = []
    for step, start in ((-1, i - 1), (1, i + 2)):
        j, seen = start, 0
        while 0 <= j < len(flow) and seen < 2 and flow[j].tag == f"{W}p":
            line = doc.paras[flow[j]].line
            if line:
                near.append(line)
                seen += 1
            j += step
    return any(_WEB_ADDRESS.search(line) for line in near)


_NOT_FIELD = re.compile(
    r"^(?:the|a|an)\s|\b(?:requirements?|guidance|instructions?|notes?|examples?|shall|the following|as follows)\b",
    re.I,
)  # "The organization:", "41.2 The Supplier shall:", "the following constitute Prohibited Acts:"
# a line that is no field's value: an item of the label's list ("(i) a request …", "41.2.1 make …"), another
# label with its own value ("For the attention of: [Procuring Officer]"), a letter's salutation ("Dear Sir")
_NOT_VALUE = re.compile(
    r"^(?:\(?(?:[a-z]|[ivx]{1,4}|\d{1,3})\)\s|\d{1,3}(?:\.\d{1,3}){1,4}\.?\s|dear\s)|^(?!https?:)[^:]{1,40}:\s*\S", re.I
)


def _field_label(para: _Para) -> bool:
    """A label that names a field ("Name of ICT Item:"), not one that introduces text ("The
    organization:", "AC-8 Additional FedRAMP Requirements and Guidance:")."""
    return len(para.line.split()) <= 12 and not _NOT_FIELD.search(para.line)


def _written_line(doc: _Doc, below: _Para, flow: list[etree._Element], after: int) -> bool:
    """The line under a label holds an answer: no heading, no question, no boxes, not a label, and,
    when it is a list item, the only one (a list under a label is the label's content)."""
    if below.heading is not None or asks(below.line) or below.read.boxes or ends_with_colon(below.line):
        return False
    if _NOT_VALUE.match(below.line):
        return False
    if below.list_id is not None:
        nxt = doc.paras.get(flow[after]) if after < len(flow) and flow[after].tag == f"{W}p" else None
        return nxt is None or nxt.list_id != below.list_id
    return True


def _boxes(doc: _Doc, flow: list[etree._Element], i: int) -> int:
    """Boxes in paragraph i: a choice in one paragraph, or a run of one-box paragraphs."""
    para = doc.paras[flow[i]]
    boxes = para.read.boxes
    if len(boxes) >= 2:
        head = para.read.head
        text = head or _previous_text(doc, flow, i)
        found = _found(doc, para, text or " / ".join(b.label for b in boxes), "boxes in one paragraph")
        above = None if head else _previous_para(doc, flow, i)
        if found.id is None and above is not None and above.mark is not None:  # the number Word draws before it
            found.id = above.mark.number
        found.choice_place, found.existing_choice = boxes_place(boxes)
        found.choices = tuple(b.label for b in boxes)
        doc.found.append(found)
        return i + 1
    run = [i]
    j = i + 1
    while j < len(flow) and flow[j].tag == f"{W}p":
        k = j
        while k < len(flow) - 1 and flow[k].tag == f"{W}p" and not doc.paras[flow[k]].line:
            k += 1  # empty lines between the options
        if flow[k].tag != f"{W}p" or len(doc.paras[flow[k]].read.boxes) != 1:
            break
        run.append(k)
        j = k + 1
    prompt = _previous_text(doc, flow, i)
    labels = [doc.paras[flow[k]].read.boxes[0].label for k in run]
    answers = len(run) >= 2 and _YES.match(labels[0]) and any(_NO.match(x) for x in labels[1:])
    several = len(run) >= 2 and takes_several(labels, prompt)
    if several and _cue_alone(prompt):  # "Tick all that apply." on its own line: the question is the line above
        prompt = f"{_previous_text(doc, flow, _index_of_line(doc, flow, i, prompt))} {prompt}".strip()
    one = asks_one(prompt) or bool(_ASKS_END.search(prompt))  # "Check one.", or a question
    if prompt and (one or answers or several) and len(run) >= 2:  # "☐ Yes I have … / ☐ No …"
        items = [doc.paras[flow[k]].read.boxes[0] for k in run]
        found = _found(doc, para, prompt, "a run of boxes under a prompt")
        found.choice_place, found.existing_choice = boxes_place(items)
        found.choices = tuple(b.label for b in items)
        found.several = several
        doc.found.append(found)
        return j
    for k in run:
        item = doc.paras[flow[k]]
        box = item.read.boxes[0]
        if not box.label:
            continue
        section = doc.section[-1] if doc.section else ""
        text = f"{section}: {box.label}" if section and is_label(box.label) else box.label
        found = _found(doc, item, text, "a box and its label")
        found.like = f"box:{item.style}"
        found.choice_place, existing = boxes_place([box])
        found.existing_choice = "Yes" if existing else None
        found.choices = ("Yes", "No")
        doc.found.append(found)
    return j


def _answers_below(doc: _Doc, flow: list[etree._Element], j: int) -> bool:
    """The next line (past empty ones) starts with a box whose label answers Yes ("☐ Yes I have a
    Statement", "☐ Yes ☐ No" in one paragraph: the pick of the question above, read with it)."""
    while j < len(flow) and flow[j].tag == f"{W}p" and not doc.paras[flow[j]].line:
        j += 1
    if j >= len(flow) or flow[j].tag != f"{W}p":
        return False
    inline = doc.paras[flow[j]].read
    boxes = inline.boxes
    if len(boxes) >= 2 and inline.head:
        return False  # "Other ☐ Yes ☐ No": a prompt of its own
    return 1 <= len(boxes) <= 3 and bool(_YES.match(boxes[0].label or ""))


_YES = re.compile(r"^\s*(?:yes|ja|oui|sí|si|はい)\b", re.I)
_NO = re.compile(r"^\s*(?:no|nee|nein|non|いいえ)\b", re.I)


def _cue_alone(line: str) -> bool:
    """A line that only says the options above or below take several ("Tick all that apply."):
    a few words, no question of its own."""
    return asks_several(line) and len(line.split()) <= 8 and "?" not in line


def _index_of_line(doc: _Doc, flow: list[etree._Element], i: int, line: str) -> int:
    """The index in ``flow`` of the paragraph before ``i`` that reads ``line`` (``i`` when none)."""
    return next(
        (j for j in range(i - 1, max(-1, i - 3), -1) if flow[j].tag == f"{W}p" and doc.paras[flow[j]].line == line), i
    )


def _previous_text(doc: _Doc, flow: list[etree._Element], i: int) -> str:
    above = _previous_para(doc, flow, i)
    return above.line if above is not None else ""


def _previous_para(doc: _Doc, flow: list[etree._Element], i: int) -> _Para | None:
    """The paragraph with text just before block i (past at most one empty line), if no heading or table."""
    for j in range(i - 1, max(-1, i - 3), -1):
        el = flow[j]
        if el.tag != f"{W}p" or doc.paras[el].heading is not None:
            return None
        if doc.paras[el].line:
            return doc.paras[el]
    return None


def _text_box(p: etree._Element) -> str:
    """The text of the first text box a paragraph anchors ("Instruction: In the space that follows,
    describe …"), one line; "" when it anchors none. (A text box is drawn twice, for Word and for
    older readers: the first is read.)"""
    box = next(p.iter(f"{W}txbxContent"), None)
    if box is None:
        return ""
    return one_line(" ".join(read_inline(q).text for q in box.iter(f"{W}p")))


def _empty_text_box(p: etree._Element) -> etree._Element | None:
    """The first paragraph of the first empty text box ``p`` anchors (Word's own copy, not the
    older readers' fallback), or of one holding the answer an export wrote in it, if any."""
    box = next(p.iter(f"{W}txbxContent"), None)
    if box is None:
        return None
    if one_line(" ".join(read_inline(q).text for q in box.iter(f"{W}p"))) and not written_answer(box):
        return None
    return next(box.iter(f"{W}p"), None)


def _text_box_places(doc: _Doc, flow: list[etree._Element]) -> None:
    """Empty text boxes drawn beside a label to write in ("A-2 Registration Number [box]",
    "Telephone/Mobile" beside the box above it): each the answer place of its label, the paragraph
    anchoring it or else the nearest one with text (before or after it, past empty ones; the one
    after when as near), when that is a short label not read already."""
    paras = [(k, doc.paras[el]) for k, el in enumerate(flow) if el.tag == f"{W}p"]
    at = {el: n for n, (_, p) in enumerate(paras) for el in [p.el]}
    taken = {f.anchor for f in doc.found}
    for n, (_, para) in enumerate(paras):
        box = _empty_text_box(para.el)
        if box is None or para.el in doc.claimed:  # (a question's answer box already)
            continue
        label = para if para.line else _nearest_text(paras, n)
        if label is None or label.el in taken or label.heading is not None or label.read.boxes:
            continue
        if not is_label(label.line) or asks(label.line) or "_" in label.line:
            continue
        found = _found(doc, label, label_of(label.line), "a label beside an empty text box")
        found.text_place, found.existing_answer = paragraph_place(box)
        taken.add(label.el)
        doc.found.insert(sum(doc.paras[f.anchor].ordinal < label.ordinal for f in doc.found), found)
    del at


def _nearest_text(paras: list[tuple[int, _Para]], n: int) -> _Para | None:
    """The nearest paragraph with text around paragraph n (the one after it when as near)."""
    before = next(((n - k, p) for k in range(n - 1, max(-1, n - 6), -1) if (p := paras[k][1]).line), None)
    after = next(((k - n, p) for k in range(n + 1, min(len(paras), n + 6)) if (p := paras[k][1]).line), None)
    if before is None or after is None:
        return (before or after or (0, None))[1]
    return after[1] if after[0] <= before[0] else before[1]


def _question(doc: _Doc, flow: list[etree._Element], i: int, text: str | None = None) -> int:
    """A paragraph that asks (or ``text``, the question its text box holds): its items, its place
    (a one-cell table, a content control, blank paragraphs) or a new paragraph; only a numbered
    one is a question without any of these."""
    para = doc.paras[flow[i]]
    if text is None and _answers_below(doc, flow, i + 1):
        return i + 1  # the prompt of the boxes below ("☐ Yes I have … / ☐ No …"): read with them
    cut = _cut_lines(doc, flow, i) if text is None else []  # its sentence going on over the next lines
    found = _found(doc, para, " ".join([text or para.line, *(doc.paras[e].line for e in cut)]), "a paragraph that asks")
    j = i + 1 + len(cut)
    items: list[_Para] = []
    while j < len(flow) and flow[j].tag == f"{W}p":  # the items it lists ("on the following topics?")
        item = doc.paras[flow[j]]
        if not item.line or item.mark is None or item.heading is not None or asks(item.line) or item.read.boxes:
            break
        if para.mark is not None and item.list_id == para.list_id and item.mark.level <= para.mark.level:
            break
        items.append(item)
        j += 1
    if items:
        found.text = one_line(f"{found.text} " + " ".join(item.line for item in items))
    lone = not items and _asks_alone(doc, flow, i)
    if _guidance_line(doc, flow, j, lone):  # "(maximum 500 words)" between it and its place: read with it
        found.text, j = one_line(f"{found.text} {doc.paras[flow[j]].line}"), j + 1
    last = flow[j - 1] if j > i + 1 + len(cut) + len(items) else items[-1].el if items else (cut or [para.el])[-1]
    spaced = bool(_SPACE.search(found.text))  # "In the space that follows, describe …": a question, space or not
    written = _written_answer(doc, para, flow, j, bool(items) or spaced)
    if written is not None:  # the answer a previous export wrote after the question
        found.text_place, found.existing_answer = paragraph_place(written)
        doc.found.append(found)
        return j + 1
    place = _place_after(doc, flow, j, spaced=spaced, lone=lone)
    tail = _OPTIONS_TAIL.search(para.line) if place is None else None
    if tail is not None:  # "… an annual turnover of £36m or more Yes/No": a pick, written after the options
        found.choice_place = AnswerPlace(PlaceKind.AFTER_LABEL, locator(para.el), note=_AFTER_OPTIONS)
        found.choices = _options_of(tail.group("options"))
        found.existing_choice = _option_named(tail.group("picked"), found.choices)
        written = one_line(para.line[tail.end("options") :]) if tail.group("picked") else ""
        if written and found.text.endswith(written):  # the pick an export wrote is no part of the question
            found.text = found.text[: -len(written)].rstrip()
        doc.found.append(found)
        return j
    if place is not None and place[0][0].note == _IN_PLACE_OF_OPTIONS:  # "Yes/No" under the question: a pick
        (found.choice_place, picked), taken = place
        found.choices = _options_of(doc.paras[taken[0]].line)
        found.existing_choice = _option_named(picked, found.choices)
        doc.claimed.update(taken)
        doc.found.append(found)
        return j
    numbered = para.mark is not None or bool(LEADING_ID.match(para.line))  # "3.1 Do you have …?": typed numbers
    if place is None and not numbered and not items and not spaced and not cut:
        return i + 1  # prose that asks, not a question
    if place is None:
        found.text_place, _ = new_paragraph_place(last, NO_SPACE)
        found.how += ", no space"
    else:
        (found.text_place, found.existing_answer), taken = place
        doc.claimed.update(taken)
    doc.found.append(found)
    return j


_PARENTHESIZED = re.compile(r"^\s*[(（][^()（）]{1,120}[)）]\s*$")


def _guidance_line(doc: _Doc, flow: list[etree._Element], j: int, lone: bool) -> bool:
    """Line j under a question is its guidance, read with it (its length limit kept), when its place
    (or an answer an export wrote) follows it: a length limit or a note in brackets on a line of its
    own ("(maximum 500 words)", "（500字以内）")."""
    if j + 1 >= len(flow) or flow[j].tag != f"{W}p":
        return False
    g = doc.paras[flow[j]]
    if not g.line or len(g.line) > 160 or g.mark is not None or g.heading is not None or asks(g.line):
        return False
    if g.read.boxes or g.read.controls or not (_PARENTHESIZED.match(g.line) or stated_limit(g.line)):
        return False
    return written_answer(flow[j + 1]) or _place_after(doc, flow, j + 1, lone=lone) is not None


_SENTENCE_END = re.compile(r"[.?!:;。？！：；]\W*$")


def _cut_lines(doc: _Doc, flow: list[etree._Element], i: int) -> list[etree._Element]:
    """The paragraphs under question i that go on with its sentence, set as lines of their own ("Please
    provide details of two contracts that your organisation has held" / "that are relevant to …" /
    "specification."): each in the question's style, with no list mark, in lower case first, the
    line above not ending a sentence."""
    para, out = doc.paras[flow[i]], []
    line = para.line
    for el in flow[i + 1 :]:
        nxt = doc.paras.get(el) if el.tag == f"{W}p" else None
        if nxt is None or _SENTENCE_END.search(line) or not nxt.line or not nxt.line[0].islower():
            break
        if nxt.mark is not None or nxt.heading is not None or nxt.style != para.style or nxt.read.boxes:
            break
        out.append(el)
        line = nxt.line
    return out


def _written_answer(doc: _Doc, para: _Para, flow: list[etree._Element], j: int, items: bool) -> etree._Element | None:
    """The paragraph right after a listed question (or its items) in the question's style without
    its list mark, that does not ask: an answer written there (by an export, or by hand)."""
    if j < len(flow) and flow[j].tag == f"{W}p" and written_answer(flow[j]):
        line = doc.paras[flow[j]].line
        if line and not _OPTIONS_LINE.match(line):  # (a pick written in place of "Yes/No": read as that)
            return flow[j]  # an export's (its bookmark says so): the answer, whatever it says
    if j >= len(flow) or flow[j].tag != f"{W}p" or (para.mark is None and not items):
        return None
    nxt = doc.paras[flow[j]]
    if not nxt.line or nxt.mark is not None or nxt.heading is not None or asks(nxt.line) or nxt.read.boxes:
        return None
    if _OPTIONS_LINE.match(nxt.line):  # "Yes/No" (or the one an export wrote): the pick's place, not a text answer
        return None
    if states_skip(nxt.line):  # the question's skip instruction, not its answer
        return None
    return nxt.el if nxt.style == para.style or not para.line else None  # (a question in a text box: its line)


def _place_after(
    doc: _Doc, flow: list[etree._Element], j: int, spaced: bool = False, lone: bool = False
) -> tuple[tuple[AnswerPlace, str | None], list[etree._Element]] | None:
    """The answer place right after a question: a one-cell table, a content control, an answer's
    label, an underscore line, or two or more blank paragraphs (one is the document's spacing, not a
    place, unless the question says to answer "in the space that follows": ``spaced``, or it is a
    question on its own, ``lone``, and the blank ends before the next question or heading)."""
    if j >= len(flow):
        return None
    el = flow[j]
    if el.tag == f"{W}tbl":
        g = grid(el)
        cells = [c for row in g.rows for c in row if c.merged_from is None]
        if len(cells) == 1 and not cells[0].boxes and not cells[0].nested() and not asks(cells[0].line):
            return cell_place(cells[0]), [el]  # a box for the answer (blank, a control, or answered)
        return None
    sdt = _block_control(el)
    if sdt is not None:
        paras = [p for p in flow[j:] if _block_control(p) is sdt]
        text = " ".join(doc.paras[p].line for p in paras)
        from engine.questionnaire.word.xmltree import Control, sdt_kind

        placeholder = sdt.find(f"{W}sdtPr/{W}showingPlcHdr") is not None or is_blank(text)
        return control_place(Control(sdt_kind(sdt), sdt, text, placeholder=placeholder)), paras
    if el.tag == f"{W}p" and _OPTIONS_LINE.match(doc.paras[el].line):  # "Yes/No" under the question: its place
        line = doc.paras[el].line  # (one option alone: the answer an export wrote there)
        existing = line if "/" not in line else None
        return (AnswerPlace(PlaceKind.PARAGRAPH, locator(el), note=_IN_PLACE_OF_OPTIONS), existing), [el]
    marked = _marked_place(doc, el)
    if marked is not None:
        return marked, [el]
    blanks = []
    for el in flow[j:]:
        if el.tag != f"{W}p" or doc.paras[el].line or doc.paras[el].read.boxes:
            break
        box = _empty_text_box(el)
        if box is not None:  # an empty text box drawn under the question: its answer's box
            return paragraph_place(box), [*blanks, el]
        blanks.append(el)
    if len(blanks) >= 2 or blanks and (spaced or lone and _ends_blank(doc, flow, j + 1)):
        return paragraph_place(blanks[0]), blanks[:1]
    return None


# the label of the answer's line under a question, in the languages read ("Answer:", "Antwort:", "回答：")
_ANSWER_LABEL = re.compile(
    r"^\s*(?P<label>answer|response|reply|antwort|r[ée]ponse|antwoord|respuesta|risposta|回答|解答|答え)\s*[:：]"
    r"\s*(?P<answer>.*)$",
    re.I,
)


def _marked_place(doc: _Doc, el: etree._Element) -> tuple[AnswerPlace, str | None] | None:
    """A paragraph under a question drawn to take its answer, with nothing else in it: an answer's
    label ("Answer:", "Antwort:", "回答："; written after it), an underscore line, or a text control
    alone (its placeholder "Click or tap here to enter text." no answer)."""
    if el.tag != f"{W}p":
        return None
    para = doc.paras[el]
    if not para.line or para.read.boxes or para.heading is not None:
        return None
    m = _ANSWER_LABEL.match(para.line)
    if m is not None:
        return after_label_place(el, para.line[: m.start("answer")].rstrip(), note="after the answer's label")
    controls = [c for c in para.read.controls if c.kind != "checkbox"]
    if len(controls) == 1 and one_line(controls[0].drawn) == para.line:
        return control_place(controls[0])
    if _UNDERSCORES.search(para.line) and is_blank(para.line):
        return paragraph_place(el)
    return None


_ITEM_FIRST = re.compile(r"^\s*(?:\(\w{1,4}\)|[\w.\-－．]*\d[\w.\-－．]*[.)]?)?\s*(?P<first>\w)")


def _asks_alone(doc: _Doc, flow: list[etree._Element], i: int) -> bool:
    """Question i stands on its own, so one blank line under it may answer it: not the last of a run
    of questions with no place between them (the blank is the run's spacing), not a clause's item going
    on from a sentence ("(c) provide a copy …", in lower case), not a lead-in ("Select all that
    apply:"), not one whose options close its line ("… £36m or more Yes/No")."""
    above = flow[i - 1] if i else None
    if above is not None and above.tag == f"{W}p" and doc.paras[above].line and asks(doc.paras[above].line):
        return False
    line = doc.paras[flow[i]].line
    m = _ITEM_FIRST.match(line)
    if m is None or m.group("first").islower() or ends_with_colon(line):
        return False
    return _OPTIONS_TAIL.search(line) is None


def _ends_blank(doc: _Doc, flow: list[etree._Element], k: int) -> bool:
    """Whether the one blank paragraph under a question is its answer's line (block k follows it):
    the form ends there, or the next block is a heading or the next question; not text going on
    under the question (the areas a response covers, listed under it)."""
    if k >= len(flow):
        return True
    el = flow[k]
    if el.tag != f"{W}p":
        return False
    nxt = doc.paras[el]
    return nxt.heading is not None or bool(nxt.line) and asks(nxt.line)


# a line listing the options to write ("Yes/No", "Yes / No / Not Applicable", "Ja/Nee"): the answer's place
_OPTIONS = r"(?:yes|no|n/?a|not applicable|ja|nee|nein|oui|non|s[íi]|はい|いいえ)"
_OPTIONS_LINE = re.compile(rf"^\s*{_OPTIONS}(?:\s*/\s*{_OPTIONS}){{0,3}}\s*\.?$", re.I)
_OPTIONS_TAIL = re.compile(
    rf"\s(?P<options>(?:yes|ja|oui|s[íi]|はい)\s*/\s*(?:no|nee|nein|non|いいえ)(?:\s*/\s*{_OPTIONS})?)\s*\.?"
    rf"(?:(?:\s*:\s*|\s+)(?P<picked>{_OPTIONS}))?\s*$",  # (and the pick an export wrote after them)
    re.I,
)
_IN_PLACE_OF_OPTIONS = "in place of the options it lists"
_AFTER_OPTIONS = "after the options it lists"


def _options_of(line: str) -> tuple[str, ...]:
    """The options a line lists ("Yes/No/Not Applicable"); one alone (the pick an export wrote) among Yes / No."""
    options = tuple(x.strip() for x in line.strip().rstrip(".").split("/") if x.strip())
    if len(options) >= 2:
        return options
    return ("Yes", "No", *(o for o in options if o.casefold() not in ("yes", "no")))


def _option_named(text: str | None, options: tuple[str, ...]) -> str | None:
    """The option ``text`` names (the pick written in place of, or after, the options), else None."""
    if not text or "/" in text:
        return None
    return next((o for o in options if o.casefold() == text.strip().rstrip(".").casefold()), None)


def _block_control(p: etree._Element) -> etree._Element | None:
    """The block content control a paragraph of the body sits in, if any."""
    parent = p.getparent()
    while parent is not None and parent.tag != f"{W}body":
        if parent.tag == f"{W}sdt":
            return parent
        if parent.tag in (f"{W}tc", f"{W}tbl"):
            return None
        parent = parent.getparent()
    return None


# --------------------------------------------------------------------------- corrections


def _corrected(doc: _Doc, options: ReadOptions) -> list[Found]:
    """The found questions with the reviewer's corrections applied (see the module docstring)."""
    found = list(doc.found)
    anchors = {f.anchor for f in found}
    by_ordinal = {para.ordinal: para for para in doc.paras.values()}
    wanted: list[_Para] = []
    for ref in options.include:
        number = int(str(ref).lstrip("pPA")) if str(ref).lstrip("pPA").isdigit() else None
        para = by_ordinal.get(number) if number is not None else None
        if para is None or not para.line:
            doc.notes.append(f"--include {ref}: no paragraph with text has that number; nothing added")
            continue
        wanted.append(para)
    for para in wanted:
        if para.el not in anchors:
            found.append(_added(doc, para))
            anchors.add(para.el)
    for key in options.like:
        example = next((f for f in found if _key(doc, f) == key), None)
        if example is None:
            doc.notes.append(f"like {key}: no such question; nothing added")
            continue
        sign = _signature(doc, example.anchor)
        for para in doc.paras.values():
            if para.line and para.heading is None and para.el not in anchors and _signature(doc, para.el) == sign:
                found.append(_added(doc, para))
                anchors.add(para.el)
    excluded = set(options.exclude)
    return [f for f in found if _key(doc, f) not in excluded and (f.id or "") not in excluded]


def _key(doc: _Doc, f: Found) -> str:
    return place_key(DOCUMENT_SHEET, f"A{doc.paras[f.anchor].ordinal}")


def _signature(doc: _Doc, p: etree._Element) -> tuple:
    """What makes a paragraph like another: the table column it heads (the same column of a table
    with the same header), or its style and list."""
    cell = p.getparent()
    while cell is not None and cell.tag not in (f"{W}tc", f"{W}body"):
        cell = cell.getparent()
    para = doc.paras[p]
    if cell is not None and cell.tag == f"{W}tc":
        tbl = cell.getparent()
        while tbl is not None and tbl.tag != f"{W}tbl":
            tbl = tbl.getparent()
        g = grid(tbl)
        where = next((c for row in g.rows for c in row if c.el is cell), None)
        header = g.at(0, where.col) if where is not None else None
        first = cell.find(f"{W}p") is p or (where is not None and where.own_paragraphs()[:1] == [p])
        return ("cell", header.line if header is not None and header is not where else "", where.col if where else -1,
                g.width, first)  # fmt: skip
    return ("paragraph", para.style, para.mark.num_id if para.mark else None, para.mark.level if para.mark else None)


def _added(doc: _Doc, para: _Para) -> Found:
    """A question the reviewer added: its place the empty cell beside or below it, the blank
    paragraph after it, or a new paragraph after it."""
    found = _found(doc, para, label_of(para.line) if not asks(para.line) else para.line, "added by the reviewer")
    parent = para.el.getparent()
    if parent is not None and parent.tag == f"{W}tc":
        tr = parent.getparent()
        cells = [c for c in tr if c.tag == f"{W}tc"]
        later = cells[cells.index(parent) + 1 :] if parent in cells else []
        blank = next((c for c in later if is_blank(one_line("".join(c.itertext())))), None)
        if blank is not None:
            found.text_place, found.existing_answer = cell_place(Cell(blank, 0, 0, 1))
            return found
        found.text_place, _ = new_paragraph_place(para.el, "below the question, in its cell")
        return found
    nxt = para.el.getnext()
    if nxt is not None and nxt.tag == f"{W}p" and is_blank(doc.paras[nxt].line):
        found.text_place, found.existing_answer = paragraph_place(nxt)
    else:
        found.text_place, _ = new_paragraph_place(para.el, NO_SPACE)
    return found


# ------------------------------------------------------------------------------ questions


def _questions(doc: _Doc, found: list[Found]) -> tuple[list[Question], dict[str, AnswerPlace]]:
    """Question records in document order, each row its first paragraph's ordinal (a later
    question from the same paragraph takes the ordinal of its answer place's paragraph)."""
    questions: list[Question] = []
    places: dict[str, AnswerPlace] = {}
    used: set[int] = set()
    lines = {p.ordinal: p for p in doc.paras.values()}
    for f in sorted(found, key=lambda f: doc.paras[f.anchor].ordinal):
        row = doc.paras[f.anchor].ordinal
        while row in used:
            row += 100_000  # a second question of one paragraph: its key stays stable as long as the first is
        used.add(row)
        below = lines.get(doc.paras[f.anchor].ordinal + 1)
        cue = below.line if below is not None and _cue_alone(below.line) else ""  # "Tick all that apply." under it
        several = f.several or takes_several(f.choices, f.text, cue)
        f.text, text_place = limited(without_translator_note(f.text), f.text_place)
        choice_cell = f"B{row}" if f.choice_place is not None else None
        text_cell = f"C{row}" if text_place is not None else None
        if choice_cell:
            places[place_key(DOCUMENT_SHEET, choice_cell)] = f.choice_place  # type: ignore[assignment]
        if text_cell:
            places[place_key(DOCUMENT_SHEET, text_cell)] = text_place  # type: ignore[assignment]
        questions.append(
            Question(
                id=f.id,
                sheet=DOCUMENT_SHEET,
                row=row,
                text=f.text,
                question_cell=f"A{row}",
                choice_cell=choice_cell,
                text_cell=text_cell,
                choices=tuple(c for c in f.choices if c),
                existing_answer=f.existing_answer,
                existing_choice=f.existing_choice,
                several=several,
            )
        )
    return questions, places


def docx_paragraphs(path: Path, limits: Limits) -> list[tuple[int, str]]:
    """The document's paragraphs with text, as (number, one line): what a reviewer picks a
    missed question from (``include``); headings and the table of contents left out."""
    doc = _index(open_docx(path, limits))
    out = []
    for para in doc.paras.values():
        if para.heading is None and para.line and not _SKIP_STYLES.match(doc.styles.name(para.style).replace(" ", "")):
            out.append((para.ordinal, para.line[:200]))
    return out


__all__ = ["docx_paragraphs", "read_docx"]
