"""Boxes drawn on a flat PDF (small empty squares, read as ☐ by layout.drawn_boxes): a row of boxes
with labels ("☐ Yes ☐ No") beside a label or under a question is its options; a table of
statements each after a box is one question of those options ("Select one:"); a ruled form's labels
beside empty cells are its questions, and a label with a blank after it ("Title:       ") is a
question wherever it is; a table of a question's parts ("AC-2 What is the solution …?" over "Part a |
___") is one text question per part.
"""

from __future__ import annotations

import re

from engine.questionnaire.cues import SIGNATURE
from engine.questionnaire.pdf.flat.asking import asks
from engine.questionnaire.pdf.flat.found import is_mark, response_place
from engine.questionnaire.pdf.flat.header import id_like, leading_id
from engine.questionnaire.pdf.flat.ruled import Table, cell_lines, cell_text, inside
from engine.questionnaire.pdf.layout import Box, PageText, is_glyph
from engine.questionnaire.pdf.questions import Found
from engine.questionnaire.placeholders import is_placeholder
from engine.questionnaire.table_model import OPTION_WORDS

_DATE_PROMPT = re.compile(
    r"^[\[<({]?\s*(?:(?:insert|enter|add)\s+(?:the\s+)?)?(?:date|time|deadline)\b"
    r"|^[\[<(]?\s*(?:dd|mm|yyyy)[/.\-](?:mm|dd)[/.\-](?:yyyy|yy|dd)\b",
    re.IGNORECASE,
)  # "[Insert date]", "[Insert date and time]", "<Date>", "DD/MM/YYYY", "YYYY-MM-DD"


def box_choices(text: str, most: int = 4, before: bool = False) -> tuple[str, ...]:
    """The labels of a row of two or more boxes, each followed by a label of its own of at most
    ``most`` words ("☐ Yes ☐ No": a choice's options), or with ``before`` (a table's answer cell, its own
    text alone) each an option's words before its box, the row ending with a box ("Yes ☐ No ☐ N/A ☐");
    () for any other text (two options of one label: lines of several rows read together)."""
    words = text.split()
    labels: list[list[str]] = []
    if before and words and not is_glyph(words[0]) and is_glyph(words[-1]):  # each label before its box
        labels.append([])
        for word in words[:-1]:
            if is_glyph(word):
                labels.append([])
            else:
                labels[-1].append(word)
        if not all(OPTION_WORDS.match(" ".join(x)) for x in labels):
            return ()
    for word in words if not labels else ():
        if is_glyph(word):
            labels.append([])
        elif not labels:
            return ()
        else:
            labels[-1].append(word)
    named = tuple(" ".join(words) for words in labels)
    if len(labels) < 2 or not all(1 <= len(words) <= most for words in labels) or len(set(named)) < len(named):
        return ()
    return named


def word_choices(text: str) -> tuple[str, ...]:
    """The labels of a row of two or more option words parted by " / " or a full-width "／" with no
    boxes ("Yes / No", "Ja / Nein", "Yes / No / N/A", "はい／いいえ": the answers to circle or strike);
    () for any other text."""
    labels = [" ".join(part.split()) for part in re.split(r"\s+/\s+|\s*／\s*", text.strip())]
    if len(labels) < 2 or not all(OPTION_WORDS.match(label) for label in labels):
        return ()
    return tuple(labels)


def choices_of(text: str) -> tuple[str, ...]:
    """The options a row of text offers: boxes with labels, or option words parted by " / "."""
    return box_choices(text) or word_choices(text)


def label_question(page: int, box: Box, label: str, choices: tuple[str, ...] = ()) -> Found:
    """The question of a form's label, its answer in the response document."""
    clean = label.rstrip(":").strip()
    place = response_place(f"page {page + 1}, {clean[:40]}")
    return Found(
        page=page,
        box=box,
        id=None,
        text=clean,
        choices=choices,
        choice_place=place if choices else None,
        text_place=place,
    )


