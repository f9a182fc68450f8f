"""The questions of one Word table and where their answers go.

A table is read by the first of these shapes it has:

1. **A grid of records** (a header row of column labels over two or more empty rows: an
   inventory, a revision history, a list of laws): no questions; a note says the rows are added
   by hand.
2. **A list of boxes** (each row one box and its label: "☐ Opt-out / ☐ This cloud is willing…",
   "Low ☐ / Moderate ☐ / High ☐"): one choice question, the rows its options; so is a table whose
   rows are the options of one choice under a header, a box (or a cell to mark) per row in a column
   that names the pick ("Digital Identity Level | Maximum Impact Profile | Selection").
3. **Question and answer columns** (a header row naming them: Question / Response / Answer /
   Implementation / Comments / Notes / Modification Statement, or Yes / No columns to mark): a
   question per row; its answer in the answer column's cell (boxes or options drawn as list
   items become its choices, an empty cell or a control its text), or, when the table has no
   answer column at all, in a new paragraph below the question in its own cell (the note says
   so). Rows repeating the header start a section; rows under a question's number ("1.f.i",
   "- The open source policy…") are part of the question above.
4. **One row to fill under a header** ("Unique Identifier | Name | Abbreviation" over one empty
   row, a risk table over its hints, a "<Fill In>" row under example rows to delete): a question
   per column.
5. **A form**, row by row: a label or a question and the empty cell, control or boxes beside
   or below it ("Name | ___", "Responsible Role:", a question row over an empty answer row,
   "Implementation Status (check all that apply): ☐ Implemented ☐ Partially implemented…").

Nested tables are read as tables of their own (by the caller).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from lxml import etree

from engine.questionnaire.corrections import ColumnRole, TableColumn, TableCorrection, TableMap, column_roles
from engine.questionnaire.cues import MARKS, SIGNATURE, asks_one, names_selection
from engine.questionnaire.placeholders import is_placeholder
from engine.questionnaire.places import AnswerPlace, PlaceKind
from engine.questionnaire.table_model import (
    Holds,
    Role,
    TableCell,
    TableModel,
    bold_heading,
    bold_headings,
    continues,
    infer,
    joined,
    question_groups,
    role_of_label,
    translated_lines,
)
from engine.questionnaire.table_roles import (
    corrected_model,
    detected_roles,
    model_header,
    model_table_map,
    options_column,
)
from engine.questionnaire.word.found import (
    CONTROL_ID,
    Found,
    asks,
    ends_with_colon,
    is_id,
    is_instruction,
    is_label,
    note_first,
)
from engine.questionnaire.word.places import (
    after_label_place,
    boxes_place,
    cell_choice,
    cell_place,
    column_marks_place,
    control_place,
    label_of,
    list_glyph_place,
)
from engine.questionnaire.word.xmltree import (
    Box,
    Cell,
    Grid,
    W,
    clean,
    grid,
    guidance_look,
    is_blank,
    locator,
    one_line,
    sdt_kind,
    written_answer,
)

_ID_LABEL = re.compile(
    r"^(?:no\.?|nr\.?|#|number|nummer|ref\.?\s*#?|id|(?:control|question|item|requirement)\s+(?:id|no\.?|#)"
    r"|番号|項番|№)$",
    re.I,
)
_ANSWER_LABEL = re.compile(
    r"\b(?:responses?|answers?|implementation|observations?|comments?|notes?|modification|explanation|remarks"
    r"|evidence|details|justification|your|vendor|supplier|csp|antwoord|toelichting|opmerkingen?"
    r"|antwort(?:en)?|bemerkung(?:en)?|r[ée]ponses?|commentaires?)\b|回答|記入欄|備考|コメント",
    re.I,
)
_QUESTION_LABEL = re.compile(
    r"\b(?:questions?|requirements?|statement|basic elements|criteria|vraag|vragen|eis|fragen?|fragentext"
    r"|anforderung(?:en)?|exigences?)\b|質問|設問|要件|確認項目|チェック項目",
    re.I,
)
_QUESTION_HEAD = re.compile(
    r"(?:\b(?:questions?|requirements?|criteria|vraag|vragen|eisen|fragen?|fragentext|anforderung(?:en)?)"
    r"|質問|設問|要件|確認項目|チェック項目)\s*$",
    re.I,
)  # the label's head noun
_MARK_LABEL = re.compile(
    r"^(?:yes|no|n/?a|not applicable|partial(?:ly)?|compliant|non-compliant|ja|nee|nein|oui|non|true|false"
    r"|はい|いいえ|該当なし|対象外|○|×)$",
    re.I,
)
# a cell listing the options to write in place ("Yes / No", "Yes or No", "Ja/Nee", "はい／いいえ"): a pick's place
_OPTION_WORD = r"(?:yes|no|n/?a|not applicable|ja|nee|nein|oui|non|s[íi]|k\. ?a\.|n\.v\.t\.|はい|いいえ|該当なし)"
_OPTIONS_CELL = re.compile(
    rf"^\s*{_OPTION_WORD}(?:\s*(?:/|／|\bor\b|\boder\b|\bou\b|\bof\b|\bo\b)\s*{_OPTION_WORD}){{1,3}}\s*\.?$", re.I
)
_OPTION_SPLIT = re.compile(r"\s*(?:/|／|\bor\b|\boder\b|\bou\b|\bof\b|\bo\b)\s*", re.I)
_EXAMPLE = re.compile(r"\bexample\b.*\bdelete\b|\bplease delete\b|\bsample (?:entry|row)\b", re.I)
_EXAMPLE_TABLE = re.compile(r"^(?:for )?(?:example|examples|sample|voorbeeld|beispiel|exemple)\s*:?$", re.I)
_YES_NO_HEAD = re.compile(r"^\s*(?:y|yes|ja|oui)\s*/\s*(?:n|no|nee|nein|non)\b", re.I)
_FILL_IN = re.compile(r"<\s*fill in\b", re.I)
_SUB_ITEM = re.compile(r"^\s*[-–•·]\s")
# the labels of contact fields, the most common form a questionnaire holds (a form answered in full has no blank left)
_FIELD = re.compile(
    r"\b(?:name|title|address|phone|e-?mail|organi[sz]ation|company|role|date|position|naam|adres|telefoon)\b", re.I
)
_PARAMETER = re.compile(r"^parameter\b", re.I)  # a FedRAMP control's parameter row: a label without its colon
_PARAMETER_NAMED = re.compile(r"^(?i:parameter)\b\s*:?[^:]*")  # … its label, up to the colon after its name
_PART = re.compile(
    r"^(?:part|item|question|req\.?|requirement|vraag|onderdeel)\s+[\w.()-]{1,8}$|^\(?[a-z]\)$|^[a-z]\.$", re.I
)


@dataclass
class TableContext:
    """What the reader knows around a table: its section (heading path), the text just before
    it (a caption, "Check one."), and how to make the place of a paragraph-less answer."""

    section: str | None
    before: str = ""
    glyph_boxes: Callable[[Cell], list[tuple[etree._Element, str, bool]]] = lambda cell: []
    notes: list[str] = field(default_factory=list)
    # the responder's corrections (engine/questionnaire/corrections.py): this table's place among the
    # document's tables, its columns' corrected roles, and the questions whose answer moves to another
    # column (by the key their first paragraph gives: ``key_of``)
    index: int = -1
    corrections: tuple[TableCorrection, ...] = ()
    moves: Mapping[str, int] = field(default_factory=dict)
    key_of: Callable[[etree._Element], str] = lambda el: ""
    tables: list[TableMap] = field(default_factory=list)  # the tables read by columns, as the mapping shows them
    header: list[list[TableCell]] = field(default_factory=list)  # its header, drawn as a table of its own above it
    head: Grid | None = None  # its header rows, a table of their own just above it (any shape below)


@dataclass
class _Table:
    g: Grid
    ctx: TableContext
    title: str = ""  # a first row spanning the table ("AC-2 Control Summary Information")
    control_id: str | None = None  # "AC-2", "AC-2 (1)": the control a FedRAMP table is about
    found: list[Found] = field(default_factory=list)
    values: set[int] = field(default_factory=set)  # a form's value columns (filled or not)

    def context(self) -> str:
        return self.title or self.ctx.before or (self.ctx.section or "").rsplit(" > ", 1)[-1]


def table_questions(tbl: etree._Element, ctx: TableContext) -> list[Found]:
    """The questions of ``tbl`` (see the module docstring)."""
    g = drawn_rows(grid(tbl), ctx.head)
    if not g.rows or g.width == 0:
        return []
    t = _Table(g, ctx)
    start = _title_rows(t)
    if _document_control(t):
        return []
    if _EXAMPLE_TABLE.match(one_line(ctx.before)):  # "Example:" over a table filled in as an example
        ctx.notes.append(f"table {ctx.index + 1} follows 'Example:': an example, not questions")
        return []
    corrected = any(c.table == ctx.index for c in ctx.corrections)  # read by its columns, as the responder says
    shapes = (_modelled, _box_row, _records, _box_list, _choice_rows, _columns, _one_row, _form)
    if corrected:  # by its columns first (the model's, else the header's); a table that has none as before
        shapes = (_modelled, _box_row, _columns, *(s for s in shapes if s not in (_modelled, _box_row, _columns)))
    for shape in shapes:
        done = shape(t, start)
        if done:
            break
    return t.found


# ------------------------------------------------------------------------------- the rows drawn


def _void(cell: Cell) -> bool:
    """Nothing in the cell: no words, box, control, nested table, content control around it."""
    return (
        not cell.text.strip()
        and not cell.boxes
        and not cell.controls
        and not cell.nested()
        and cell.cell_control() is None
        and not any(True for _ in cell.el.iter(f"{W}sdt", f"{W}fldChar", f"{W}sym", f"{W}drawing", f"{W}object"))
    )


def _spacer(g: Grid, r: int) -> bool:
    """Row r draws nothing of its own: every cell continues a merge from the row above (the lower
    half of a taller row), or every cell is empty between a row of words that has an empty place of
    its own (or is cut in the same columns as the row after) and a row that starts with words: a
    spacer, never a question's answer row (rows to fill under a header, or under an empty row, are
    places: a list of records; an empty row under a question spanning the table is its answer's, unless
    the row under it starts with a box and its label: an option, the question's answer)."""
    row = g.rows[r]
    if not row or 0 < r and all(c.merged_from is not None and _void(c) for c in row):
        return bool(row)
    if r == 0 or r + 1 >= len(g.rows) or not all(c.merged_from is None and _void(c) for c in row):
        return False
    above, below = g.own(r - 1), g.own(r + 1)
    if not below or not (below[0].line or below[0].boxes) or not any(c.line for c in above):
        return False
    if below[0].boxes and any(c.line for c in below[1:]):
        return True  # over a box and its label ("☐ | Opt-out"): the options answer what is above, not the row
    same_shape = len(above) == len(below) >= 2 and [c.col for c in above] == [c.col for c in below]
    return any(_void(c) for c in above) or same_shape  # a row as the next one: a row of a list, not a question's


