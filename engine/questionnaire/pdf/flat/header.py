"""A flat PDF table's columns: the roles its header row names (reader.py's labels: "Question" /
"Question Text", "Answer" / "Response", "Comments" / "Implementation …"; "Question ID" / "Number" /
"#" for the ID), the question column of a table without a header (its cells mostly ask), whether a
header-less table continues the columns of the last header, and the table as the mapping lists it,
with the responder's corrections of its columns applied (:func:`header_map`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.questionnaire.corrections import ColumnRole, TableColumn, TableMap, column_roles
from engine.questionnaire.cues import ID_RE, QUESTION_MARK, ascii_digits, header_role
from engine.questionnaire.pdf.flat.found import FlatTables
from engine.questionnaire.pdf.flat.ruled import Row, Table, cell_lines, cell_text
from engine.questionnaire.pdf.layout import Box, PageText
from engine.questionnaire.table_model import Role, role_of_label, translated_lines

_ID_ROLE = re.compile(r"((question|control|item|requirement|req\.?) )?(id|#|no\.?|number|nr\.?|ref\.? ?no\.?)")
_MODEL_ROLES = {Role.ID: "id", Role.QUESTION: "question", Role.ANSWER: "answer", Role.NOTES: "comment"}
_CHOICE_HEADER = re.compile(r"\(([^()]*/[^()]*)\)")  # "Answer (Yes/No/NA)"


@dataclass(frozen=True)
class Columns:
    """A table's column roles: the x-range of each role's header cell; the choices of every row
    (an answer header's list, or the option columns' headers) and, where the responder made
    columns the options of one choice, each option's header and x-range (a mark under it: the
    row's existing choice)."""

    roles: dict[str, tuple[float, float]]
    choices: tuple[str, ...] = ()
    options: tuple[tuple[str, float, float], ...] = ()

    def role_of(self, cell: Box) -> str | None:
        best, overlap = None, 0.0
        for role, (x0, x1) in self.roles.items():
            shared = min(x1, cell.x1) - max(x0, cell.x0)
            if shared > overlap and shared >= 0.5 * min(x1 - x0, cell.x1 - cell.x0):
                best, overlap = role, shared
        return best


def column_role(label: str) -> str | None:
    """id, question, answer or comment: what a header label names."""
    plain = " ".join(re.sub(r"\(.*?\)|[*:]", " ", label.lower()).split())
    if not plain:
        return None
    if _ID_ROLE.fullmatch(plain) or plain == "question id":
        return "id"
    role = header_role(label)
    if role is None and len(plain.split()) <= 2:
        # a label of a word or two in the table model's words, any language ("Anforderung", "Réponse", "回答"),
        # not a longer one holding such a word ("Reason Requirement is Not Applicable")
        role = _MODEL_ROLES.get(role_of_label(plain))
    return role if role in ("id", "question", "answer", "comment") else None


def _label_role(text: PageText, cell: Box) -> str | None:
    """A header cell's role, its lines joined with a space ("CSP CAIQ / Answer") or without
    (a word broken over lines: "Questi" / "on ID"), or of its first line when the others say it again in
    another language ("備考" over "Remarks")."""
    lines = cell_lines(text, cell)
    said_again = translated_lines("\n".join(lines))
    return (
        column_role(" ".join(lines))
        or column_role("".join(lines))
        or (said_again and next(filter(None, map(column_role, said_again.split(" / "))), None))
    )


def header_columns(text: PageText, row: Row) -> Columns | None:
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
            listed = _CHOICE_HEADER.search(cell_text(text, cell)) if role == "answer" else None
            if listed:
                choices = tuple(c.strip() for c in listed.group(1).split("/") if c.strip())
    if "question" not in roles:
        roles = _asked_left_of_answer(text, row, roles)
    return Columns(roles, choices) if "question" in roles else None


def _asked_left_of_answer(
    text: PageText, row: Row, roles: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """A header that names an answer column ("Explanation") and no question column: the labelled
    column just left of the answer holds what is asked ("Information Required", the PCI SAQ's
    compensating controls worksheet)."""
    answer = roles.get("answer") or roles.get("comment")
    if answer is None:
        return roles
    left = [c for c in row.cells if c is not None and c.x1 <= answer[0] + 1 and cell_text(text, c)]
    if not left or any(id_like(cell_text(text, c, compact=True)) for c in left):
        return roles  # a question's row ("1.4 | Lots … | Answer"), not a header
    cell = max(left, key=lambda c: c.x1)
    if len(cell_text(text, cell).split()) > 6:
        return roles  # a header's label is short
    return {**roles, "question": (cell.x0, cell.x1)}


_LEAD_ID = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){1,4}|[A-Z]{1,4}[.\-]\d{1,3}(?:\.\d{1,3})*)\.?\s+(?=\S)")