def form_rows(page: int, text: PageText, table: Table) -> list[Found]:
    """A ruled form: a label ("Company name:") or a prompt that asks, each beside an empty cell to
    its right (or boxes with labels: "☐ Yes ☐ No"), one question per label, and so is a short label
    ("Organization Name") beside a cell showing only a placeholder ("<Enter Street Address>",
    "Click here to enter text.": engine/questionnaire/placeholders.py); a cell may be a question of
    its own (:func:`_cell_question`: a label over its boxes, a label alone across a row); two or more such rows
    make a form (a table of labels and filled values is not one), one with boxes is one alone. A
    label with a blank after it inside its cell ("Title:       ") is one wherever it is. A table
    whose every such question is a label that neither asks nor ends with ":" beside a date's
    placeholder ("Issue of Invitation to Tender | [Insert date]") is the issuer's timetable, no form."""
    out: list[Found] = []
    alone: list[Found] = []  # labels alone across a row: a form's when two or more ("Responsible Role:")
    beside: list[Box] = []  # the boxes of a question, with the field under them ("If selected, describe …:")
    dated = 0  # questions only by a date's placeholder beside a label that neither asks nor ends with ":"
    for r, row in enumerate(table.rows):
        cells = _own_cells(row)
        words = [cell_text(text, c) for c in cells]
        labels = _signatory_labels(text, table, r, cells, words)
        out.extend(label_question(page, c, t) for c, t in labels)
        for i, cell in enumerate([] if labels else cells):
            own = _cell_question(page, text, cell, alone=len(cells) == 1)
            if own is not None:
                (out if own.choices else alone).append(own)
                continue
            blanks = [] if any(inside(cell, b) for b in beside) else _blank_labels(text, cell)
            out.extend(label_question(page, cell, label) for label in blanks)
            if i + 1 == len(cells) or blanks:
                continue
            label, right, box = words[i], words[i + 1], cells[i + 1]
            if box.y1 < cell.y1 - 4:  # the label's cell runs down past its neighbour's: all beside it
                box = Box(box.x0, cell.y0, box.x1, cell.y1)
                right = cell_text(text, box)
            for blank in _blank_labels(text, box):  # the boxes' field: part of their question
                right = right.replace(blank, "").strip()
            choices = box_choices(right, most=20) or _boxes_merged_down(text, table, r, cell, box, right)
            prompt = bool(right) and not choices and is_placeholder(right)  # "<Enter Street Address>": no answer
            if not label or (right and not choices and not prompt) or box.x1 - box.x0 < 40 or is_placeholder(label):
                continue
            short = len(label.split()) <= 10
            if choices or (label.endswith(":") or prompt) and short or asks(label):
                out.append(label_question(page, cell, label, choices))
                beside += [box] if choices else []
                dated += not choices and not label.endswith(":") and not asks(label) and bool(_DATE_PROMPT.match(right))
    if dated == len(out) and not alone:  # events beside "[Insert date]": the issuer's timetable, no form
        return []
    over = alone and any(f.choices for f in out) and all(f.box.y0 > alone[0].box.y0 for f in out)  # first, boxes below
    if len(alone) >= 2 or over:  # one alone otherwise: a lead-in ("For example:")
        out = sorted(out + alone, key=lambda f: (f.box.y0, f.box.x0))
    return out if len(out) >= 2 or any(f.choices for f in out) else []  # boxes to tick: a question alone


def _own_cells(row) -> list[Box]:
    """A row's cells left to right, without those inside a larger one of the row."""
    cells = sorted((c for c in row.cells if c is not None), key=lambda c: c.x0)
    return [c for c in cells if not any(o is not c and inside(c, o) and o.area > c.area for o in cells)]


def _signatory_labels(
    text: PageText, table: Table, r: int, cells: list[Box], words: list[str]
) -> list[tuple[Box, str]]:
    """A row of a signatory's block right under a signature's row (its first cell a signature's
    label: "Signature of Lead QSA | Date: …" over "Lead QSA Name:", "Signature of Merchant Executive
    Officer | Date: …" over "Merchant Executive Officer Name: | Title:"), whose every cell with text is
    a short label ending with ":" alone in its cell, the rest of the cell its field, as panels.py reads
    such labels printed without rules: each cell with its label; none for a signature's own label
    ("Signature:"), nor for labels side by side elsewhere (a records table's header over its empty rows:
    "Name of service provider: | Description of service(s) provided:")."""
    said = [(c, t) for c, t in zip(cells, words) if t]
    if not r or not said or not all(_field_label(t) and not SIGNATURE.match(t) for _, t in said):
        return []
    above = [cell_text(text, c) for c in _own_cells(table.rows[r - 1])]
    return said if above and SIGNATURE.match(above[0]) else []


