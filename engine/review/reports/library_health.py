"""How healthy each answer library entry is (#51; the report and its tables: library_report.py): per entry its owner, its review-by date and a
freshness band, how often drafts reused it, whether near-identical questions disagree with it
(the groups ``library check`` lists: :meth:`AnswerLibrary.conflicts`, the one way), whether it
says the same as another entry of its product (:meth:`AnswerLibrary.duplicates`: merge them), and
whether its product is retired (``LibraryPolicy.retired_products``); each owner's queue of entries
to review. The entries are the library's active and pending ones (a retired entry is never
reused, and is not listed).

Freshness (:func:`band_of`), from the entry's review-by date (its questionnaire's date plus the
review period, or the date it was renewed to; renewing moves it on by the period):

* fresh: due in more than :data:`DUE_SOON_DAYS` days;
* needs review: due within :data:`DUE_SOON_DAYS` days (today included);
* out of date: past its review-by date by up to :data:`STALE_DAYS` days;
* stale: past it by more than :data:`STALE_DAYS` days.

Out of date and stale together are what ``library attention`` lists as stale (past the review-by
date: still reused, and each draft that reuses one says so).

Reuse: a draft uses an entry when it cites it (the reused answer, another product's choice, a
past answer the model quoted), read from the newest draft of every row of every questionnaire of
the workspace, at the draft's date; an entry is found from a citation by its file, sheet and row
(:meth:`AnswerLibrary.by_place`, as a library citation is opened in Review)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import Enum
from typing import Mapping, Sequence

from engine.core.types import SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Draft
from engine.index.library import LibraryEntry
from engine.review.reports.basis import Place, place_of
from engine.review.reports.tables import Figure, Ref
from storage.review_store import Project, StoredDraft

DUE_SOON_DAYS = 30  # due within this many days: needs review
STALE_DAYS = 90  # past the review-by date by more than this many days: stale
WINDOWS = (30, 90, 365)  # the reuse counts' windows, in days before today
NO_OWNER = "(none)"  # how an entry without an owner is listed, and selected (``LibraryReport.select``)


class Band(str, Enum):
    """How fresh an entry is, from its review-by date (the module docstring)."""

    FRESH = "fresh"
    NEEDS_REVIEW = "needs_review"
    OUT_OF_DATE = "out_of_date"
    STALE = "stale"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


_MEANS = {
    Band.FRESH: f"due for review in more than {DUE_SOON_DAYS} days",
    Band.NEEDS_REVIEW: f"due for review within {DUE_SOON_DAYS} days",
    Band.OUT_OF_DATE: f"past its review-by date by up to {STALE_DAYS} days (still reused; drafts say so)",
    Band.STALE: f"past its review-by date by more than {STALE_DAYS} days (still reused; drafts say so)",
}


def band_of(review_by: str, today: date) -> Band:
    days = (date.fromisoformat(review_by) - today).days
    if days > DUE_SOON_DAYS:
        return Band.FRESH
    if days >= 0:
        return Band.NEEDS_REVIEW
    return Band.OUT_OF_DATE if days >= -STALE_DAYS else Band.STALE


@dataclass(frozen=True)
class Use:
    """A draft that cited an entry: the questionnaire's row, and the day it was drafted."""

    row: Ref
    day: date


@dataclass(frozen=True)
class EntryHealth:
    """One entry in the library report."""

    entry: LibraryEntry
    band: Band
    uses: tuple[Use, ...]
    conflict: int | None = None  # its group among the disagreeing answers (1-based), None: in none
    duplicate: int | None = None  # its group among the duplicates (1-based), None: in none
    retired_product: bool = False

    @property
    def ref(self) -> Ref:
        e = self.entry
        return Ref(f"#{e.id}", e.question, f"{e.file}, {e.sheet} row {e.row}", entry_id=e.id)

    def used(self, days: int | None, today: date) -> tuple[Use, ...]:
        """The uses of the last ``days`` days (None: all)."""
        return self.uses if days is None else tuple(u for u in self.uses if (today - u.day).days < days)

    @property
    def last_used(self) -> date | None:
        return max((u.day for u in self.uses), default=None)

    @property
    def to_review(self) -> bool:
        """In its owner's queue: pending approval, not fresh, disagreeing, a duplicate or of a retired product."""
        flags = (self.entry.pending, self.band is not Band.FRESH, self.conflict, self.duplicate, self.retired_product)
        return any(flags)

    @property
    def flags(self) -> list[str]:
        return [
            name
            for name, on in (
                ("pending approval", self.entry.pending),
                (f"disagrees (group {self.conflict})", self.conflict),
                (f"duplicate (group {self.duplicate})", self.duplicate),
                ("retired product", self.retired_product),
            )
            if on
        ]


def uses_of(
    drafts: Sequence[tuple[Project, Mapping[str, StoredDraft]]], places: Mapping[Place, LibraryEntry]
) -> dict[int, list[Use]]:
    """The uses of each entry (by id) in the newest drafts of every questionnaire."""
    found: dict[int, list[Use]] = {}
    for project, latest in drafts:
        for key, stored in latest.items():
            draft = Draft.from_stored(key, stored)
            cited = {
                place_of(c)
                for c in draft.citations
                if c.kind is SourceKind.LIBRARY and c.label is not AnchorLabel.UNVERIFIED
            }
            day = datetime.fromisoformat(stored.created).date()
            row = Ref(draft.id or f"{draft.sheet} row {draft.row}", draft.question, project.name, project.id, key)
            for entry in {places[p].id: places[p] for p in cited if p in places}.values():
                found.setdefault(entry.id, []).append(Use(row, day))
    return found


def figure_of(name: str, entries: Sequence[EntryHealth]) -> Figure:
    return Figure(name, tuple(h.ref for h in entries))


def band_meaning(band: Band) -> str:
    return _MEANS[band]