def drawn_rows(g: Grid, head: Grid | None = None) -> Grid:
    """``g`` without its spacer rows (:func:`_spacer`), under ``head``'s rows when its header is a
    table of its own just above it (``reader.header_table``); rows numbered anew."""
    keep = [row for r, row in enumerate(g.rows) if not _spacer(g, r)]
    rows = [*(head.rows if head is not None else []), *keep]
    if len(rows) == len(g.rows) and head is None:
        return g
    for r, row in enumerate(rows):
        for cell in row:
            cell.row = r
    return Grid(g.el, rows, g.width)


# ------------------------------------------------------------------------------------ cells


def _kind(cell: Cell, ctx: TableContext) -> str:
    """blank | control | boxes | glyphs | text (a cell an export answered: blank, the place it was)."""
    if cell.boxes:
        return "boxes"
    first = next((p for p, i in cell.inlines() if one_line(i.text)), None)
    if first is not None and written_answer(first):
        return "blank"
    if ctx.glyph_boxes(cell):
        return "glyphs"
    wrapper = cell.cell_control()
    wrapper = wrapper if wrapper is not None else cell.block_control()
    if wrapper is not None and sdt_kind(wrapper) in ("text", "rich text", "date", "dropdown", "combo box"):
        return "control"  # filled or not, the control is the place
    controls = [c for c in cell.controls if c.kind != "checkbox"]
    if controls and (is_blank(cell.text) or one_line(controls[0].drawn) == cell.line):
        return "control"
    if cell.blank:
        return "blank"
    return "text"


def _full(g: Grid, r: int) -> Cell | None:
    """Row r's one cell when it spans the whole table (a title, a question or an answer row)."""
    own = g.own(r)
    if len(g.rows[r]) == 1 and own and own[0].span >= g.width - 0:
        return own[0]
    if len(own) == 1 and len(g.rows[r]) == 1:
        return own[0]
    return None


def _title_rows(t: _Table) -> int:
    """The rows at the top that name the table (spanning it, not asking, no place): skipped as
    context. Returns the first row after them."""
    g, r = t.g, 0
    while r < len(g.rows) - 1:
        cell = _full(g, r)
        if cell is None or _kind(cell, t.ctx) != "text":
            break
        instruction = r + 1 < len(g.rows) and _labels_row(t, r + 1)  # "Identify additional measures…" over labels
        labelled = ":" in " ".join(cell.line.split()[:6])  # "Responsible Role: CISO": a label and its answer
        if not instruction and (asks(cell.text) or labelled or len(cell.line.split()) > 14):
            break
        t.title = t.title + " — " + cell.line if t.title else cell.line
        r += 1
    first = next((c.line for c in g.own(0) if c.line), "")
    m = CONTROL_ID.match(first)
    t.control_id = m.group(1) if m else None
    own = g.own(r)
    words = " ".join(c.line for c in own)
    if (
        r == 0
        and len(own) >= 2
        and len(g.rows) > 1
        and _full(g, 1) is not None
        and all(c.line for c in own)
        and (len(words.split()) <= 10 and not asks(words) and not any(ends_with_colon(c.line) for c in own))
        and not any(is_id(c.line) and not CONTROL_ID.match(c.line) for c in own)  # "1.1.1 | Geef …": a question
        and sum(role_of_label(c.line) is not None for c in own) < 2  # "Requirement | Response": a header
    ):  # "AC-2 | Control Summary Information" over rows spanning the table
        t.title, r = words, 1
    return r


def _labels_row(t: _Table, r: int) -> bool:
    """Row r holds only column labels (two or more short texts, nothing asking, no place)."""
    own = t.g.own(r)
    texts = [c for c in own if c.line]
    if len(own) < 2 or len(texts) < max(2, len(own) - 1):
        return False
    return all(
        _kind(c, t.ctx) in ("text", "blank")
        and is_label(c.line)
        and (not asks(c.line) or len(c.line.split()) <= 2)
        or c is own[0]
        and _void(c)
        and len(own) >= 3  # an empty corner over a column of row labels
        for c in own
    )  # "COMPLETED?", "Included?": a column's heading asked of every row


def _header(t: _Table, start: int) -> tuple[int, dict[int, str]] | None:
    """The header rows from ``start`` (one, or two when a label spans columns labelled below
    it) and each grid column's label ("Source: CMVP #"); None when the table has none."""
    g = t.g
    if start >= len(g.rows):
        return None
    if not _labels_row(t, start):
        own = g.own(start)
        grouped = start + 1 < len(g.rows) and _labels_row(t, start + 1) and any(c.span > 1 and c.line for c in own)
        if not grouped or not all(_kind(c, t.ctx) in ("text", "blank") for c in own):
            return None  # "| Source | Destination |" over the labels: a row of groups
    labels = {c: "" for c in range(g.width)}
    last = start
    for cell in g.rows[start]:
        for c in range(cell.col, cell.col + cell.span):
            labels[c] = cell.origin.line
    spans = any(cell.span > 1 and cell.line for cell in g.own(start))
    ids = start + 1 < len(g.rows) and any(is_id(c.line) for c in g.own(start + 1))  # "CO01 | 40% | …": a row
    if spans and start + 1 < len(g.rows) and _labels_row(t, start + 1) and not ids:
        last = start + 1
        for cell in g.rows[last]:
            if cell.merged_from is None and cell.line:
                for c in range(cell.col, cell.col + cell.span):
                    labels[c] = f"{labels[c]}: {cell.line}" if labels[c] and labels[c] != cell.line else cell.line
    return last + 1, labels


# ------------------------------------------------------------- 0. the table model's options


_HOLDS = {"blank": Holds.BLANK, "control": Holds.CONTROL, "glyphs": Holds.BOXES}


def model_cells(t: _Table) -> list[list[TableCell]]:
    """The table as the format-neutral model reads it (engine/questionnaire/table_model.py)."""
    out = []
    for r, row in enumerate(t.g.rows):
        cells = []
        for cell in row:
            if cell.merged_from is not None:
                cells.append(TableCell(r, cell.col, cell.span, "", Holds.BLANK, continued=True))
                continue
            kind = _kind(cell, t.ctx)
            text = "\n".join(one_line(i.text) for _, i in cell.inlines() if one_line(i.text))
            if kind == "boxes":
                words = [one_line(i.text) for _, i in cell.inlines() if not i.boxes and one_line(i.text)]
                holds = Holds.BOX if len(cell.boxes) == 1 and not words and not clean(cell.text) else Holds.BOXES
            elif kind == "text" and one_line(cell.text).lower() in MARKS:
                holds = Holds.MARK
            else:
                holds = _HOLDS.get(kind, Holds.TEXT)
            cells.append(TableCell(r, cell.col, cell.span, text, holds, numbered=_numbered(cell), strong=_strong(cell)))
        out.append(cells)
    return out


_LIST_STYLE = re.compile(r"list|number|nummer|aufz[äa]hlung|liste", re.I)


def _strong(cell: Cell) -> bool:
    """Every run of the cell's words bold (a heading's look)."""
    runs = [r for p in cell.own_paragraphs() for r in p.iter(f"{W}r") if "".join(r.itertext()).strip()]
    if not runs:
        return False
    for run in runs:
        b = run.find(f"{W}rPr/{W}b")
        if b is None or b.get(f"{W}val", "true").lower() in ("0", "false", "off"):
            return False
    return True


def _numbered(cell: Cell) -> bool:
    """The cell's first paragraph numbered by Word (its own numbering, or a list style's)."""
    paras = cell.own_paragraphs()
    ppr = paras[0].find(f"{W}pPr") if paras else None
    if ppr is None:
        return False
    style = ppr.find(f"{W}pStyle")
    return ppr.find(f"{W}numPr") is not None or style is not None and bool(_LIST_STYLE.search(style.get(f"{W}val", "")))


def _modelled(t: _Table, start: int) -> bool:
    """A table whose rows each pick one of several option columns (boxes or marks under option
    labels: "In Place | In Place with CCW | Not Applicable | Not in Place", "Yes | No"), as the table
    model reads it and the responder's corrections of the table's columns say (columns made the
    options of one choice, or taken out of it): a question per row, one choice whose options are
    the labels, and its text in the row's answer cell; each place named by its column's header."""
    model = _model_under(t, t.ctx.header) if t.ctx.header else infer(model_cells(t), t.g.width)
    if model is None:
        return False
    model = corrected_model(model, t.ctx.index, t.ctx.corrections)
    boxes = _boxes_column(t, model) if len(model.options) < 2 else None
    if len(model.options) < 2 and boxes is None or model.question_col is None:
        return False
    g, before = t.g, len(t.found)
    for r, section, more in question_groups(model_cells(t), model):
        qcell = g.at(r, model.question_col)  # type: ignore[arg-type]
        if qcell is None or _EXAMPLE.search(qcell.text):
            continue
        ident_cell = g.at(r, model.id_col) if model.id_col is not None else None
        ident = (
            ident_cell.line if ident_cell is not None and ident_cell is not qcell and is_id(ident_cell.line) else None
        )
        qcells = [c for k in (r, *more) if (c := g.at(k, model.question_col)) is not None]  # type: ignore[arg-type]
        text = _note_last(qcells, joined([_words(c) for c in qcells]))
        where = f"{t.ctx.section} > {section}" if t.ctx.section and section else section or t.ctx.section
        found = Found(qcell.own_paragraphs()[0], text, ident, section=where, how="a row of option columns: one choice")
        found.like = f"column:{model.labels.get(model.question_col, '')}:{model.question_col}"
        if boxes is None:
            _option_choice(t, model, r, found)
        elif (cell := g.at(r, boxes)) is not None and cell.merged_from is None:
            _answer_cell(t, found, cell)  # its labelled boxes: the row's choice
            if found.choice_place is not None:
                found.choice_place = replace(found.choice_place, column=model_header(model, boxes))
        _model_text_place(t, model, r, found, boxes)
        t.found.append(found)
    keys = tuple(t.ctx.key_of(f.anchor) for f in t.found[before:])
    t.ctx.tables.append(model_table_map(model, t.ctx.index, one_line(t.context())[:80], keys))
    return True


def _note_last(cells: list[Cell], text: str) -> str:
    """A question's text with the note set before what it asks ("（注）…。 …ますか。", "Note: … Do you …?")
    moved after it, in brackets (:func:`~engine.questionnaire.word.found.note_first`); else ``text``."""
    noted = note_first([one_line(i.text) for c in cells for _, i in c.inlines()])
    return f"{noted[0]} ({noted[1]})" if noted else text


def _words(cell: Cell) -> str:
    """A question cell's words, its paragraphs on one line."""
    return " ".join(one_line(i.text) for _, i in cell.inlines() if one_line(i.text))


def _with_header(head: list[list[TableCell]], rows: list[list[TableCell]]) -> list[list[TableCell]]:
    return [*head, *([replace(c, row=c.row + len(head)) for c in row] for row in rows)]


def _model_under(t: _Table, head: list[list[TableCell]]) -> TableModel | None:
    """The model of a table whose header is the table of labels right above it, in its own rows'
    numbers (the header's rows are not this table's)."""
    model = infer(_with_header(head, model_cells(t)), t.g.width)
    if model is None or model.first_row != len(head):
        return None
    return replace(model, header_rows=(), title_rows=(), first_row=0)


