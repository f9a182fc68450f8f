"""The questions of a flat PDF's table read by its header (or by the columns it continues or that
are guessed for it): every row below the header with a question (and, where there is an ID column,
an ID) is a question; a row with no ID at the top of a page continues the question above it; a row
whose ID cell holds several numbered IDs on lines of their own is one question per ID (the UK PPN
03/24's "4.1(j)", "4.1(j) - (i)" …). A **filled** table's answer column is read as the existing
choice and its comment column as the existing answer (the AWS and GCP CAIQ PDFs). A table of option
columns is the table model's (options.py); a table with neither header nor question column may be a
form or a box list (boxes.py). A row without an ID that is a condition ending with ":" ("If No to the
above question then:") introduces the rows under it: no question, and no topic of the row above.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.questionnaire.corrections import TableMap
from engine.questionnaire.pdf.flat.asking import asks, asks_yes_no, sub_question
from engine.questionnaire.pdf.flat.boxes import box_choices, box_list, checklist_rows, form_rows, part_rows
from engine.questionnaire.pdf.flat.found import FlatTables, marked_option, response_place
from engine.questionnaire.pdf.flat.header import (
    Columns,
    column_role,
    goes_on,
    guess_columns,
    header_columns,
    header_map,
    id_like,
    leading_id,
    lines_up,
    mostly_numbered,
)
from engine.questionnaire.pdf.flat.options import option_table
from engine.questionnaire.pdf.flat.ruled import Row, Table, cell_text
from engine.questionnaire.pdf.layout import Box, PageText
from engine.questionnaire.pdf.questions import YES_NO, Found

# a condition ending with ":" ("If No to the above question then:", "Falls nein:", "Si non :"): it introduces the rows under it
_CONDITION_LEAD = re.compile(r"^(?:if|where|when|indien|als|falls|wenn|si)\b[^.?;:]{0,80}[:：]$", re.IGNORECASE)
_ITEM_ID = re.compile(r"^\d{1,3}(?:\.\d{1,3})+(?:\s*[-–]?\s*\(\w{1,5}\))*$")  # "4.1(j) - (ii)", "7.7 (e) (i)"


def table_questions(
    page: int, text: PageText, table: Table, columns: Columns | None, found: list[Found], mapped: FlatTables
) -> tuple[list[Found], Columns | None]:
    """The questions of one table, and the columns a table on the next page may continue.
    ``found``: the questions before, the last of which a first row without an ID goes on (none
    when the table does not start its page)."""
    options = option_table(page, text, table, found, mapped)
    if options is not None:
        return options, columns
    top = table.box.y0
    listing: TableMap | None = None
    for row in table.rows[:3]:
        header = header_columns(text, row)
        if header and (_overview(text, table, row, header) or _listing(text, table, row, header)):
            return [], None  # a marking scheme quoting the questions' titles, a list of controls: no questionnaire
        if header:
            (columns, listing), top = header_map(page, text, row, header, mapped), row.band.y1
            break
    else:
        checklist = checklist_rows(page, text, table)
        if checklist is not None:  # "SCHEDULE HEADING | COMPLETED?" over "Schedule 5 – … | ☐" …
            return checklist, columns
        listed = box_list(page, text, table)
        if listed is not None:
            return [listed], columns
        parts = part_rows(page, text, table, found)
        if parts is not None:  # "AC-2 What is the solution …?" over "Part a | ", "Part b | " …
            return parts, columns
        if not lines_up(columns, table):
            guessed = guess_columns(text, list(table.rows))
            if guessed is None:
                return form_rows(page, text, table), columns
            columns = guessed
    out: list[Found] = []
    bands = table.bands(*columns.roles["question"], below=top)
    parts = [part for band in bands for part in _split_by_ids(text, columns, band)]
    asked = [cell_text(text, _row_cells(columns, row).get("question")) for row, _ in parts]
    numbered_rows = "id" not in columns.roles and mostly_numbered(asked)
    for (row, numbered), question in zip(parts, asked):
        cells = _row_cells(columns, row)
        ident = numbered or (cell_text(text, cells.get("id"), compact=True) if "id" in cells else "")
        if "id" not in columns.roles:  # no ID column: the ID the requirement starts with ("1.2.1 The provider …")
            ident, question = leading_id(question)
        if not question or column_role(question) == "question":
            continue  # an empty row, or a repeated header
        if numbered_rows and not ident:  # a section's title across a table whose requirements start with their IDs,
            if not out and found and goes_on(found[-1].text, question):  # or the rest of the row before the page break
                found[-1] = _continued(found[-1], question, text, cells)
            continue
        if not ident and _CONDITION_LEAD.match(question):  # a lead-in to the rows under it: no topic of the row above
            continue
        if "id" in columns.roles and not id_like(ident):
            if not out and found:  # the row goes on from the page before
                found[-1] = _continued(found[-1], question, text, cells)
            continue
        out.append(sub_question(_row_question(page, cells, ident, question, text, columns), out))
    if listing is not None:
        mapped.read.append((listing, out))
    return out, columns


def _overview(text: PageText, table: Table, head: Row, header: Columns) -> bool:
    """Whether a table read by its header ``head`` lists the questions without asking them: the header
    names no column for IDs, answers or comments ("Question | Question Type | Marking Scheme | Question
    weighting"), every row under it holds text, and every cell is short (ten words at most) and asks
    nothing (no "?", no first word that asks: "All Lots | Social Value | Yes/No | Pass/Fail | 10%"): a
    tender's marking scheme, not its questionnaire."""
    if {"id", "answer", "comment"} & set(header.roles):
        return False  # (a table that numbers its questions in a column of IDs asks them)
    rows = [[cell_text(text, c) for c in row.cells if c] for row in table.rows if row.band.y0 >= head.band.y1 - 1]
    if not rows or not all(any(c.strip() for c in row) for row in rows):
        return False  # (empty rows to fill in: a form, SAQ C-VT's "Requirement | Reason … Not Applicable")
    cells = [c for row in rows for c in row]
    short = all(len(c.split()) <= 10 for c in cells)  # titles, types and weights, not questions in prose
    return short and not any(asks(c) or "?" in c or "？" in c for c in cells)


def _listing(text: PageText, table: Table, head: Row, header: Columns) -> bool:
    """Whether a table read by its header ``head``, with a column of IDs, is a listing with nothing to
    answer: the header names no column for answers or comments, and the rows under it (a row of one
    cell across the table aside: a section's title, a note) have every cell filled (but one row, cut by
    the page break), short (ten words with a letter at most) and asking nothing, most of them with cells
    right of the question's filled too ("AC-2 | Account Management | AC-2 | AC-2 (1) (2) | AC-2 (1) (2)
    (3)": a baseline's list of controls)."""
    if "id" not in header.roles or {"answer", "comment"} & set(header.roles):
        return False
    rows = [[cell_text(text, c) for c in row.cells if c] for row in table.rows if row.band.y0 >= head.band.y1 - 1]
    rows = [row for row in rows if len(row) >= 2]
    if len(rows) < 3 or 2 * sum(len(row) >= 3 for row in rows) < len(rows):
        return False
    if sum(not all(c.strip() for c in row) for row in rows) > 1:
        return False
    cells = [c for row in rows for c in row]
    return not any(
        sum(any(ch.isalpha() for ch in w) for w in c.split()) > 10 or asks(c) or "?" in c or "？" in c for c in cells
    )


def _split_by_ids(text: PageText, columns: Columns, row: Row) -> list[tuple[Row, str | None]]:
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
        (Row(Box(row.band.x0, a, row.band.x1, b)), "".join(t.split()))
        for (a, b), (_, t) in zip(zip(ys, ys[1:]), tops)
        if b > a
    ]


