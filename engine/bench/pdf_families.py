"""PDF questionnaires of the families that go wrong, drawn here by a written rule (``python -m engine
bench pdf-families --json``, #55): many variants of each family are drawn with PyMuPDF into a
temporary folder, the generator recording each question's ID, text, page and answer place as it
draws it (the truth: made by the drawing, independent of the reader), then each file is read and
scored question by question (engine/bench/pdf_places.py's scorer) beside the trivial baseline
(every line with "?" or "？"). A question is usable only when its text is the row's whole text
(compared without spaces, dashes and case).

**Families** (what real authors and printers vary):

- ``option table, ruled`` / ``option table, aligned``: a requirement table, ID | requirement |
  option columns (In Place / Not Applicable / Not in Place; Yes / No / N/A; Ja / Nein; Oui / Non;
  はい / いいえ) | notes, drawn with rules or with columns aligned by text position only (no lines);
  the truth: one question per row, its choices the option columns' labels;
- ``text table, ruled`` / ``text table, aligned``: ID | requirement | answer | notes, the answer a
  text place (no choices);
- ``form over a table``: the ruled requirement table with AcroForm fields in its cells (a combo box
  per row for the response, a text field for the comments), its widgets' ``/Rect`` stored upside
  down on some rows, combo boxes shipped showing "Select…", text fields prefilled "Insert …" or
  "YYYY-MM-DD": one question per row, its choice the combo, its text the comments field, none
  answered;
- ``numbered checklist``: no table: the instructions as bullets, then eight questions numbered "1."
  / "1.2" / "a)", each its text wrapped after its number and its options' marks ("☐ Yes ☐ No", drawn
  squares before the labels, or "Yes / No" to circle; Yes / No / N/A, Ja / Nein, Oui / Non) beside
  its first line at the right or on a line below; in English, German or French; statements or
  questions; one page or two; section headings or none: one question per number, its ID the number
  without its closing "." or ")", its choices the labels;
- ``numbered checklist, two columns``: the same questions in two columns on one page (four in each,
  the instructions at the top of the left one), so that a line of the left column and one of the
  right share a baseline.
- the layouts of engine/bench/pdf_layouts.py (its docstring): ``web form printout`` (a browser's
  printout of a web form: bold labels, options one a line running onto the next page, a guidance
  panel beside or below some questions that is no part of them), ``unnumbered questions, two
  columns``, ``questions in three columns``, ``Japanese checklist`` and the option tables with a
  two-row header and a row broken across the page break (``two-row header, row broken, ruled`` /
  ``aligned``); and what the reader did not meet: ``web form printout, panels without a label`` (or
  labelled "Note:") and ``questions in three unequal columns`` (where two columns also look right).

**The axes, varied by one rule**: each axis's values are repeated in turn up to the number of
variants and shuffled by ``random.Random`` seeded with the family and the axis's name; variant
``i`` takes the ``i``-th of each (every value of every axis drawn as often as the others, in
changing company, with no two axes tied together): language (English, German, French, Japanese: headers "Requirement / Response / Comments",
"Anforderung / Antwort / Bemerkung", "Exigence / Réponse / Remarque", "要求事項 / 回答 / 備考"),
option labels (tied to the language, English drawing three sets), the IDs (1.2.3, A.1, REQ-001,
full-width １．２．３), the header one or two rows deep (two: "Response" spanning the option labels,
ID and requirement cells spanning both rows), the marks in option cells (nothing, ☐ glyphs, drawn
squares), a guidance column after the requirement or none ("Expected Testing", "Prüfhinweise",
"Méthode de vérification", "確認方法": the PCI SAQ's, no notes column then), statements as "shall" /
imperative sentences without "?" or as questions, section rows across the table or none
("Requirement 2: Apply secure configurations …", before the first row and the fourth), the ID in a
column of its own or starting the requirement's cell ("1.2.1 The provider shall …"), the pages (one,
two with the header repeated, two without, and two with a row broken across the page break: the
last row of the first page lengthened by a second sentence, its first half of lines with its ID and
marks on the first page, the rest of its requirement at the top of the next, under the header repeated
or not; its truth the whole text on the first page), and the page portrait or landscape. Every page has a
running header and the first page a title and instruction bullets, which are no questions.

Per family: recall, precision and usable (a choice question's choices are the option labels; a text
question has a text place, Yes / No beside it allowed where it asks so; a form question's fields are
exactly the row's and its text the row's requirement), shipped placeholders and defaults taken as
answers (``placeholders_taken``), files refused, the baseline's
recall and precision, intake seconds; and per axis value the same, so a failure names what causes
it.
"""