def _field_label(label: str) -> bool:
    """A short label ending with ":" (ten words at most), no box before it."""
    return bool(re.search(r"[:：]$", label)) and len(label.split()) <= 10 and not is_glyph(label.split()[0])


def _boxes_merged_down(text: PageText, table: Table, r: int, label: Box, box: Box, right: str) -> tuple[str, ...]:
    """The options beside a label whose cell is merged down over the rows under it (a prompt over two
    rows or more, each row's cell beside it one box with its label: "If a QSA was involved … indicate
    the role performed:" beside "☐ QSA performed testing procedures." over "☐ QSA provided other
    assistance."): the cell beside it and, in each row right under it whose cell under the label is
    empty, the cell at the same place beside it starting with a box, less the lines of a field's
    label under a box's ("If selected, describe all role(s) performed:"); () unless two or more."""
    if not right or not is_glyph(right.split()[0]):
        return ()
    lines = cell_lines(text, box)
    for row in table.rows[r + 1 :]:
        cells = _own_cells(row)
        under = next((c for c in cells if abs(c.x0 - label.x0) <= 2), None)
        beside = next((c for c in cells if abs(c.x0 - box.x0) <= 2), None)
        said = cell_lines(text, beside) if beside is not None else []
        if under is None or cell_text(text, under) or not said or not is_glyph(said[0].split()[0]):
            break
        lines += said
    kept = [ln for ln in lines if is_glyph(ln.split()[0]) or not _field_label(ln)]
    return box_choices(" ".join(kept), most=20) if len(lines) > len(cell_lines(text, box)) else ()


def _cell_question(page: int, text: PageText, cell: Box, alone: bool) -> Found | None:
    """A question that is a cell of its own: a short label ending with ":" over a box with a label
    on each line below it ("Implementation Status (check all that apply):" over "☐ Implemented" /
    "☐ Planned" …: one choice, its options the labels; an option's label wrapped onto the next line,
    :func:`_box_options`), or, in a row of one cell across the table,
    the label alone with the rest of the cell for its answer ("Responsible Role:"; two or more such
    in a table, or one as the table's first question with a label over its boxes below; one alone
    otherwise being a lead-in: "For example:")."""
    lines = cell_lines(text, cell)
    if not lines or not lines[0].endswith(":") or len(lines[0].split()) > 10 or is_glyph(lines[0].split()[0]):
        return None
    options = _box_options(text, cell)
    if len(options) >= 2:
        return label_question(page, cell, lines[0], options)
    if alone and len(lines) == 1 and cell.x1 - cell.x0 >= 200:
        return label_question(page, cell, lines[0])
    return None


def _box_options(text: PageText, cell: Box) -> tuple[str, ...]:
    """The options under a cell's first line, each a box and its label on a line of its own; a line
    without a box goes on with the option above when that option's line was wrapped (its last word
    ends nearer the cell's right edge than this line's first word is wide: it did not fit there, as a
    word processor wraps "☐ Inherited from … , Date of" / "Authorization"). () where a line neither
    starts with a box nor goes on with one."""
    rows = []
    for line in text.lines:
        words = [w for w in line.words if cell.x0 <= w.box.cx <= cell.x1 and cell.y0 <= w.box.cy <= cell.y1]
        if words:
            rows.append(words)
    options: list[list] = []
    for words in rows[1:]:
        if len(words) >= 2 and words[0].glyph:
            options.append(list(words[1:]))
        elif options and cell.x1 - options[-1][-1].box.x1 < words[0].box.x1 - words[0].box.x0 + 6:
            options[-1].extend(words)
        else:
            return ()
    return tuple(" ".join(w.text for w in option) for option in options)


