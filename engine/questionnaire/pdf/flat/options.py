"""A flat PDF's table whose columns are the options of one choice per row ("In Place | Not in Place
| …" over empty cells: the PCI SAQ), read by the table model (engine/questionnaire/table_model.py)
as inferred or as the responder's corrections of its columns say.
"""

from __future__ import annotations

from dataclasses import replace

from engine.questionnaire.pdf.flat.found import FlatTables, is_mark, marked_option, response_place
from engine.questionnaire.pdf.flat.header import goes_on, id_like, leading_id, mostly_numbered
from engine.questionnaire.pdf.flat.ruled import Table, cell_lines, cell_text, cell_words, inside, unbroken
from engine.questionnaire.pdf.layout import Box, PageText, is_glyph
from engine.questionnaire.pdf.questions import Found
from engine.questionnaire.table_model import (
    OPTION_WORDS,
    Holds,
    PlacedCell,
    Role,
    TableCell,
    TableModel,
    infer_positioned,
    question_rows,
    translated_lines,
)
from engine.questionnaire.table_roles import corrected_model, model_table_map


def option_table(page: int, text: PageText, table: Table, found: list[Found], mapped: FlatTables) -> list[Found] | None:
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
        cells = [c for c in cells if not any(o is not c and inside(c, o) and o.area > c.area for o in cells)]
        cells = sorted(cells, key=lambda c: c.x0)
        placed.append([PlacedCell(c.x0, c.x1, _label(text, c), _holds(cell_text(text, c))) for c in cells])
        boxes.append(cells)
    placed, boxes = _rest_peeled(placed, boxes, found, mapped)
    if found and len(placed) == _repeated_header(placed, mapped.option_header) > 0:
        return []  # the last option table's header repeated over the rest of its last row: no question of its own
    inferred = _inferred(placed, boxes, found, mapped)
    if inferred is None:
        return None
    model = corrected_model(inferred[0], mapped.index, mapped.corrections)
    grid = inferred[1]
    if len(model.options) < 2 or model.question_col is None:
        return None
    mapped.option_header = tuple(tuple(row) for row in placed[: model.first_row])
    choices = tuple(model.option_label(c) for c in model.options)
    out: list[Found] = []
    rows = _ticked_rows(grid, model, list(question_rows(grid, model)))
    asked = [next(c.text for c in grid[r] if c.col <= model.question_col < c.col + c.span) for r, _ in rows]  # type: ignore[operator]
    numbered_rows = model.id_col is None and mostly_numbered(asked)
    for r, _section in rows:
        qcell = next(c for c in grid[r] if c.col <= model.question_col < c.col + c.span)  # type: ignore[operator]
        at = grid[r].index(qcell)
        box = boxes[r][at] if at < len(boxes[r]) else table.box
        question = qcell.text
        ident = ""
        if model.id_col is not None and model.id_col != model.question_col:
            icell = next((c for c in grid[r] if c.col == model.id_col), None)
            ident = "".join(icell.text.split()) if icell is not None else ""
        if not ident and at and id_like(before := "".join(grid[r][at - 1].text.split())):
            ident = before  # no ID column inferred (one row on the page), an ID beside the requirement ("4.2.1.2")
        if not ident:
            ident, question = leading_id(question)
        if numbered_rows and not ident:  # a section's title across a table whose requirements start with their IDs,
            if not out and found and r == model.first_row and goes_on(found[-1].text, question):  # or a row's rest
                found[-1] = replace(found[-1], text=f"{found[-1].text} {question}".strip())
            continue
        if model.id_col is not None and not id_like(ident):
            if not out and found and r == model.first_row:  # the row goes on from the page before
                found[-1] = replace(found[-1], text=f"{found[-1].text} {question}".strip())
            continue
        locator = f"page {page + 1}, row {ident or question[:40]}"
        existing, answer = _existing(grid[r], model)
        mapped.option_question = (box.x0, box.x1)
        out.append(
            Found(
                page=page,
                box=box,
                id=ident or None,
                text=question,
                choices=choices,
                choice_place=response_place(locator),
                text_place=response_place(locator),
                existing_choice=existing,
                existing_answer=answer,
            )
        )
    mapped.read.append((model_table_map(model, mapped.index, f"page {page + 1}"), out))
    return out