from __future__ import annotations

import re
import tempfile
import time
import unicodedata
from dataclasses import replace
from pathlib import Path

import pymupdf

from engine.bench.document_places import ratio
from engine.bench.pdf_drawing import (
    BREAK,
    CHECK_MARKS,
    CHECK_OPTIONS,
    CHECK_PAGING,
    CHECKLISTS,
    FAMILIES,
    FORM_FIELDS,
    FORM_PAGING,
    GUIDANCE,
    HEADERS,
    ID_PLACES,
    IDS,
    LANGUAGES,
    LAYOUTS,
    LINE,
    MARGIN,
    MARKS,
    MORE_LAYOUTS,
    NUMBERS,
    ORIENTATION,
    PAGING,
    PLACES,
    ROWS,
    SECTION_AT,
    SECTIONS,
    SIZE,
    WORDING,
    Language,
    Sheet,
    Variant,
    _axis,
    _ident,
    _japanese,
    _square,
    _wrap,
    _write,
)
from engine.bench.pdf_layouts import draw_layout, layout_variants
from engine.bench.pdf_places import fields_of, norm_text, pdf_baseline, score_pdf_places
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.records import QuestionnaireError


def variants(family: str, count: int) -> list[Variant]:
    """The family's first ``count`` variants by the rule of the module docstring."""
    if family in LAYOUTS[4:]:
        return _broken(family, count)
    if family in LAYOUTS or family in MORE_LAYOUTS:
        return layout_variants(family, count)
    if family in CHECKLISTS:
        return _checklists(family, count)
    option_sets = [(lang, opts) for lang in LANGUAGES for opts in lang.options]
    sets = option_sets if family.startswith("option") else [(lang, ()) for lang in LANGUAGES]
    form = family == "form over a table"

    def axis(name: str, values: tuple | list) -> list:
        return _axis(family, name, values, count)

    language, ids, header, marks = (
        axis("language", sets),
        axis("ids", IDS),
        axis("header", HEADERS),
        axis("marks", MARKS),
    )
    wording, paging = axis("wording", WORDING), axis("paging", FORM_PAGING if form else PAGING)
    turned = axis("orientation", ORIENTATION)
    fields, guidance, sections = axis("fields", FORM_FIELDS), axis("guidance", GUIDANCE), axis("sections", SECTIONS)
    id_place = axis("id place", ID_PLACES)
    return [
        Variant(
            family,
            language[i][0],
            language[i][1],
            ids[i],
            header[i] if language[i][1] else 1,
            marks[i] if language[i][1] else "none",
            wording[i],
            paging[i],
            turned[i],
            fields[i] if form else "",
            "none" if form else guidance[i],
            sections[i],
            id_place[i],
        )
        for i in range(count)
    ]


def _broken(family: str, count: int) -> list[Variant]:
    """An option table (ruled or aligned, as ``family`` ends) with a two-row header and a row broken
    across the page break, under the header repeated or not (engine/bench/pdf_layouts.py's docstring)."""
    base = variants("option table, ruled" if family.endswith("ruled") else "option table, aligned", count)
    paging = _axis(family, "paging", PAGING[3:], count)
    marks = _axis(family, "marks", MARKS, count)
    return [replace(v, family=family, header=2, paging=paging[i], marks=marks[i]) for i, v in enumerate(base)]


