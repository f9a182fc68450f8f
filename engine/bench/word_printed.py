"""The shared Word questionnaires printed as flat PDFs (``python -m engine bench word-printed --json``,
#55): each shared Word file with a committed truth of answer places (tests/questionnaire_truth/places.json,
read from ``$RFP_SHARED_DATA/questionnaires/docx``, never copied) printed to a flat PDF with PyMuPDF
the way a word processor prints it, then read by the flat PDF reader and scored question by question.
The layouts are the documents' own (real requirement tables, real Yes/No tables, real forms): the
printing only draws them.

**The printing** (a word processor's, simplified): the body's paragraphs and tables in order, inside
54 pt margins; a paragraph's text wrapped to the page's width (9 pt), a tab to the next half inch,
the space before and after it the paragraph's own, its style's or the document's default (at most
24 pt; an empty paragraph a line high); a table drawn at its grid's
column widths (``w:tblGrid``, scaled down to the page's width when wider), each cell's paragraphs
wrapped in its width (8 pt, 3 pt padding; a nested table's cells as lines of the cell), a cell
spanning its ``w:gridSpan`` columns, a cell merged down (``w:vMerge``) drawn empty with no rule above
it, the header rows (``w:tblHeader``) repeated at the top of each page the table runs onto, a row
that does not fit moved to the next page, or split across it when it holds more than five lines and
three fit (a header row never split: moved whole, unless taller than a page); a page break where the content overflows and where the document breaks the page. Check
boxes (a legacy ``FORMCHECKBOX``, a ``w14:checkbox`` content control, a Symbol or Wingdings box
glyph) print as ☐ (☒ when ticked); a field's instruction is not printed, its result is. Latin text
in Helvetica, Japanese in a Japanese font, other signs in DejaVu Sans. List numbers are not printed
(the document's paragraph numbering is not computed).

**Variants** (``VARIANTS``): the tables ruled (every cell's border), not ruled (aligned text only) or
with horizontal rules only; on A4 or US Letter. Each file is printed in ``per_file`` of them, taken
in turn from the list shifted by the file's place (so every variant is drawn about as often); a file
whose truth has more than 500 items in one (the FedRAMP SSP: its 114 pages take minutes to read).

**The page furniture** (``PAGED``, ``--paged``: the same variants printed so): the document's default
running header (its paragraphs on one line; the file's name where it has none) over a rule in every
page's top margin, its default footer and "Page n of N" in every page's bottom margin, and a table row
cut at the page break wherever one of its lines still fits (a word processor's "allow row to break
across pages"), its rest drawn on the next page under the repeated header rows; a header row marked to
repeat is never cut (a word processor moves it whole to the next page, unless it is taller than a page). The furniture is no
question; a cut row is one question, on the page where it starts.

**The truth, carried by the printing's own rule**: every item of the file's truth is one question
whose text holds the item's text (its first words, normalised as the PDF scorer does), on the page
where the printer drew its question: the cell of the item's row (the row of its first answer or box
address) whose text holds the item's text, else the address's own cell; for a paragraph address,
that paragraph or the nearest of the three before it that holds the text. Its answer place is the
item's answer cell or the cells of its boxes (their rectangles, recorded as drawn).

**Scored** as the shared flat PDFs are (engine/bench/pdf_places.py's flat rule: a found question on the
item's page whose text holds the item's words, each used once, in order): recall, precision, and
**usable**, the share of the truth matched with the right kind of answer place: the item's options as
its choices (an option of four words, a label's first words as the truth keeps them, matching a label
that starts with them) where it has options and boxes (any choices where its truth names boxes but no labels), a text place where it has an answer cell (either, where it
has both: a Yes / No typed into a cell). Per file and variant, beside the trivial baseline (every line
with "?").
"""

from __future__ import annotations

import re
import tempfile
import time
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from lxml import etree

from engine.bench.document_places import TRUTH, own_elements, ratio, truth_places
from engine.bench.pdf_drawing import BOX_FONT
from engine.bench.pdf_intake import shared_data
from engine.bench.pdf_places import norm_text, pdf_baseline
from engine.questionnaire.pdf.questions import page_of_row
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.records import Questionnaire, QuestionnaireError
from engine.questionnaire.word.xmltree import W