def _label(text: PageText, cell: Box) -> str:
    """A cell's text, an option's label broken inside a word over lines joined back ("Not Applicab" /
    "le": a narrow column's header; in any language, a word broken where it did not fit: ruled.py's
    ``unbroken``), a label said again in another language on a line of its own one
    label and its translation ("はい" over "Yes": "はい / Yes", as the Word reader reads the cell)."""
    plain = cell_text(text, cell)
    if OPTION_WORDS.match(plain) or not 1 < len(lines := cell_lines(text, cell)) <= 4:
        return plain
    if said_again := translated_lines("\n".join(lines)):
        return said_again
    tight = lines[0]
    for line in lines[1:]:
        tight += line if line[:1].islower() and tight[-1:].isalpha() else f" {line}"
    if OPTION_WORDS.match(tight):
        return tight
    words = cell_words(text, cell)
    joined = unbroken(words, cell) if sum(map(len, words)) <= 6 else plain  # a label's few words, no requirement's
    return joined if joined != " ".join(lines) else plain


def _ticked_rows(
    grid: list[list[TableCell]], model: TableModel, rows: list[tuple[int, str | None]]
) -> list[tuple[int, str | None]]:
    """The question rows of a table whose option cells are boxes to tick ("☐" under each option on
    two rows or more, however many rows have none, or on one row with a box under every option: a
    page's one requirement) without the rows that have no box at all (a box
    drawn astray into the requirement's cell counts) (but a first row without an ID: the rest of the
    page before's last): a section's title or a note across the requirement's columns ("1.3 Network
    access … is restricted.", "Applicability Notes" and its lines: a table drawn without rules, where
    no cell spans the others, its notes' lines often outnumbering its requirements)."""
    boxed = {r for r, _ in rows if any(c.holds is Holds.BOX or any(is_glyph(ch) for ch in c.text) for c in grid[r])}
    if len(boxed) < 2 and not any(_boxed_under_every_option(grid[r], model) for r in boxed):
        return rows
    first = " ".join(c.text for c in grid[model.first_row][:2]) if model.first_row < len(grid) else ""
    goes_on = not leading_id(first.strip())[0]  # a first row without an ID may be the rest of the page before's
    return [(r, s) for r, s in rows if r in boxed or (r == model.first_row and goes_on)]


def _boxed_under_every_option(row: list[TableCell], model: TableModel) -> bool:
    """Whether a row holds a box in the cell of each of the model's options."""
    cols = {c.col for c in row if c.holds is Holds.BOX or is_glyph(c.text.strip())}
    return bool(model.options) and all(o in cols for o in model.options)


def _inferred(
    placed: list[list[PlacedCell]], boxes: list[list[Box]], found: list[Found], mapped: FlatTables
) -> tuple[TableModel, list[list[TableCell]]] | None:
    """The table's model and grid; a table with no header of its own that starts its page
    (``found``: the questions before, given only then) and lines up with the last option table's
    columns continues it (a requirement table printed over pages without its header repeated): it
    is read under that table's header (``boxes`` gets a row of none for each header row), also when
    its first row, starting with an ID ("A.6", "1.2.6 Change …") or holding boxes to tick
    ("Requirement 7: ☐ ☐ ☐ ☐"), would pass for a header of its own."""
    inferred = infer_positioned(placed)
    own = inferred is not None and len(inferred[0].options) >= 2
    if own and any(c.holds is Holds.BOX for r in inferred[0].header_rows for c in placed[r]):  # type: ignore[union-attr]
        own = False  # a "header" of boxes to tick ("Requirement 7: ☐ ☐ ☐ ☐"): a row, the header the last table's
    first = next((c.text for c in (placed[0] if placed else []) if c.text.strip()), "")
    numbered = id_like("".join(first.split())) or bool(leading_id(first)[0])  # "A.6", "1.2.6 Change …"
    if (own and not numbered) or not found or not mapped.option_header:
        return inferred
    header = [list(row) for row in mapped.option_header]
    if not _lines_up(header, placed):
        return inferred
    continued = infer_positioned(header + placed)
    if continued is None or len(continued[0].options) < 2 or continued[0].first_row != len(header):
        return inferred
    boxes[:0] = [[] for _ in header]
    return continued