def header_above(tbl: etree._Element, below: etree._Element, ctx: TableContext) -> list[list[TableCell]] | None:
    """The rows of ``tbl`` when it is only the header of the table ``below`` (one or two rows of
    labels, as wide as it, over a table with no header of its own whose rows pick among option
    columns): its cells for the table below's model; None otherwise."""
    head_grid, rows_grid = grid(tbl), grid(below)
    if not 1 <= len(head_grid.rows) <= 2 or head_grid.width != rows_grid.width or len(rows_grid.rows) < 2:
        return None
    head = model_cells(_Table(head_grid, ctx))
    rows = _Table(rows_grid, ctx)
    own = infer(model_cells(rows), rows_grid.width)
    if own is not None and len(own.options) >= 2:
        return None  # the table below has its own header (its first rows are not requirements read as labels)
    model = _model_under(rows, head)
    if model is None or model.question_col is None:
        return None
    return head if len(model.options) >= 2 or _boxes_column(rows, model) is not None else None


def header_table(tbl: etree._Element, below: etree._Element, ctx: TableContext) -> Grid | None:
    """``tbl``'s grid when it is only the column header of the table ``below``, whatever its shape:
    one or two rows of labels as wide as it, over a table whose own first rows are no labels."""
    head_grid, rows_grid = grid(tbl), drawn_rows(grid(below))
    if not 1 <= len(head_grid.rows) <= 2 or head_grid.width != rows_grid.width or len(rows_grid.rows) < 2:
        return None
    head = _Table(head_grid, ctx)
    if not all(_labels_row(head, r) for r in range(len(head_grid.rows))):
        return None
    rows = _Table(rows_grid, ctx)
    return head_grid if _header(rows, _title_rows(rows)) is None else None


def _boxes_column(t: _Table, model: TableModel) -> int | None:
    """An answer column whose cells each hold two or more labelled boxes ("☐ Yes ☐ No ☐ N/A" under
    "Response"): the row's choice, as option columns are."""
    for c in model.columns(Role.ANSWER):
        cells = [
            x
            for r in range(model.first_row, len(t.g.rows))
            if (x := t.g.at(r, c)) is not None and x.col == c and x.merged_from is None and len(t.g.rows[r]) > 1
        ]
        labelled = [x for x in cells if len(x.boxes) >= 2 and all(b.label for b in x.boxes)]
        if cells and len(labelled) >= max(2, 0.6 * len(cells)):
            return c
    return None


def _model_text_place(t: _Table, model: TableModel, r: int, found: Found, boxes: int | None = None) -> None:
    """The row's text place: its answer column's cell (not the column of its boxes), or the column
    the responder moved it to."""
    moved = t.ctx.moves.get(t.ctx.key_of(found.anchor))
    if moved in model.options or moved is not None and moved == boxes:
        moved = None  # free text never goes in an option column
    cell = _answer_column_cell(t, model, r, boxes) if moved is None else t.g.at(r, moved)
    if cell is None or cell.merged_from is not None or cell.col == model.question_col:
        return
    _answer_cell(t, found, cell)
    if found.text_place is not None and not found.text_place.column:
        found.text_place = replace(found.text_place, column=model_header(model, cell.col) or f"column {cell.col + 1}")


def _option_choice(t: _Table, model: TableModel, r: int, found: Found) -> None:
    cells = [(model.option_label(c), t.g.at(r, c)) for c in model.options]
    marks = [(label, cell) for label, cell in cells if cell is not None]
    boxes = [cell.boxes for _, cell in marks]
    if all(len(b) == 1 for b in boxes):
        labelled = [Box(b[0].kind, b[0].el, b[0].checked, b[0].offset, label) for b, (label, _) in zip(boxes, marks)]
        found.choice_place, found.existing_choice = boxes_place(labelled)
    else:
        found.choice_place, found.existing_choice = column_marks_place(marks)
    found.choices = tuple(label for label, _ in marks)
    column = options_column([model_header(model, c) for c in model.options])
    found.choice_place = replace(found.choice_place, column=column)


def _answer_column_cell(t: _Table, model: TableModel, r: int, boxes: int | None = None) -> Cell | None:
    """The row's cell for text: the answer column's, else a notes or owner/date column's that is
    still a place (never an option column, nor the column of the row's boxes)."""
    for role in (Role.ANSWER, Role.NOTES, Role.OWNER_DATE):
        for c in model.columns(role):
            cell = t.g.at(r, c)
            if cell is None or cell.merged_from is not None or cell.col in model.options or cell.col == boxes:
                continue
            if role is Role.ANSWER or _kind(cell, t.ctx) in ("blank", "control"):
                return cell
    return None


def _box_row(t: _Table, start: int) -> bool:
    """A table whose first row is two or more boxes, each with its label and nothing else
    ("☐ Implemented | ☐ Planned to be Implemented | ☐ Not Applicable"), over a row for the text:
    one choice (the question: the text before the table), its text in the row below."""
    g = t.g
    if start > 1 or not g.rows:
        return False
    own = g.own(0)  # (the title rows may have taken it for a title: "Implemented Planned … Not Applicable")
    if len(own) < 2 or not all(len(c.boxes) == 1 and c.boxes[0].label for c in own):
        return False
    if any(len([1 for _, i in c.inlines() if one_line(i.text)]) > 1 for c in own):
        return False
    text = t.ctx.before or (t.ctx.section or "").rsplit(" > ", 1)[-1]
    if not text:
        return False
    detected = {c.col: ColumnRole.OPTIONS for c in own}
    roles = column_roles(detected, t.ctx.index, t.ctx.corrections)  # a box the responder takes out of the choice
    own = [c for c in own if roles.get(c.col) is ColumnRole.OPTIONS]
    if not own:
        return False
    labelled = [c.boxes[0] for c in own]
    found = Found(own[0].own_paragraphs()[0], _with_section(text, t), section=t.ctx.section, how="a row of boxes")
    found.choice_place, found.existing_choice = boxes_place(labelled)
    found.choice_place = replace(found.choice_place, column="one of the columns")
    found.choices = tuple(b.label for b in labelled)
    found.like = f"boxes:{found.choices[:2]}"
    if len(g.rows) >= 2 and _full(g, 1) is not None:
        below = _full(g, 1)
        kind = _kind(below, t.ctx)  # type: ignore[arg-type]
        prompts = len(_prompt_lines(below)) if kind == "text" else 0  # type: ignore[arg-type]
        if kind == "text" and not prompts:
            prompts = 1  # its first paragraph guides ("Current implementation or planned implementation details.")
        found.text_place, found.existing_answer = cell_place(below, prompts=prompts)  # type: ignore[arg-type]
    t.found.append(found)
    columns = tuple(TableColumn(c.col, b.label, roles.get(c.col)) for c in g.own(0) for b in c.boxes[:1])
    t.ctx.tables.append(TableMap(t.ctx.index, one_line(text)[:80], columns, (t.ctx.key_of(found.anchor),)))
    return True


# ---------------------------------------------------------------------------- 1. records


def _records(t: _Table, start: int) -> bool:
    header = _header(t, start) or _text_row(t, start)
    while header is None and start + 1 < len(t.g.rows) and _full(t.g, start) is not None:
        if _kind(_full(t.g, start), t.ctx) != "text":  # type: ignore[arg-type]
            return False
        start += 1  # an instruction spanning the table above its header ("This table only needs to be completed if …")
        header = _header(t, start) or _text_row(t, start)
    if header is None:
        return False
    first, labels = header
    rows = range(first, len(t.g.rows))
    empty = [r for r in rows if all(_empty(c, t.ctx) for c in t.g.own(r))]
    entries = [r for r in rows if r not in empty and not any(asks(c.line) or c.controls for c in t.g.own(r))]
    listed = len(empty) >= 2 or empty and len(entries) >= 2 and len(entries) + len(empty) == len(rows)
    filled = [r for r in rows if all(c.line and not c.boxes and not c.controls for c in t.g.own(r))]
    asking = any(asks(c.line) for r in rows for c in t.g.own(r))
    wide = t.g.width >= 3  # a two-column table filled in is a form answered, not a reference
    wide = wide and not any(_answer_label(v) or _YES_NO_HEAD.match(v) for v in labels.values())  # nor one
    # with an answer column ("Response", "Y / N")
    if wide and len(rows) >= 3 and len(filled) >= 0.7 * len(rows) and not asking and not _header_asks(t, first):
        return True  # a reference list, filled in (which controls apply at which level): nothing to answer
    if listed and len({v for v in labels.values() if v}) >= 2 and (len(t.g.own(first - 1)) >= 3 or len(empty) >= 3):
        name = t.title or t.ctx.before or ", ".join(dict.fromkeys(v for v in labels.values() if v))
        t.ctx.notes.append(
            f"the table '{one_line(name)[:60]}' is a list of records ({len(empty)} empty rows under "
            f"'{' | '.join(dict.fromkeys(v for v in labels.values() if v))[:80]}'): not read as questions; fill it in by hand"
        )
        _totals(t, [r for r in rows if r > max(empty)])
        return True
    if _placeholder_records(t, labels, list(rows)):
        name = t.title or t.ctx.before or ", ".join(dict.fromkeys(v for v in labels.values() if v))
        t.ctx.notes.append(
            f"the table '{one_line(name)[:60]}' is a list of records, a row an entry and its fields' controls "
            f"under '{' | '.join(dict.fromkeys(v for v in labels.values() if v))[:80]}': not read as questions"
        )
        return True
    return False


def _placeholder_records(t: _Table, labels: Mapping[int, str], rows: list[int]) -> bool:
    """A list of records the form ships with an entry a row and a control for each of its fields ("Information
    Security Policies | Enter … A1 ISPP xx v1.0 | . enter extension" under "Attachment | File Name | File
    Extension"): three columns or more under a header whose labels name no role (no question, answer or
    notes column), no box, nothing that asks, no control in the first column, and half the rows or more (two at
    least) a label and two controls after it: each row's fields are filled in by hand, as a list of records'
    empty rows are, whichever order its columns come in (rows given as they are: "FIPS 199 | Included in
    Section 15")."""
    if t.g.width < 3 or len(rows) < 3 or any(role_of_label(v) for v in labels.values() if v):
        return False
    filled = 0
    for r in rows:
        own = t.g.own(r)
        if len(own) < 3 or own[0].controls or any(c.boxes or asks(c.line) for c in own):
            return False
        filled += sum(any(x.kind != "checkbox" for x in c.controls) for c in own[1:]) >= 2
    return filled >= 2 and filled * 2 >= len(rows)


_TOTAL = re.compile(r"^\s*(?:grand\s+|sub-?)?total\b|^\s*(?:totaal|gesamt\w*|summe|montant total)\b", re.I)
_NO_AMOUNT = re.compile(r"^[\s£$€¥.,:_-]*$")  # "£", "€ ____": where the amount goes


def _totals(t: _Table, rows: list[int]) -> None:
    """The rows under a list of records that total it ("Total Costs (£) | £"): a question each, its
    answer in the last cell (empty, a currency sign alone, or the amount given)."""
    for r in rows:
        own = t.g.own(r)
        if len(own) < 2 or not _TOTAL.match(own[0].line) or not own[0].own_paragraphs():
            continue
        if not all(_NO_AMOUNT.match(c.line) for c in own[1:-1]) or any(c.boxes or c.controls for c in own[1:]):
            continue  # (the last cell may hold the amount given)
        found = Found(own[0].own_paragraphs()[0], _with_context(t, label_of(own[0].line)), section=t.ctx.section,
                      how="a total under a list of records")  # fmt: skip
        found.text_place, answer = cell_place(own[-1])
        found.existing_answer = None if answer is None or _NO_AMOUNT.match(answer) else answer
        t.found.append(found)