def leading_id(text: str) -> tuple[str, str]:
    """The ID a requirement's cell starts with, and the rest ("1.2.1 The provider shall …", "A.1 …",
    "REQ-001 …", "１．２．１ …"): numbers joined by dots ("1.2", not "3 months"), or capitals, a dot or dash and a number;
    ("", text) when it starts with none ("2FA is enabled" does not)."""
    plain = ascii_digits(text)
    m = _LEAD_ID.match(plain)
    if not m:
        return "", text
    return text[: len(m.group(1))], text[m.end() :]


def mostly_numbered(texts: list[str]) -> bool:
    """Whether most of a table's requirement cells (two or more) start with an ID: its rows that
    do not are section titles ("Requirement 2: Apply secure configurations …")."""
    numbered = sum(1 for t in texts if leading_id(t)[0])
    return numbered >= 2 and 2 * numbered > len(texts)


def id_like(text: str) -> bool:
    """An ID cell's text: "A&A-01.1", "1.f.iii", "AC-2(11)" (not a footer's "©Copyright2021-2022")."""
    text = ascii_digits(text)  # "１．２．１" numbers as "1.2.1" does; "第2節" (a section's title) is no ID
    return bool(ID_RE.match(text) or (re.fullmatch(r"[\w&.()\-–]{1,12}", text, re.ASCII) and re.search(r"\d", text)))


def guess_columns(text: PageText, rows: list[Row]) -> Columns | None:
    """The question column of a table without a header: the one whose cells mostly ask."""
    width = max(len(r.cells) for r in rows)
    columns = [[r.cells[c] for r in rows if c < len(r.cells) and r.cells[c] is not None] for c in range(width)]
    best = None
    for cells in columns:
        asking = sum(1 for cell in cells if QUESTION_MARK.search(cell_text(text, cell)))
        if asking >= 2 and asking >= 0.5 * len(rows) and (best is None or asking > best[0]):
            best = (asking, cells[0])
    if best is None:
        return None
    roles = {"question": (best[1].x0, best[1].x1)}
    for cells in columns:
        ids = sum(1 for cell in cells if id_like(cell_text(text, cell, compact=True)))
        if cells and cells[0].x1 <= best[1].x0 + 1 and ids >= 0.5 * len(rows):
            roles["id"] = (cells[0].x0, cells[0].x1)
            break
    if "id" not in roles and not any(c.x0 >= best[1].x1 - 1 and c.x1 - c.x0 >= 40 for col in columns for c in col):
        return None  # neither numbered nor beside a column for their answers: guidance quoting them (PPN 03/24)
    return Columns(roles)


def lines_up(columns: Columns | None, table: Table) -> bool:
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


_MAP_ROLE = {
    "id": ColumnRole.ID,
    "question": ColumnRole.QUESTION,
    "answer": ColumnRole.ANSWER,
    "comment": ColumnRole.NOTES,
}
_ROLE_KEY = {role: key for key, role in _MAP_ROLE.items()}


def header_map(page: int, text: PageText, row: Row, columns: Columns, mapped: FlatTables) -> tuple[Columns, TableMap]:
    """A table read by its header's columns (no option columns found), as the mapping lists it,
    and its columns once the responder's corrections of this table are applied (engine/
    questionnaire/corrections.py, the same step as an option table's): a column made the question,
    the ID, the answer or the notes column, the options of one choice per row (its options the
    columns' headers, in their order: "Yes | No | N/A" drawn without boxes), or none of them
    (guidance, other). A correction that leaves the table no question column is not applied."""
    cells = sorted((c for c in row.cells if c is not None), key=lambda c: c.x0)
    detected = {i: _MAP_ROLE[role] for i, c in enumerate(cells) if (role := columns.role_of(c)) in _MAP_ROLE}
    roles = column_roles(detected, mapped.index, mapped.corrections)
    if roles != detected:
        fixed: dict[str, tuple[float, float]] = {}
        for i, role in sorted(roles.items()):
            key = _ROLE_KEY.get(role)
            if key and key not in fixed:
                fixed[key] = (cells[i].x0, cells[i].x1)
        options = tuple(
            (cell_text(text, cells[i]) or f"column {i + 1}", cells[i].x0, cells[i].x1)
            for i, role in sorted(roles.items())
            if role is ColumnRole.OPTIONS
        )
        if "question" in fixed:
            choices = tuple(label for label, _, _ in options) or columns.choices
            columns = replace(columns, roles=fixed, choices=choices, options=options)
        else:
            roles = detected
    listed = tuple(TableColumn(i, cell_text(text, c), roles.get(i)) for i, c in enumerate(cells))
    return columns, TableMap(mapped.index, f"page {page + 1}", listed)


_SENTENCE_END = (".", "?", "!", "。", "？", "！")


def goes_on(before: str, text: str) -> bool:
    """Whether ``text``, the first row without an ID at the top of a page in a table whose rows start
    with their IDs, is the rest of the row before the page break rather than a section's title: the
    text before stops mid-sentence, or this one ends a sentence (a title does not: "Requirement 3:
    Protect stored data", "第3節 保存データの保護")."""
    return not before.rstrip().endswith(_SENTENCE_END) or text.rstrip().endswith(_SENTENCE_END)
