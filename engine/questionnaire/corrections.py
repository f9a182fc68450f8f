"""The responder's corrections of a questionnaire's mapping, per table and per question, kept with
the questionnaire (``ReadOptions.tables`` / ``ReadOptions.questions``, stored as ``--like`` is) and
applied on top of whatever the reader found:

- :class:`TableCorrection`: one column of one table takes a role (:class:`ColumnRole`), and every
  row of that table follows: "column 3 of table 7 is the answer", "columns 2 to 5 are the options
  of one choice" (each of them :attr:`ColumnRole.OPTIONS`: one choice per row, its options the
  columns' headers), "column 1 is guidance, not the question";
- :class:`QuestionCorrection`: one question's text, its kind (a text or a choice question) or its
  answer place (the cell of another column of its row).

A table is named by its place among the document's tables (0 for the first, in reading order,
nested tables after their parent's rows) and a column by its grid position (0 for the first), so
a correction holds for the same bytes whatever the reader later learns. :func:`column_roles` is
the one step a table reader takes to apply them (the Word table reader today; the table model of
every table, Word or PDF, later): the roles it detected in, the corrected roles out.
:func:`corrected_question` applies a question's correction to what any reader found.

Nothing here imports a reader: the records sit below them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum


class ColumnRole(str, Enum):
    """What a table column holds, for every row of its table."""

    ID = "row ID"
    QUESTION = "question"
    GUIDANCE = "guidance"  # expected testing, instructions: part of no answer
    OPTIONS = "option"  # one of the options of the row's one choice (a box or mark under its header)
    ANSWER = "answer text"
    NOTES = "notes"  # a second text place (comments, observations) after the answer
    OTHER = "other"  # owner, date, anything else: read as nothing

    @classmethod
    def parse(cls, text: str) -> ColumnRole:
        """A role by its value or name, in any case ("answer text", "answer", "OPTIONS")."""
        wanted = " ".join(str(text).split()).casefold()
        for role in cls:
            if wanted in (role.value.casefold(), role.name.casefold()) or (
                wanted and role.value.casefold().startswith(wanted)
            ):
                return role
        raise ValueError(f"'{text}' is not a column role (one of: {', '.join(r.value for r in cls)})")


class QuestionKind(str, Enum):
    """The kinds a responder can give a question."""

    TEXT = "text"  # a free-text answer only (its boxes or options not asked)
    CHOICE = "choice"  # a pick among its options only (no text)
    BOTH = "choice and text"


@dataclass(frozen=True)
class TableCorrection:
    """Column ``column`` of table ``table`` has ``role`` on every row."""

    table: int
    column: int
    role: ColumnRole

    def to_json(self) -> dict:
        return {"table": self.table, "column": self.column, "role": self.role.value}

    @classmethod
    def from_json(cls, d: Mapping | TableCorrection) -> TableCorrection:
        if isinstance(d, TableCorrection):
            return d
        return cls(int(d["table"]), int(d["column"]), ColumnRole.parse(d["role"]))

    @classmethod
    def parse(cls, text: str) -> TableCorrection:
        """``TABLE:COLUMN=ROLE`` (the CLI's ``--column 7:3=answer``); a range ``7:2-5=option``
        is several (:func:`parse_columns`)."""
        return parse_columns(text)[0]


@dataclass(frozen=True)
class QuestionCorrection:
    """The responder's correction of one question (its key, ``Document!A12``): its ``text``, its
    ``kind``, or its answer place moved to the cell of ``column`` on its table row (None: as read)."""

    key: str
    text: str | None = None
    kind: QuestionKind | None = None
    column: int | None = None

    def to_json(self) -> dict:
        out: dict = {"key": self.key}
        if self.text is not None:
            out["text"] = self.text
        if self.kind is not None:
            out["kind"] = self.kind.value
        if self.column is not None:
            out["column"] = self.column
        return out

    @classmethod
    def from_json(cls, d: Mapping | QuestionCorrection) -> QuestionCorrection:
        if isinstance(d, QuestionCorrection):
            return d
        kind = d.get("kind")
        column = d.get("column")
        return cls(
            str(d["key"]),
            str(d["text"]) if d.get("text") is not None else None,
            QuestionKind(kind) if kind else None,
            int(column) if column is not None else None,
        )


def parse_columns(text: str) -> list[TableCorrection]:
    """``TABLE:COLUMN=ROLE`` or ``TABLE:FIRST-LAST=ROLE`` (columns counted from 0, as ``inspect``
    shows them); ValueError in words when it is not that."""
    where, sep, role = str(text).partition("=")
    table, colon, columns = where.partition(":")
    first, dash, last = columns.partition("-")
    try:
        if not sep or not colon:
            raise ValueError
        t, a, b = int(table), int(first), int(last) if dash else int(first)
    except ValueError:
        raise ValueError(f"'{text}' is not TABLE:COLUMN=ROLE (e.g. 7:3=answer, or 7:2-5=option)") from None
    if t < 0 or a < 0 or b < a:
        raise ValueError(f"'{text}': tables and columns count from 0, and a range goes up (2-5)")
    kind = ColumnRole.parse(role)
    return [TableCorrection(t, c, kind) for c in range(a, b + 1)]


def merged(kept: Iterable[TableCorrection], new: Iterable[TableCorrection]) -> tuple[TableCorrection, ...]:
    """``kept`` with ``new`` over it: one role per table column, the newest winning."""
    out = {(c.table, c.column): c for c in kept}
    out.update({(c.table, c.column): c for c in new})
    return tuple(out.values())


def merged_questions(
    kept: Iterable[QuestionCorrection], new: Iterable[QuestionCorrection]
) -> tuple[QuestionCorrection, ...]:
    """``kept`` with ``new`` over it, field by field, per question key."""
    out = {c.key: c for c in kept}
    for c in new:
        old = out.get(c.key)
        out[c.key] = (
            c
            if old is None
            else QuestionCorrection(
                c.key,
                c.text if c.text is not None else old.text,
                c.kind if c.kind is not None else old.kind,
                c.column if c.column is not None else old.column,
            )
        )
    return tuple(out.values())


def column_roles(
    detected: Mapping[int, ColumnRole], table: int, corrections: Iterable[TableCorrection]
) -> dict[int, ColumnRole]:
    """The roles of table ``table``'s columns (by grid column) once the responder's corrections of
    that table are applied over the ones the reader ``detected``: the one step every table reader
    takes. A column the reader gave no role and the responder none keeps none."""
    roles = dict(detected)
    for c in corrections:
        if c.table == table:
            roles[c.column] = c.role
    if sum(r is ColumnRole.QUESTION for r in roles.values()) > 1:  # one question column: the corrected one wins
        mine = [c.column for c in corrections if c.table == table and c.role is ColumnRole.QUESTION]
        for col, role in list(roles.items()):
            if role is ColumnRole.QUESTION and mine and col != mine[-1]:
                roles[col] = ColumnRole.GUIDANCE
    return roles


def corrected_question(
    correction: QuestionCorrection | None,
    text: str,
    has_choice: bool,
    has_text: bool,
) -> tuple[str, bool, bool]:
    """(text, keep its choice place, keep its text place) after ``correction``: its text replaced,
    its kind made text only (the choice dropped) or a choice only (the text place dropped) when it
    has both. A kind the question has no place for changes nothing (a place is moved, not made)."""
    if correction is None:
        return text, has_choice, has_text
    if correction.text is not None and correction.text.strip():
        text = " ".join(correction.text.split())
    if correction.kind is QuestionKind.TEXT and has_text:
        has_choice = False
    elif correction.kind is QuestionKind.CHOICE and has_choice:
        has_text = False
    return text, has_choice, has_text


def corrected_questions(questions: list, places: dict, corrections: Iterable[QuestionCorrection]) -> tuple[list, dict]:
    """A document reader's questions (``Question`` records) and answer places (by pseudo-cell key)
    with the responder's text and kind corrections applied (:func:`corrected_question`; a place
    dropped is dropped from ``places`` too). The move of an answer place is the table reader's
    (it knows the row's cells)."""
    by_key = {c.key: c for c in corrections}
    if not by_key:
        return questions, places
    out, places = [], dict(places)
    for q in questions:
        c = by_key.get(f"{q.sheet}!{q.question_cell}")
        if c is None:
            out.append(q)
            continue
        text, keep_choice, keep_text = corrected_question(c, q.text, q.choice_cell is not None, q.text_cell is not None)
        if not keep_choice and q.choice_cell:
            places.pop(f"{q.sheet}!{q.choice_cell}", None)
            q = replace(q, choice_cell=None, choices=(), existing_choice=None)
        if not keep_text and q.text_cell:
            places.pop(f"{q.sheet}!{q.text_cell}", None)
            q = replace(q, text_cell=None, existing_answer=None)
        out.append(replace(q, text=text))
    return out, places


@dataclass(frozen=True)
class TableColumn:
    """One column of a table as the mapping shows it: its grid position, header and role."""

    column: int
    header: str
    role: ColumnRole | None


@dataclass(frozen=True)
class TableMap:
    """A table read by columns: its place among the document's tables, its caption, its columns."""

    table: int
    title: str
    columns: tuple[TableColumn, ...]
    keys: tuple[str, ...] = ()  # its questions' keys, in order

    def to_json(self) -> dict:
        return {
            "table": self.table,
            "title": self.title,
            "questions": list(self.keys),
            "columns": [
                {"column": c.column, "header": c.header, "role": c.role.value if c.role else None} for c in self.columns
            ],
        }


__all__ = [
    "ColumnRole",
    "QuestionCorrection",
    "QuestionKind",
    "TableColumn",
    "TableCorrection",
    "TableMap",
    "column_roles",
    "corrected_question",
    "corrected_questions",
    "merged",
    "merged_questions",
    "parse_columns",
]