def _header_asks(t: _Table, first: int) -> bool:
    return any(asks(c.line) for r in range(first) for c in t.g.own(r))


def _empty(cell: Cell, ctx: TableContext) -> bool:
    """Nothing entered: blank, or controls showing their placeholder (a dropdown's "Select One")."""
    if cell.boxes:
        return False
    if cell.blank:
        return True
    controls = cell.controls
    return bool(controls) and all(c.placeholder or is_blank(c.text) or c.items for c in controls)


DOCUMENT_CONTROL = re.compile(
    r"\b(?:revision history|document changes|record of changes|change (?:history|record|log)|version history|document history"
    r"|revisiegeschiedenis|prepared (?:by|for)|sign[- ]off sheet)\b|\b(?:signatures?|approvals|handtekening)\s*$",
    re.IGNORECASE,
)


def _document_control(t: _Table) -> bool:
    """A table about the document itself (its revisions, who prepared it, its signatures)."""
    section = (t.ctx.section or "").rsplit(" > ", 1)[-1]
    return any(DOCUMENT_CONTROL.search(x) for x in (t.title, t.ctx.before, section) if x)


# --------------------------------------------------------------------------- 2. box lists


def _option_row(t: _Table, r: int, col: int | None = None) -> tuple[Box | None, list, str] | None:
    """(box, glyph items, label) when row r is one box and its label (in column ``col`` when the
    list's labels stand in one, :func:`_label_column`), else None."""
    own = t.g.own(r)
    boxes = [b for c in own for b in c.boxes]
    if len(boxes) != 1:
        return None
    texts = [(c.col, _first_line(c)) for c in own if c.line and not c.boxes]
    label = boxes[0].label or next((x for c, x in texts if c == col), texts[0][1] if texts else "")
    label = clean(label)
    if not label or asks(label) and len(label.split()) > 12:
        return None
    return boxes[0], [], label


def _label_column(t: _Table, rows: list[int]) -> int | None:
    """Where the options' labels stand in a list of a box per row with words in two or more columns:
    the column of words each row has, no two alike (options differ; "Major Application" repeated is
    a category beside them), the fewest words of those (a description of each is longer), before or
    after the other ("☐ | Public | Cloud services …" or "☐ | Cloud services … | Public")."""
    words: dict[int, list[str]] = {}
    for r in rows:
        for c in t.g.own(r):
            if c.line and not c.boxes:
                words.setdefault(c.col, []).append(_first_line(c))
    if len(words) < 2:
        return None
    full = [c for c, xs in words.items() if len(xs) == len(rows) and len(set(xs)) == len(xs)]
    return min(full, key=lambda c: (sum(len(x.split()) for x in words[c]), c), default=None)


def _first_line(cell: Cell) -> str:
    return next((one_line(i.text) for _, i in cell.inlines() if one_line(i.text)), "")


def _box_list(t: _Table, start: int) -> bool:
    g = t.g
    rows = list(range(start, len(g.rows)))
    if len(rows) < 2:
        return False
    col = _label_column(t, rows)
    options = [_option_row(t, r, col) for r in rows]
    if not all(options):
        return False
    groups: list[tuple[str, list[tuple[int, Box, str]]]] = [(t.title or t.ctx.before or t.context(), [])]
    for r, (box, _, label) in zip(rows, options):  # type: ignore[misc]
        groups[-1][1].append((r, box, label))
        follow = _follow_up(t, r)  # "This cloud is willing to host… / Select the cloud layers…": a second pick
        if follow:
            groups.append((follow, []))
    for text, items in groups:
        if not items:
            continue
        labelled = [Box(b.kind, b.el, b.checked, b.offset, label) for _, b, label in items]
        place, existing = boxes_place(labelled)
        anchor = g.own(items[0][0])[0].own_paragraphs()[0]
        t.found.append(
            Found(
                anchor,
                _with_section(text, t),
                choice_place=place,
                choices=tuple(b.label for b in labelled),
                existing_choice=existing,
                section=t.ctx.section,
                like=f"table:{t.title or 'boxes'}",
                how="a list of boxes",
            )  # fmt: skip
        )
    return True


def _choice_rows(t: _Table, start: int) -> bool:
    """A table whose rows are the options of one choice, under a header ("Digital Identity Level | Maximum
    Impact Profile | Selection" over "Level 1: AAL1, IAL1, FAL1 | Low | ☐", one row a level): two or more
    rows, each with words and one place to mark in the same column (a box each, or an empty cell each to
    mark with "X"), that column's header naming the pick ("Selection", "Select one", "Auswahl",
    "Sélection", "Selección", "Keuze", "選択": :func:`~engine.questionnaire.cues.names_selection`) or the
    text before the table asking for one ("Check one.", "Kreuzen Sie eine an": ``asks_one``). One choice
    question: its options the rows' labels (the first column of words on every row, no two alike, not
    IDs), its boxes (or cells) the rows' places, its text the options' column's header with the table's
    caption. Not this: a column headed by a question asked of every row ("COMPLETED?", "Included?"), rows
    that ask, a question or requirement column (a pick per row, as before)."""
    header = _header(t, start)
    if header is None:
        return False
    first, labels = header
    rows = [r for r in range(first, len(t.g.rows)) if any(c.line or c.boxes for c in t.g.own(r))]
    col = _selection_column(t, labels, rows)
    if col is None:
        return False
    label_col = _option_labels_column(t, rows, col, labels)
    if label_col is None:
        return False
    places = [t.g.at(r, col) for r in rows]
    names = [_first_line(t.g.at(r, label_col)) for r in rows]  # type: ignore[arg-type]
    if all(c.boxes for c in places):  # type: ignore[union-attr]
        boxes = [Box(c.boxes[0].kind, c.boxes[0].el, c.boxes[0].checked, c.boxes[0].offset, n)  # type: ignore[union-attr]
                 for c, n in zip(places, names)]  # fmt: skip
        place, existing = boxes_place(boxes)
    else:
        place, existing = column_marks_place(list(zip(names, places)))  # type: ignore[arg-type]
    head = clean(labels.get(label_col, ""))
    text = _with_context(t, head) if head else t.context()
    anchor = t.g.at(rows[0], label_col).own_paragraphs()[0]  # type: ignore[union-attr]
    found = Found(anchor, text, section=t.ctx.section, how="a table whose rows are the options of one choice")
    found.choice_place = replace(place, column=clean(labels.get(col, "")) or f"column {col + 1}")
    found.existing_choice, found.choices = existing, tuple(names)
    found.like = f"table:{t.title or head or 'choice rows'}"
    t.found.append(found)
    return True


def _selection_column(t: _Table, labels: Mapping[int, str], rows: list[int]) -> int | None:
    """The column of :func:`_choice_rows`' places: on every row one box and no words (or, under a header
    naming the pick, an empty cell or a mark), no other box in the row; its header names the pick, or
    the text before the table asks for one."""
    if len(rows) < 2:
        return None
    one = asks_one(t.ctx.before)
    for c in sorted({c for c, v in labels.items()}):
        label = clean(labels.get(c, ""))
        named = names_selection(label) and sum(clean(v) == label for v in labels.values()) == 1
        if not named and not one:
            continue
        cells = [t.g.at(r, c) for r in rows]
        if any(x is None or x.col != c or x.merged_from is not None for x in cells):
            continue
        boxed = [len(x.boxes) == 1 and not clean(x.boxes[0].label) and not _words_beside(x) for x in cells]  # type: ignore[union-attr]
        marks = [not x.boxes and not x.controls and (x.blank or x.line.lower() in MARKS) for x in cells]  # type: ignore[union-attr]
        if not (all(boxed) or named and all(marks)):
            continue
        if any(b for r in rows for x in t.g.own(r) if x.col != c for b in x.boxes):
            continue
        return c
    return None


def _words_beside(cell: Cell) -> str:
    """A cell's words other than its boxes' labels."""
    return " ".join(one_line(i.text) for _, i in cell.inlines() if not i.boxes and one_line(i.text))


def _option_labels_column(t: _Table, rows: list[int], col: int, labels: Mapping[int, str]) -> int | None:
    """Where :func:`_choice_rows`' options are named: the first column (not the places') with words on every
    row, no two alike, not IDs, none asking, its header naming no question or requirement."""
    for c in sorted({x.col for r in rows for x in t.g.own(r)} - {col}):
        cells = [t.g.at(r, c) for r in rows]
        if any(x is None or x.col != c or x.merged_from is not None or not x.line or x.boxes for x in cells):
            continue
        names = [_first_line(x) for x in cells]  # type: ignore[arg-type]
        if len(set(names)) < len(names) or all(is_id(n) for n in names):
            continue
        if any(asks(n) for n in names) or role_of_label(clean(labels.get(c, ""))) in (Role.QUESTION, Role.ID):
            return None  # rows that ask, or a question column: a pick per row
        return c
    return None


def _follow_up(t: _Table, r: int) -> str:
    """A prompt for another pick under an option's label, in its cell ("Select the cloud layers…")."""
    for cell in t.g.own(r):
        lines = [one_line(i.text) for _, i in cell.inlines() if one_line(i.text) and not i.boxes]
        if len(lines) >= 2 and (asks(lines[-1]) or ends_with_colon(lines[-1])):
            return lines[-1]
    return ""


def _with_section(text: str, t: _Table) -> str:
    section = (t.ctx.section or "").rsplit(" > ", 1)[-1]
    text = one_line(text)
    if section and section.lower() not in text.lower() and not asks(text):
        return f"{section}: {text}"
    return text


# ----------------------------------------------------------------------------- 3. columns


@dataclass
class _Columns:
    labels: dict[int, str]
    id_col: int | None
    question_col: int | None
    answer_cols: list[int]
    mark_cols: list[int]
    named: bool = False  # the header names the question column ("Requirement") beside an ID column


def _answer_label(label: str) -> bool:
    """A header label naming a column for the answers, in this reader's words or in the table model's
    (any language it knows: "Observaciones", "Respuesta", "Kommentar", "Reply")."""
    return bool(_ANSWER_LABEL.search(label)) or role_of_label(label) in (Role.ANSWER, Role.NOTES)