def _checklists(family: str, count: int) -> list[Variant]:
    """A numbered checklist's variants: English, German or French, its numbering, its options' marks
    and their place, the wording, the pages (one column only: a two-column page holds all eight),
    the orientation and section headings."""
    sets = [(lang, opts) for lang in LANGUAGES for opts in CHECK_OPTIONS.get(lang.code, ())]
    language, ids = _axis(family, "language", sets, count), _axis(family, "ids", NUMBERS, count)
    marks, place = _axis(family, "marks", CHECK_MARKS, count), _axis(family, "place", PLACES, count)
    wording, turned = _axis(family, "wording", WORDING, count), _axis(family, "orientation", ORIENTATION, count)
    paging = _axis(family, "paging", CHECK_PAGING if family == CHECKLISTS[0] else ("one page",), count)
    sections = _axis(family, "sections", SECTIONS, count)
    return [
        Variant(
            family,
            language[i][0],
            language[i][1],
            ids[i],
            1,
            marks[i],
            wording[i],
            paging[i],
            turned[i],
            sections=sections[i],
            id_place="",
            place=place[i],
        )
        for i in range(count)
    ]


def _columns(v: Variant, width: float) -> list[tuple[str, float, str]]:
    """(header label, width, role) of each column."""
    lang = v.language
    fixed = [(lang.id_head, 55.0, "id")] if v.id_place == "own column" else []
    if v.options:
        fixed += [(o, 58.0, "option") for o in v.options]
    elif v.family == "form over a table":
        fixed += [(lang.response, 90.0, "response")]
    else:
        fixed += [(lang.answer, 130.0, "answer")]
    n = len(fixed) - sum(1 for _, _, role in fixed if role != "id")  # the ID column, if any, before the requirement
    if v.guidance != "none":  # a guidance column after the requirement, no notes (the PCI SAQ's "Expected Testing")
        guide = (lang.guidance[0], 110.0, "guidance")
        used = sum(w for _, w, _ in fixed) + guide[1]
        return [*fixed[:n], (lang.question, width - used, "question"), guide, *fixed[n:]]
    notes = (lang.notes, 110.0, "notes")
    used = sum(w for _, w, _ in fixed) + notes[1]
    return [*fixed[:n], (lang.question, width - used, "question"), *fixed[n:], notes]


def _header(s: Sheet, cols: list[tuple[str, float, str]], ruled: bool) -> None:
    page, v = s.page, s.variant
    assert page is not None
    x0, top = MARGIN, s.y
    deep = v.header == 2 and v.options
    height = 2 * 16.0 if deep else 16.0
    x = x0
    first_option = next((i for i, c in enumerate(cols) if c[2] == "option"), None)
    for i, (label, w, role) in enumerate(cols):
        if deep and role == "option":
            if i == first_option:  # the spanning label over the option labels
                span = sum(c[1] for c in cols if c[2] == "option")
                if ruled:
                    page.draw_rect(pymupdf.Rect(x, top, x + span, top + 16), color=(0, 0, 0), width=0.6)
                _write(page, x + 3, top + 11, v.language.response)
            if ruled:
                page.draw_rect(pymupdf.Rect(x, top + 16, x + w, top + 32), color=(0, 0, 0), width=0.6)
            _write(page, x + 3, top + 27, label)
        else:
            if ruled:
                page.draw_rect(pymupdf.Rect(x, top, x + w, top + height), color=(0, 0, 0), width=0.6)
            _write(page, x + 3, top + 11, label)
        x += w
    s.y = top + height


def _section(s: Sheet, title: str, ruled: bool) -> None:
    """A section row: its title in one cell across the table."""
    assert s.page is not None
    right = s.page.rect.width - MARGIN
    if ruled:
        s.page.draw_rect(pymupdf.Rect(MARGIN, s.y, right, s.y + 16), color=(0, 0, 0), width=0.6)
    _write(s.page, MARGIN + 3, s.y + 11, title)
    s.y += 16


def _field(page: pymupdf.Page, kind: int, name: str, rect: pymupdf.Rect, value: str = "", choices=None) -> None:
    w = pymupdf.Widget()
    w.field_type = kind
    w.field_name = name
    w.rect = rect
    if choices:
        w.choice_values = list(choices)
    if value:
        w.field_value = value
    page.add_widget(w)