def _row_cells(columns: Columns, row: Row) -> dict[str, Box]:
    """A row's cell per role: the role's header x-range over the row's band (a filled table may
    draw no rule between its answer and comment columns, and a cell merged down over several
    rows belongs to none of them alone)."""
    return {role: Box(x0, row.band.y0, x1, row.band.y1) for role, (x0, x1) in columns.roles.items()}


def _row_question(page: int, cells: dict, ident: str, question: str, text: PageText, columns: Columns) -> Found:
    answer = cell_text(text, cells.get("answer")) if "answer" in cells else ""
    comment = cell_text(text, cells.get("comment")) if "comment" in cells else ""
    offered = () if any(ch in _TICKED for ch in answer) else box_choices(answer, before=True)
    if offered:  # "Yes ▢ No ▢ N/A ▢" in the answer cell: the options to tick, none ticked; no answer given
        answer = ""
    choices = offered or columns.choices
    if not choices and answer and len(answer.split()) <= 3:
        choices = _choices_for(answer)
    if not choices and asks_yes_no(question):
        choices = YES_NO
    existing = next((c for c in choices if c.lower() == answer.lower()), None) if answer else None
    if answer and existing is None:
        comment = f"{answer}\n{comment}".strip()
    existing = _marked(text, cells["question"], columns) or existing
    locator = f"page {page + 1}, row {ident or question[:40]}"
    return Found(
        page=page,
        box=cells["question"],
        id=ident or None,
        text=question,
        choices=choices,
        choice_place=response_place(locator) if choices else None,
        text_place=response_place(locator),
        existing_choice=existing,
        existing_answer=comment or None,
    )


def _marked(text: PageText, band: Box, columns: Columns) -> str | None:
    """The option of the responder's option columns marked on a row ("X" or "✓" under "No")."""
    return marked_option((label, cell_text(text, Box(x0, band.y0, x1, band.y1))) for label, x0, x1 in columns.options)


_TICKED = frozenset("☒☑■✓✔")  # a box ticked, or a mark made beside its option


def _choices_for(answer: str) -> tuple[str, ...]:
    """The choices an answer cell's value belongs to (a filled Yes/No/NA column)."""
    if answer.lower() in ("yes", "no", "na", "n/a"):
        return ("Yes", "No", "NA") if answer.lower() in ("na", "yes", "no") else ("Yes", "No", "N/A")
    return ()


def _continued(previous: Found, question: str, text: PageText, cells: dict) -> Found:
    """``previous`` with the text of the row that continues it at the top of the next page."""
    comment = cell_text(text, cells.get("comment")) if "comment" in cells else ""
    answer = "\n".join(x for x in (previous.existing_answer, comment) if x) or None
    return replace(previous, text=f"{previous.text} {question}".strip(), existing_answer=answer)