RULINGS = ("ruled", "no rulings", "horizontal rules")
PAPERS = ("A4", "Letter")
VARIANTS = tuple((r, p) for p in PAPERS for r in RULINGS)
PAGED = "running header and footer, rows cut at a page break"  # the page furniture, ``paged=True``
MARGIN = 54.0
BODY, CELL = 9.0, 8.0  # font sizes
PAD = 3.0
TAB = 36.0  # Word's default tab stops, every half inch
BIG = (
    500  # a truth longer than this: its file printed in one variant only (the FedRAMP SSP: 1,009 questions, 114 pages)
)
BOXES = {"\uf06f": "☐", "\uf0a8": "☐", "\uf071": "☐", "\uf0a3": "☐", "\uf072": "☐", "\uf0fe": "☒", "\uf078": "☒"}
_JAPAN = pymupdf.Font("japan")
_DEJAVU = pymupdf.Font(fontfile=str(BOX_FONT))


def _font(c: str) -> str:
    """The font a character prints in: "japan" (CJK, full-width), "dejavu" (boxes and any sign the
    Latin encoding lacks) or "helv"."""
    if 0x3000 <= ord(c) <= 0x9FFF or 0xFF00 <= ord(c) <= 0xFFEF:
        return "japan"
    try:
        c.encode("latin-1")
        return "helv"
    except UnicodeEncodeError:
        return "dejavu"