def _invert(doc: pymupdf.Document, page: pymupdf.Page, name: str) -> None:
    """The widget ``name``'s /Rect stored upside down (y1 < y0), as some authoring tools write it."""
    for w in page.widgets():
        if w.field_name == name:
            x0, y0, x1, y1 = (float(t) for t in doc.xref_get_key(w.xref, "Rect")[1].strip("[]").split())
            doc.xref_set_key(w.xref, "Rect", f"[{x0} {y1} {x1} {y0}]")


def draw(v: Variant, path: Path) -> list[dict]:
    """Draw variant ``v`` at ``path``; the truth items (page, id, text, choices or fields)."""
    doc = pymupdf.open()
    s = Sheet(doc, v)
    if v.family in LAYOUTS[:4] or v.family in MORE_LAYOUTS:
        if v.family not in (LAYOUTS[0], MORE_LAYOUTS[0]):  # a web form printed: the browser's running header
            s.new_page()
            _write(s.page, MARGIN, s.y + 10, v.language.title, size=11)
            s.y += 24
        items = draw_layout(s)
        doc.save(path)
        doc.close()
        return items
    page = s.new_page()
    lang = v.language
    _write(page, MARGIN, s.y + 10, lang.title, size=11)
    s.y += 24
    if v.family in CHECKLISTS:
        items = _draw_checklist(s)
    else:
        for b in lang.bullets:
            _write(page, MARGIN + 4, s.y + 8, "•")
            _write(page, MARGIN + 14, s.y + 8, b)
            s.y += 13
        s.y += 10
        items = _draw_table(s)
    doc.save(path)
    doc.close()
    return items


def _draw_table(s: Sheet) -> list[dict]:
    """The requirement table of ``s.variant`` from ``s.y``; its truth items. A row broken across
    the page break (paging "row broken, …": the last row of the first page) has its first half of
    lines, its ID and its marks on the first page, the rest of its requirement at the top of the
    next (under the header repeated or not); its truth is the whole text, on the first page."""
    v, lang = s.variant, s.variant.language
    assert s.page is not None
    ruled = not v.family.endswith("aligned")  # "option table, aligned", "two-row header, row broken, aligned"
    cols = _columns(v, s.page.rect.width - 2 * MARGIN)
    _header(s, cols, ruled)
    texts = lang.statements if v.wording == "statement" else lang.questions
    items: list[dict] = []
    deferred: list[tuple[int, str]] = []
    broken = v.paging.startswith("row broken")
    for r in range(ROWS):
        if r == BREAK and v.paging != "one page" and not broken:
            _next_page(s, cols, ruled)
        if v.sections != "none" and r in (0, SECTION_AT):  # a section's title across the table: no question
            _section(s, lang.sections[0 if r == 0 else 1], ruled)
        ident = _ident(v.ids, r + 1)
        text = texts[r % len(texts)]
        if broken and r == BREAK - 1:
            text = f"{text} {lang.more}"
        qwidth = next(w for _, w, role in cols if role == "question") - 6
        cell = text if v.id_place == "own column" else f"{ident} {text}"
        if broken and r == BREAK - 1:  # two lines at least, of about equal length, in a wide cell
            qwidth = min(qwidth, len(cell) * SIZE * (1.0 if _japanese(cell) else 0.5) / 2 + 20)
        lines = _wrap(cell, qwidth)
        gwidth = next((w for _, w, role in cols if role == "guidance"), 0.0)
        guide = _wrap(lang.guidance[1], gwidth - 6) if gwidth else []
        item: dict = {"page": s.page.number + 1, "id": ident, "text": text}
        if broken and r == BREAK - 1:
            half = (len(lines) + 1) // 2
            _row(s, cols, ruled, ident, lines[:half], guide, item, deferred, r)
            _next_page(s, cols, ruled)
            _row(s, cols, ruled, "", lines[half:], [], None, deferred, r)
        else:
            _row(s, cols, ruled, ident, lines, guide, item, deferred, r)
        if v.options:
            item["choices"] = list(v.options)
        items.append(item)
    for pno, name in deferred:
        _invert(s.doc, s.doc[pno], name)
    return items


