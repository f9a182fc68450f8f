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
neither. A header-less table whose asking column has neither IDs nor a column for answers beside it
is guidance quoting the questions, not a questionnaire. A table read by its header is listed in the
mapping and corrected per table (:class:`FlatTables`), as an option table is.

**Boxes drawn** as small empty squares are read as ☐ (layout.drawn_boxes, at most 2,000 a page): a
row of boxes with labels ("☐ Yes ☐ No") beside a label or under a question is its options; a table
of statements each after a box is one question of those options ("Select one:"); a label with a
blank after it ("Title:       ") is a question wherever it is.

**Lines** outside tables: an item starts with a marker (a bullet ●•▪◦–, a drawn box ☐ or the
keycap ⃣ OpenChain's checklist uses, a number "1." "1.2" "a)" "(iv)") and goes on over the lines
indented under its text. An item is a question when it asks: it holds "?" or starts with a word
that asks (Do, Is, Have, Describe, Provide, List, Explain, Indicate …); a checklist statement (a
box before it: "☐ We have a documented policy …") is a question to tick. A paragraph without a
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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import pymupdf

from engine.core.limits import Limits
from engine.questionnaire.corrections import ColumnRole, TableColumn, TableCorrection, TableMap, column_roles
from engine.questionnaire.cues import QUESTION_MARK, ascii_digits, asks_by_mark
from engine.questionnaire.pdf.layout import Box, Line, PageText, Word, drawn_boxes, is_glyph
from engine.questionnaire.pdf.questions import YES_NO, Found
from engine.questionnaire.places import AnswerPlace, PlaceKind
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.sheet.reader import ID_RE, _role
from engine.questionnaire.table_model import Holds, PlacedCell, infer_positioned, question_rows
from engine.questionnaire.table_roles import corrected_model, model_table_map

RESPONSE_NOTE = "the PDF has no answer space: the answer goes into the response document (Word) and its spreadsheet"
NO_QUESTIONS_FIX = (
    "if it is a solicitation or a requirements document, answer it in your own document; if it is a questionnaire, "
    "ask the sender for it as a Word or Excel file"
)
_BULLETS = frozenset("●•▪◦○■➢►–-*·◆◇✓")
_NUMBER = re.compile(
    r"^(\(?\d{1,3}[.)]|\d{1,3}(?:\.\d{1,3})+\.?|\(?[a-zA-Z][.)]|\([ivxlcIVXLC]{1,5}\)|[ivxlc]{1,5}[.)])$"
)
# words that ask at the start of an item without a "?" (a question word, "Where …", "When …", asks only
# with one: without, it starts a clause of guidance: "Where you are using the selection questions, …")
_ASK_WORDS = frozenset(
    "do does did have has had is are was were can could will would should shall may describe provide list "
    "explain indicate specify state identify confirm please detail outline summarize summarise clarify demonstrate"
    " haben hat ist sind wird werden können gibt verfügt beschreiben erläutern nennen geben"
    " heeft hebben zijn wordt worden kan kunnen beschrijf geef noem".split()
)
_PLEASE_INSTRUCTS = frozenset("ensure note read refer see be contact remember keep retain".split())  # not asking
_YES_NO_WORDS = frozenset(
    "do does did have has had is are was were can could will would should shall may"
    " haben hat ist sind wird werden können gibt verfügt heeft hebben zijn wordt worden kan kunnen avez êtes".split()
)
_ID_ROLE = re.compile(r"((question|control|item|requirement|req\.?) )?(id|#|no\.?|number|nr\.?|ref\.? ?no\.?)")
_CHOICE_HEADER = re.compile(r"\(([^()]*/[^()]*)\)")  # "Answer (Yes/No/NA)"
_ITEM_ID = re.compile(r"^\d{1,3}(?:\.\d{1,3})+(?:\s*[-–]?\s*\(\w{1,5}\))*$")  # "4.1(j) - (ii)", "7.7 (e) (i)"
_SUB = " — "  # between a question and one of the topics it lists
_QUESTION_MARK = QUESTION_MARK  # "?" or "？" ending a sentence (not the "?" of a link's query)


@dataclass(frozen=True)
class _Columns:
    """A table's column roles: the x-range of each role's header cell."""

    roles: dict[str, tuple[float, float]]
    choices: tuple[str, ...] = ()

    def role_of(self, cell: Box) -> str | None:
        best, overlap = None, 0.0
        for role, (x0, x1) in self.roles.items():
            shared = min(x1, cell.x1) - max(x0, cell.x0)
            if shared > overlap and shared >= 0.5 * min(x1 - x0, cell.x1 - cell.x0):
                best, overlap = role, shared
        return best


@dataclass
class _Item:
    """A line item or paragraph: its marker kind (bullet, box, number or "" for a paragraph)."""

    page: int
    box: Box
    kind: str
    marker: str
    text: str
    blank: bool = False  # a label with a blank after it: a field to fill


@dataclass
class FlatTables:
    """The responder's corrections of a flat PDF's tables (a table named by its place among the
    document's ruled tables, page by page, 0 for the first) and, out, each table the table model
    read: its columns and roles (:class:`TableMap`, its keys filled in by ``assemble``) and its
    questions."""

    corrections: tuple[TableCorrection, ...] = ()
    read: list[tuple[TableMap, list[Found]]] = field(default_factory=list)
    index: int = -1  # the table being read


def read_flat(
    doc: pymupdf.Document, name: str, limits: Limits, notes: list[str], tables: FlatTables | None = None
) -> list[Found]:
    """The questions of a flat PDF (see the module docstring); ``tables``: the corrections of its
    tables in, the tables the table model read out."""
    mapped = tables if tables is not None else FlatTables()
    found: list[Found] = []
    items: list[_Item] = []
    columns: _Columns | None = None
    chars = 0
    for page in doc:
        drawings = page.get_drawings()  # bounded: Limits.check_rulings counted the page's lines first
        text = PageText.of(page)
        chars += sum(len(line.text) for line in text.lines)
        limits.check_chars(name, chars)
        text = text.with_boxes(drawn_boxes(drawings))
        ruled = _tables(page, drawings)
        for table in ruled:
            mapped.index += 1
            top = _starts_page(text, table.box, page.rect.height)
            questions, columns = _table_questions(page.number, text, table, columns, found if top else [], mapped)
            found.extend(questions)
        boxes = [table.box for table in ruled]
        items.extend(_items(page.number, [ln for ln in text.lines if not any(_inside(ln.box, b) for b in boxes)]))
    found.extend(_item_questions(items))
    if not found:
        raise QuestionnaireError(
            name,
            "is a flat PDF (no form fields) in which no questions were found: no table with a question column, no "
            "numbered, bulleted or checklist line that asks",
            NO_QUESTIONS_FIX,
        )
    notes.append(f"a flat PDF (no form fields): {RESPONSE_NOTE}")
    return found


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class _Row:
    """A table row: its band and its cells as MuPDF found them (None: merged into another)."""

    band: Box
    cells: tuple[Box | None, ...] = ()


@dataclass(frozen=True)
class _Table:
    """A ruled table: its box, MuPDF's rows (for the header) and the page's horizontal rules."""

    box: Box
    rows: tuple[_Row, ...]
    rules: tuple[tuple[float, float, float], ...]  # (y, x0, x1) of every horizontal rule on the page

    def bands(self, x0: float, x1: float, below: float) -> list[_Row]:
        """The rows of the table below ``below``, cut by the rules that cross the column
        ``x0``–``x1`` (the question column). MuPDF's own rows follow every partial rule (a CAIQ's
        control columns are ruled more finely than its questions) and miss a row continued from
        the page before, which has no rule above it."""
        ys = sorted(
            {
                round(y, 1)
                for y, r0, r1 in self.rules
                if r0 <= x0 + 3 and r1 >= x1 - 3 and below - 1 <= y <= self.box.y1 + 1
            }
            | {round(below, 1), round(self.box.y1, 1)}
        )
        return [_Row(Box(self.box.x0, a, self.box.x1, b)) for a, b in zip(ys, ys[1:]) if b - a > 4]


def _tables(page: pymupdf.Page, drawings: list[dict]) -> list[_Table]:
    """The ruled tables of a page (``drawings``: its ``get_drawings()``)."""
    if not drawings:
        return []  # no lines drawn: no ruled table (and find_tables would look for nothing)
    rules = tuple(_rules(drawings))
    out = []
    # use_layout=False: MuPDF's own ruled tables, whether or not PyMuPDF's layout analyser is loaded
    # (it is when pymupdf is imported before engine; see engine/__init__.py). With it, find_tables
    # keeps only the tables its model sees, cut to the model's boxes: the AWS CAIQ lost 7 of its 261
    # questions and the IDs' prefixes, and the read took 5x longer.
    for table in page.find_tables(use_layout=False).tables:
        rows = tuple(_row(row) for row in table.rows if any(row.cells))
        if rows:
            out.append(_Table(Box.of(table.bbox), rows, rules))
    out = [t for t in out if not any(o is not t and _inside(t.box, o.box) and o.box.area > t.box.area for o in out)]
    return _joined(sorted(out, key=lambda t: (t.box.y0, t.box.x0)))


def _joined(tables: list[_Table]) -> list[_Table]:
    """Tables that start where the one above them ends, across most of its width, joined to it: the
    halves MuPDF makes of one table (the PCI SAQ's row 4.2.1.2 cut from its header); the lower
    half's first cells reach the upper's left edge (MuPDF's lower half may leave out the ID column)."""
    out: list[_Table] = []
    for t in tables:
        prev = out[-1] if out else None
        shared = min(t.box.x1, prev.box.x1) - max(t.box.x0, prev.box.x0) if prev else 0.0
        if prev is None or not (-1 <= t.box.y0 - prev.box.y1 <= 2 and t.box.x0 >= prev.box.x0 - 3):
            out.append(t)
        elif shared < 0.8 * min(t.box.x1 - t.box.x0, prev.box.x1 - prev.box.x0):
            out.append(t)
        else:
            rows = tuple(_widened(r, prev.box.x0) for r in t.rows)
            out[-1] = _Table(prev.box.union(t.box), prev.rows + rows, prev.rules)
    return out


def _widened(row: _Row, x0: float) -> _Row:
    """``row`` with its first cell reaching ``x0``."""
    first = next((i for i, c in enumerate(row.cells) if c is not None), None)
    if first is None or row.cells[first].x0 <= x0 + 3:
        return row
    cell = row.cells[first]
    cells = (*row.cells[:first], Box(x0, cell.y0, cell.x1, cell.y1), *row.cells[first + 1 :])
    return _Row(Box(x0, row.band.y0, row.band.x1, row.band.y1), cells)


def _rules(drawings: list[dict]) -> list[tuple[float, float, float]]:
    """(y, x0, x1) of the horizontal lines drawn: lines, thin filled rectangles, and the top and
    bottom edges of stroked rectangles."""
    out = []
    for d in drawings:
        for item in d.get("items", ()):
            if item[0] == "l" and abs(item[1].y - item[2].y) <= 1.0:
                out.append(((item[1].y + item[2].y) / 2, min(item[1].x, item[2].x), max(item[1].x, item[2].x)))
            elif item[0] == "re":
                r = item[1]
                if r.height <= 2.0:
                    out.append(((r.y0 + r.y1) / 2, r.x0, r.x1))
                elif "s" in (d.get("type") or ""):
                    out += [(r.y0, r.x0, r.x1), (r.y1, r.x0, r.x1)]
    return out


def _row(row) -> _Row:
    """A row of MuPDF's table: its band runs from its cells' top to the bottom of its shortest
    cell (a cell merged down over the rows below, the CAIQ's control column, reaches further)."""
    cells = tuple(Box.of(c) if c else None for c in row.cells)
    present = [c for c in cells if c is not None]
    x0, _, x1, _ = row.bbox
    return _Row(Box(x0, min(c.y0 for c in present), x1, min(c.y1 for c in present)), cells)


def _starts_page(text: PageText, box: Box, height: float) -> bool:
    """Whether a table is the first thing on its page (no text above it but a running header in
    the top 7 %): only then can its first rows go on from the page before. The AWS CAIQ's
    "Document Revisions" table, under a heading on its last page, is not the end of UEM-14.1."""
    return not any(ln.text.strip() and 0.07 * height < ln.box.y1 <= box.y0 + 1 for ln in text.lines)


def _inside(inner: Box, outer: Box) -> bool:
    return inner.overlap(outer) >= 0.6 * max(inner.area, 1.0)


def _cell_lines(text: PageText, cell: Box | None) -> list[str]:
    """The lines of text inside ``cell`` (by each word's centre)."""
    if cell is None:
        return []
    lines = []
    for line in text.lines:
        words = [w.text for w in line.words if cell.x0 <= w.box.cx <= cell.x1 and cell.y0 <= w.box.cy <= cell.y1]
        if words:
            lines.append(" ".join(words))
    return lines


def _cell_text(text: PageText, cell: Box | None, compact: bool = False) -> str:
    """A cell's text; ``compact`` joins its lines and words without spaces (an ID broken over
    lines: "A&A-" "01.1")."""
    lines = _cell_lines(text, cell)
    if compact:
        return "".join("".join(lines).split())
    out = ""
    for piece in lines:
        out = out + piece if out.endswith("-") or not out else out + " " + piece
    return out.strip()


def _label_role(text: PageText, cell: Box) -> str | None:
    """A header cell's role, its lines joined with a space ("CSP CAIQ / Answer") or without
    (a word broken over lines: "Questi" / "on ID")."""
    lines = _cell_lines(text, cell)
    return _column_role(" ".join(lines)) or _column_role("".join(lines))


def _header(text: PageText, row: _Row) -> _Columns | None:
    """The column roles a row names, when it names a question column (and the choices an answer
    header lists: "Answer (Yes/No/NA)")."""
    roles: dict[str, tuple[float, float]] = {}
    choices: tuple[str, ...] = ()
    if sum(c is not None for c in row.cells) < 2:
        return None  # one cell across the table: a title ("Part 2 Questions (Exclusion Grounds …)"), not a header
    for cell in row.cells:
        if cell is None:
            continue
        role = _label_role(text, cell)
        if role and role not in roles:
            roles[role] = (cell.x0, cell.x1)
            listed = _CHOICE_HEADER.search(_cell_text(text, cell)) if role == "answer" else None
            if listed:
                choices = tuple(c.strip() for c in listed.group(1).split("/") if c.strip())
    if "question" not in roles:
        roles = _asked_left_of_answer(text, row, roles)
    return _Columns(roles, choices) if "question" in roles else None


def _asked_left_of_answer(
    text: PageText, row: _Row, roles: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """A header that names an answer column ("Explanation") and no question column: the labelled
    column just left of the answer holds what is asked ("Information Required", the PCI SAQ's
    compensating controls worksheet)."""
    answer = roles.get("answer") or roles.get("comment")
    if answer is None:
        return roles
    left = [c for c in row.cells if c is not None and c.x1 <= answer[0] + 1 and _cell_text(text, c)]
    if not left or any(_id_like(_cell_text(text, c, compact=True)) for c in left):
        return roles  # a question's row ("1.4 | Lots … | Answer"), not a header
    cell = max(left, key=lambda c: c.x1)
    if len(_cell_text(text, cell).split()) > 6:
        return roles  # a header's label is short
    return {**roles, "question": (cell.x0, cell.x1)}


def _column_role(label: str) -> str | None:
    """id, question, answer or comment: what a header label names."""
    plain = " ".join(re.sub(r"\(.*?\)|[*:]", " ", label.lower()).split())
    if not plain:
        return None
    if _ID_ROLE.fullmatch(plain) or plain == "question id":
        return "id"
    role = _role(label)
    return role if role in ("id", "question", "answer", "comment") else None


def _lines_up(columns: _Columns | None, table: _Table) -> bool:
    """Whether a header-less table continues the columns of the last header: one of its first
    rows has a cell where the question column was, or (the header having an ID column, whose
    IDs then say which rows are questions) the table spans that column. MuPDF may find such a
    table as one row over the whole page."""
    if columns is None:
        return False
    x0, x1 = columns.roles["question"]
    if any(c is not None and abs(c.x0 - x0) < 12 and abs(c.x1 - x1) < 12 for row in table.rows[:3] for c in row.cells):
        return True
    return "id" in columns.roles and table.box.x0 <= x0 + 12 and table.box.x1 >= x1 - 12


def _table_questions(
    page: int, text: PageText, table: _Table, columns: _Columns | None, found: list[Found], mapped: FlatTables
) -> tuple[list[Found], _Columns | None]:
    """The questions of one table, and the columns a table on the next page may continue.
    ``found``: the questions before, the last of which a first row without an ID goes on (none
    when the table does not start its page)."""
    options = _option_table(page, text, table, found, mapped)
    if options is not None:
        return options, columns
    top = table.box.y0
    listing: TableMap | None = None
    for row in table.rows[:3]:
        header = _header(text, row)
        if header:
            (columns, listing), top = _header_map(page, text, row, header, mapped), row.band.y1
            break
    else:
        listed = _box_list(page, text, table)
        if listed is not None:
            return [listed], columns
        if not _lines_up(columns, table):
            guessed = _guess_columns(text, list(table.rows))
            if guessed is None:
                return _form_rows(page, text, table), columns
            columns = guessed
    out: list[Found] = []
    bands = table.bands(*columns.roles["question"], below=top)
    for row, numbered in (part for band in bands for part in _split_by_ids(text, columns, band)):
        cells = _row_cells(columns, row)
        question = _cell_text(text, cells.get("question"))
        ident = numbered or (_cell_text(text, cells.get("id"), compact=True) if "id" in cells else "")
        if not question or _column_role(question) == "question":
            continue  # an empty row, or a repeated header
        if "id" in columns.roles and not _id_like(ident):
            if not out and found:  # the row goes on from the page before
                found[-1] = _continued(found[-1], question, text, cells)
            continue
        out.append(_sub_question(_row_question(page, cells, ident, question, text, columns), out))
    if listing is not None:
        mapped.read.append((listing, out))
    return out, columns


_MAP_ROLE = {
    "id": ColumnRole.ID,
    "question": ColumnRole.QUESTION,
    "answer": ColumnRole.ANSWER,
    "comment": ColumnRole.NOTES,
}
_ROLE_KEY = {role: key for key, role in _MAP_ROLE.items()}


def _header_map(
    page: int, text: PageText, row: _Row, columns: _Columns, mapped: FlatTables
) -> tuple[_Columns, TableMap]:
    """A table read by its header's columns (no option columns), as the mapping lists it, and its
    columns once the responder's corrections of this table are applied (engine/questionnaire/
    corrections.py, the same step as an option table's): a column made the question, the ID, the
    answer or the notes column, or none of them (guidance, other). A correction that leaves the
    table no question column is not applied."""
    cells = sorted((c for c in row.cells if c is not None), key=lambda c: c.x0)
    detected = {i: _MAP_ROLE[role] for i, c in enumerate(cells) if (role := columns.role_of(c)) in _MAP_ROLE}
    roles = column_roles(detected, mapped.index, mapped.corrections)
    if roles != detected:
        fixed: dict[str, tuple[float, float]] = {}
        for i, role in sorted(roles.items()):
            key = _ROLE_KEY.get(role)
            if key and key not in fixed:
                fixed[key] = (cells[i].x0, cells[i].x1)
        if "question" in fixed:
            columns = replace(columns, roles=fixed)
        else:
            roles = detected
    listed = tuple(TableColumn(i, _cell_text(text, c), roles.get(i)) for i, c in enumerate(cells))
    return columns, TableMap(mapped.index, f"page {page + 1}", listed)


def _split_by_ids(text: PageText, columns: _Columns, row: _Row) -> list[tuple[_Row, str | None]]:
    """A row with its ID, cut into one row per ID when its ID cell holds two or more numbered IDs,
    each on a line of its own, with no rule between them ("4.1(j)" over "4.1(j) - (i)" … "4.1(j) -
    (iv)", the UK PPN 03/24's sub-questions): each from just above its ID's line. An ID line belongs
    to the row its top is in (the PPN's IDs drift below their questions' lines, across the rule
    under them). A row whose ID cell holds no numbered ID is itself, its ID read from its cell (None)."""
    if "id" not in columns.roles:
        return [(row, None)]
    x0, x1 = columns.roles["id"]
    tops: list[tuple[float, str]] = []
    for line in text.lines:
        words = [w for w in line.words if x0 <= w.box.cx <= x1]
        if words and row.band.y0 - 0.5 <= min(w.box.y0 for w in words) < row.band.y1 - 0.5:
            tops.append((min(w.box.y0 for w in words), " ".join(w.text for w in words)))
    tops.sort()
    if not tops or not all(_ITEM_ID.match(t) for _, t in tops):
        return [(row, None)]
    ys = [row.band.y0] + [y - 3 for y, _ in tops[1:]] + [row.band.y1]
    return [
        (_Row(Box(row.band.x0, a, row.band.x1, b)), "".join(t.split()))
        for (a, b), (_, t) in zip(zip(ys, ys[1:]), tops)
        if b > a
    ]


def _option_table(
    page: int, text: PageText, table: _Table, found: list[Found], mapped: FlatTables
) -> list[Found] | None:
    """A table read by the table model (engine/questionnaire/table_model.py) when two or more of
    its columns are the options of one choice per row ("In Place | In Place with CCW | Not
    Applicable | Not in Place" over empty cells, the flat PDF of a PCI SAQ), as inferred or as the
    responder's corrections of its columns say: a question per row with its requirement, its ID
    and the options' labels as its choices. A first row without an ID (when the table has an ID
    column) goes on from the page before. The table's columns and roles are reported in ``mapped``."""
    placed: list[list[PlacedCell]] = []
    boxes: list[list[Box]] = []
    for row in table.rows:
        cells = [c for c in row.cells if c is not None]
        cells = [c for c in cells if not any(o is not c and _inside(c, o) and o.area > c.area for o in cells)]
        cells = sorted(cells, key=lambda c: c.x0)
        placed.append([PlacedCell(c.x0, c.x1, _cell_text(text, c), _holds(_cell_text(text, c))) for c in cells])
        boxes.append(cells)
    inferred = infer_positioned(placed)
    if inferred is None:
        return None
    model = corrected_model(inferred[0], mapped.index, mapped.corrections)
    grid = inferred[1]
    if len(model.options) < 2 or model.question_col is None:
        return None
    choices = tuple(model.option_label(c) for c in model.options)
    out: list[Found] = []
    for r, _section in question_rows(grid, model):
        qcell = next(c for c in grid[r] if c.col <= model.question_col < c.col + c.span)  # type: ignore[operator]
        at = grid[r].index(qcell)
        box = boxes[r][at] if at < len(boxes[r]) else table.box
        question = qcell.text
        ident = ""
        if model.id_col is not None and model.id_col != model.question_col:
            icell = next((c for c in grid[r] if c.col == model.id_col), None)
            ident = "".join(icell.text.split()) if icell is not None else ""
        if not ident:
            lead = re.match(r"^((?:\d{1,3}\.){1,4}\d{1,3}|[A-Z]{1,4}-\d{1,3})\s+(?=\S)", question)
            ident = lead.group(1) if lead else ""
            question = question[lead.end() :] if lead else question
        if model.id_col is not None and not _id_like(ident):
            if not out and found and r == model.first_row:  # the row goes on from the page before
                found[-1] = replace(found[-1], text=f"{found[-1].text} {question}".strip())
            continue
        locator = f"page {page + 1}, row {ident or question[:40]}"
        out.append(
            Found(
                page=page,
                box=box,
                id=ident or None,
                text=question,
                choices=choices,
                choice_place=AnswerPlace(PlaceKind.RESPONSE, locator, note=RESPONSE_NOTE),
                text_place=AnswerPlace(PlaceKind.RESPONSE, locator, note=RESPONSE_NOTE),
            )
        )
    mapped.read.append((model_table_map(model, mapped.index, f"page {page + 1}"), out))
    return out


def _form_rows(page: int, text: PageText, table: _Table) -> list[Found]:
    """A ruled form: a label ("Company name:") or a prompt that asks, each beside an empty cell to
    its right (or boxes with labels: "☐ Yes ☐ No"), one question per label; two or more such rows
    make a form (a table of labels and filled values is not one), one with boxes is one alone. A
    label with a blank after it inside its cell ("Title:       ") is one wherever it is."""
    out: list[Found] = []
    beside: list[Box] = []  # the boxes of a question, with the field under them ("If selected, describe …:")
    for row in table.rows:
        cells = sorted((c for c in row.cells if c is not None), key=lambda c: c.x0)
        cells = [c for c in cells if not any(o is not c and _inside(c, o) and o.area > c.area for o in cells)]
        words = [_cell_text(text, c) for c in cells]
        for i, cell in enumerate(cells):
            blanks = [] if any(_inside(cell, b) for b in beside) else _blank_labels(text, cell)
            out.extend(_label_question(page, cell, label) for label in blanks)
            if i + 1 == len(cells) or blanks:
                continue
            label, right, box = words[i], words[i + 1], cells[i + 1]
            if box.y1 < cell.y1 - 4:  # the label's cell runs down past its neighbour's: all beside it
                box = Box(box.x0, cell.y0, box.x1, cell.y1)
                right = _cell_text(text, box)
            for blank in _blank_labels(text, box):  # the boxes' field: part of their question
                right = right.replace(blank, "").strip()
            choices = box_choices(right, most=20)
            if not label or (right and not choices) or box.x1 - box.x0 < 40:
                continue
            if choices or label.endswith(":") and len(label.split()) <= 10 or _asks(label):
                out.append(_label_question(page, cell, label, choices))
                beside += [box] if choices else []
    return out if len(out) >= 2 or any(f.choices for f in out) else []  # boxes to tick: a question alone


def _box_list(page: int, text: PageText, table: _Table) -> Found | None:
    """A table of statements each with a box before it in a cell of its own (the PCI AOC's "Select
    one:" of Compliant / Non-Compliant / …, its "Select all that apply" acknowledgements): one
    question, its options the statements (each named by its words up to a colon, or its first six)."""
    statements: list[str] = []
    for row in table.rows:
        cells = sorted((c for c in row.cells if c is not None), key=lambda c: c.x0)
        texts = [_cell_text(text, c) for c in cells]
        if len(cells) != 2 or not is_glyph(texts[0]) or not texts[1] or is_glyph(texts[1]):
            return None
        statements.append(texts[1])
    if len(statements) < 2:
        return None
    choices = tuple(_option_name(s) for s in statements)
    place = AnswerPlace(PlaceKind.RESPONSE, f"page {page + 1}, {choices[0][:40]}", note=RESPONSE_NOTE)
    return Found(page, table.box, None, " / ".join(statements), choices, place, place)


def _option_name(statement: str) -> str:
    head = statement.split(":", 1)[0]
    words = statement.split()
    return (
        head.strip()
        if ":" in statement and len(head.split()) <= 6
        else " ".join(words[:6]) + ("…" if len(words) > 6 else "")
    )


def _blank_labels(text: PageText, cell: Box) -> list[str]:
    """The labels in ``cell`` with a blank after them ("Merchant Executive Officer Name:       ")."""
    out = []
    for line in text.lines:
        words = [w.text for w in line.words if cell.x0 <= w.box.cx <= cell.x1 and cell.y0 <= w.box.cy <= cell.y1]
        if line.blank and words and words[-1].endswith(":"):
            out.append(" ".join(words))
    return out


def _label_question(page: int, box: Box, label: str, choices: tuple[str, ...] = ()) -> Found:
    """The question of a form's label, its answer in the response document."""
    clean = label.rstrip(":").strip()
    place = AnswerPlace(PlaceKind.RESPONSE, f"page {page + 1}, {clean[:40]}", note=RESPONSE_NOTE)
    return Found(
        page=page,
        box=box,
        id=None,
        text=clean,
        choices=choices,
        choice_place=place if choices else None,
        text_place=place,
    )


def box_choices(text: str, most: int = 4) -> tuple[str, ...]:
    """The labels of a row of two or more boxes, each followed by a label of its own of at most
    ``most`` words ("☐ Yes ☐ No": a choice's options); () for any other text."""
    labels: list[list[str]] = []
    for word in text.split():
        if is_glyph(word):
            labels.append([])
        elif not labels:
            return ()
        else:
            labels[-1].append(word)
    if len(labels) < 2 or not all(1 <= len(words) <= most for words in labels):
        return ()
    return tuple(" ".join(words) for words in labels)


def _holds(cell_text: str) -> Holds:
    if not cell_text.strip():
        return Holds.BLANK
    if all(is_glyph(ch) or ch in "☐▢□" for ch in cell_text.replace(" ", "")):
        return Holds.BOX
    return Holds.TEXT


def _sub_question(q: Found, before: list[Found]) -> Found:
    """A row that does not ask, under a question ending in "?" or ":" (a topic it lists: "- The open
    source policy …"), as that question's sub-question."""
    lead = next((f for f in reversed(before) if _SUB not in f.text), None)
    if lead is None or _asks(q.text) or not re.search(r"[?:]\s*$", lead.text):
        return q
    item = q.text.lstrip("-–• ").strip()
    place = q.choice_place or (q.text_place if lead.choices else None)
    return replace(q, text=f"{lead.text}{_SUB}{item}", choices=lead.choices, choice_place=place)


def _row_cells(columns: _Columns, row: _Row) -> dict[str, Box]:
    """A row's cell per role: the role's header x-range over the row's band (a filled table may
    draw no rule between its answer and comment columns, and a cell merged down over several
    rows belongs to none of them alone)."""
    return {role: Box(x0, row.band.y0, x1, row.band.y1) for role, (x0, x1) in columns.roles.items()}


def _id_like(text: str) -> bool:
    """An ID cell's text: "A&A-01.1", "1.f.iii", "AC-2(11)" (not a footer's "©Copyright2021-2022")."""
    return bool(ID_RE.match(text) or (re.fullmatch(r"[\w&.()\-–]{1,12}", text) and re.search(r"\d", text)))


def _guess_columns(text: PageText, rows: list[_Row]) -> _Columns | None:
    """The question column of a table without a header: the one whose cells mostly ask."""
    width = max(len(r.cells) for r in rows)
    columns = [[r.cells[c] for r in rows if c < len(r.cells) and r.cells[c] is not None] for c in range(width)]
    best = None
    for cells in columns:
        asking = sum(1 for cell in cells if _QUESTION_MARK.search(_cell_text(text, cell)))
        if asking >= 2 and asking >= 0.5 * len(rows) and (best is None or asking > best[0]):
            best = (asking, cells[0])
    if best is None:
        return None
    roles = {"question": (best[1].x0, best[1].x1)}
    for cells in columns:
        ids = sum(1 for cell in cells if _id_like(_cell_text(text, cell, compact=True)))
        if cells and cells[0].x1 <= best[1].x0 + 1 and ids >= 0.5 * len(rows):
            roles["id"] = (cells[0].x0, cells[0].x1)
            break
    if "id" not in roles and not any(c.x0 >= best[1].x1 - 1 and c.x1 - c.x0 >= 40 for col in columns for c in col):
        return None  # neither numbered nor beside a column for their answers: guidance quoting them (PPN 03/24)
    return _Columns(roles)


def _row_question(page: int, cells: dict, ident: str, question: str, text: PageText, columns: _Columns) -> Found:
    answer = _cell_text(text, cells.get("answer")) if "answer" in cells else ""
    comment = _cell_text(text, cells.get("comment")) if "comment" in cells else ""
    choices = columns.choices
    if not choices and answer and len(answer.split()) <= 3:
        choices = _choices_for(answer)
    if not choices and _yes_no(question):
        choices = YES_NO
    existing = next((c for c in choices if c.lower() == answer.lower()), None) if answer else None
    if answer and existing is None:
        comment = f"{answer}\n{comment}".strip()
    locator = f"page {page + 1}, row {ident or question[:40]}"
    return Found(
        page=page,
        box=cells["question"],
        id=ident or None,
        text=question,
        choices=choices,
        choice_place=AnswerPlace(PlaceKind.RESPONSE, locator, note=RESPONSE_NOTE) if choices else None,
        text_place=AnswerPlace(PlaceKind.RESPONSE, locator, note=RESPONSE_NOTE),
        existing_choice=existing,
        existing_answer=comment or None,
    )


def _choices_for(answer: str) -> tuple[str, ...]:
    """The choices an answer cell's value belongs to (a filled Yes/No/NA column)."""
    if answer.lower() in ("yes", "no", "na", "n/a"):
        return ("Yes", "No", "NA") if answer.lower() in ("na", "yes", "no") else ("Yes", "No", "N/A")
    return ()


def _continued(previous: Found, question: str, text: PageText, cells: dict) -> Found:
    """``previous`` with the text of the row that continues it at the top of the next page."""
    comment = _cell_text(text, cells.get("comment")) if "comment" in cells else ""
    answer = "\n".join(x for x in (previous.existing_answer, comment) if x) or None
    return replace(previous, text=f"{previous.text} {question}".strip(), existing_answer=answer)


# ---------------------------------------------------------------- lines


def _items(page: int, lines: list[Line]) -> list[_Item]:
    """The items and paragraphs of a page's lines (outside tables), top to bottom."""
    rows = _visual_rows(lines)
    blank_ends = {id(line.words[-1]) for line in lines if line.blank}
    items: list[_Item] = []
    current: _Item | None = None
    indent = 0.0
    last: Box | None = None
    for words in rows:
        box = Box(words[0].box.x0, min(w.box.y0 for w in words), words[-1].box.x1, max(w.box.y1 for w in words))
        kind, marker, rest = _marker(words)
        if box_choices(" ".join(w.text for w in words)):
            kind, marker, rest = "choices", "", words  # "☐ Yes ☐ No" under a question: its options
        gap = box.y0 - last.y1 if last else 1e9
        tight = last is not None and gap <= 0.9 * max(box.height, 1.0)
        blank = id(words[-1]) in blank_ends  # "Requirement Number and Definition:       ": a field of its own
        if kind or current is None or not tight or box.x0 < indent or blank or current.blank:
            start = rest[0].box.x0 if rest else box.x0
            current = _Item(page, box, kind, marker, " ".join(w.text for w in rest), blank)
            items.append(current)
            indent = min(start - 5, box.x0 + 4) if kind else start - 5  # lines under the item's text go on
        else:
            joiner = "" if current.text.endswith("-") else " "
            current.text = f"{current.text}{joiner}{' '.join(w.text for w in words)}".strip()
            current.box = current.box.union(box)
        last = box
    return [i for i in items if i.text]


def _visual_rows(lines: list[Line]) -> list[list[Word]]:
    """Lines that share a row merged (a marker "a." set apart from its text), top to bottom."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.box.y0, ln.box.x0)):
        for row in rows[-3:]:
            if row[0].box.same_row(line.box) and not (line.blank or any(x.blank for x in row)):  # fields apart
                row.append(line)
                break
        else:
            rows.append([line])
    out = []
    for row in rows:
        words = [w for line in sorted(row, key=lambda ln: ln.box.x0) for w in line.words]
        if words:
            out.append(words)
    return out


def _marker(words: list[Word]) -> tuple[str, str, list[Word]]:
    """(kind, marker, the words after it) of a row: kind is "bullet", "box", "number" or ""."""
    first = words[0].text
    if is_glyph(first) and first != "■":
        return "box", first, words[1:]
    if first in _BULLETS or first == "■":  # a filled square marks an item; a box to tick is empty
        return "bullet", first, words[1:]
    if _NUMBER.match(ascii_digits(first)) and len(words) > 1:
        return "number", first.strip("().").rstrip(".)"), words[1:]
    return "", "", words


def _asks(text: str) -> bool:
    """A question mark ending a sentence, or a capitalised first word that asks ("Please" not before
    a word that instructs: "Please provide …", not "Please ensure that all questions are completed …")."""
    words = [re.sub(r"[^\w]", "", w) for w in text.split()[:2]]
    first = words[0] if words else ""
    if first.lower() == "please" and (len(words) < 2 or words[1].lower() in _PLEASE_INSTRUCTS):
        return asks_by_mark(text)
    return asks_by_mark(text) or (first[:1].isupper() and first.lower() in _ASK_WORDS)


def _yes_no(text: str) -> bool:
    first = re.sub(r"[^\w]", "", text.split()[0].lower()) if text.split() else ""
    return first in _YES_NO_WORDS


def _item_questions(items: list[_Item]) -> list[Found]:
    """The questions among the items (see the module docstring)."""
    boxes = sum(1 for i in items if i.kind == "box")
    checklist = boxes >= 3 and 2 * boxes >= len(items)  # a list of ticks, not a document with a few boxes
    out: list[Found] = []
    lead: tuple[_Item, Found] | None = None  # the last question, while items may hang from it
    before = 0  # how many questions there were before the item above
    for item in items:
        if item.kind == "choices":  # the options of the question of the item right above, if any
            if len(out) == before + 1:
                out[-1] = replace(out[-1], choices=box_choices(item.text), choice_place=out[-1].text_place)
            lead, before = None, len(out)
            continue
        before = len(out)
        if item.blank and item.text.endswith(":"):
            out.append(_label_question(item.page, item.box, item.text))
            lead = None
            continue
        if checklist and item.kind != "box" and lead and item.kind:
            lead = (lead[0], _append(lead[1], item))  # a line under a checklist statement: part of it
            out[-1] = lead[1]
            continue
        if (checklist and item.kind == "box") or (
            not checklist and (item.kind or _asking_paragraph(item.text)) and _asks(item.text)
        ):
            q = _item_question(item, yes_no=item.kind == "box" or _yes_no(item.text))
            out.append(q)
            lead = (item, q) if re.search(r"[?:]\s*$", item.text) else None
            continue
        if lead and item.kind and not checklist:
            parent = lead[1]
            out.append(
                replace(
                    _item_question(item, yes_no=parent.choices == YES_NO),
                    text=f"{parent.text}{_SUB}{item.text}",
                )
            )
            continue
        lead = None
    return out


def _asking_paragraph(text: str) -> bool:
    """A paragraph without a marker that ends with "?", and starts a sentence: one that starts in
    lower case goes on from the text above it (a numbered paragraph's lines back at the margin:
    "potential supplier at this stage … What is meant by 'rely on' an organisation?", PPN 03/24)."""
    return text.rstrip().endswith(("?", "？")) and not text[:1].islower()


def _item_question(item: _Item, yes_no: bool) -> Found:
    locator = f"page {item.page + 1}" + (f", item {item.marker}" if item.kind == "number" else "")
    place = AnswerPlace(PlaceKind.RESPONSE, locator, note=RESPONSE_NOTE)
    return Found(
        page=item.page,
        box=item.box,
        id=item.marker if item.kind == "number" else None,
        text=item.text,
        choices=YES_NO if yes_no else (),
        choice_place=place if yes_no else None,
        text_place=place,
    )


def _append(q: Found, item: _Item) -> Found:
    marker = f"{item.marker}. " if item.kind == "number" else "– "
    return replace(q, text=f"{q.text} {marker}{item.text}")


__all__ = ["NO_QUESTIONS_FIX", "RESPONSE_NOTE", "FlatTables", "read_flat"]