def _runs(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for c in text:
        f = _font(c)
        if out and out[-1][0] == f:
            out[-1] = (f, out[-1][1] + c)
        else:
            out.append((f, c))
    return out


def _length(text: str, size: float) -> float:
    total = 0.0
    for f, run in _runs(text.replace("\t", "")):
        if f == "helv":
            total += pymupdf.get_text_length(run, fontname="helv", fontsize=size)
        else:
            total += (_JAPAN if f == "japan" else _DEJAVU).text_length(run, fontsize=size)
    return total + TAB * text.count("\t")


def _put(page: pymupdf.Page, x: float, y: float, text: str, size: float) -> None:
    """``text`` with its baseline at ``y``, each run in its font, a tab to the next stop (every TAB points)."""
    left = x
    for k, part in enumerate(text.split("\t")):
        if k:
            x = left + (int((x - left) // TAB) + 1) * TAB
        x = _put_runs(page, x, y, part, size)


def _put_runs(page: pymupdf.Page, x: float, y: float, text: str, size: float) -> float:
    for f, run in _runs(text):
        if f == "dejavu":
            page.insert_text((x, y), run, fontsize=size, fontname="dejavu", fontfile=str(BOX_FONT))
        else:
            page.insert_text((x, y), run, fontsize=size, fontname=f)
        x += _length(run, size)
    return x


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` cut into lines that fit ``width`` points (at words; CJK at any character)."""
    lines: list[str] = []
    for part in text.split("\n"):
        tokens = re.findall(r"[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef]+|\s+", part)
        line = ""
        for tok in tokens:
            if line and _length(line + tok, size) > width and not tok.isspace():
                lines.append(line.rstrip())
                line = ""
            if not line and tok.isspace():
                continue
            while _length(tok, size) > width and len(tok) > 1:  # a word wider than the column: cut it
                k = max(1, int(len(tok) * width / _length(tok, size)))
                lines.append(tok[:k])
                tok = tok[k:]
            line += tok
        lines.append(line.rstrip())
    return lines


def _box_of(fld: etree._Element) -> str:
    checked = fld.find(f".//{W}checkBox/{W}checked")
    default = fld.find(f".//{W}checkBox/{W}default")
    on = checked is not None and checked.get(f"{W}val", "1") not in ("0", "false")
    on = on or (checked is None and default is not None and default.get(f"{W}val") == "1")
    return "☒" if on else "☐"


def paragraph_text(p: etree._Element) -> str:
    """A paragraph's printed text: its runs' text, tabs as spaces, breaks as new lines, check boxes
    as ☐ / ☒, tabs kept, a field's instruction left out and its result kept (no nested table's text)."""
    out: list[str] = []
    for el in p.iter():
        tag = el.tag
        if tag == f"{W}t":
            out.append(
                "".join(BOXES.get(c, c) for c in (el.text or "") if not 0xE000 <= ord(c) <= 0xF8FF or c in BOXES)
            )
        elif tag == f"{W}tab" and el.getparent().tag == f"{W}r":  # (not a tab stop of the paragraph's)
            out.append("\t")
        elif tag in (f"{W}br", f"{W}cr") and el.get(f"{W}type") != "page":
            out.append("\n")
        elif tag == f"{W}sym" and "wingdings" in el.get(f"{W}font", "").lower():  # Symbol's F0A8 is a diamond
            out.append(BOXES.get(chr(int(el.get(f"{W}char", "0"), 16)), ""))
        elif tag == f"{W}fldChar" and el.find(f"{W}ffData/{W}checkBox") is not None:
            out.append(_box_of(el))
    return "".join(out).replace("\u00a0", " ")


@dataclass
class Cell:
    el: etree._Element | None  # None: a grid place the row leaves empty
    col: int
    span: int
    lines: list[str] = field(default_factory=list)
    merged_up: bool = False


@dataclass
class Printer:
    """The PDF being printed: its page, where the next line goes, and where each paragraph and
    cell of the document was drawn (page number 1-based, rectangle)."""

    doc: pymupdf.Document
    paper: tuple[float, float]
    rulings: str
    paged: bool = False  # the page furniture (PAGED): a running header and footer, rows cut at a page break
    page: pymupdf.Page | None = None
    y: float = 0.0
    drawn: dict = field(default_factory=dict)  # element -> (page, Rect) of its first drawing
    space: tuple[float, float] = (0.0, 0.0)  # the document's default space before and after a paragraph
    styles: dict = field(default_factory=dict)  # a paragraph style's (before, after)

    def spacing(self, p: etree._Element) -> tuple[float, float]:
        """The space before and after paragraph ``p`` (its own, its style's, the default), at most 24 pt."""
        style = p.find(f"{W}pPr/{W}pStyle")
        before, after = self.styles.get(style.get(f"{W}val") if style is not None else "Normal", (None, None))
        b, a = _space_of(p.find(f"{W}pPr/{W}spacing"))
        before = b if b is not None else before if before is not None else self.space[0]
        after = a if a is not None else after if after is not None else self.space[1]
        return min(before, 24.0), min(after, 24.0)

    @property
    def bottom(self) -> float:
        return self.paper[1] - MARGIN

    @property
    def width(self) -> float:
        return self.paper[0] - 2 * MARGIN

    def new_page(self) -> None:
        self.page = self.doc.new_page(width=self.paper[0], height=self.paper[1])
        self.y = MARGIN

    def note(self, el: etree._Element, rect: pymupdf.Rect) -> None:
        self.drawn.setdefault(el, (self.doc.page_count, rect))


def _spacing(zf: zipfile.ZipFile) -> tuple[tuple[float, float], dict[str, tuple[float | None, float | None]]]:
    """The space before and after a paragraph (points): the document's default and each paragraph
    style's (its own, else the style it is based on)."""
    try:
        styles = etree.fromstring(zf.read("word/styles.xml"), etree.XMLParser(resolve_entities=False))
    except KeyError:
        return (0.0, 0.0), {}
    default = _space_of(styles.find(f"{W}docDefaults/{W}pPrDefault/{W}pPr/{W}spacing"))
    own = {st.get(f"{W}styleId"): st for st in styles.findall(f"{W}style")}
    out: dict[str, tuple[float | None, float | None]] = {}
    for name in own:
        before = after = None
        st, seen = own.get(name), set()
        while st is not None and id(st) not in seen and (before is None or after is None):
            seen.add(id(st))
            b, a = _space_of(st.find(f"{W}pPr/{W}spacing"))
            before, after = b if before is None else before, a if after is None else after
            based = st.find(f"{W}basedOn")
            st = own.get(based.get(f"{W}val")) if based is not None else None
        out[name] = (before, after)
    return (default[0] or 0.0, default[1] or 0.0), out


def _space_of(sp: etree._Element | None) -> tuple[float | None, float | None]:
    def get(key: str) -> float | None:
        v = sp.get(f"{W}{key}") if sp is not None else None
        return int(v) / 20 if v and v.isdigit() else None

    return get("before"), get("after")


def _paragraph(pr: Printer, p: etree._Element) -> None:
    if p.find(f"{W}pPr/{W}pageBreakBefore") is not None or p.find(f".//{W}br[@{W}type='page']") is not None:
        if pr.y > MARGIN:
            pr.new_page()
    text = paragraph_text(p)
    lh = BODY * 1.25
    before, after = pr.spacing(p)
    lines = wrap(text, pr.width, BODY) if text.strip() else []
    pr.y += before if pr.y > MARGIN else 0.0
    if not lines:
        pr.y += lh + after
        pr.note(p, pymupdf.Rect(MARGIN, pr.y - lh, MARGIN + pr.width, pr.y))
        return
    for line in lines:
        if pr.y + lh > pr.bottom:
            pr.new_page()
        pr.note(p, pymupdf.Rect(MARGIN, pr.y, MARGIN + pr.width, pr.y + lh))
        _put(pr.page, MARGIN, pr.y + BODY, line, BODY)
        pr.y += lh
    pr.y += after


def _grid(tbl: etree._Element, rows: list[etree._Element], width: float) -> list[float]:
    """The x of each grid column's left edge (and the table's right edge), scaled to ``width``."""
    cols = [int(g.get(f"{W}w", "0") or 0) / 20 for g in tbl.findall(f"{W}tblGrid/{W}gridCol")]
    if not cols or sum(cols) <= 0:
        n = max((len(own_elements(tr, f"{W}tc")) for tr in rows), default=1)
        cols = [width / n] * n
    cols = [c if c > 0 else 10.0 for c in cols]
    scale = min(1.0, width / sum(cols))
    xs = [MARGIN]
    for c in cols:
        xs.append(xs[-1] + c * scale)
    return xs


def _cell_text(tc: etree._Element) -> str:
    return "\n".join(paragraph_text(p) for p in tc.iter(f"{W}p"))


def _row_cells(tr: etree._Element, xs: list[float]) -> list[Cell]:
    before = tr.find(f"{W}trPr/{W}gridBefore")
    col = int(before.get(f"{W}val", "0")) if before is not None else 0
    out = []
    for tc in own_elements(tr, f"{W}tc"):
        span_el = tc.find(f"{W}tcPr/{W}gridSpan")
        span = int(span_el.get(f"{W}val", "1")) if span_el is not None else 1
        merge = tc.find(f"{W}tcPr/{W}vMerge")
        merged_up = merge is not None and merge.get(f"{W}val", "continue") == "continue"
        col = min(col, len(xs) - 2)
        span = max(1, min(span, len(xs) - 1 - col))
        cell = Cell(tc, col, span, merged_up=merged_up)
        if not merged_up:
            cell.lines = wrap(_cell_text(tc), xs[col + span] - xs[col] - 2 * PAD, CELL)
        out.append(cell)
        col += span
    return out


def _draw_row(pr: Printer, cells: list[Cell], xs: list[float], start: int, count: int, record: bool) -> float:
    """Lines ``start`` to ``start + count`` of each cell drawn at ``pr.y``: the row part's height."""
    lh = CELL * 1.25
    height = max(count, 1) * lh + 2 * PAD
    y0 = pr.y
    for cell in cells:
        rect = pymupdf.Rect(xs[cell.col], y0, xs[cell.col + cell.span], y0 + height)
        for k, line in enumerate(cell.lines[start : start + count]):
            _put(pr.page, rect.x0 + PAD, y0 + PAD + k * lh + CELL, line, CELL)
        if record and cell.el is not None:
            pr.note(cell.el, rect)
        if pr.rulings == "ruled":
            shape = pr.page.new_shape()
            if not cell.merged_up or start > 0:
                shape.draw_line(rect.tl, rect.tr)
            shape.draw_line(rect.tr, rect.br)
            shape.draw_line(rect.br, rect.bl)
            shape.draw_line(rect.bl, rect.tl)
            shape.finish(color=(0, 0, 0), width=0.5)
            shape.commit()
    if pr.rulings == "horizontal rules":
        pr.page.draw_line((xs[0], y0), (xs[-1], y0), color=(0, 0, 0), width=0.5)
        pr.page.draw_line((xs[0], y0 + height), (xs[-1], y0 + height), color=(0, 0, 0), width=0.5)
    pr.y += height
    return height


def _table(pr: Printer, tbl: etree._Element) -> None:
    rows = own_elements(tbl, f"{W}tr")
    xs = _grid(tbl, rows, pr.width)
    lh = CELL * 1.25
    header: list[list[Cell]] = []
    for r, tr in enumerate(rows):
        cells = _row_cells(tr, xs)
        if tr.find(f"{W}trPr/{W}tblHeader") is not None and len(header) == r:
            header.append(cells)
        n = max((len(c.lines) for c in cells), default=1) or 1
        start, first = 0, True
        whole = r < len(header) and n <= int((pr.bottom - MARGIN - 2 * PAD) // lh)  # a header row: never split
        while start < n:
            room = int((pr.bottom - pr.y - 2 * PAD) // lh)
            cut = not whole and (room >= 1 if pr.paged else n - start > 5 and room >= 3)  # a line fits, or long
            if room < n - start and not cut:  # moved whole
                _table_page(pr, header, xs, r)
                room = int((pr.bottom - pr.y - 2 * PAD) // lh)
            count = max(1, min(n - start, room))
            _draw_row(pr, cells, xs, start, count, first)
            start += count
            first = False
            if start < n:
                _table_page(pr, header, xs, r)
    pr.y += 6.0


def _table_page(pr: Printer, header: list[list[Cell]], xs: list[float], r: int) -> None:
    """A new page for a table running on: its header rows drawn again (not the header itself)."""
    pr.new_page()
    if r >= len(header):
        for cells in header:
            _draw_row(pr, cells, xs, 0, max((len(c.lines) for c in cells), default=1) or 1, False)


def _body_parts(el: etree._Element):
    """The body's paragraphs and tables in order (inside content controls too)."""
    for child in el:
        if child.tag in (f"{W}p", f"{W}tbl"):
            yield child
        elif child.tag in (f"{W}sdt", f"{W}sdtContent", f"{W}customXml"):
            yield from _body_parts(child)


def _running(zf: zipfile.ZipFile, root: etree._Element, part: str) -> str:
    """The text of the document's default running header or footer (``part``: "header" / "footer"),
    its paragraphs on one line; "" when it has none."""
    sect = root.find(f"{W}body/{W}sectPr")
    ref = next(
        (
            r
            for r in (sect if sect is not None else [])
            if r.tag == f"{W}{part}Reference" and r.get(f"{W}type") == "default"
        ),
        None,
    )
    if ref is None:
        return ""
    rels = etree.fromstring(zf.read("word/_rels/document.xml.rels"), etree.XMLParser(resolve_entities=False))
    rid = ref.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
    target = next((r.get("Target") for r in rels if r.get("Id") == rid), None)
    try:
        el = etree.fromstring(zf.read(f"word/{target}"), etree.XMLParser(resolve_entities=False))
    except KeyError:
        return ""
    text = "  ".join(t for p in el.iter(f"{W}p") if (t := " ".join(paragraph_text(p).split())))
    return "".join(c for c in text if c not in "☐☒")


def _furniture(pr: Printer, header: str, footer: str) -> None:
    """The running header over every page's top margin and the footer with "Page n of N" under its
    bottom margin (PAGED): each cut to one line of the page's width."""
    n = pr.doc.page_count
    for k, page in enumerate(pr.doc, 1):
        number = f"Page {k} of {n}"
        if header:
            _put(page, MARGIN, MARGIN - 18, wrap(header, pr.width, CELL)[0], CELL)
            page.draw_line((MARGIN, MARGIN - 12), (MARGIN + pr.width, MARGIN - 12), color=(0, 0, 0), width=0.5)
        room = pr.width - _length(number, CELL) - 18
        if footer and room > 36:
            _put(page, MARGIN, pr.bottom + 24, wrap(footer, room, CELL)[0], CELL)
        _put(page, MARGIN + pr.width - _length(number, CELL), pr.bottom + 24, number, CELL)


def print_docx(path: Path, out: Path, rulings: str, paper: str, paged: bool = False) -> tuple[etree._Element, dict]:
    """``path`` printed to ``out`` (see the module docstring): its document root and where each
    paragraph and cell was drawn; ``paged``: with the page furniture (PAGED)."""
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("word/document.xml"), etree.XMLParser(resolve_entities=False, huge_tree=True))
        space, styles = _spacing(zf)
        running = (_running(zf, root, "header") or path.stem.replace("_", " "), _running(zf, root, "footer"))
    doc = pymupdf.open()
    pr = Printer(doc, pymupdf.paper_size(paper.lower()), rulings, paged, space=space, styles=styles)
    pr.new_page()
    for part in _body_parts(root.find(f"{W}body")):
        if part.tag == f"{W}p":
            _paragraph(pr, part)
        else:
            _table(pr, part)
    if paged:
        _furniture(pr, *running)
    doc.save(out, garbage=3, deflate=True)
    doc.close()
    return root, pr.drawn


def truth_items(root: etree._Element, drawn: dict, items: list[dict]) -> list[dict]:
    """The file's truth items carried to the print (see the module docstring): each with its page,
    text, options (if any) and answer places (page, rectangle)."""
    cell: dict[tuple, etree._Element] = {}
    for t, tbl in enumerate(root.iter(f"{W}tbl")):
        for r, tr in enumerate(own_elements(tbl, f"{W}tr")):
            for c, tc in enumerate(own_elements(tr, f"{W}tc")):
                cell[(t, r, c)] = tc
    paras = list(root.iter(f"{W}p"))
    out = []
    for item in items:
        addresses = [tuple(a) for a in item.get("choice", [])] + ([tuple(item["answer"])] if "answer" in item else [])
        words = norm_text(item["text"])
        asked = _asking_element(addresses[0], words, cell, paras) if addresses else None
        place = drawn.get(asked) if asked is not None else None
        if place is None:
            continue  # not drawn (a header or footer's): none of the print's questions
        places = [drawn[e] for a in addresses if (e := _element(a, cell, paras)) is not None and e in drawn]
        out.append(
            {"page": place[0]} | item_kind(item) | {"places": [(p, tuple(round(v, 1) for v in r)) for p, r in places]}
        )
    return out


def item_kind(item: dict) -> dict:
    """A truth item's text and kind as the scorer weighs it: its options (where it is a choice), whether
    it is a choice, has a text place, or may take either (a Yes / No typed into a cell)."""
    return {
        "text": item["text"],
        "options": list(item.get("options", [])) if "choice" in item else [],
        "choice": "choice" in item,
        "text_place": "answer" in item,
        "either": "answer" in item and "options" in item,
    }


def _element(a: tuple, cell: dict, paras: list) -> etree._Element | None:
    if a[0] == "p":
        return paras[a[1] - 1] if 0 < a[1] <= len(paras) else None
    return cell.get(a)


def _asking_element(a: tuple, words: str, cell: dict, paras: list) -> etree._Element | None:
    """Where the item's question is printed: the cell of its row holding its text (else its own
    cell), or its paragraph or the nearest of the three before holding the text."""
    if a[0] == "p":
        for n in range(a[1], max(0, a[1] - 4), -1):
            if 0 < n <= len(paras) and words in norm_text(paragraph_text(paras[n - 1])):
                return paras[n - 1]
        return _element(a, cell, paras)
    row = [tc for (t, r, _), tc in sorted(cell.items()) if (t, r) == a[:2]]
    return next((tc for tc in row if words in norm_text(_cell_text(tc))), cell.get(a))


def _fold(text: str) -> str:
    return re.sub(r"[\s\-–:]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _same_option(choice: str, option: str) -> bool:
    """Whether a read option is the truth's: the same words, or, where the truth keeps a label's first
    four words (tests/questionnaire_truth/document_places.py, ``first_words(label, 4)``: "Yes I have a"),
    a label starting with them ("Yes I have a Statement")."""
    want = norm_text(option).split()
    return _fold(choice) == _fold(option) or (len(want) == 4 and norm_text(choice).split()[:4] == want)


def score(q: Questionnaire, items: list[dict]) -> dict:
    """Recall, precision and usable of ``q`` against the carried truth (the module docstring)."""
    texts = [(page_of_row(x.row), norm_text(f"{x.id or ''} {x.text}")) for x in q.questions]
    taken: set[int] = set()
    matched = good = 0
    missed, wrong = [], []
    for item in items:
        words = norm_text(item["text"])
        hit = next((i for i, (p, t) in enumerate(texts) if i not in taken and p == item["page"] and words in t), None)
        if hit is None:
            missed.append(f"p{item['page']} {item['text'][:50]}")
            continue
        taken.add(hit)
        matched += 1
        x = q.questions[hit]
        want = item["options"]
        right_choices = (
            item["choice"]
            and bool(x.choices)
            and (not want or (len(x.choices) == len(want) and all(map(_same_option, x.choices, want))))
        )
        ok = right_choices or (item["text_place"] and (bool(x.text_cell) or (item["either"] and bool(x.choices))))
        good += ok
        if not ok and len(wrong) < 6:
            wrong.append(f"p{item['page']} {item['text'][:40]}: choices {list(x.choices)[:4]} text {bool(x.text_cell)}")
    extra = [f"p{texts[i][0]} {q.questions[i].text[:60]}" for i in range(len(texts)) if i not in taken]
    return {
        "truth": len(items),
        "found": len(texts),
        "matched": matched,
        "usable_n": good,
        "recall": ratio(matched, len(items)),
        "precision": ratio(matched, len(texts)),
        "usable": ratio(good, len(items)),
        "missed": missed[:6],
        "not_usable": wrong,
        "extra": extra[:6],
    }


def score_print(path: Path, items: list[dict], folder: Path, variant: tuple[str, str], paged: bool = False) -> dict:
    """One file printed in one variant (with the page furniture where ``paged``), read and scored."""
    rulings, paper = variant
    out = folder / f"{path.stem}_{rulings.replace(' ', '-')}_{paper}{'_paged' if paged else ''}.pdf"
    root, drawn = print_docx(path, out, rulings, paper, paged)
    carried = truth_items(root, drawn, items)
    head = {"file": path.name, "rulings": rulings, "paper": paper, "paged": paged}
    return read_and_score(out, carried, head | {"not_drawn": len(items) - len(carried)})


def read_and_score(pdf: Path, carried: list[dict], head: dict) -> dict:
    """The printed ``pdf`` read by the flat PDF reader and scored against the ``carried`` truth (its
    items with their pages), after ``head`` (the print's name): with its pages, reading seconds and the
    trivial baseline; a refused file scores nothing and says why."""
    started = time.perf_counter()
    try:
        q, error = read_pdf_questionnaire(pdf), ""
    except QuestionnaireError as exc:
        q, error = None, str(exc)
    seconds = round(time.perf_counter() - started, 2)
    with pymupdf.open(pdf) as doc:
        head = head | {"pages": doc.page_count, "seconds": seconds, "baseline": pdf_baseline(pdf, carried)}
    if q is None:
        return head | {"truth": len(carried), "found": 0, "matched": 0, "usable_n": 0, "error": error[:200]}
    return head | score(q, carried)


def summary(rows: list[dict]) -> dict:
    """The prints' figures together: truth, found, recall, precision, usable, refused files, reading seconds."""
    truth = sum(r["truth"] for r in rows)
    found = sum(r["found"] for r in rows)
    matched = sum(r["matched"] for r in rows)
    return {
        "prints": len(rows),
        "truth": truth,
        "found": found,
        "recall": ratio(matched, truth),
        "precision": ratio(matched, found),
        "usable": ratio(sum(r["usable_n"] for r in rows), truth),
        "refused": sum(1 for r in rows if "error" in r),
        "intake_seconds": round(sum(r["seconds"] for r in rows), 1),
    }


def bench_word_printed(
    per_file: int = 2,
    folder: Path | None = None,
    keep: Path | None = None,
    only: str | None = None,
    paged: bool = False,
) -> dict:
    """Each shared Word file with a truth printed in ``per_file`` variants, read and scored (see the
    module docstring); ``only``: the files whose name holds it; ``keep``: a folder to leave the PDFs in;
    ``paged``: the same variants printed with the page furniture (PAGED)."""
    folder = folder or shared_data() / "questionnaires" / "docx"
    truth = truth_places(TRUTH)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        for k, (name, entry) in enumerate(sorted(truth.items())):
            path = folder / name
            if not path.is_file() or (only and only not in name):
                continue
            for j in range(per_file if len(entry["questions"]) <= BIG else 1):
                variant = VARIANTS[(k + j * 2) % len(VARIANTS)]
                rows.append(score_print(path, entry["questions"], out, variant, paged))
    by_variant: dict[str, list[dict]] = {}
    by_file: dict[str, list[dict]] = {}
    for r in rows:
        by_variant.setdefault(r["rulings"], []).append(r)
        by_variant.setdefault(r["paper"], []).append(r)
        by_file.setdefault(r["file"], []).append(r)
    return {
        "variants_per_file": per_file,
        "paged": paged,
        "all": summary(rows),
        "by_file": {f: summary(rs) for f, rs in by_file.items()},
        "by_variant": {v: summary(rs) for v, rs in by_variant.items()},
        "prints": rows,
    }


__all__ = [
    "PAGED",
    "PAPERS",
    "RULINGS",
    "VARIANTS",
    "bench_word_printed",
    "item_kind",
    "print_docx",
    "read_and_score",
    "score",
    "summary",
    "truth_items",
    "wrap",
]