def _rest_peeled(
    placed: list[list[PlacedCell]], boxes: list[list[Box]], found: list[Found], mapped: FlatTables
) -> tuple[list[list[PlacedCell]], list[list[Box]]]:
    """The table's rows without those, at the top of a table that starts its page (``found``: the
    questions before, given only then), under its header where it repeats one, whose words all lie in
    the question column of the last option table (its ID, option and notes cells empty): the rest of
    that table's last row, broken by the page, its text added to the last question's."""
    if not found or mapped.option_question[1] <= mapped.option_question[0]:
        return placed, boxes
    top = _repeated_header(placed, mapped.option_header)
    k = top
    while top and found[-1].id and k < len(placed) and _rest_row(placed[k]):
        k += 1
    if k > top:  # under the header repeated, rows with neither ID nor box: the last row's rest, in any column
        x0, x1 = mapped.option_question
        rest = " ".join(c.text for row in placed[top:k] for c in row if c.text.strip() and x0 - 3 <= c.x0 < x1)
        found[-1] = replace(found[-1], text=f"{found[-1].text} {rest}".strip())
        return placed[:top] + placed[k:], boxes[:top] + boxes[k:]
    own = infer_positioned(placed)
    header = set(own[0].header_rows) if own is not None and len(own[0].options) >= 2 else set()
    r = 0
    while r in header and not _in_question_column(placed[r], mapped):
        r += 1
    k = r
    while k < len(placed) and _in_question_column(placed[k], mapped):
        k += 1
    rest = " ".join(c.text for row in placed[r:k] for c in row if c.text.strip())
    if k == r or k == len(placed) or not goes_on(found[-1].text, rest):
        return placed, boxes
    found[-1] = replace(found[-1], text=f"{found[-1].text} {rest}")
    return placed[:r] + placed[k:], boxes[:r] + boxes[k:]


def _repeated_header(placed: list[list[PlacedCell]], header: tuple) -> int:
    """How many rows at the top of ``placed`` repeat the last option table's ``header`` rows, word
    for word (a requirement table's header printed again on each page it runs onto): all or none."""
    words = [tuple(" ".join(c.text.split()) for c in row if c.text.strip()) for row in header]
    if not words or len(placed) < len(words):
        return 0
    same = all(tuple(" ".join(c.text.split()) for c in row if c.text.strip()) == w for row, w in zip(placed, words))
    return len(words) if same else 0


def _rest_row(row: list[PlacedCell]) -> bool:
    """A row holding text but neither a box or mark nor an ID at its start (its first cell's
    text): under a repeated header in a table whose rows have IDs, the rest of a row the page broke."""
    filled = [c for c in row if c.text.strip()]
    if not filled or any(c.holds is not Holds.TEXT for c in filled):
        return False
    first = "".join(filled[0].text.split())
    return not (id_like(first) or leading_id(filled[0].text)[0])


def _in_question_column(row: list[PlacedCell], mapped: FlatTables) -> bool:
    x0, x1 = mapped.option_question
    filled = [c for c in row if c.text.strip()]
    return x1 > x0 and bool(filled) and all(c.holds is Holds.TEXT and x0 - 3 <= c.x0 and c.x1 <= x1 + 3 for c in filled)


def _lines_up(header: list[list[PlacedCell]], rows: list[list[PlacedCell]], slack: float = 3.0) -> bool:
    """Whether the table's widest row's cell edges are all edges of the header's cells (within ``slack``)."""
    if not rows or not header:
        return False
    widest = max(rows, key=len)
    edges = {round(x) for row in header for c in row for x in (c.x0, c.x1)}
    return all(any(abs(x - e) <= slack for e in edges) for c in widest for x in (c.x0, c.x1))


def _existing(row: list[TableCell], model: TableModel) -> tuple[str | None, str | None]:
    """What a filled row already holds: the option marked under its header ("X" under "No"), and
    the text of its answer and notes columns."""
    texts = {c.col: c.text for c in row}
    choice = marked_option((model.option_label(c), texts.get(c, "")) for c in model.options)
    cols = model.columns(Role.ANSWER) + model.columns(Role.NOTES)
    answer = "\n".join(t for c in cols if (t := texts.get(c, "").strip()))
    return choice, answer or None


def _holds(cell_text: str) -> Holds:
    """What a cell holds for the table model: a mark already made ("X", "✓") is a mark, as in a Word
    table, so that a table's columns are options or not whichever of their cells are marked."""
    if not cell_text.strip():
        return Holds.BLANK
    if all(is_glyph(ch) or ch in "☐▢□" for ch in cell_text.replace(" ", "")):
        return Holds.BOX
    return Holds.MARK if is_mark(cell_text) else Holds.TEXT
