"""The library report (#51): the health of every active or pending entry of the answer library
(library_health.py: freshness, reuse), the groups found across them (disagreeing answers,
duplicates to merge, retired products), filters and each owner's queue, and its tables
(docs/reports.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Mapping, Sequence

from engine.core.people import same
from engine.index.library import AnswerLibrary, Conflict, Duplicate
from engine.review.reports.library_health import (
    NO_OWNER,
    WINDOWS,
    Band,
    EntryHealth,
    band_meaning,
    band_of,
    figure_of,
    uses_of,
)
from engine.review.reports.tables import Figure, Table
from storage.review_store import Project, StoredDraft


@dataclass(frozen=True)
class LibraryReport:
    """The library's entries with their health, and the groups found across them."""

    today: date
    entries: tuple[EntryHealth, ...]
    conflicts: tuple[Conflict, ...]
    duplicates: tuple[Duplicate, ...]
    retired_products: tuple[str, ...]

    def select(
        self,
        bands: Sequence[Band] = (),
        owner: str | None = None,
        never_used: bool = False,
        conflicting: bool = False,
        duplicate: bool = False,
        retired_product: bool = False,
    ) -> list[EntryHealth]:
        """The entries under every filter given (none: all)."""
        return [
            h
            for h in self.entries
            if (not bands or h.band in bands)
            and (owner is None or same(h.entry.owner or NO_OWNER, owner))
            and (not never_used or not h.uses)
            and (not conflicting or h.conflict)
            and (not duplicate or h.duplicate)
            and (not retired_product or h.retired_product)
        ]

    def queue(self, owner: str) -> list[EntryHealth]:
        """``owner``'s entries to review (:data:`NO_OWNER`: those without one) (:attr:`EntryHealth.to_review`): pending first, then the
        earliest review-by date first."""
        mine = [h for h in self.select(owner=owner) if h.to_review]
        return sorted(mine, key=lambda h: (not h.entry.pending, h.entry.review_by or "", h.entry.id))

    def owners(self) -> list[str]:
        return sorted({h.entry.owner or NO_OWNER for h in self.entries}, key=str.casefold)

    def tables(self) -> list[Table]:
        """The report's tables: the entries, freshness, reuse, owners, disagreeing answers,
        duplicates to merge and retired products."""
        return [
            _entries(self),
            _freshness(self),
            _reuse(self),
            _owners(self),
            _conflicts(self),
            _duplicates(self),
            _retired(self),
        ]


def library_report(
    library: AnswerLibrary,
    drafts: Sequence[tuple[Project, Mapping[str, StoredDraft]]],
    today: date | None = None,
) -> LibraryReport:
    """The health of ``library``'s active and pending entries, their uses read from ``drafts`` (each
    questionnaire's newest draft of every row), on ``today`` (default: today)."""
    today = today or date.today()
    conflicts, duplicates = library.conflicts(), library.duplicates()
    in_conflict = {e.id: n for n, c in enumerate(conflicts, 1) for e in c.entries}
    in_duplicate = {e.id: n for n, d in enumerate(duplicates, 1) for e in d.entries}
    retired = library.policy.retired_products
    uses = uses_of(drafts, library.by_place())
    entries = tuple(
        EntryHealth(
            e,
            band_of(e.review_by or e.dated or e.imported, today),
            tuple(sorted(uses.get(e.id, ()), key=lambda u: u.day, reverse=True)),
            in_conflict.get(e.id),
            in_duplicate.get(e.id),
            e.product in retired,
        )
        for e in library.entries(include_pending=True)
    )
    return LibraryReport(today, entries, tuple(conflicts), tuple(duplicates), retired)


def _uses(h: EntryHealth, days: int | None, today) -> Figure:
    e = h.entry
    when = f"the last {days} days" if days else "any questionnaire"
    return Figure(f"#{e.id} used in {when}", tuple(u.row for u in h.used(days, today)))


