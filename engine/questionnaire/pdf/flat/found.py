"""The records every part of the flat-PDF reader shares: the note on a flat PDF's answers (they go
into a Word response document and a spreadsheet: engine/questionnaire/pdf/response.py), the one
answer place a flat PDF's question has (:func:`response_place`), and :class:`FlatTables`, the
responder's corrections of its tables in and the tables read out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.questionnaire.corrections import TableCorrection, TableMap
from engine.questionnaire.cues import MARKS
from engine.questionnaire.pdf.questions import Found
from engine.questionnaire.places import AnswerPlace, PlaceKind

RESPONSE_NOTE = "the PDF has no answer space: the answer goes into the response document (Word) and its spreadsheet"
NO_QUESTIONS_FIX = (
    "if it is a solicitation or a requirements document, answer it in your own document; if it is a questionnaire, "
    "ask the sender for it as a Word or Excel file"
)


@dataclass
class FlatTables:
    """The responder's corrections of a flat PDF's tables (a table named by its place among the
    document's ruled tables, page by page, 0 for the first) and, out, each table the table model
    read: its columns and roles (:class:`TableMap`, its keys filled in by ``assemble``) and its
    questions."""

    corrections: tuple[TableCorrection, ...] = ()
    read: list[tuple[TableMap, list[Found]]] = field(default_factory=list)
    index: int = -1  # the table being read
    option_header: tuple = ()  # the header rows (PlacedCell lists) of the last option table read, for its continuation
    option_question: tuple[float, float] = (0.0, 0.0)  # the x-range of that table's question column


def response_place(locator: str) -> AnswerPlace:
    """The answer place of a flat PDF's question at ``locator`` ("page 3, row A&A-01.1"): the
    response document, the PDF having none."""
    return AnswerPlace(PlaceKind.RESPONSE, locator, note=RESPONSE_NOTE)


def marked_option(cells: Iterable[tuple[str, str]]) -> str | None:
    """The option marked on a table row, of (option, the text of its cell on the row) pairs: the one
    whose cell holds a mark ("X", "✓", "☒", "yes": the marks a Word table's option cells take);
    None when none or several are."""
    marked = [option for option, text in cells if is_mark(text)]
    return marked[0] if len(marked) == 1 else None


def is_mark(text: str) -> bool:
    """A mark made in a cell ("X", "✓", "☒", "yes"), as a Word table's option cells take them."""
    return " ".join(text.split()).lower() in MARKS
