"""A solicitation read as a questionnaire, so that ``inspect``, ``draft``, Review and the app's
upload take it like any other: each requirement is a row (its ID, its text with its lead-in),
whose answer is a compliance choice (Comply, Partially comply, Exception, Noted) and a response.
The solicitation has no place for an answer, so the answers go into a response document, as a
flat PDF's do (``PlaceKind.RESPONSE``: engine/questionnaire/pdf/response.py).

Submission and terms requirements (what to submit, what the offeror accepts) are not drafted
from the knowledge base: they are a checklist, their row holding :data:`CHECKLIST` as its
existing answer, which the drafting run skips as answered (``draft --redo-answered`` drafts
them too). Rows are numbered as a flat PDF's: page × 1000 + the order on the page.

engine/questionnaire/formats.py reads a PDF or Word file this way when its own reader finds no
question in it and the file reads as a solicitation (:func:`read_solicitation`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from engine.core.limits import Limits
from engine.core.types import Progress
from engine.questionnaire.pdf.questions import ROWS_PER_PAGE
from engine.questionnaire.places import DOCUMENT_SHEET, AnswerPlace, PlaceKind, place_key
from engine.questionnaire.records import Question, Questionnaire, QuestionnaireError, ReadOptions, SheetLayout
from engine.questionnaire.solicitation.edits import Edits, edited
from engine.questionnaire.solicitation.records import Compliance, Kind, Requirement, Shredded
from engine.questionnaire.solicitation.shred import shred, up_to

CHOICES = tuple(c.value for c in Compliance)
CHECKLIST = "Checklist ({kind}): not drafted from the knowledge base; confirm it in the proposal."
SOLICITATION_NOTE = "a solicitation, not a questionnaire"
RESPONSE_NOTE = "a solicitation has no answer space: the compliance and response go into the response document"


def row_numbers(path: Path, requirements: Sequence[Requirement], first: Sequence[Requirement] = ()) -> list[int]:
    """Each requirement's row (page × 1000 + its order on the page). The requirements ``first``
    (the file as shredded, before the reviewer's edits) are numbered first, every one of them,
    so a requirement keeps its row (by its ID) whatever is added, split, merged or left out; a
    new one (added, a split's second part) takes the next row of its page."""
    on_page: Counter[int] = Counter()

    def number(page: int) -> int:
        on_page[page] += 1
        if on_page[page] >= ROWS_PER_PAGE:
            raise QuestionnaireError(
                path.name, f"has more than {ROWS_PER_PAGE - 1} requirements on page {page}", "split the document"
            )
        return page * ROWS_PER_PAGE + on_page[page]

    numbered: dict[str, int] = {}
    for req in first:
        numbered.setdefault(req.id, number(req.page))
    rows: list[int] = []
    taken: set[int] = set()
    for req in requirements:
        row = numbered.get(req.id)
        if row is None or row in taken:
            row = number(req.page)
        taken.add(row)
        rows.append(row)
    return rows


def as_questionnaire(
    path: Path, result: Shredded, options: ReadOptions | None = None, first: Sequence[Requirement] = ()
) -> Questionnaire:
    """The rows of a shredded solicitation (see the module docstring), without those the reviewer
    left out (``options.exclude``: a row's key "Document!A4002" or a requirement's ID); ``first``:
    the requirements as shredded before the reviewer's edits (:func:`row_numbers`)."""
    questions: list[Question] = []
    places: dict[str, AnswerPlace] = {}
    for req, row in zip(result.requirements, row_numbers(path, result.requirements, first)):
        question = Question(
            id=req.id,
            sheet=DOCUMENT_SHEET,
            row=row,
            text=req.text,
            question_cell=f"A{row}",
            choice_cell=f"B{row}",
            text_cell=f"C{row}",
            choices=CHOICES,
            existing_answer=None if req.drafted else CHECKLIST.format(kind=req.kind.value),
            existing_choice=None,
        )
        if options is not None and options.excludes(question):
            continue
        place = AnswerPlace(PlaceKind.RESPONSE, f"page {req.page}, requirement {req.id}", note=RESPONSE_NOTE)
        places[place_key(DOCUMENT_SHEET, question.choice_cell)] = place
        places[place_key(DOCUMENT_SHEET, question.text_cell)] = place
        questions.append(question)
    counts = result.counts()
    notes = (
        f"{SOLICITATION_NOTE}: {counts['total']} requirements ({counts['mandatory']} mandatory; "
        f"submission {counts['submission']}, evaluation {counts['evaluation']}, work {counts['work']}, "
        f"terms {counts['terms']}); submission and terms requirements are a checklist, not drafted; "
        "`python -m engine shred` writes the compliance matrix",
        RESPONSE_NOTE,
    )
    layout = SheetLayout(
        sheet=DOCUMENT_SHEET,
        header_row=None,
        question_col="A",
        id_col=None,
        answer_col="B",
        comment_col="C",
        choices=CHOICES,
        questions=tuple(sorted(questions, key=lambda q: q.row)),  # a new requirement last on its page
    )
    return Questionnaire(path=path, sheets=(layout,), notes=notes, places=places)


def is_solicitation(questionnaire: Questionnaire) -> bool:
    """Whether a questionnaire read is a solicitation's requirements (its checklist rows hold no
    past answer: the answer library never imports them)."""
    return any(note.startswith(SOLICITATION_NOTE) for note in questionnaire.notes)


def kind_pairs(kinds: Mapping[str, Kind]) -> tuple[str, ...]:
    """Kinds changed by the reviewer as ``ReadOptions.kinds`` keeps them: "ID=kind"."""
    return tuple(f"{rid}={kind.value}" for rid, kind in kinds.items())


def changed_kinds(path: Path, pairs: Iterable[str]) -> dict[str, Kind]:
    """``ReadOptions.kinds`` read back (ID → kind); a pair that names no kind is refused in one line."""
    out = {}
    for pair in pairs:
        rid, _, kind = pair.partition("=")
        try:
            out[rid.strip()] = Kind(kind.strip().lower())
        except ValueError:
            choices = ", ".join(k.value for k in Kind)
            raise QuestionnaireError(
                path.name, f"kind correction '{pair}' names no kind", f"use one of {choices}"
            ) from None
    return out


def with_kinds(path: Path, result: Shredded, pairs: Iterable[str]) -> Shredded:
    """``result`` with the kinds the reviewer changed (``ReadOptions.kinds``); an ID the file no
    longer has is passed over, as a left-out one is."""
    kinds = changed_kinds(path, pairs)
    if not kinds:
        return result
    return replace(result, requirements=tuple(replace(r, kind=kinds.get(r.id, r.kind)) for r in result.requirements))


def edits_of(options: ReadOptions) -> Edits:
    """The reviewer's sentences added, requirements split and merged, as ``options`` keeps them."""
    return Edits(options.added, options.splits, options.merges)


def as_read(
    path: Path, result: Shredded, options: ReadOptions, strict: bool = False, limits: Limits | None = None
) -> tuple[Shredded, Questionnaire]:
    """A shredded solicitation with the reviewer's corrections (sentences added, requirements
    split and merged: engine/questionnaire/solicitation/edits.py; kinds changed, requirements left
    out) and its rows: what the mapping screen, drafting and the compliance matrix show. The rows
    are numbered as shredded first, so a row keeps its key whatever is edited or left out.
    ``strict``: an edit that does not fit the file is refused in one line (when the reviewer
    gives it), else passed over (the stored corrections read again)."""
    shredded = result
    result = edited([path], result, edits_of(options), limits, strict)
    result = with_kinds(path, result, options.kinds)
    questionnaire = as_questionnaire(path, result, options, first=shredded.requirements)
    kept = {q.id for q in questionnaire.questions}
    return replace(result, requirements=tuple(r for r in result.requirements if r.id in kept)), questionnaire


def read_solicitation(
    path: Path, options: ReadOptions, limits: Limits, progress: Progress | None = None
) -> Questionnaire | None:
    """The file read as a solicitation, or None when it does not read as one (few requirements,
    little binding language); ``progress`` as :func:`~engine.questionnaire.solicitation.shred.shred`
    takes it, the shred stopped after page ``options.pages`` when that is given."""
    try:
        result = shred([path], limits=limits, progress=up_to(options.pages, progress))
    except QuestionnaireError:
        return None
    if not result.looks_like_solicitation:
        return None
    return as_read(path, result, options, limits=limits)[1]


__all__ = [
    "CHECKLIST",
    "CHOICES",
    "SOLICITATION_NOTE",
    "as_questionnaire",
    "as_read",
    "changed_kinds",
    "edits_of",
    "is_solicitation",
    "kind_pairs",
    "read_solicitation",
    "row_numbers",
    "with_kinds",
]