def _next_page(s: Sheet, cols: list[tuple[str, float, str]], ruled: bool) -> None:
    s.new_page()
    if "header repeated" in s.variant.paging:
        _header(s, cols, ruled)


def _row(
    s: Sheet,
    cols: list[tuple[str, float, str]],
    ruled: bool,
    ident: str,
    lines: list[str],
    guide: list[str],
    item: dict | None,
    deferred: list[tuple[int, str]],
    r: int,
) -> None:
    """One row (or the part of a broken row on one page: ``item`` None for its continuation, which
    has no ID, no marks and no fields) at ``s.y``; a form row's fields recorded in ``item``."""
    v, page = s.variant, s.page
    assert page is not None
    height = LINE * max(len(lines), len(guide), 1) + 8
    x = MARGIN
    for _label, w, role in cols:
        cell = pymupdf.Rect(x, s.y, x + w, s.y + height)
        if ruled:
            page.draw_rect(cell, color=(0, 0, 0), width=0.6)
        if role == "id" and ident:
            _write(page, x + 3, s.y + 11, ident)
        elif role in ("question", "guidance"):
            for k, line in enumerate(lines if role == "question" else guide):
                _write(page, x + 3, s.y + 11 + k * LINE, line)
        elif role == "option" and item is not None:
            if v.marks == "glyph":
                _write(page, x + w / 2 - 4, s.y + 12, "\u2610", size=9)
            elif v.marks == "square":
                _square(page, x + w / 2 - 4, s.y + 12)
        elif v.family == "form over a table" and role in ("response", "notes") and item is not None:
            _form_cell(s, pymupdf.Rect(x + 2, s.y + 2, x + w - 2, s.y + height - 2), role, item, deferred, r)
        x += w
    s.y += height


def _form_cell(s: Sheet, box: pymupdf.Rect, role: str, item: dict, deferred: list[tuple[int, str]], r: int) -> None:
    """A form row's field in its response or notes cell, as the variant's fields say."""
    v, page = s.variant, s.page
    assert page is not None
    name = f"row{r + 1}.{role}"
    combo = role == "response" and "combo" in v.fields
    if role == "notes" and v.fields != "combo and comments":
        return  # the comments column printed, no field in it
    if combo:
        _field(page, pymupdf.PDF_WIDGET_TYPE_COMBOBOX, name, box, "Select…", ("Select…", *_yes_no(v.language)))
        item["choice_fields"] = [name]
    elif role == "notes" or v.fields == "text only":
        shipped = ("Insert CSP Name", "YYYY-MM-DD", "")[r % 3]
        _field(page, pymupdf.PDF_WIDGET_TYPE_TEXT, name, box, shipped)
        item["text_field"] = name
    if r % 2 and (combo or "text_field" in item and item["text_field"] == name):
        deferred.append((page.number, name))


CHECK_INDENT = 22.0  # a checklist question's text after its number
GUTTER = 24.0  # between the columns of a two-column page


def _draw_checklist(s: Sheet) -> list[dict]:
    """A numbered checklist from ``s.y``: the instructions as bullets, then the eight questions (a
    section heading before the first and the fourth, where the variant has them), each its number,
    its text wrapped and its options' marks beside its first line (at the column's right) or on a
    line below; on two pages from the sixth question, or in two columns (four questions each, the
    instructions at the top of the left one). The truth: a question per number, its ID the number
    without its closing "." or ")", its text, its choices the labels."""
    v, lang = s.variant, s.variant.language
    assert s.page is not None
    two = v.family == CHECKLISTS[1]
    width = s.page.rect.width - 2 * MARGIN
    cw = (width - GUTTER) / 2 if two else width
    top = s.y
    for b in lang.bullets:
        for k, line in enumerate(_wrap(b, cw - 14)):
            if k == 0:
                _write(s.page, MARGIN + 4, s.y + 8, "•")
            _write(s.page, MARGIN + 14, s.y + 8, line)
            s.y += LINE + 1
        s.y += 2
    s.y += 8
    texts = lang.statements if v.wording == "statement" else lang.questions
    items: list[dict] = []
    x = MARGIN
    for r in range(ROWS):
        if two and r == ROWS // 2:
            x, s.y = MARGIN + cw + GUTTER, top
        elif r == BREAK and v.paging == "two pages":
            s.new_page()
        if v.sections != "none" and r in (0, SECTION_AT):
            for line in _wrap(lang.sections[0 if r == 0 else 1], cw):
                _write(s.page, x, s.y + 9, line, size=9)
                s.y += 12
            s.y += 3
        label = _ident(v.ids, r + 1)
        text = texts[r % len(texts)]
        _check_item(s, x, cw, label, text)
        items.append({"page": s.page.number + 1, "id": label.rstrip(".)"), "text": text, "choices": list(v.options)})
    return items


