"""Where a drafted answer goes when the questionnaire has an explanation column but the question
has no dropdown: the choice in the answer cell, the explanation in its own cell.

The reader (engine/questionnaire/reader.py) gives a question with a dropdown a choice cell and a
text cell in the sheet's comment column (Additional Information, comments); a question without
one has a single text cell, the answer cell. A past answer reused there is shown as
"choice — explanation" (``engine.index.library.answer_text``); written whole into the answer cell, the
explanation column stayed empty. :func:`split_writes` writes the choice (a first part that is a
dropdown value: Yes / No / N/A, or a numbered option such as "4) AWS", one line, at most
:data:`CHOICE_CHARS` characters; a name such as "Instructure — Inc." is not split) into the answer cell and the explanation into
the sheet's comment cell of the same row, when that column exists and is not the answer's.
"""

from __future__ import annotations

import re

from engine.questionnaire import Question, Questionnaire
from engine.review.export import CellWrite

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
    if not head.strip() or not rest.strip() or len(head) > CHOICE_CHARS or re.search(r"[\r\n]", head) \
            or not _CHOICE.fullmatch(head.strip()):
        return None
    cell = comment_cell(questionnaire, q)
    if cell is None:
        return None
    return [CellWrite(q.sheet, q.text_cell, head.strip()), CellWrite(q.sheet, cell, rest.strip())]


__all__ = ["CHOICE_CHARS", "comment_cell", "split_writes"]
