"""Trends across the questionnaires of a workspace (#51): per questionnaire the rows drafted,
accepted unchanged, edited, rejected and sent to an expert, and the reviewers' time where it is
known (from its first to its last decision: the span of the review, breaks included); and the
acceptance rate of the drafts by what they rest on (basis.py), so that a team sees which sources
earn its trust."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

from engine.review.reports.basis import Basis
from engine.review.reports.rows import Outcome, ReportRow
from engine.review.reports.tables import Figure
from storage.review_store import Project


@dataclass(frozen=True)
class Trend:
    """One questionnaire's review."""

    project: Project
    rows: tuple[ReportRow, ...]
    first: str | None  # its first decision (ISO, UTC); None: none yet
    last: str | None  # its last decision

    def figure(self, what: str, rows: Sequence[ReportRow]) -> Figure:
        return Figure(f"{self.project.name}: {what}", tuple(r.ref for r in rows))

    @property
    def drafted(self) -> list[ReportRow]:
        return [r for r in self.rows if r.drafted]

    def decided(self, outcome: Outcome) -> list[ReportRow]:
        """The drafted rows the reviewers decided so (a row drafted from nothing and written by hand is not a draft)."""
        return [r for r in self.drafted if r.outcome is outcome]

    @property
    def hours(self) -> float | None:
        """From the first to the last decision, in hours; None with fewer than two decisions."""
        if not self.first or not self.last or self.first == self.last:
            return None
        span = datetime.fromisoformat(self.last) - datetime.fromisoformat(self.first)
        return round(span.total_seconds() / 3600, 2)


def trend(project: Project, rows: Sequence[ReportRow], decided: Sequence[str]) -> Trend:
    """``project``'s trend from its report rows and the times of all its decisions (any order)."""
    times = sorted(decided)
    return Trend(project, tuple(rows), times[0] if times else None, times[-1] if times else None)


@dataclass(frozen=True)
class Acceptance:
    """The drafts resting on one basis that the reviewers decided, by what they did."""

    basis: Basis
    rows: tuple[ReportRow, ...]  # decided drafts of this basis, every questionnaire

    def of(self, outcome: Outcome) -> list[ReportRow]:
        return [r for r in self.rows if r.outcome is outcome]

    @property
    def rate(self) -> float | None:
        """Accepted unchanged among the decided; None when none was decided."""
        return round(len(self.of(Outcome.ACCEPTED)) / len(self.rows), 3) if self.rows else None


def acceptance(rows: Sequence[ReportRow]) -> list[Acceptance]:
    """The acceptance of the decided drafts, per basis with a source, best first in :class:`Basis`'s order."""
    decided = [r for r in rows if r.drafted and r.outcome is not Outcome.UNDECIDED]
    return [Acceptance(b, tuple(r for r in decided if r.basis is b)) for b in Basis if b.sourced]
