"""One row of a questionnaire as the reports read it (#51): what its answer rests on
(basis.py), where the review stands (its decision, who made it and when), whether the reviewers
took the draft as it was, and why it is a gap. Built from a :class:`~engine.review.review.Review`'s
items, so a report counts exactly what the Review and Export screens show."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Mapping, Sequence

from engine.core.types import Action
from engine.index.library import LibraryEntry, choice_key
from engine.review.reports.basis import Basis, Place, basis_of, text_basis_of
from engine.review.reports.tables import Ref
from engine.review.review import ReviewItem, ReviewState
from storage.review_store import Project

_SECTION = re.compile(r"^\s*([A-Za-z][A-Za-z&]*)\s*[-_.]?\s*\d")  # "DATA-01" → DATA, "A&A-01.1" → A&A


class Outcome(str, Enum):
    """What the reviewers did with a row's draft (its latest decision)."""

    UNDECIDED = "undecided"
    ACCEPTED = "accepted"  # accepted as drafted: the same text and choice
    EDITED = "edited"  # accepted or saved with another text or choice: rewritten
    REJECTED = "rejected"
    NEEDS_SME = "needs_sme"

    @property
    def label(self) -> str:
        return _OUTCOMES[self]


_OUTCOMES = {
    Outcome.UNDECIDED: "not decided",
    Outcome.ACCEPTED: "accepted unchanged",
    Outcome.EDITED: "edited",
    Outcome.REJECTED: "rejected",
    Outcome.NEEDS_SME: "needs SME",
}


class Gap(str, Enum):
    """Why a row is a gap of the knowledge base: nothing supported a draft, the reviewers rejected
    or rewrote the draft, or it was given to an expert (assigned, or marked Needs SME)."""

    NO_SOURCE = "no_source"
    REJECTED = "rejected"
    REWRITTEN = "rewritten"
    ASSIGNED = "assigned"

    @property
    def label(self) -> str:
        return _GAPS[self]


_GAPS = {
    Gap.NO_SOURCE: "no source",
    Gap.REJECTED: "rejected",
    Gap.REWRITTEN: "rewritten",
    Gap.ASSIGNED: "assigned to an expert",
}


@dataclass(frozen=True)
class ReportRow:
    """One questionnaire row in a report."""

    project_id: int
    questionnaire: str
    key: str
    label: str
    section: str
    question: str
    basis: Basis
    source: str  # the source in words (basis.py ``Resting``)
    state: ReviewState
    outcome: Outcome
    by: str | None  # who made the latest decision
    decided: str | None  # when (ISO, UTC)
    holder: str | None  # who the row is assigned to
    answer: str
    choice: str | None
    gaps: tuple[Gap, ...]
    # what the text rests on, apart from the choice (basis.py ``text_basis_of``, issue #59)
    text_basis: Basis = Basis.NOTHING
    text_source: str = ""

    @property
    def ref(self) -> Ref:
        return Ref(self.label, self.question, self.questionnaire, project_id=self.project_id, key=self.key)

    @property
    def drafted(self) -> bool:
        """A draft with an answer from a source (what the acceptance rate is of)."""
        return self.basis.sourced


def section_of(qid: str | None, sheet: str) -> str:
    """A row's section: its question ID's letters (``DATA-01`` → DATA, ``A&A-01.1`` → A&A), else its sheet."""
    found = _SECTION.match(qid or "")
    return found.group(1).upper() if found else sheet


def outcome_of(item: ReviewItem) -> Outcome:
    """The reviewers' latest decision on ``item``, an accept of another text or choice than the
    draft's counted as an edit (the reviewer rewrote it on the card, then accepted)."""
    decision = item.decision
    if decision is None:
        return Outcome.UNDECIDED
    if decision.action is Action.REJECT:
        return Outcome.REJECTED
    if decision.action is Action.NEEDS_SME:
        return Outcome.NEEDS_SME
    if decision.action is Action.EDIT or _changed(item):
        return Outcome.EDITED
    return Outcome.ACCEPTED


def _changed(item: ReviewItem) -> bool:
    draft, decision = item.draft, item.decision
    if draft is None or not (draft.answer or draft.choice):
        return True  # nothing was drafted: the reviewer wrote the answer
    said = " ".join((decision.answer if decision.answer is not None else draft.answer).split())
    chose = decision.choice if decision.choice is not None else draft.choice
    return said != " ".join(draft.answer.split()) or choice_key(chose) != choice_key(draft.choice)


def gaps_of(basis: Basis, outcome: Outcome, holder: str | None) -> tuple[Gap, ...]:
    found = [
        (Gap.NO_SOURCE, basis is Basis.NOTHING),
        (Gap.REJECTED, outcome is Outcome.REJECTED),
        (Gap.REWRITTEN, outcome is Outcome.EDITED),
        (Gap.ASSIGNED, holder is not None or outcome is Outcome.NEEDS_SME),
    ]
    return tuple(g for g, on in found if on)


def report_rows(
    project: Project, items: Sequence[ReviewItem], entries: Mapping[Place, LibraryEntry]
) -> list[ReportRow]:
    """Every row of one questionnaire, in its order; ``entries``: the library's entries by place."""
    rows = []
    for item in items:
        resting = basis_of(item, entries, project.product)
        text = text_basis_of(item, entries, project.product)
        outcome = outcome_of(item)
        decision = item.decision
        rows.append(
            ReportRow(
                project.id,
                project.name,
                item.key,
                item.label,
                section_of(item.question.id, item.question.sheet),
                item.question.text,
                resting.basis,
                resting.source,
                item.state,
                outcome,
                decision.by if decision is not None else None,
                decision.created if decision is not None else None,
                item.holder,
                item.answer,
                item.choice,
                gaps_of(resting.basis, outcome, item.holder),
                text.basis,
                text.source,
            )
        )
    return rows