def _roles(t: _Table, first: int, labels: dict[int, str]) -> _Columns:
    g = t.g
    cols = sorted({c.col for r in range(first, len(g.rows)) for c in g.own(r)} | {c for c in labels if labels[c]})
    data = [r for r in range(first, len(g.rows)) if not _repeats_header(t, r, labels) and not _example_row(t, r)]
    id_col = question_col = None
    answer_cols, mark_cols = [], []
    for c in cols:
        label = clean(labels.get(c, ""))
        short = label.split(": ")[-1]  # the lower of two header rows ("…Controls: FED")
        cells = [g.at(r, c) for r in data]
        cells = [x for x in cells if x is not None and x.col == c and x.merged_from is None]
        if not cells:
            continue  # no cell starts in this column (merged into its neighbour on every row)
        kinds = [_kind(x, t.ctx) for x in cells]
        if role_of_label(label) is Role.GUIDANCE:
            continue  # "Guidance", "Expected Testing": read with the question, never its answer's place
        placeish = sum(k in ("blank", "control", "boxes", "glyphs") for k in kinds)
        marks = [one_line(x.text).lower() for k, x in zip(kinds, cells) if k != "boxes"]
        if (
            label
            and (_MARK_LABEL.match(short) or any(m in MARKS for m in marks) and len(short.split()) <= 4)
            and all(m in MARKS or not m for m in marks)
        ):  # "Yes | No" columns, or a matrix of "x" marks under short labels
            mark_cols.append(c)
        elif _ID_LABEL.match(label) or (label and cells and all(is_id(x.line) or not x.line for x in cells)
                                        and sum(bool(x.line) for x in cells) >= max(2, len(cells) // 2)):  # fmt: skip
            id_col = c if id_col is None or "id" in label.lower() else id_col
        elif (
            _answer_label(label)
            and not _QUESTION_HEAD.search(label)  # not "CSP Response Requirements"
            or _YES_NO_HEAD.match(label)  # "Y / N": the answer written in ("Insert Yes (Y) or No (N) in each box")
            or (cells and placeish >= max(1, 0.6 * len(cells)))
            or (_FIELD.search(label) and not any(is_label(x.line) or asks(x.line) for x in cells if x.line))
        ):
            answer_cols.append(c)
        elif _QUESTION_LABEL.search(label) and question_col is None:
            question_col = c
    if question_col is None:
        candidates = [c for c in cols if c not in answer_cols + mark_cols and c != id_col]
        scores = {
            c: sum(asks(x.line) for r in data if (x := g.at(r, c)) is not None and x.col == c) for c in candidates
        }
        best = max(scores.items(), key=lambda kv: (kv[1], -kv[0]), default=(None, 0))
        question_col = best[0] if best[1] else None
    if question_col is None and (answer_cols or mark_cols):  # labels beside the places ("Measures approved by:")
        labelled = [
            c for c in cols
            if c not in answer_cols + mark_cols and c != id_col and c < min(answer_cols + mark_cols)
            and sum(bool(x.line) and not x.blank and (is_label(x.line) or asks(x.line))
                    for r in data if (x := g.at(r, c)) is not None) > len(data) / 2
        ]  # fmt: skip
        question_col = labelled[-1] if labelled else None
    return _Columns(labels, id_col, question_col, _answer_first(t, answer_cols, labels, data), mark_cols)


def _answer_first(t: _Table, answer_cols: list[int], labels: dict[int, str], data: list[int]) -> list[int]:
    """The answer columns, the answer's own first, whatever their order in the table: a column the
    header names for notes or guidance ("Notes", "Remarks", "備考", "Hinweise"), its cells words
    rather than places to fill, comes after the others (a note next to the question is never its
    answer's place); a filled table keeps the same order (its notes are still notes)."""
    if len(answer_cols) < 2:
        return answer_cols

    def places(c: int) -> bool:
        cells = [x for r in data if (x := t.g.at(r, c)) is not None and x.col == c and x.merged_from is None]
        kinds = [_kind(x, t.ctx) for x in cells]
        return bool(kinds) and sum(k != "text" for k in kinds) >= 0.6 * len(kinds)

    noted = {c: role_of_label(clean(labels.get(c, ""))) in (Role.NOTES, Role.GUIDANCE) for c in answer_cols}
    placed = {c: places(c) for c in answer_cols}
    if all(noted.values()):
        return answer_cols  # (notes the only answer columns: the first is the place)
    return sorted(answer_cols, key=lambda c: noted[c] and not placed[c])


def _first_row_labels(t: _Table, start: int) -> tuple[int, dict[int, str]] | None:
    """The row at ``start`` as the labels of the columns (a table the responder reads by its columns
    though its first row is not a row of labels)."""
    if start >= len(t.g.rows) - 1:
        return None
    labels = {c: "" for c in range(t.g.width)}
    for cell in t.g.rows[start]:
        for c in range(cell.col, cell.col + cell.span):
            labels[c] = cell.origin.line
    return start + 1, labels


def _detected_roles(roles: _Columns) -> dict[int, ColumnRole]:
    out = {c: ColumnRole.ANSWER for c in roles.answer_cols} | {c: ColumnRole.OPTIONS for c in roles.mark_cols}
    if roles.id_col is not None:
        out[roles.id_col] = ColumnRole.ID
    if roles.question_col is not None:
        out[roles.question_col] = ColumnRole.QUESTION
    return out


def _model_roles(t: _Table, first: int, detected: dict[int, ColumnRole]) -> dict[int, ColumnRole]:
    """The roles the table model infers for this table's columns (the base the responder's
    corrections apply over, as for a table the model reads), else the ones ``_roles`` detected
    (a table with no header row the model knows, or whose data start elsewhere)."""
    model = infer(model_cells(t), t.g.width)
    if model is None or model.first_row != first:
        return detected
    return detected_roles(model)


def _corrected(roles: _Columns, new: dict[int, ColumnRole]) -> _Columns:
    """The columns as the corrected roles ``new`` name them (engine/questionnaire/corrections.py:
    :func:`column_roles`, the step every table reader takes, made them)."""
    of = lambda role: sorted(c for c, r in new.items() if r is role)  # noqa: E731
    question = of(ColumnRole.QUESTION)
    ident = of(ColumnRole.ID)
    return _Columns(
        roles.labels,
        ident[0] if ident else None,
        question[0] if question else None,
        of(ColumnRole.ANSWER) + of(ColumnRole.NOTES),
        of(ColumnRole.OPTIONS),
    )


def _table_map(t: _Table, labels: dict[int, str], shown: dict[int, ColumnRole]) -> TableMap:
    """The table's columns, each with its header and role, as the mapping shows them."""
    heads: dict[int, str] = {}
    for c, label in sorted(labels.items()):
        heads.setdefault(c, clean(label))
    columns = tuple(TableColumn(c, heads[c], shown.get(c)) for c in sorted(heads))
    return TableMap(t.ctx.index, one_line(t.context())[:80], columns)


def _header_of(roles: _Columns, c: int) -> str:
    """A column's header ("Response: In Place" → the group "Response" for its options' place)."""
    return clean(roles.labels.get(c, ""))


def _repeats_header(t: _Table, r: int, labels: dict[int, str]) -> bool:
    """Row r repeats the header's labels beside its first cell (a section of the table:
    "Tooling | Implementation | Notes, Action Item")."""
    own = t.g.own(r)
    if len(own) < 2 or not _labels_row(t, r):
        return False
    same = sum(
        1
        for c in own[1:]
        if c.line and _kind(c, t.ctx) == "text" and _word(c.line) == _word(labels.get(c.col, "").split(": ")[-1])
    )  # (an answer an export wrote, "Low" under "Low, Moderate or High", repeats nothing)
    return same >= max(1, len(own) - 2)


def _word(label: str) -> str:
    words = re.findall(r"\w+", label.lower())
    return words[0] if words else ""


def _columns(t: _Table, start: int) -> bool:
    corrections = [c for c in t.ctx.corrections if c.table == t.ctx.index]
    header = _header(t, start) or (_first_row_labels(t, start) if corrections else None)
    if header is None:
        return False
    first, labels = header
    roles = _roles(t, first, labels)
    named = roles.question_col is not None and _QUESTION_HEAD.search(clean(labels.get(roles.question_col, "")))
    shown = _detected_roles(roles)
    if corrections:  # over the table model's roles: the one apply step of every table reader
        shown = column_roles(_model_roles(t, first, shown), t.ctx.index, corrections)
        roles = _corrected(roles, shown)
    elif roles.question_col is None or not (
        roles.answer_cols or roles.mark_cols or _mostly_asking(t, first, roles) or named and roles.id_col is not None
    ):  # (a table of IDs and requirements under their header: each row asks, in words or not)
        return False
    if roles.question_col is None:
        return True  # the responder took the question column away: no question in this table
    if (
        not corrections
        and len(range(first, len(t.g.rows))) == 1
        and not _asks_in(t, first, roles)
        and not (named and roles.id_col is not None)
    ):
        return False  # one row under the labels: a form of one record (shape 4)
    roles.named = bool(named and roles.id_col is not None)
    if not corrections and _reference(t, first, roles):
        return True
    section, before = t.ctx.section, len(t.found)
    cells, group = model_cells(t), _Group()
    places = tuple(roles.answer_cols + roles.mark_cols)
    bold = bold_headings(cells, roles.question_col, first)
    for r in range(first, len(t.g.rows)):
        if _repeats_header(t, r, labels):
            head = t.g.own(r)[0].line
            section = f"{t.ctx.section} > {head}" if t.ctx.section and head else head or section
            continue
        if r + 1 < len(t.g.rows) and _full(t.g, r) is not None and _repeats_header(t, r + 1, labels):
            continue  # "Table 1 (continued)" over the header written again on a new page
        if bold and _full(t.g, r) is None and (head := bold_heading(cells[r], roles.question_col)):
            section, group = (f"{t.ctx.section} > {head}" if t.ctx.section else head), _Group()
            continue  # a section's title in bold in the question's cell, nothing else in its row
        if group.goes_on(t, cells, r, (roles.question_col, roles.id_col, places)):
            continue
        n = len(t.found)
        _column_row(t, r, roles, section)
        group = _Group(r, t.found[-1], [r]) if len(t.found) == n + 1 else _Group()
    keys = tuple(t.ctx.key_of(f.anchor) for f in t.found[before:])
    t.ctx.tables.append(replace(_table_map(t, labels, shown), keys=keys))
    return True


@dataclass
class _Group:
    """The last question read by columns: its row, what was found, and the rows its text is on."""

    row: int = -1
    found: Found | None = None
    rows: list[int] = field(default_factory=list)

    def goes_on(self, t: _Table, cells: list[list[TableCell]], r: int, columns: tuple) -> bool:
        """Row r goes on with this question's text (:func:`continues`): its words joined to it."""
        qcol = columns[0]
        if self.found is None or qcol is None or self.rows[-1] != r - 1:
            return False
        parts = [_words(c) for k in self.rows if (c := t.g.at(k, qcol)) is not None]
        if not continues(joined(parts), cells[self.row], cells[r], columns):
            return False
        self.rows.append(r)
        self.found.text = joined([*parts, _words(t.g.at(r, qcol))])  # type: ignore[arg-type]
        return True


def _reference(t: _Table, first: int, roles: _Columns) -> bool:
    """A matrix already marked on every row whose rows ask nothing (which controls apply, by
    category): the document's reference, not questions; a note says so."""
    if not roles.mark_cols:
        return False
    rows = [r for r in range(first, len(t.g.rows)) if len(t.g.own(r)) > 1]
    for r in rows:
        marks = [t.g.at(r, c) for c in roles.mark_cols]
        if not any(m is not None and one_line(m.text).lower() in MARKS for m in marks):
            return False
        q = t.g.at(r, roles.question_col)  # type: ignore[arg-type]
        if q is not None and asks(q.line):
            return False
    name = t.title or t.ctx.before or "a table"
    t.ctx.notes.append(
        f"the table '{one_line(name)[:60]}' is marked on every row already: read as reference, not questions"
    )
    return True


def _mostly_asking(t: _Table, first: int, roles: _Columns) -> bool:
    """Most of the question column's cells ask (the items listed under a question not counted)."""
    cells = [t.g.at(r, roles.question_col) for r in range(first, len(t.g.rows))]  # type: ignore[arg-type]
    texts = [c.line for c in cells if c is not None and c.line and not _SUB_ITEM.match(c.line)]
    return bool(texts) and sum(asks(x) for x in texts) >= 0.5 * len(texts)


def _asks_in(t: _Table, r: int, roles: _Columns) -> bool:
    cell = t.g.at(r, roles.question_col)  # type: ignore[arg-type]
    return cell is not None and asks(cell.line)


def _column_row(t: _Table, r: int, roles: _Columns, section: str | None) -> None:
    g = t.g
    qcell = g.at(r, roles.question_col)  # type: ignore[arg-type]
    if qcell is None or qcell.merged_from is not None or not qcell.line or _EXAMPLE.search(qcell.text):
        return
    if any(qcell.col <= c < qcell.col + qcell.span for c in roles.answer_cols + roles.mark_cols):
        if (
            _CONDITION.match(qcell.line)
            and ends_with_colon(qcell.line)
            and _full(g, r) is qcell
            and r + 1 < len(g.rows)
        ):
            return  # "If No to the above question then:": the rows under it go on from it
        _after_label(t, qcell, None)  # a row spanning the answer column: a label alone ("Comments:")
        return
    ident = g.at(r, roles.id_col) if roles.id_col is not None else None
    ident_text = ident.line if ident is not None and ident is not qcell and is_id(ident.line) else None
    previous = t.found[-1] if t.found else None
    if previous is not None and _is_sub_item(qcell.line, ident_text, previous):
        asked, answer = _question_and_answer(qcell)
        previous.text = f"{previous.text} {' '.join(asked)}"
        if previous.text_place is not None and previous.how.endswith("no answer column"):  # its answer: below its items
            note = previous.text_place.note
            previous.text_place, previous.existing_answer = (
                AnswerPlace(PlaceKind.TABLE_CELL, locator(qcell.el), note=note),
                answer,
            )
        return
    if not asks(qcell.line) and not is_label(qcell.line) and not roles.answer_cols and not roles.mark_cols:
        if not (roles.named and ident_text):  # "QU02 | 5% | Highlight any specific …": a requirement to answer
            return
    text = _with_context(t, label_of(qcell.line)) if is_label(qcell.line) and not asks(qcell.line) else qcell.line
    text = _note_last([qcell], text)
    found = Found(qcell.own_paragraphs()[0], text, ident_text, section=section, how="question and answer columns")
    found.like = f"column:{roles.labels.get(roles.question_col, '')}:{roles.question_col}"
    if roles.mark_cols:
        marks = [(clean(roles.labels.get(c, "")).split(": ")[-1] or f"Column {c}", g.at(r, c)) for c in roles.mark_cols]
        marks = [(label, cell) for label, cell in marks if cell is not None]
        boxes = [b for _, cell in marks for b in cell.boxes]
        if len(boxes) == len(marks):
            labelled = [Box(b.kind, b.el, b.checked, b.offset, label) for b, (label, _) in zip(boxes, marks)]
            found.choice_place, found.existing_choice = boxes_place(labelled)
        else:
            found.choice_place, found.existing_choice = column_marks_place(marks)
        found.choices = tuple(label for label, _ in marks)
        column = options_column([_header_of(roles, c) for c in roles.mark_cols])
        found.choice_place = replace(found.choice_place, column=column)
    moved = t.ctx.moves.get(t.ctx.key_of(found.anchor))
    for c in roles.answer_cols if moved is None else [moved]:
        cell = g.at(r, c)
        if cell is None or cell.merged_from is not None or cell is qcell:
            continue
        _answer_cell(t, found, cell)
        if found.text_place is not None and not found.text_place.column:
            found.text_place = replace(found.text_place, column=_header_of(roles, cell.col) or f"column {cell.col}")
    if found.text_place is None and found.choice_place is None:
        note = "the table has no answer column: the answer goes in a new paragraph below the question, in its cell"
        asked, answer = _question_and_answer(qcell)
        found.text = " ".join(asked) if asked else found.text
        found.text_place = AnswerPlace(PlaceKind.TABLE_CELL, locator(qcell.el), note=note)
        found.existing_answer = answer
        found.how = "question column, no answer column"
    t.found.append(found)


def _question_and_answer(cell: Cell) -> tuple[list[str], str | None]:
    """A question cell's lines up to its last asking one (its items "- …" too), and what was
    written below them (an answer), if anything."""
    inlines = [(p, one_line(i.text)) for p, i in cell.inlines() if one_line(i.text)]
    lines = [x for _, x in inlines]
    written = next((n for n, (p, _) in enumerate(inlines) if written_answer(p)), None)
    if written is not None:  # an export's answer (its bookmark says so), under the question's lines
        return lines[:written], "\n".join(lines[written:])
    last = max((n for n, x in enumerate(lines) if asks(x) or _SUB_ITEM.match(x)), default=len(lines) - 1)
    rest = "\n".join(lines[last + 1 :]).strip()
    return lines[: last + 1], rest or None


def _is_sub_item(text: str, ident: str | None, previous: Found) -> bool:
    """A row that continues the question above: numbered under it ("1.f.i" under "1.f") or a
    dash item that does not ask."""
    if ident and previous.id and ident.startswith(previous.id + ".") and not asks(text):
        return True
    return bool(_SUB_ITEM.match(text)) and not asks(text)


def _answer_cell(t: _Table, found: Found, cell: Cell) -> None:
    """Give ``found`` the places in an answer cell: boxes or box-bulleted options as its choice,
    an empty cell, a control or a cell of guidance ("If yes: Describe …") as its text place."""
    kind = _kind(cell, t.ctx)
    if kind == "boxes" and found.choice_place is None:
        found.choice_place, found.existing_choice = boxes_place(cell.boxes)
        found.choices = tuple(b.label for b in cell.boxes)
        if len(cell.boxes) == 1 and not cell.boxes[0].label:  # one box and no label ("COMPLETED? | ☐"): ticked or not
            found.choices = ("Yes", "No")
            found.existing_choice = "Yes" if found.existing_choice else None
    elif kind == "glyphs" and found.choice_place is None:
        items = t.ctx.glyph_boxes(cell)
        found.choice_place, found.existing_choice = list_glyph_place(items)
        found.choices = tuple(lab for _, lab, _ in items)
    if (
        kind == "boxes"
        and found.text_place is None
        and any(_FILL_IN.search(i.text) for _, i in cell.inlines() if not i.boxes)
    ):  # "<Fill In and Select Below>" over its boxes: the text goes in place of the placeholder
        found.text_place, found.existing_answer = cell_place(cell)
    elif found.text_place is None and kind in ("blank", "control"):
        _text_or_pick(found, cell)
    elif found.text_place is None and kind == "text":
        prompts = _prompt_lines(cell)
        if prompts:
            found.text = f"{found.text} ({'; '.join(prompts)})"
        found.text_place, found.existing_answer = cell_place(cell, prompts=len(prompts))


def _text_or_pick(found: Found, cell: Cell, prompts: int = 0) -> None:
    """The cell as ``found``'s answer place: the drop-down it holds is the choice (its items the
    options, "Choose level." no answer), anything else the text place."""
    pick = cell_choice(cell) if found.choice_place is None and not prompts else None
    if pick is not None:
        found.choice_place, found.existing_choice, found.choices = pick
        return
    found.text_place, found.existing_answer = cell_place(cell, prompts=prompts)


def _prompt_lines(cell: Cell) -> list[str]:
    """The cell's first lines that guide the answer rather than give it ("If yes:", "Describe the
    size of the committee…", "Description of how AC-2 is implemented," / "Customer
    Responsibilities", "Low, medium or high"). A short line that is none of these ("Acme Cloud
    Ltd", "London") is an answer typed in the answer's place, not guidance."""
    out: list[str] = []
    before = ""
    for p, inline in cell.inlines():
        line = one_line(inline.text)
        if not line:
            continue
        if written_answer(p) or not _guidance(line, before, p):
            break  # (an export's answer, whatever it says)
        out.append(line[1:-1].strip() if _BRACKETED.fullmatch(line) else line.rstrip(","))
        before = line
    return out


_BRACKETED = re.compile(r"\([^()]*\)")  # "(if any)"
_OPTIONS = re.compile(r"[A-Za-z]+(?:(?:\s*[/,]\s*|\s+or\s+|\s+)[a-z]+)+")  # Yes/no, Low, medium or high
_NOT_OPTIONS = frozenset("a an and the of to in on at by for with from per via is are be not our we".split())


def _guidance(line: str, before: str, p: etree._Element) -> bool:
    """Whether a line of an answer cell guides the answer: it asks, ends with a colon or a comma or
    starts with "If"; it goes on from a guidance line ending with a comma ("Customer
    Responsibilities"); it lists what to enter ("Yes/no", "Low, medium or high", "Low medium
    high"); or it is set apart as guidance (in brackets, in italics or grey)."""
    if asks(line) or ends_with_colon(line) or line.endswith(",") or line.lower().startswith("if "):
        return True
    if not is_label(line) or len(line.split()) > 4:
        return False
    words = re.findall(r"[A-Za-z]+", line.lower())
    listed = _OPTIONS.fullmatch(line) and (len(words) >= 3 or "/" in line) and not _NOT_OPTIONS & set(words[1:])
    return before.endswith(",") or bool(listed) or bool(_BRACKETED.fullmatch(line)) or _styled_as_guidance(p)


def _styled_as_guidance(p: etree._Element) -> bool:
    """A paragraph whose text runs are all in italics or all grey (a hint's usual look)."""
    looks = [guidance_look(r.find(f"{W}rPr")) for r in p.iter(f"{W}r") if "".join(r.itertext()).strip()]
    if not looks:
        return False
    italic = all(any(el.tag != f"{W}color" for el in look) for look in looks)
    grey = all(any(el.tag == f"{W}color" for el in look) for look in looks)
    return italic or grey


# ------------------------------------------------------------------------------ 4. one row


def _own_words(head: Cell | None, label: str) -> str:
    """The column's label as its header cell names it first: "Notes" over "Remarques" (a label and its
    translation on lines of their own, the table model's one label "Notes / Remarques") names the column
    "Notes", its first line, as the form without the translation does; ``label`` for any other cell."""
    if head is None or translated_lines(head.origin.text) is None:
        return label
    lines = [one_line(x) for x in head.origin.text.split("\n") if x.strip()]
    whole = one_line(head.origin.text)
    return f"{label[: -len(whole)]}{lines[0]}" if label.endswith(whole) else label


def _one_row(t: _Table, start: int) -> bool:
    header = _header(t, start) or _prompt_header(t, start)
    if header is None:
        return False
    first, labels = header
    if all(is_placeholder(label) for label in labels.values()):
        return False  # "[Name] | [Tel]": the author's placeholders, not a header's labels
    rows = [r for r in range(first, len(t.g.rows)) if not _example_row(t, r)]
    fill = [r for r in rows if all(_kind(c, t.ctx) != "text" or _hint(c) for c in t.g.own(r))]
    if not fill and len(rows) == 1:
        fill = rows  # the one row to fill in (under examples to delete, if any), filled in
    if len(fill) != 1 or len(rows) - len(fill) > 0 and len(rows) > 4:
        return False
    r = fill[0]
    title = t.title or t.ctx.before
    for cell in t.g.own(r):
        label = labels.get(cell.col, "")
        if not label or _ID_LABEL.match(clean(label)) or is_id(cell.line) and cell.line:
            continue
        head = t.g.at(first - 1, cell.col)
        anchor = head.own_paragraphs()[0] if head is not None and head.own_paragraphs() else cell.own_paragraphs()[0]
        named = _own_words(head, label)
        text = named if asks(named) or not title else f"{one_line(title)}: {named}"
        found = Found(anchor, text, section=t.ctx.section, how="one row to fill under a header")
        found.like = f"column:{label}:{cell.col}"
        _answer_cell(t, found, cell)
        if found.text_place is None and found.choice_place is None:
            continue
        t.found.append(found)
    return True


def _prompt_header(t: _Table, start: int) -> tuple[int, dict[int, str]] | None:
    """A row of prompts (two or more texts, some asking) over one row of places or hints."""
    g = t.g
    if start + 2 != len(g.rows) or len(g.own(start + 1)) != len(g.own(start)):
        return None
    return _text_row(t, start)


def _text_row(t: _Table, r: int) -> tuple[int, dict[int, str]] | None:
    """Row r as column labels when it holds two or more texts and nothing else."""
    g = t.g
    own = g.own(r) if r < len(g.rows) else []
    if len(own) < 2 or not all(_kind(c, t.ctx) == "text" for c in own):
        return None
    if any(_lists_options(c) for c in own) and any(asks(c.line) or len(c.line.split()) > 12 for c in own):
        return None  # a statement beside the options to write ("… on the merchant's behalf | Yes / No"): a question
    labels = {c: "" for c in range(g.width)}
    for cell in own:
        for c in range(cell.col, cell.col + cell.span):
            labels[c] = cell.line
    return r + 1, labels


def _example_row(t: _Table, r: int) -> bool:
    """A row the document gives as an example to delete (and not one of its rows to fill in)."""
    texts = [c.text for c in t.g.own(r)]
    return any(_EXAMPLE.search(x) for x in texts) and not any(_FILL_IN.search(x) for x in texts)


def _hint(cell: Cell) -> bool:
    """A cell that only shows what to enter ("Low, medium or high", "<Fill In>", "Yes/no")."""
    line = cell.line
    return is_blank(line) or (len(line.split()) <= 6 and not line.endswith("."))


# ---------------------------------------------------------------------------------- 5. form


@dataclass
class _Pending:
    """A prompt waiting for its place in the form's row, or in the row below."""

    cell: Cell
    text: str
    ident: str | None


def _value_columns(t: _Table, start: int) -> set[int]:
    """The columns of a form's values: beside a column of labels ("Name | ___", "Title | ISSO"),
    on two or more rows of a label and a short value or a place."""
    rows = [t.g.own(r) for r in range(start, len(t.g.rows))]
    pairs = [row for row in rows if len(row) >= 2 and is_label(row[0].line)]
    if not pairs or len(pairs) * 2 < len(rows):
        return set()
    labels = all(is_label(row[0].line) and not asks(row[0].line) for row in pairs)
    short = all(_kind(row[1], t.ctx) != "text" or len(row[1].line.split()) <= 15 for row in pairs)
    cols = {row[1].col for row in pairs}
    parts = sum(bool(_PART.match(row[0].line)) for row in pairs) * 2 >= len(pairs)  # "Part a | …": any length
    form = (
        any(_kind(row[1], t.ctx) != "text" for row in pairs)  # a place still empty: a form, not a glossary
        or sum(ends_with_colon(row[0].line) for row in pairs) * 2 >= len(pairs)
        or sum(bool(_FIELD.search(row[0].line)) for row in pairs) * 2 >= len(pairs)
    )
    return cols if labels and (parts or form and short) and len(cols) == 1 else set()


def _form(t: _Table, start: int) -> bool:
    g = t.g
    if _signature_block(g, start):
        t.ctx.notes.append("a signature block (name, date, position beside a signature): not read as questions")
        return True
    t.values = _value_columns(t, start)
    used: set[int] = set()  # rows taken as the answer row of the row above
    options: list[tuple[int, Box, str]] = []
    before = 0  # how many questions were found before the first option row
    for r in range(start, len(g.rows)):
        if r in used or _repeats_top(t, r, start):
            continue
        end = _records_below(t, r)
        if end is not None:  # "Name of service provider: | Description of service(s) provided:" over empty rows
            used.update(range(r, end + 1))
            labels = " | ".join(c.line for c in g.own(r) if c.line)
            t.ctx.notes.append(
                f"the rows under '{labels[:80]}' are a list of records ({end - r} rows): not read as questions; "
                "fill them in by hand"
            )
            continue
        option = _option_row(t, r)
        if option is not None and not option[2].endswith(":") and len(g.rows[r]) > 1:
            before = before if options else len(t.found)
            options.append((r, option[0], option[2]))
            _form_row(t, r, used, after=option[2])  # the rest of the row ("Yes | Explain …")
            continue
        _close_options(t, options, before)
        heading = _full(g, r)
        if (
            heading is not None
            and r > start
            and _kind(heading, t.ctx) == "text"
            and len(heading.line.split()) <= 12
            and not any(c.kind != "checkbox" for c in heading.controls)  # a label and its field: no title
            and (
                not asks(heading.line)
                and not ends_with_colon(heading.line)
                and len(heading.inlines()) == 1
                and not _PARAMETER.match(heading.line)
            )
        ):  # "AC-2 Control Summary Information": the rows under it are about it
            t.title = heading.line
            continue
        if heading is not None and _stem(t, r, heading):  # "… service providers that:" over its Yes / No rows
            t.title = heading.line.rstrip(":").strip()
            continue
        if _signature_row(g, r):
            continue
        _form_row(t, r, used)
    _close_options(t, options, before)
    return True


def _repeats_top(t: _Table, r: int, start: int) -> bool:
    """Row r writes again, word for word, a row of the table's top (its title or header rows; the first
    row at least): the header a page break repeats, typed mid-table, says nothing new."""
    own = t.g.own(r)
    words = [one_line(c.line) for c in own]
    if r == 0 or not own or not all(c.line and _kind(c, t.ctx) == "text" for c in own):
        return False  # (a row with a place to fill is a question's, repeated or not: "Name: | ___")
    return any(words == [one_line(c.line) for c in t.g.own(k)] for k in range(min(max(start, 1), r)))


def _stem(t: _Table, r: int, heading: Cell) -> bool:
    """A row spanning the table that ends with a colon over rows that each hold a place ("Does
    the merchant have relationships with … providers that:", "If Yes:"): the words the rows under
    it go on from, not a question of its own."""
    g = t.g
    if _kind(heading, t.ctx) != "text" or not ends_with_colon(heading.line) or r + 1 >= len(g.rows):
        return False
    if is_label(heading.line) and not _CONDITION.match(heading.line):
        return False  # a label alone ("Responsible Role:") is a question answered after it
    below = g.own(r + 1)
    return len(below) >= 2 and (
        any(_kind(c, t.ctx) in ("boxes", "glyphs", "control", "blank") or _lists_options(c) for c in below)
        or _records_below(t, r + 1) is not None
    )


_CONDITION = re.compile(r"^\s*(?:if|where|when|als|indien|wenn|falls|si)\b", re.I)


def _signature_row(g: Grid, r: int) -> bool:
    """A row of a signature (and the date beside it): the signatory's, not a question."""
    return any(SIGNATURE.match(c.line) for c in g.own(r))


def _signature_block(g: Grid, start: int) -> bool:
    """A table of labels beside empty places, one of them a signature ("Supplier: / Date: / Name
    (print): / Position: / Signature:"), under at most a statement spanning the table: the
    signatory's block, none of its labels a question."""
    labels = 0
    for r in range(start, len(g.rows)):
        full = [c for c in g.own(r) if c.line]
        alone = len(g.own(r)) == 1 and len(full) == 1  # a label ending with its colon across the table: its
        colon = alone and is_label(full[0].line) and ends_with_colon(full[0].line)  # blank merged into it
        if alone and not colon and not labels:
            continue  # the declaration the block signs
        if not full and labels and not any(c.boxes or c.controls for c in g.own(r)):
            continue  # a second line of the one above ("Print Name and Address" over two rows)
        if len(full) != 1 or not is_label(full[0].line) or full[0].boxes or full[0].controls:
            return False
        if len(g.own(r)) < 2 and not colon:
            return False
        labels += 1
    return labels >= 3 and any(_signature_row(g, r) for r in range(start, len(g.rows)))


def _records_below(t: _Table, r: int) -> int | None:
    """The last row of a list of records under row r: row r holds two or more labels and nothing
    else, and two or more rows under it (past an example row) are empty places only."""
    g = t.g
    own = g.own(r)
    texts = [c for c in own if c.line]
    if len(own) < 2 or len(texts) < 2 or not all(_kind(c, t.ctx) in ("text", "blank") for c in own):
        return None
    if not all(is_label(c.line) and not asks(c.line) for c in texts):
        return None
    end, empty = r, 0
    for below in range(r + 1, len(g.rows)):
        cells = g.own(below)
        if not cells:
            continue
        if empty == 0 and (_example_row(t, below) or cells[0].line.lower().startswith("example")):
            end = below
            continue
        if len(cells) >= 2 and all(_empty(c, t.ctx) for c in cells):
            empty += 1
            end = below
            continue
        break
    return end if empty >= 2 else None


def _close_options(t: _Table, options: list[tuple[int, Box, str]], before: int) -> None:
    """Option rows read so far: the choice of the question just above them, or a question of their own."""
    if not options:
        return
    labelled = [Box(b.kind, b.el, b.checked, b.offset, label) for _, b, label in options]
    place, existing = boxes_place(labelled)
    previous = t.found[before - 1] if before else None
    if previous is not None and previous.choice_place is None and not previous.how.startswith("options"):
        previous.choice_place, previous.existing_choice = place, existing
        previous.choices = tuple(b.label for b in labelled)
    else:
        first = t.g.own(options[0][0])
        prompt = next((c for c in first if c.line and not c.boxes), None)  # "If a QSA was involved …, indicate:"
        anchor = (prompt or first[0]).own_paragraphs()[0]
        text = prompt.line if prompt is not None and (asks(prompt.line) or ends_with_colon(prompt.line)) else ""
        found = Found(anchor, text or _with_section(t.context(), t), choice_place=place, existing_choice=existing,
                      choices=tuple(b.label for b in labelled), section=t.ctx.section, how="options")  # fmt: skip
        fields = [
            c
            for r, _, _ in options
            for cell in t.g.own(r)
            for c in cell.controls
            if c.kind in ("text", "rich text", "FORMTEXT")
        ]
        if fields:  # "If selected, describe all role(s) performed: ___" under an option
            found.text_place, found.existing_answer = control_place(fields[0])
        t.found.append(found)
    options.clear()


def _form_row(t: _Table, r: int, used: set[int], after: str | None = None) -> None:
    """The questions of form row r (of an option row, ``after`` its label: the cells after it)."""
    g = t.g
    pending: _Pending | None = None
    ident: str | None = None
    cells = g.own(r)
    if after is not None:
        at = next((i for i, c in enumerate(cells) if c.line == after), None)
        cells = [c for c in cells[at + 1 :] if not c.boxes] if at is not None else []
    for n, cell in enumerate(cells):
        before = pending or next(
            (_Pending(c, c.line, ident) for c in cells[n - 1 : n] if _kind(c, t.ctx) == "text"), None
        )
        if before is not None and _options_cell(t, before, cell):  # "Yes / No" beside it: the pick goes there
            pending = None
            continue
        kind = _kind(cell, t.ctx)
        if kind == "text" and pending is not None and cell.col in t.values:
            _question(t, pending, cell, "a form: the value beside its label")  # a value already written
            pending = None
            continue
        if kind == "text":
            later = [c for c in g.own(r) if c.col > cell.col]
            beside = any(
                _kind(c, t.ctx) in ("blank", "control", "boxes", "glyphs")
                or (c.col in t.values and not c.controls and ":" not in c.line)  # a value written beside it
                for c in later
            )
            if _labelled_boxes(t, cell) or not beside and _after_label(t, cell, ident):
                pending = None
                continue
            if is_id(cell.line) and len(g.own(r)) > 1:
                ident = cell.line
                part = _PART.match(cell.line) is not None  # "Part a | ___": the ID alone is the label
                pending = _Pending(cell, cell.line, ident) if part else None
                continue
            if pending is not None:
                _below(t, pending, r, used)
            numbered = ident is not None and len(cell.line.split()) >= 4  # "4.2.3 | Passen de acceptatiecriteria …"
            lines = [one_line(i.text) for _, i in cell.inlines() if i.text.strip()]
            short = len(lines) <= 3  # not a requirement's a., b., c.
            short = short or beside and asks(lines[0])  # a prompt and its examples beside a place
            prompt = short and (asks(cell.line) or is_label(cell.line) or numbered)
            pending = _Pending(cell, cell.line, ident) if prompt else None
        elif kind in ("blank", "control") and pending is not None:
            _question(t, pending, cell, "a form: the place beside its label")
            pending = None
        elif kind in ("boxes", "glyphs"):
            _boxes_cell(t, cell, pending)
            pending = None
    if pending is not None:
        _below(t, pending, r, used)


def _lists_options(cell: Cell) -> bool:
    """A cell whose one line lists the options to write ("Yes / No", "Yes or No", "Ja/Nee")."""
    return not cell.boxes and bool(_OPTIONS_CELL.match(one_line(cell.line)))


def _options_cell(t: _Table, p: _Pending, cell: Cell) -> bool:
    """A cell of one line listing the options to write ("Yes / No", "Yes or No", "Ja/Nee"), or the one an
    export wrote there: ``p``'s pick, written in place of the options (their paragraph)."""
    paras = [q for q in cell.own_paragraphs() if clean("".join(x.text or "" for x in q.iter(f"{W}t")))]
    if len(paras) != 1 or cell.boxes or cell.controls or cell.nested():
        return False
    line = one_line(cell.line)
    written = written_answer(paras[0]) and re.fullmatch(_OPTION_WORD, line.rstrip("."), re.I) is not None
    if not _lists_options(cell) and not written:
        return False
    found = _question(t, p, cell, "a form: the options to write beside its label")
    found.text_place = found.existing_answer = None
    found.choice_place = AnswerPlace(PlaceKind.PARAGRAPH, locator(paras[0]), note="in place of the options it lists")
    options = tuple(x for x in _OPTION_SPLIT.split(line.rstrip(".")) if x)
    found.choices = (
        options if len(options) > 1 else ("Yes", "No", *(o for o in options if o.casefold() not in ("yes", "no")))
    )
    found.existing_choice = options[0] if written else None
    return True


def _question(t: _Table, p: _Pending, cell: Cell, how: str, prompts: int = 0) -> Found:
    if p.ident is not None and p.text == p.ident:
        text = f"{one_line(t.context())} {p.ident}".strip()  # "AC-2 What is the solution …? Part a"
    else:
        text = p.text if asks(p.text) else _with_context(t, label_of(p.text))
    ident = p.ident or _control_id(t, p.text)
    if p.ident and t.control_id and not p.ident.startswith(t.control_id):
        ident = f"{t.control_id} {p.ident}"  # "AC-2 Part a"
    found = Found(p.cell.own_paragraphs()[0], text, ident, section=t.ctx.section, how=how)
    found.like = f"style:{_style(p.cell)}" if asks(p.text) else f"label:{label_of(p.text)}"
    _text_or_pick(found, cell, prompts)
    if prompts:
        found.text = f"{found.text} ({'; '.join(_prompt_lines(cell))})"
    t.found.append(found)
    return found


def _with_context(t: _Table, label: str) -> str:
    before = t.ctx.before if len(t.ctx.before.split()) <= 10 else ""
    context = t.title or before or (t.ctx.section or "").rsplit(" > ", 1)[-1]
    if t.control_id and t.control_id not in context:
        context = f"{t.control_id} {context}".strip()
    return f"{one_line(context)}: {label}" if context and label.lower() not in context.lower() else label


def _control_id(t: _Table, text: str) -> str | None:
    if not t.control_id:
        return None
    label = label_of(text)
    if label.startswith(t.control_id):
        label = label[len(t.control_id) :].strip()
    short = label if len(label.split()) <= 4 else ""
    return f"{t.control_id} {short}".strip()


def _style(cell: Cell) -> str:
    paragraphs = cell.own_paragraphs()
    return (paragraphs[0].findtext(f"{W}pPr/{W}pStyle") or "") if paragraphs else ""


def _below(t: _Table, p: _Pending, r: int, used: set[int]) -> None:
    """A prompt with no place beside it: the cell below it when empty (a control, or guidance
    lines only); else, for a question that spans the row, nothing (a title)."""
    g = t.g
    if r + 1 >= len(g.rows):
        if asks(p.text) and _full(g, r) is not None and _kind(p.cell, t.ctx) == "text":
            asked, answer = _question_and_answer(p.cell)
            found = Found(p.cell.own_paragraphs()[0], " ".join(asked), p.ident or _control_id(t, p.text),
                          section=t.ctx.section, how="a question with no space: a new paragraph in its cell")  # fmt: skip
            note = "below the question, in its cell"
            found.text_place, found.existing_answer = (
                AnswerPlace(PlaceKind.TABLE_CELL, locator(p.cell.el), note=note),
                answer,
            )
            t.found.append(found)
        return
    below = g.at(r + 1, p.cell.col)
    if below is None or below.merged_from is not None or not (below.col == p.cell.col or _full(g, r + 1) is below):
        return
    kind = _kind(below, t.ctx)
    spans = _full(g, r + 1) is below or below.span >= p.cell.span and len(g.own(r + 1)) == 1
    if asks(p.text) and _full(g, r) is not None and kind == "text" and not spans:
        t.title = p.text  # a question over rows of its parts ("What is the solution…?" over "Part a | ___")
        return
    if kind in ("blank", "control"):
        spacer = _placeholder_under(t, below) if spans else None
        _question(t, p, spacer or below, "a question row over its answer row")
        used.update((r + 1, r + 2) if spacer else (r + 1,))
    elif kind == "text" and (asks(p.text) or p.ident) and spans and not asks(below.line) and not _heading_like(below):
        # guidance to answer below ("Description of how AC-2 is implemented, / Customer Responsibilities"),
        # an answer already written, or both
        _question(t, p, below, "a question row over its answer row", prompts=len(_prompt_lines(below)))
        used.add(r + 1)


def _placeholder_under(t: _Table, below: Cell) -> Cell | None:
    """The row under an empty row that spans the table under a question, when it is the place to answer
    (a placeholder, "Click here to enter explanation.", a control, or an answer an export wrote): the empty
    row a spacer above it, the answer goes where the form asks for it; None otherwise."""
    r = below.row + 1
    if not _void(below) or r >= len(t.g.rows) or _full(t.g, r) is None:
        return None
    cell = _full(t.g, r)
    return cell if not _void(cell) and _kind(cell, t.ctx) in ("blank", "control") else None  # type: ignore[arg-type]


def _heading_like(cell: Cell) -> bool:
    """A row that names what follows ("AC-2 Control Summary Information", "Assessment Results")."""
    line = cell.line
    return bool(CONTROL_ID.match(line)) and len(line.split()) <= 8


def _after_label(t: _Table, cell: Cell, ident: str | None) -> bool:
    """A cell that is a label alone ("Responsible Role:", "Parameter AC-2(a):", "Summary of DPO
    advice:"): the answer goes after it, in its paragraph."""
    inlines = [(p, i) for p, i in cell.inlines() if one_line(i.text)]
    if len(inlines) != 1 or cell.boxes:
        return False
    p, inline = inlines[0]
    line = one_line(inline.text)
    named = _PARAMETER_NAMED.match(line)  # "Parameter: SC-6-1: <answer>", "Parameter PE-14(b) : <answer>"
    label = named.group(0).rstrip() if named else line.split(":", 1)[0] + ":" if ":" in line else line
    filled = ":" in line and not line.endswith(":") and is_label(label) and len(label.split()) <= 6
    if not line.endswith(":") and not (t.control_id and _PARAMETER.match(line)) and not filled:
        return False  # not a label alone, nor a label with its answer after it ("Responsible Role: CISO")
    if asks(line) and not line.endswith(":") or is_instruction(label):
        return False
    found = Found(p, _with_context(t, label_of(label)), ident or _control_id(t, label), section=t.ctx.section)
    found.how, found.like = "a label and the rest of its line", f"label:{label_of(label).split(' ')[0]}"
    found.text_place, found.existing_answer = after_label_place(p, label if line.startswith(label) else line)
    t.found.append(found)
    return True


def _labelled_boxes(t: _Table, cell: Cell) -> bool:
    """A cell holding a label and the boxes that answer it ("Implementation Status (check all that
    apply): ☐ Implemented ☐ Partially implemented …")."""
    if not cell.boxes:
        return False
    _boxes_cell(t, cell, None)
    return True


def _boxes_cell(t: _Table, cell: Cell, pending: _Pending | None) -> None:
    inlines = cell.inlines()
    label_lines = [one_line(i.text) for _, i in inlines if one_line(i.text) and not i.boxes]
    label = " ".join(label_lines) if label_lines else (pending.text if pending else "")
    if cell.boxes:
        place, existing = boxes_place(cell.boxes)
        choices = tuple(b.label for b in cell.boxes)
    else:
        items = t.ctx.glyph_boxes(cell)
        place, existing = list_glyph_place(items)
        choices = tuple(lab for _, lab, _ in items)
    anchor = (pending.cell if pending else cell).own_paragraphs()[0]
    text = (
        _with_context(t, label_of(label))
        if label and not asks(label)
        else label or _with_context(t, " / ".join(choices))
    )
    ident = (pending.ident if pending else None) or _control_id(t, label or "Options")
    found = Found(anchor, one_line(text), ident, choice_place=place, choices=choices, existing_choice=existing,
                  section=t.ctx.section, how="a label and its boxes")  # fmt: skip
    found.like = f"boxes:{choices[:2]}"
    fields = [c for c in cell.controls if c.kind in ("text", "rich text", "FORMTEXT")]
    if fields:  # "If yes, indicate …" and its field under the boxes, in the same cell
        found.text_place, found.existing_answer = control_place(fields[0])
    t.found.append(found)


__all__ = ["drawn_rows", "header_table", "TableContext", "table_questions"]
