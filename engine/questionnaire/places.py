"""Where an answer goes in a Word or PDF questionnaire: the :class:`AnswerPlace` record.

A spreadsheet question's answer goes into a cell. A document has no cells, so a document reader
(engine/questionnaire/word/reader.py, pdf_reader.py) gives each question the same
:class:`~engine.questionnaire.sheet.reader.Question` record as a sheet's, on one pseudo-sheet
(:data:`DOCUMENT_SHEET`, or :data:`FORM_SHEET` for a PDF form), and names its answer places with
pseudo-cell references on that sheet, so that drafting, review, the team loop and the answer cells'
mapping (engine/review/export_cells.py) never ask which format a questionnaire came in:

- ``row`` is the question's stable position in the document (the ordinal of its first paragraph
  in document order, or of its field), never a count of the questions found, so that a reviewer's
  correction (a question excluded or added) does not move the other questions' keys;
- ``question_cell`` is ``A{row}``, ``choice_cell`` ``B{row}`` when the question has a choice
  (checkboxes, a dropdown control, a radio group), ``text_cell`` ``C{row}`` when it has a place for
  text.

``Questionnaire.places`` maps each pseudo-cell (``"Document!C12"``, :func:`place_key`) to its
:class:`AnswerPlace`: what kind of place it is and the format's own locator of it. The writer of
the format (engine/questionnaire/word/writer.py, pdf_writer.py) takes the questionnaire and the
cell writes, looks each write up here, and fills only those places.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

DOCUMENT_SHEET = "Document"  # the pseudo-sheet of a Word questionnaire's and a flat PDF's questions
FORM_SHEET = "Form"  # the pseudo-sheet of a PDF form's fields


class PlaceKind(str, Enum):
    """The kinds of answer place a document offers (the writer fills each its own way)."""

    TABLE_CELL = "table cell"  # an empty table cell beside or below the question (Word)
    PARAGRAPH = "paragraph"  # the empty paragraph(s) after the question (Word)
    AFTER_LABEL = "after the label"  # the rest of a label's paragraph: "Responsible Role: ___" (Word)
    NEW_PARAGRAPH = "new paragraph"  # none: a paragraph inserted after the question's (Word)
    CONTENT_CONTROL = "content control"  # a w:sdt: text, rich text, dropdown, combo box, date (Word)
    FORM_FIELD = "form field"  # a legacy FORMTEXT / FORMDROPDOWN field (Word)
    CHECKBOXES = "checkboxes"  # a choice drawn as boxes to tick: controls, FORMCHECKBOX, ☐ glyphs, X columns (Word)
    PDF_FIELD = "pdf field"  # an AcroForm text, combo or list box field
    PDF_BUTTONS = "pdf buttons"  # an AcroForm check box (or several) or radio group
    RESPONSE = "response document"  # a flat PDF: the answer goes into a Word response document


@dataclass(frozen=True)
class AnswerPlace:
    """One answer place of a document questionnaire.

    ``locator`` is the format's own address of the place (a path of element indexes in the Word
    document's XML, a PDF field's full name); ``options`` pairs each choice with the locator of the
    box, field state or control that marks it (checkboxes and radio groups; empty otherwise);
    ``max_words`` / ``max_chars`` a length limit the document states ("max 250 words"); ``note``
    says, in the reviewer's words, where the answer will be written when that is not obvious
    ("a new paragraph after the question: the document leaves no space"); ``control`` what draws
    the place when the kind alone does not say it (a content control's type: "text", "rich text",
    "dropdown", "combo box", "date"; a legacy field's: "FORMTEXT", "FORMDROPDOWN"; boxes':
    "checkbox", "FORMCHECKBOX", "glyph", "list glyph", "X column"; a PDF field's type); ``column``
    the header of the table column the place sits in ("Observations", "Response"), as the mapping
    names the place ("table cell" says less)."""

    kind: PlaceKind
    locator: str
    options: tuple[tuple[str, str], ...] = ()
    max_words: int | None = None
    max_chars: int | None = None
    note: str = ""
    control: str = ""
    column: str = ""

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind.value, "locator": self.locator}
        if self.column:
            out["column"] = self.column
        if self.control:
            out["control"] = self.control
        if self.options:
            out["options"] = [list(o) for o in self.options]
        for name in ("max_words", "max_chars"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.note:
            out["note"] = self.note
        return out


def question_kind(choice_place: AnswerPlace | None, text_place: AnswerPlace | None) -> str:
    """What a document question asks for, by its places: ``checkbox`` (one box to tick or
    not), ``choice`` (a pick among options), ``date`` (a date control) or ``text``."""
    if choice_place is not None:
        return "checkbox" if len(choice_place.options) == 1 else "choice"
    if text_place is not None and text_place.control == "date":
        return "date"
    return "text"


def place_key(sheet: str, cell: str) -> str:
    """The key of ``Questionnaire.places`` for a pseudo-cell: ``"Document!C12"``."""
    return f"{sheet}!{cell}"


class AnswerWrite(Protocol):
    """One answer to write: ``value`` into the place at ``cell`` of ``sheet`` (engine.questionnaire.writes'
    ``CellWrite``; this module sits below it and does not import it)."""

    @property
    def sheet(self) -> str: ...

    @property
    def cell(self) -> str: ...

    @property
    def value(self) -> str: ...


@dataclass(frozen=True)
class Unwritten:
    """An answer a document writer could not put into its place, while it wrote the others: the
    place (its pseudo-cell key, ``"Form!B12"``), why, and what the responder can do."""

    place: str
    problem: str
    fix: str

    def line(self) -> str:
        return f"{self.place}: {self.problem}. {self.fix}"


def answer_values(writes: Iterable[AnswerWrite]) -> dict[str, str]:
    """The writes as ``{place key: value}``, the last write to a place winning (what a document
    writer fills)."""
    return {place_key(w.sheet, w.cell): "" if w.value is None else str(w.value) for w in writes}


def response_only(places: Mapping[str, AnswerPlace]) -> bool:
    """Whether a document's answers go into a response document of their own (a flat PDF: no
    answer place on its pages), not into the document itself."""
    return bool(places) and all(p.kind is PlaceKind.RESPONSE for p in places.values())


__all__ = [
    "DOCUMENT_SHEET",
    "FORM_SHEET",
    "AnswerPlace",
    "AnswerWrite",
    "PlaceKind",
    "Unwritten",
    "answer_values",
    "place_key",
    "question_kind",
    "response_only",
]
