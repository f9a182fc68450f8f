"""The records every questionnaire format reads into: a question and where its answer goes
(:class:`Question`), a sheet's or a document's questions (:class:`SheetLayout`), the
questionnaire (:class:`Questionnaire`), the reviewer's options and corrections
(:class:`ReadOptions`) and the one error (:class:`QuestionnaireError`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path

from openpyxl.utils.cell import column_index_from_string

from engine.core.types import FileProblem
from engine.questionnaire.corrections import QuestionCorrection, TableCorrection, TableMap
from engine.questionnaire.places import AnswerPlace


def _column_number(letter: str | None) -> int | None:
    return None if letter is None else column_index_from_string(letter.strip().upper())


class QuestionnaireError(FileProblem):
    """A questionnaire that cannot be read."""


@dataclass(frozen=True)
class Question:
    """One question and the cells (A1 refs on ``sheet``) where its answer goes."""

    id: str | None
    sheet: str
    row: int
    text: str
    question_cell: str
    choice_cell: str | None  # the dropdown cell, when the answer cell has one
    text_cell: str | None  # where the free-text answer / explanation goes
    choices: tuple[str, ...]  # allowed values of the choice cell
    existing_answer: str | None  # what the text cell already holds
    existing_choice: str | None  # what the choice cell already holds
    # a choice of several ("tick all that apply", a row of independent check boxes): its answer is the
    # options picked, joined by CHOICE_SEPARATOR (:func:`joined_choices`, :func:`picked_choices`)
    several: bool = False

    def takes(self, choice: str) -> bool:
        """Whether ``choice`` is a value its choice place takes: one of its options, or for a choice
        of several, options joined by CHOICE_SEPARATOR (each one of them)."""
        if choice in self.choices:
            return True
        picked = picked_choices(choice, self.choices)
        return self.several and bool(picked) and all(p in self.choices for p in picked)

    @property
    def answered(self) -> bool:
        """The file already holds an answer for it (the drafting step skips these)."""
        return bool(self.existing_choice or self.existing_answer)


CHOICE_SEPARATOR = "; "
"""Between the options of a choice of several, as drafted, stored, reviewed and written ("Bedford; Luton")."""


def joined_choices(picked: Iterable[str]) -> str:
    """The options picked of a choice of several as one value (each once, in the order given)."""
    return CHOICE_SEPARATOR.join(dict.fromkeys(p.strip() for p in picked if p and p.strip()))


def picked_choices(value: str | None, choices: Sequence[str]) -> tuple[str, ...]:
    """The options a stored value picks, in the order of ``choices`` (case aside): the whole value when
    it is one option (a label may hold the separator), else its parts; a part that is no option is
    kept as written, after them (the writers refuse it with its name)."""
    value = (value or "").strip()
    if not value:
        return ()
    by_key = {c.strip().lower(): c for c in choices}
    if value.lower() in by_key:
        return (by_key[value.lower()],)
    parts = [p.strip() for p in value.split(CHOICE_SEPARATOR.strip()) if p.strip()]
    known = {by_key[p.lower()] for p in parts if p.lower() in by_key}
    return (*(c for c in choices if c in known), *dict.fromkeys(p for p in parts if p.lower() not in by_key))


@dataclass(frozen=True)
class SheetLayout:
    """What was detected on one sheet. Columns are letters; ``choices`` is the most common
    dropdown of the answer column (each question carries its own)."""

    sheet: str
    header_row: int | None
    question_col: str
    id_col: str | None
    answer_col: str
    comment_col: str | None
    choices: tuple[str, ...]
    questions: tuple[Question, ...]
    notes: tuple[str, ...] = ()  # rows kept or left out for what their cells hold (formulas, errors, merges)


@dataclass(frozen=True)
class Questionnaire:
    path: Path
    sheets: tuple[SheetLayout, ...]
    notes: tuple[str, ...] = ()  # skipped sheets and why, unresolvable dropdowns…
    # a Word or PDF questionnaire's answer places by pseudo-cell ("Document!C12"): places.py; empty for a sheet
    places: Mapping[str, AnswerPlace] = field(default_factory=dict, hash=False)
    # a document's tables read by columns, each column's header and role (what a responder corrects per table)
    tables: tuple[TableMap, ...] = ()

    @cached_property
    def questions(self) -> tuple[Question, ...]:
        return tuple(q for s in self.sheets for q in s.questions)

    # its qualifiers and row types are worked out once per questionnaire read and kept on it:
    # engine.questionnaire.qualifiers.qualifiers_of, engine.questionnaire.row_types.row_types_of


@dataclass(frozen=True)
class ReadOptions:
    """Overrides of questionnaire detection (None = detect), as a person gives them: the CLI's
    ``--sheet``, ``--header-row`` and ``--question-col``/``--answer-col``/``--comment-col``, the
    app's fields (kept per project by engine/app/workspace.py). Columns are letters;
    :meth:`column` is the one place a letter becomes a column number."""

    sheet: str | None = None
    header_row: int | None = None  # 1-based; only rows below it are questions
    question_col: str | None = None
    answer_col: str | None = None
    comment_col: str | None = None
    # the reviewer's corrections of what was detected (a Word or PDF questionnaire's mapping; ``exclude``
    # applies to every format): question keys ("Document!A12") or IDs left out, paragraph numbers added
    # as questions, example question keys whose like (same style, list or table column) are added;
    # a solicitation's requirements whose kind the reviewer changed, "ID=kind" (submission, evaluation,
    # work, terms: engine/questionnaire/solicitation/); its sentences added as requirements, its
    # requirements split ("ID=FRAGMENT": the words the second part starts with) and merged ("ID+ID"):
    # engine/questionnaire/solicitation/edits.py. Options stored before these existed read as none.
    exclude: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    like: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    splits: tuple[str, ...] = ()
    merges: tuple[str, ...] = ()
    # the responder's corrections of the mapping (engine/questionnaire/corrections.py): a table column's
    # role, every row of its table following; a question's text, kind or answer place
    tables: tuple[TableCorrection, ...] = ()
    questions: tuple[QuestionCorrection, ...] = ()
    # a solicitation read only up to this page: its shred was stopped there (by the reviewer, or the upload's
    # time limit), and the requirements of the pages before are its rows until it is read whole (None: whole)
    pages: int | None = None

    def __post_init__(self) -> None:  # given as JSON (the store, read_questionnaire's keywords): the records
        object.__setattr__(self, "tables", tuple(TableCorrection.from_json(c) for c in self.tables))
        object.__setattr__(self, "questions", tuple(QuestionCorrection.from_json(c) for c in self.questions))

    def to_json(self) -> dict:
        out = {
            k: list(v) if isinstance(v, tuple) else v
            for k, v in asdict(self).items()
            if v not in (None, "", ()) and k not in ("tables", "questions")
        }
        if self.tables:
            out["tables"] = [c.to_json() for c in self.tables]
        if self.questions:
            out["questions"] = [c.to_json() for c in self.questions]
        return out

    @classmethod
    def from_json(cls, d: dict) -> ReadOptions:
        return cls(
            **{
                k: tuple(map(str, v)) if k in _CORRECTIONS else tuple(v) if k in ("tables", "questions") else v
                for k, v in d.items()
                if k in cls.__dataclass_fields__
            }  # fmt: skip
        )

    def checked(self, file: str) -> ReadOptions:
        """These options, refused with a QuestionnaireError naming ``file`` and the flag when the
        header row is below 1 or a column is not a column letter."""
        if self.header_row is not None and self.header_row < 1:
            raise QuestionnaireError(file, f"--header-row {self.header_row} is not a row number", "rows start at 1")
        for name in ("question_col", "answer_col", "comment_col"):
            value, flag = getattr(self, name), "--" + name.replace("_", "-")
            try:
                _column_number(value)
            except ValueError:
                raise QuestionnaireError(
                    file, f"{flag} '{value}' is not a column letter", f"pass e.g. {flag} C"
                ) from None
        return self

    def excludes(self, q: Question) -> bool:
        """Whether the reviewer left question ``q`` out (by its key, "Sheet!B12", or its ID)."""
        return f"{q.sheet}!{q.question_cell}" in self.exclude or (q.id or "") in self.exclude

    def column(self, name: str) -> int | None:
        """The column number (1-based) of ``question_col``, ``answer_col`` or ``comment_col``; None: detect."""
        return _column_number(getattr(self, name))


_CORRECTIONS = ("exclude", "include", "like", "kinds", "added", "splits", "merges")