def _blank_labels(text: PageText, cell: Box) -> list[str]:
    """The labels in ``cell`` with a blank after them ("Merchant Executive Officer Name:       ")."""
    out = []
    for line in text.lines:
        words = [w.text for w in line.words if cell.x0 <= w.box.cx <= cell.x1 and cell.y0 <= w.box.cy <= cell.y1]
        if line.blank and words and words[-1].endswith(":"):
            out.append(" ".join(words))
    return out


def box_list(page: int, text: PageText, table: Table) -> Found | None:
    """A table of statements each with a box before it in a cell of its own (the PCI AOC's "Select
    one:" of Compliant / Non-Compliant / …, its "Select all that apply" acknowledgements): one
    question, its options the statements (each named by its words up to a colon, or its first six).
    Above the statements, rows of one cell across the table (its title, a lead-in: "Part 3a. Merchant
    Acknowledgement", "Signatory(s) confirms:"); below them, rows with no box, no label and nothing
    asked (the empty table of exceptions to detail under "Compliant but with Legal exception")."""
    statements: list[str] = []
    below = False
    for row in table.rows:
        cells = sorted((c for c in row.cells if c is not None), key=lambda c: c.x0)
        texts = [cell_text(text, c) for c in cells]
        if not below and len(cells) == 2 and is_glyph(texts[0]) and texts[1] and not is_glyph(texts[1]):
            statements.append(texts[1])
        elif not statements and len(cells) == 1 and not any(is_glyph(w) for w in texts[0].split()):
            continue  # a title or a lead-in across the table
        elif statements and not any(is_glyph(w) or w.endswith(":") for t in texts for w in t.split()):
            if any(asks(t) for t in texts):
                return None
            below = True
        else:
            return None
    if len(statements) < 2:
        return None
    choices = tuple(option_name(s) for s in statements)
    place = response_place(f"page {page + 1}, {choices[0][:40]}")
    return Found(page, table.box, None, " / ".join(statements), choices, place, place)


def option_name(statement: str) -> str:
    """An option named by its statement's words up to a colon (six at most), else its first six."""
    head = statement.split(":", 1)[0]
    words = statement.split()
    return (
        head.strip()
        if ":" in statement and len(head.split()) <= 6
        else " ".join(words[:6]) + ("…" if len(words) > 6 else "")
    )


_PART = re.compile(r"^(?:part|item|req\.?|requirement|onderdeel)\s+[\w.()\-]{1,8}$|^\(?[a-z]\)$|^[a-z]\.$", re.I)
_CONTROL = re.compile(r"^[A-Z]{1,4}-\d{1,3}(?:\s?\(\d{1,3}\))?(?=\s)")  # "AC-2", "AC-2 (1)" before the title's words


def part_rows(page: int, text: PageText, table: Table, found: list[Found]) -> list[Found] | None:
    """A table of one question's parts: a title across the table that asks ("AC-2 What is the
    solution and how is it implemented?") over rows of a part's label beside a cell for
    its answer ("Part a | ", "Req. 1 | ": the FedRAMP SSP's control sections): one text question per
    part, named by the title's control ID and the part ("AC-2 Part a"), its text the title and the
    part (as the Word reader names it). Without its title (a table at the top of a page, ``found``
    the questions before it) the parts go on from the last part read: its control ID. None: no such table."""
    rows = [sorted((c for c in row.cells if c is not None), key=lambda c: c.x0) for row in table.rows]
    last = found[-1] if found else None
    if rows and len(rows[0]) == 1:
        title = cell_text(text, rows[0][0])
        rows, control = rows[1:], _CONTROL.match(title)
        if not asks(title):
            return None
    elif last and last.id and (control := _CONTROL.match(last.id)) and _PART.match(last.id[control.end() :].strip()):
        title = last.text.removesuffix(last.id[control.end() :].strip()).strip()  # the title, its part taken off
    else:
        return None
    parts = [(cells, cell_text(text, cells[0])) for cells in rows if len(cells) == 2]
    if not parts or len(parts) != len(rows) or not all(_PART.match(label) for _, label in parts):
        return None
    out = []
    for cells, label in parts:
        ident = f"{control.group(0)} {label}" if control else label
        answer = cell_text(text, cells[1])
        place = response_place(f"page {page + 1}, row {ident}")
        out.append(
            Found(
                page=page,
                box=cells[0],
                id=ident,
                text=f"{title} {label}".strip(),
                text_place=place,
                existing_answer=None if not answer or is_placeholder(answer) else answer,
            )
        )
    return out