def _check_item(s: Sheet, x: float, cw: float, label: str, text: str) -> None:
    """One numbered question at ``x`` in a column ``cw`` wide, its marks beside or below."""
    v, page = s.variant, s.page
    assert page is not None
    marks_w = sum(_mark_width(o) for o in v.options)
    beside = v.place == "beside"
    lines = _wrap(text, cw - CHECK_INDENT - (marks_w + 12 if beside else 0))
    _write(page, x, s.y + 9, label)
    for k, line in enumerate(lines):
        _write(page, x + CHECK_INDENT, s.y + 9 + k * LINE, line)
    if beside:
        _marks(page, x + cw - marks_w, s.y + 9, v)
        s.y += LINE * len(lines)
    else:
        s.y += LINE * len(lines) + 2
        _marks(page, x + CHECK_INDENT, s.y + 9, v)
        s.y += LINE
    s.y += 8


def _mark_width(label: str) -> float:
    return pymupdf.get_text_length(label, fontname="helv", fontsize=SIZE) + 22


def _marks(page: pymupdf.Page, x: float, y: float, v: Variant) -> None:
    """The options' marks with their baseline at ``y``: "☐ Yes  ☐ No", drawn squares before the
    labels, or the labels "Yes / No" to circle."""
    if v.marks == "words":
        _write(page, x, y, " / ".join(v.options))
        return
    for o in v.options:
        if v.marks == "glyph":
            _write(page, x, y, "\u2610", size=9)
        else:
            _square(page, x, y)
        _write(page, x + 11, y, o)
        x += _mark_width(o)


def _yes_no(lang: Language) -> tuple[str, ...]:
    return {"de": ("Ja", "Nein"), "fr": ("Oui", "Non"), "ja": ("はい", "いいえ")}.get(lang.code, ("Yes", "No", "N/A"))


def _fold(text: str) -> str:
    return re.sub(r"[\s\-–]+", "", unicodedata.normalize("NFKC", text)).casefold()


def score_variant(v: Variant, folder: Path) -> dict:
    """Draw, read and score one variant."""
    path = folder / f"{v.family.replace(', ', '_').replace(' ', '-')}_{v.name}.pdf"
    items = draw(v, path)
    started = time.perf_counter()
    try:
        q = read_pdf_questionnaire(path)
        error = ""
    except QuestionnaireError as exc:
        q, error = None, str(exc)
    seconds = time.perf_counter() - started
    base = pdf_baseline(path, items)
    out = {"file": path.name, "axes": v.axes(), "truth": len(items), "seconds": round(seconds, 3), "baseline": base}
    if q is None:
        return out | {"found": 0, "matched": 0, "usable_n": 0, "placeholders_taken": 0, "error": error[:200]}
    scored = score_pdf_places(q, [_for_scorer(i) for i in items])
    usable = _form_usable(q, items) if v.family == "form over a table" else _flat_usable(q, items)
    taken = sum(1 for x in q.questions if x.answered)
    return out | {
        "found": scored["found"],
        "matched": scored["matched"],
        "usable_n": round(usable * len(items)),
        "placeholders_taken": taken,
        "missed": scored["missed"][:3],
        "extra": scored["extra"][:3],
    }


