"""The questions of a flat PDF (no form fields): in its tables and in its numbered, bulleted and
checklist lines. The page has no place for an answer, so every answer place is a ``RESPONSE``
(the answers go into a Word response document and a spreadsheet: engine/questionnaire/pdf/response.py).

**Tables** (MuPDF's ``find_tables``, ruled tables): the header row names the columns (reader.py's
labels: "Question" / "Question Text", "Answer" / "Response", "Comments" / "Implementation …";
"Question ID" / "Number" / "#" for the ID). Every row below with a question (and, where there is an
ID column, an ID) is a question; a row with no ID at the top of a page (a table with no text above
it but a running header) continues the question above it. A table on the next page without a header (the AWS CAIQ repeats none) takes the
columns of the last header whose columns it lines up with. A table without a header is read when
one of its columns holds questions (cells ending in "?"). A **filled** table's answer column is
read as the existing choice and its comment column as the existing answer (the AWS and GCP CAIQ
PDFs: past answers for ``library import``). A ruled row whose ID cell holds several numbered IDs on
lines of their own is one question per ID (the UK PPN 03/24's "4.1(j)", "4.1(j) - (i)" …); a header
naming only an answer column asks in the labelled column left of it; a header-less table right under
another, across its width, is its lower half; a table inside another and a one-cell title row are
neither, nor is a frame (one cell covering 80 % of the table: a printed web form's white panel
with a box to tick on its edge), whose lines are read as the page's. A header-less table whose asking column has neither IDs nor a column for answers beside it
is guidance quoting the questions, not a questionnaire. A table read by its header is listed in the
mapping and corrected per table (:class:`FlatTables`), as an option table is: its columns made the
options of one choice per row ("Yes | No | N/A" drawn without boxes) are read as an option table's
(two or more) or as ticks under the one column's header, a mark in a cell ("X", "✓") the row's
existing choice.

**Boxes drawn** as small empty squares, radio circles (stroked, or grey rings filled even-odd) and
squares of four thin bars are read as ☐, and so are "○", "◯" and "( )" one a line under a question (layout.drawn_boxes, at most 2,000 a page; a radio with a
filled dot inside as ☒, the choice made): a row of boxes with labels ("☐ Yes ☐ No") beside a label
or under a question is its options, and so is a run of them one a line right under a question (a web
form printed: "○ UK Company - VAT Registered in the UK" / "○ EU Company …", over a page's footer to
the next page's top); a table of statements each after a box is one question of those options
("Select one:"); a label with a blank after it ("Title:       ") is a question wherever it is.

A **checklist** (a header of short labels naming no column's role over items each beside a box alone,
"SCHEDULE HEADING | COMPLETED?", or over an empty cell under option words, "Document | Y / N") is one
question per item, ruled or aligned by text position (boxes.py ``checklist_rows``). A line of labels
each **glued to underscores** ("Bank Name_____ Account Name_____", no colon) is a form's fields, and an
item numbered by a section's **letter and a number** ("A-2 Registration Number", "C-1 Please provide …")
is a numbered item, a question when it asks or over a blank space of three lines or more (lines.py).
A label with **one box after it** ("Yes I have a Statement      ☐", "… for this contract ☐", one a
paragraph; its label wrapped, the box after its last line's words or alone on the line under it) is an
option named by its words whole, a run of them the choice of the paragraph above whose last sentence
asks, or of the numbered item wrapped above it; a row holding a box heads no table aligned by text
position (lines.py, aligned.py). Option words each before its box ("Yes ☐ No ☐") under a request, and
option words joined by "/" after a tab at a line's end ("… 2015?      Yes/No"), are its options. A
marked item's lines wrapped back to its marker end where the spacing grows by half a line: the
paragraph under them is one of its own. A table row without an ID that is a condition ending with ":"
("If No to the above question then:") introduces the rows under it: no question (rows.py).
A label ending with ":" followed on its line by a **date's format mask** ("Self-assessment completion
date: YYYY-MM-DD") is a field (lines.py; not in a boxed option's text), and so is a **label alone right
under a signature's row** ("Signature of Lead QSA | Date: …" over "Lead QSA Name:", panels.py). An **ID
wrapped at its last dot** in a narrow column ("9.4.1." over "1", a number alone at the ID's left edge)
is read whole ("9.4.1.1": ruled.py ``joined_ids``, for cells and aligned rows). With **horizontal
rules only**, a row whose text all starts at one place (a title, "Applicability Notes" and its note across
columns) says nothing of the columns under it, a phrase crossing a column's edge keeps its cell whole
("(Check one response for each" over the option columns), and "PCI DSS Requirement" names its last
word's column (striped.py). In a ruled form, a **prompt merged down** beside one box a row ("If a QSA was
involved …:" beside "☐ QSA performed …" over "☐ QSA provided …") is one question of those boxes, and a
row of labels ending with ":" right **under a signature's row** ("Merchant Executive Officer Name: |
Title:") is one field per label (boxes.py ``form_rows``), and so, with horizontal rules only, is a prompt ending
with ":" beside a box over rows each starting with a box at that place (striped.py ``_box_forms``); a lead-in ending with ":" and an instruction in
brackets ("Signatory(s) confirms: (Select all that apply)") heads the run of boxes under it (lines.py). In any
language, **option labels over a column of boxes** are options whatever their words ("Umgesetzt | Nicht
zutreffend" over ☐: aligned.py, table_model.py), a word broken in a narrow column is joined back
("Umgeset" / "zt": ruled.py ``unbroken``), and a line filled to its cell's edge is parted from the next
column's first word by a space wider than its others (striped.py ``_spans``).

**Guidance panels** ("Guidance", "Help", "Hinweis" over a few lines in a drawn box or shaded panel,
or in a band of their own right of the questions: a web form printed) are no part of any question:
their lines are left out (panels.py). **Lines** outside tables, a page set in two or three columns
read column by column (columns.py): an item
starts with a marker (a bullet ●•▪◦–, a drawn box ☐ or the
keycap ⃣ OpenChain's checklist uses, a number "1." "1.2" "a)" "(iv)") and goes on over the lines
indented under its text (or wrapped back to its marker, in one MuPDF block). An item is a question
when it asks: it holds "?" or starts with a word that asks (Do, Is, Have, Describe, Provide, List,
Explain, Indicate …); a checklist statement (a box before it: "☐ We have a documented policy …") is
a question to tick; an item of a run the document numbers as its questions (five or more numbered
one after the other at one left edge, two thirds of them asking: the CCS RM6264 web form printed)
is one whatever its words, a paragraph asking right under it part of its text. In a document that
neither numbers its questions nor sets them in tables, a label over an answer place (an empty box or
a line to write on: "Name of the provider:", "Please provide …") or over a run of options is a
question, its closing ":" and a web form's "(required)" no part of it. A paragraph without a
marker that asks and ends with "?" is a question too ("Have you documented the awareness … on the
following topics?"). Items that do not ask, right after a question ending with "?" or ":", are
that question's sub-questions (the topics it lists); in a checklist (boxes are most of the items),
lines under a statement without a box of their own are part of it. "Where", "When", "How" … ask
only with a "?", "Please ensure / note / read …" instructs, a paragraph starting in lower case goes
on from the text above, and "■" is a bullet. Headings, requirements and instructions ("1.1 Request
for Quote: …", "A. Pool One …") are not questions: a solicitation that asks nothing has none.

IDs are the document's own: an ID column, or an item's number ("1.2", "a"); unnumbered items
have none. A question that can be answered Yes or No (it starts with Do / Is / Have / Can …, or
is a checklist statement) gets the choices Yes / No and a place for an explanation; others a
place for text.

**Tables aligned by text position only** (no line drawn: aligned.py) are found from a header line
of column labels and given to the same readers as ruled tables, continued at the next page's top
by rows starting with an ID at their first column.

The parts, each a module of its own: ruled.py (a page's ruled tables, joined, and their cells'
text), aligned.py (tables without rules, as ruled ones), header.py (a table's columns: by its header, continued, or guessed; the mapping's
corrections), rows.py (a table's questions, row by row), options.py (a table of option columns, by
the table model), boxes.py (drawn boxes, box lists and ruled forms), lines.py (the items and
paragraphs outside tables), columns.py (a page in two columns, its parts in reading order),
asking.py (what asks, what is answered Yes or No, sub-questions), panels.py (guidance panels and
answer places), sheets.py (two pages printed on one sheet, read half by half) and
found.py (the response place and :class:`FlatTables`). A page turned by ``/Rotate`` is read as a
viewer shows it (its rotation taken off in memory: a flat PDF is never written back).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pymupdf

from engine.core.limits import Limits
from engine.questionnaire.pdf.flat.aligned import aligned_tables
from engine.questionnaire.pdf.flat.columns import column_parts, table_part
from engine.questionnaire.pdf.flat.found import NO_QUESTIONS_FIX, RESPONSE_NOTE, FlatTables
from engine.questionnaire.pdf.flat.furniture import running_lines, without_running
from engine.questionnaire.pdf.flat.header import Columns
from engine.questionnaire.pdf.flat.lines import Item, item_questions, page_items
from engine.questionnaire.pdf.flat.panels import answer_places, without_panels
from engine.questionnaire.pdf.flat.rows import table_questions
from engine.questionnaire.pdf.flat.ruled import inside, ruled_tables, starts_page
from engine.questionnaire.pdf.flat.sheets import drawn, views
from engine.questionnaire.pdf.flat.striped import striped_tables
from engine.questionnaire.pdf.layout import PageText, drawn_boxes, marked_boxes, round_boxes
from engine.questionnaire.pdf.questions import Found
from engine.questionnaire.records import QuestionnaireError


@dataclass
class _Reading:
    """What reading a flat PDF page by page carries from one page to the next."""

    mapped: FlatTables
    found: list[Found] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    columns: Columns | None = None
    aligned_columns: tuple[float, ...] = ()  # the column edges of the last table aligned by text position
    chars: int = 0
    footer: tuple = ()  # the page's running footer's lines (flat/furniture.py): read with its lines only


def read_flat(
    doc: pymupdf.Document, name: str, limits: Limits, notes: list[str], tables: FlatTables | None = None
) -> list[Found]:
    """The questions of a flat PDF (see the module docstring); ``tables``: the corrections of its
    tables in, the tables the table model read out."""
    state = _Reading(tables if tables is not None else FlatTables())
    texts = []
    for page in doc:
        if page.rotation:  # turned by /Rotate (scanned and OCRed, a landscape table): read as a viewer shows it
            page.remove_rotation()  # in memory only: a flat PDF is never written back
        texts.append((PageText.of(page), page.rect.height))
    running = running_lines(texts)  # a printer's running header and footer (flat/furniture.py)
    for page in doc:
        drawings = page.get_drawings()  # bounded: Limits.check_rulings counted the page's lines first
        text = texts[page.number][0]
        clips = views(page, text, drawings)
        if clips == [(page.rect, 1.0)]:
            text, state.footer = without_running(text, page.rect.height, running)
            _read_page(page, page.number, 0, text, drawings, state, limits, name)
            state.footer = ()
            continue
        with drawn(page, clips) as sheet:  # two pages on one sheet, a page printed reduced (flat/sheets.py)
            for k, view in enumerate(sheet):  # the drawings of the other half lie off the view (no clip hides them)
                seen = [d for d in view.get_drawings() if _on(d["rect"], view.rect)]
                _read_page(view, page.number, 8 * k, PageText.of(view), seen, state, limits, name)
    found = state.found
    found.extend(item_questions(state.items, tables=bool(found)))
    if not found:
        raise QuestionnaireError(
            name,
            "is a flat PDF (no form fields) in which no questions were found: no table with a question column, no "
            "numbered, bulleted or checklist line that asks",
            NO_QUESTIONS_FIX,
        )
    notes.append(f"a flat PDF (no form fields): {RESPONSE_NOTE}")
    return found


def _on(rect: pymupdf.Rect, page: pymupdf.Rect) -> bool:
    """Whether a drawing's rectangle (a line's is flat) lies on the page, in part at least."""
    return rect.x0 <= page.x1 and rect.x1 >= page.x0 and rect.y0 <= page.y1 and rect.y1 >= page.y0


def _read_page(
    page: pymupdf.Page,
    number: int,
    offset: int,
    text: PageText,
    drawings: list[dict],
    state: _Reading,
    limits: Limits,
    name: str,
) -> None:
    """The tables and lines of one page (or of one half of a sheet of two: ``number`` the sheet's
    page, ``offset`` the half's first part) into ``state``."""
    found, mapped = state.found, state.mapped
    state.chars += sum(len(line.text) for line in text.lines)
    limits.check_chars(name, state.chars)
    drawn = drawn_boxes(drawings)
    text = text.with_boxes(drawn, marked_boxes(drawings, drawn), round_boxes(drawings))
    ruled = ruled_tables(page, drawings)
    ruled += striped_tables(text, drawings, ruled)  # horizontal rules only: columns from the text
    aligned, state.aligned_columns = aligned_tables(text, ruled, page.rect.height, state.aligned_columns)
    ruled = sorted(ruled + aligned, key=lambda t: (t.box.y0, t.box.x0))
    start = len(found)
    for table in ruled:
        mapped.index += 1
        top = starts_page(text, table.box, page.rect.height)
        questions, state.columns = table_questions(number, text, table, state.columns, found if top else [], mapped)
        found.extend(questions)
    boxes = [table.box for table in ruled]
    rest = [ln for ln in text.lines if not any(inside(ln.box, b) for b in boxes)] + list(state.footer)
    rest = without_panels(rest, drawings, page.rect.width, page.rect.height)  # guidance beside, no question's
    places = answer_places(drawings, rest)
    parts = column_parts(rest, page.rect.width, places)
    for k, part in enumerate(parts):  # a page in columns: above them, column by column, below
        state.items.extend(page_items(number, part, offset + k, places, page.rect.height))
    if len(parts) > 1:
        found[start:] = [replace(f, part=table_part(f.box, parts)) for f in found[start:]]
    if offset:
        found[start:] = [replace(f, part=f.part + offset) for f in found[start:]]


__all__ = ["NO_QUESTIONS_FIX", "RESPONSE_NOTE", "FlatTables", "read_flat"]
