"""Where a drafted answer goes when the questionnaire has an explanation column but the question
has no dropdown: the choice in the answer cell, the explanation in its own cell.

The reader (engine/questionnaire/sheet/reader.py) gives a question with a dropdown a choice cell and a
text cell in the sheet's comment column (Additional Information, comments); a question without
one has a single text cell, the answer cell. A past answer reused there is shown as
"choice — explanation" (``engine.index.library.answer_text``); written whole into the answer cell, the
explanation column stayed empty. :func:`split_writes` writes the choice (a first part that is a
dropdown value: Yes / No / N/A, or a numbered option such as "4) AWS", one line, at most
:data:`CHOICE_CHARS` characters; a name such as "Instructure — Inc." is not split) into the answer cell and the explanation into
the sheet's comment cell of the same row, when that column exists and is not the answer's.

The whole mapping from drafts to cell writes lives here too: :func:`answer_writes` (each
question's choice and text into its dropdown, answer, comment or date cell) and
:func:`export_drafts` (the original file with the drafted answers filled in).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

from engine.core.types import DraftStatus
from engine.drafting.records import Draft
from engine.questionnaire import Question, Questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.places import Unwritten
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.sheet.date_format import date_format
from engine.questionnaire.writes import CellWrite, UnwrittenAnswer, unwritten_answers

CHOICE_CHARS = 40
SEPARATOR = " — "  # engine.index.library.answer_text joins choice and explanation with it
_CHOICE = re.compile(r"(?:yes|no|n/?a|\d{1,2}\s*[).:-]\s*\S.*)", re.IGNORECASE)  # a dropdown value


def comment_cell(questionnaire: Questionnaire, q: Question) -> str | None:
    """The explanation cell of ``q``'s row on its sheet (the detected comment column), when it is
    not the question's own answer cell; else None."""
    layout = next((s for s in questionnaire.sheets if s.sheet == q.sheet), None)
    if layout is None or not layout.comment_col:
        return None
    cell = f"{layout.comment_col}{q.row}"
    return None if cell in (q.text_cell, q.choice_cell, q.question_cell) else cell


def split_writes(questionnaire: Questionnaire, q: Question, text: str, choice: str | None) -> list[CellWrite] | None:
    """The two writes (choice into the answer cell, explanation into the comment cell) for a
    question without a dropdown whose text is "choice — explanation"; None when that does not
    apply (then the answer is written as before)."""
    if q.choice_cell or choice or not q.text_cell or not text or SEPARATOR not in text:
        return None
    head, rest = text.split(SEPARATOR, 1)
    if (
        not head.strip()
        or not rest.strip()
        or len(head) > CHOICE_CHARS
        or re.search(r"[\r\n]", head)
        or not _CHOICE.fullmatch(head.strip())
    ):
        return None
    cell = comment_cell(questionnaire, q)
    if cell is None:
        return None
    return [CellWrite(q.sheet, q.text_cell, head.strip()), CellWrite(q.sheet, cell, rest.strip())]


__all__ = ["CHOICE_CHARS", "comment_cell", "split_writes"]


def answer_writes(
    questionnaire: Questionnaire, answers: dict[str, tuple[str, str | None]], dates: Iterable[str] = ()
) -> list[CellWrite]:
    """Cell writes for ``{question key: (answer text, choice)}``: the choice into the dropdown
    cell, the text into the free-text cell (or, when the question has only one cell, the
    choice there if it has one, else the text). A question without a dropdown on a sheet with an
    explanation column (Additional Information, comments) whose text is "choice — explanation"
    (a past answer's choice outside the workbook's list) gets the choice in its answer cell and
    the explanation in its own cell (:func:`split_writes`). The keys in
    ``dates`` are dates in the questionnaire's format (engine/questionnaire/sheet/date_format.py):
    written as dates into a date cell, as that text into any other (engine/questionnaire/sheet/writer.py)."""
    writes: list[CellWrite] = []
    dates = set(dates)
    for q in questionnaire.questions:
        if question_key(q) not in answers:
            continue
        text, choice = answers[question_key(q)]
        if question_key(q) in dates and q.text_cell and text and not choice:
            day = date_format(q, questionnaire.path).parse(text)
            writes.append(CellWrite(q.sheet, q.text_cell, text, kind="date", day=day.isoformat() if day else None))
            continue
        split = split_writes(questionnaire, q, text, choice)
        if split is not None:
            writes += split
            continue
        if q.choice_cell and choice:
            writes.append(CellWrite(q.sheet, q.choice_cell, choice))
        if q.text_cell and text and q.text_cell != q.choice_cell:
            writes.append(CellWrite(q.sheet, q.text_cell, text))
        elif q.text_cell and text and not choice:
            writes.append(CellWrite(q.sheet, q.text_cell, text))
    return writes


def export_drafts(
    questionnaire: Questionnaire, drafts: Iterable[Draft], out: Path, unwritten: list[UnwrittenAnswer] | None = None
) -> Path:
    """The original file with the drafted answers filled in (no_context and errors left blank);
    given ``unwritten``, an answer its place cannot take is listed there and the others written."""
    drafts = [d for d in drafts if d.status is DraftStatus.DRAFTED]
    answers = {d.key: (d.answer, d.choice) for d in drafts}
    dates = {d.key for d in drafts if d.profile_fact == "date"}
    places: list[Unwritten] | None = [] if unwritten is not None else None
    written = export(questionnaire.path, out, answer_writes(questionnaire, answers, dates), questionnaire, places)
    if unwritten is not None and places:
        unwritten.extend(unwritten_answers(questionnaire, places))
    return written