def _for_scorer(item: dict) -> dict:
    out = dict(item)
    out["id"] = unicodedata.normalize("NFKC", item["id"])
    out.pop("choices", None)
    return out


def _flat_usable(q, items: list[dict]) -> float:
    """The share of the truth whose question (matched by ID, or by text where it has none) is the row's whole text (compared without
    spaces, dashes and case: a row broken across pages joined, nothing of the marks or the next
    column in it) and has the right answer place: the option labels as its choices in an option table
    or a checklist, a text place in a text table (Yes / No offered beside it for a question that asks
    so)."""
    by_id = {}
    for x in q.questions:
        by_id.setdefault(_fold(x.id or ""), x)
    good = 0
    for item in items:
        x = by_id.get(_fold(item["id"])) if item["id"] else _by_text(q, item["text"])
        if x is None:
            continue
        want = [_fold(o) for o in item.get("choices", ())]
        if _fold(x.text) != _fold(item["text"]):
            continue
        if (want and [_fold(c) for c in x.choices] == want) or (not want and x.text_cell):
            good += 1
    return good / len(items) if items else 0.0


def _by_text(q, text: str):
    """The question whose text is ``text`` (an unnumbered question of the truth has no ID to match by)."""
    return next((x for x in q.questions if _fold(x.text) == _fold(text)), None)


def _form_usable(q, items: list[dict]) -> float:
    """The share of the truth answered by one question in exactly the row's fields (its combo the
    choice, its text field the text) whose text is the row's requirement (its first three words;
    not the column's header "Response" or a field's name)."""
    found = fields_of(q)
    good = 0
    for item in items:
        want = (set(item.get("choice_fields", ())), {item["text_field"]} if "text_field" in item else set())
        words = " ".join(norm_text(item["text"]).split()[:3])
        good += any(f == want and words in norm_text(x.text) for f, x in zip(found, q.questions))
    return good / len(items) if items else 0.0


def _summary(rows: list[dict]) -> dict:
    truth = sum(r["truth"] for r in rows)
    found = sum(r["found"] for r in rows)
    matched = sum(r["matched"] for r in rows)
    bfound = sum(r["baseline"]["found"] for r in rows)
    bmatched = sum(round((r["baseline"]["recall"] or 0) * r["truth"]) for r in rows)
    return {
        "files": len(rows),
        "truth": truth,
        "found": found,
        "recall": ratio(matched, truth),
        "precision": ratio(matched, found),
        "usable": ratio(sum(r["usable_n"] for r in rows), truth),
        "placeholders_taken": sum(r["placeholders_taken"] for r in rows),
        "refused": sum(1 for r in rows if "error" in r),
        "baseline": {"recall": ratio(bmatched, truth), "precision": ratio(bmatched, bfound)},
        "intake_seconds": round(sum(r["seconds"] for r in rows), 2),
    }


def bench_pdf_families(count: int = 12, families: tuple[str, ...] = FAMILIES, keep: Path | None = None) -> dict:
    """``count`` variants of each family drawn, read and scored (see the module docstring); ``keep``:
    a folder to leave the drawn PDFs in (default: a temporary one, removed)."""
    out: dict = {"variants_per_family": count, "families": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        everything: list[dict] = []
        for family in families:
            rows = [score_variant(v, folder) for v in variants(family, count)]
            everything += rows
            by_axis: dict[str, dict[str, list[dict]]] = {}
            for r in rows:
                for axis, value in r["axes"].items():
                    by_axis.setdefault(axis, {}).setdefault(value, []).append(r)
            out["families"][family] = _summary(rows) | {
                "by_axis": {
                    axis: {value: _brief(_summary(rs)) for value, rs in values.items()}
                    for axis, values in by_axis.items()
                    if len(values) > 1
                },
                "worst": sorted(rows, key=lambda r: (r["matched"] / r["truth"], -r["found"]))[:3],
            }
        out["all"] = _summary(everything)
    return out


def _brief(summary: dict) -> dict:
    return {k: summary[k] for k in ("files", "recall", "precision", "usable")}


__all__ = ["FAMILIES", "bench_pdf_families", "draw", "variants"]
