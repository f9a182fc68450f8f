"""The questions a PDF reader found, before they become a :class:`Questionnaire`.

Both PDF readers (the form fields of engine/questionnaire/pdf/form.py, the tables and lines of a
flat PDF in pdf/flat/) say what they found as :class:`Found` records: a page, a position on it,
the question's ID, text and choices, and its answer places. :func:`assemble` numbers them the way
engine/questionnaire/places.py describes: ``row`` = (page number × 1000) + the question's order
on its page (1-based pages, so the first question of page 1 is row 1001), which depends only on
the file, never on which questions a reviewer later excludes or adds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from engine.questionnaire.corrections import TableMap
from engine.questionnaire.cues import takes_several
from engine.questionnaire.length_limits import limited
from engine.questionnaire.pdf.layout import Box, reading_order
from engine.questionnaire.placeholders import repeated_placeholders
from engine.questionnaire.places import AnswerPlace, place_key
from engine.questionnaire.records import Question, Questionnaire, QuestionnaireError, SheetLayout

ROWS_PER_PAGE = 1000
YES_NO = ("Yes", "No")


@dataclass(frozen=True)
class Found:
    """One question found on ``page`` (0-based), where ``box`` is (for the order on the page)."""

    page: int
    box: Box
    id: str | None
    text: str
    choices: tuple[str, ...] = ()
    choice_place: AnswerPlace | None = None  # where the choice goes (B{row})
    text_place: AnswerPlace | None = None  # where the text goes (C{row})
    existing_choice: str | None = None
    existing_answer: str | None = None
    several: bool = False  # a choice of several found by its layout (a form's independent check boxes)
    part: int = 0  # its part of the page in reading order: above two columns, the left, the right, below (0–4);
    # 8 on: the right half of a sheet of two pages (flat/sheets.py)


def assemble(
    path: Path, sheet: str, found: list[Found], notes: list[str], tables: Sequence[tuple[TableMap, list[Found]]] = ()
) -> Questionnaire:
    """The questionnaire of ``found``, in page order, top to bottom and left to right; ``tables``:
    the tables read by columns, each with the questions found in it (their keys filled in)."""
    ordered = reading_order(found, lambda f: f.box, lambda f: 16 * f.page + f.part)  # a page's columns in turn
    shipped = repeated_placeholders(f.existing_answer for f in ordered)  # one text in many fields: shipped so
    questions: list[Question] = []
    places: dict[str, AnswerPlace] = {}
    page, k = -1, 0
    keys: dict[int, str] = {}
    for f in ordered:
        page, k = f.page, (k + 1 if f.page == page else 1)
        if k >= ROWS_PER_PAGE:
            raise QuestionnaireError(
                path.name,
                f"has more than {ROWS_PER_PAGE - 1} questions on page {page + 1}",
                "split the document or ask for the questionnaire as a spreadsheet",
            )
        row = (page + 1) * ROWS_PER_PAGE + k
        keys[id(f)] = place_key(sheet, f"A{row}")
        text, text_place = limited(f.text, f.text_place)  # a field's maximum length said in its question's text
        choice_cell = f"B{row}" if f.choice_place else None
        text_cell = f"C{row}" if text_place else None
        if f.choice_place:
            places[place_key(sheet, choice_cell)] = f.choice_place
        if text_place:
            places[place_key(sheet, text_cell)] = text_place
        questions.append(
            Question(
                id=f.id,
                sheet=sheet,
                row=row,
                text=text,
                question_cell=f"A{row}",
                choice_cell=choice_cell,
                text_cell=text_cell,
                choices=f.choices,
                existing_answer=None if " ".join((f.existing_answer or "").split()) in shipped else f.existing_answer,
                existing_choice=f.existing_choice,
                several=f.several or takes_several(f.choices, f.text),
            )
        )
    layout = SheetLayout(
        sheet=sheet,
        header_row=None,
        question_col="A",
        id_col=None,
        answer_col="B",
        comment_col="C",
        choices=YES_NO if any(q.choices == YES_NO for q in questions) else (),
        questions=tuple(questions),
    )
    mapped = tuple(replace(t, keys=tuple(keys[id(f)] for f in fs if id(f) in keys)) for t, fs in tables)
    return Questionnaire(path=path, sheets=(layout,), notes=tuple(notes), places=places, tables=mapped)


def page_of_row(row: int) -> int:
    """The 1-based page a document question's row is on."""
    return row // ROWS_PER_PAGE


__all__ = ["ROWS_PER_PAGE", "YES_NO", "Found", "assemble", "page_of_row"]