def checklist_rows(page: int, text: PageText, table: Table) -> list[Found] | None:
    """A checklist: a header row of two or more short labels (six words at most, no box) that names
    no column's role ("SCHEDULE HEADING | COMPLETED?", "Unterlage | Beigefügt"), under rows of one
    cell across the table if any (its title), over two or more rows that each hold an item (text, no
    box) left of its answer's cell: a box alone, under the same header label on every row, or, under
    a last label of option words ("Document | Y / N", "Yes/No"), a cell left empty to type the answer
    in. One question per item (the documents to enclose, the steps to have done), its answer place
    its own, as a Word checklist's cell is (a box alone: Yes / No, ticked or not; the typed cell: text); an item's ID the one its text starts with ("1.2 …"), or a
    cell of its own left of it holding an ID alone (an item over two cells of text is none: a choice
    among rows described by two columns, "Level 1: AAL1 … | Low | ☐"). None: no such table (a box
    beside each statement is a box list's; a label over its boxes a form's)."""
    rows = [sorted((c for c in row.cells if c is not None), key=lambda c: c.x0) for row in table.rows]
    rows = [cells for cells in rows if any(cell_text(text, c) for c in cells)]
    while rows and len(rows[0]) == 1:
        rows = rows[1:]  # its title across the table
    if len(rows) < 3:
        return None
    head = [cell_text(text, c) for c in rows[0]]
    if not all(h and len(h.split()) <= 6 and not any(is_glyph(w) for w in h.split()) for h in head):
        return None
    typed = rows[0][-1] if option_words(head[-1]) else None  # "Y / N": the answer typed under the last label
    columns: set[int] = set()
    out: list[Found] = []
    for cells in rows[1:]:
        texts = [cell_text(text, c) for c in cells]
        boxed = [i for i, t in enumerate(texts) if t and is_glyph(t.replace(" ", ""))]
        to_tick = bool(boxed)
        if not boxed and typed is not None:  # the cells under the option words left empty
            boxed = [next((i for i, c in enumerate(cells) if c.cx >= typed.x0 - 3), len(cells))]
            if any(texts[boxed[0] :]):
                return None
        if len(boxed) != 1 or any(is_glyph(w) for i, t in enumerate(texts) if i not in boxed for w in t.split()):
            return None
        box = cells[boxed[0]] if boxed[0] < len(cells) else typed
        under = [k for k, h in enumerate(rows[0]) if h.x0 - 3 <= box.cx <= h.x1 + 3]
        left = [t for t in texts[: boxed[0]] if t]
        own_id = len(left) == 2 and id_like(left[0])  # an ID in a cell of its own
        if not under or not left or (len(left) > 1 and not own_id) or any(t for t in texts[boxed[0] + 1 :]):
            return None  # (an item described over two columns: "Level 1: AAL1 … | Low | ☐", one choice of levels)
        columns.add(under[0])
        ident, item = (left[0], left[1]) if own_id else leading_id(left[0])
        place = response_place(f"page {page + 1}, row {ident or item[:40]}")
        if not to_tick:  # the answer typed in the empty cell under "Y / N"
            out.append(Found(page=page, box=cells[0], id=ident or None, text=item, text_place=place))
            continue
        ticked = "Yes" if is_mark(texts[boxed[0]]) else None  # a box alone: ticked or not, as in the Word file
        out.append(Found(page=page, box=cells[0], id=ident or None, text=item, choices=("Yes", "No"),
                         choice_place=place, existing_choice=ticked))  # fmt: skip
    return out if len(columns) == 1 else None


def option_words(label: str) -> tuple[str, ...]:
    """The options a header label names by option words parted by "/" ("Y / N", "Yes/No", "Ja / Nein")."""
    return word_choices(label) or word_choices(re.sub(r"\s*/\s*", " / ", label))