def _entries(report: LibraryReport) -> Table:
    today = report.today
    rows = []
    for h in report.entries:
        e = h.entry
        rows.append(
            (
                e.id,
                e.qid,
                e.question,
                e.product or "company-wide",
                e.owner,
                e.review_by,
                h.band.label,
                *(_uses(h, d, today) for d in WINDOWS),
                _uses(h, None, today),
                h.last_used.isoformat() if h.last_used else None,
                "; ".join(h.flags) or None,
                e.choice,
                e.answer,
                f"{e.file}, {e.sheet} row {e.row}",
            )
        )
    return Table(
        "Entries",
        "Every active or pending entry: its owner, review-by date and freshness; how many drafts cited it in the "
        "last 30, 90 and 365 days and ever (the newest draft of each row of each questionnaire).",
        (
            "Entry",
            "Question ID",
            "Question",
            "Product",
            "Owner",
            "Review by",
            "Freshness",
            *(f"Used, {d} days" for d in WINDOWS),
            "Used, ever",
            "Last used",
            "Flags",
            "Choice",
            "Answer",
            "From",
        ),
        tuple(rows),
    )


def _freshness(report: LibraryReport) -> Table:
    rows = tuple(
        (
            band.label,
            figure_of(f"entries {band.label}", [h for h in report.entries if h.band is band]),
            band_meaning(band),
        )
        for band in Band
    )
    return Table(
        "Freshness", "Entries by freshness band, from the review-by date.", ("Freshness", "Entries", "Means"), rows
    )


def _reuse(report: LibraryReport) -> Table:
    today = report.today
    rows = []
    for days in (*WINDOWS, None):
        used = [h for h in report.entries if h.used(days, today)]
        when = f"the last {days} days" if days else "ever"
        uses = tuple(u.row for h in used for u in h.used(days, today))
        rows.append((f"used in {when}", figure_of(f"entries used in {when}", used), Figure(f"uses in {when}", uses)))
    never = [h for h in report.entries if not h.uses]
    rows.append(("never used", figure_of("entries never used", never), None))
    return Table(
        "Reuse",
        "Entries cited by at least one draft in each window, and the drafts (rows) that cited them.",
        ("Reuse", "Entries", "Rows"),
        tuple(rows),
    )


def _owners(report: LibraryReport) -> Table:
    rows = []
    for owner in report.owners():
        named = None if owner == NO_OWNER else owner
        mine, queue = report.select(owner=named or NO_OWNER), report.queue(named or NO_OWNER)
        due = min((h.entry.review_by for h in mine if h.entry.review_by), default=None)
        rows.append((owner, figure_of(f"{owner}'s entries", mine), figure_of(f"{owner}'s queue", queue), due))
    return Table(
        "Owners",
        "Each owner's entries and queue: the entries to review (pending, needs review, out of date, stale, "
        "disagreeing, duplicate or of a retired product), and the next review-by date.",
        ("Owner", "Entries", "To review", "Next review by"),
        tuple(rows),
    )


def _conflicts(report: LibraryReport) -> Table:
    rows = []
    for n, c in enumerate(report.conflicts, 1):
        tally = ", ".join(f"{choice} ×{k}" for choice, k in c.choices.items())
        for e in c.entries:
            where = f"{e.file}, {e.sheet} row {e.row}"
            rows.append(
                (n, round(c.score, 3), tally, e.id, e.product or "company-wide", e.choice, e.dated, where, e.question)
            )
    return Table(
        "Disagreeing answers",
        "Near-identical questions (similarity ≥ 0.90) answered with different choices: what `library check` lists.",
        ("Group", "Similarity", "Choices", "Entry", "Product", "Choice", "Dated", "From", "Question"),
        tuple(rows),
    )


def _duplicates(report: LibraryReport) -> Table:
    rows = []
    for n, d in enumerate(report.duplicates, 1):
        keep = d.keep.id
        for e in d.entries:
            merge = "keep" if e.id == keep else "retire"
            product = e.product or "company-wide"
            rows.append((n, round(d.score, 3), e.id, product, e.choice, e.dated, merge, e.question, e.answer))
    return Table(
        "Duplicates",
        "Entries of one product answering near-identical questions the same way: a merge keeps the newest and "
        "retires the others.",
        ("Group", "Similarity", "Entry", "Product", "Choice", "Dated", "Merge", "Question", "Answer"),
        tuple(rows),
    )


def _retired(report: LibraryReport) -> Table:
    rows = tuple(
        (p, figure_of(f"entries of {p}", [h for h in report.entries if h.entry.product == p]))
        for p in report.retired_products
    )
    return Table(
        "Retired products",
        "The entries of the products the library's settings name as retired: retire them, or keep those still true.",
        ("Product", "Entries"),
        rows,
    )
