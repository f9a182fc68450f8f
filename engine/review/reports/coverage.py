"""The coverage of one questionnaire (#51): per row what its answer rests on, its decision and
who made it; the counts by source and by section; its gaps grouped by topic, ranked by how many
gap rows fall in each across every questionnaire of the workspace; and, across the questionnaires,
the trends of the review and the acceptance rate by source (trends.py). docs/reports.md says how
each figure is computed.

The report reads a :class:`Corpus`: every questionnaire's rows (rows.py, from its Review's items),
the library's entries by place and the times of every decision, gathered once by the workspace
(engine/app/workspace.py ``Workspace.corpus``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from engine.index.library import LibraryEntry
from engine.review.reports.basis import Basis, Place
from engine.review.reports.rows import Gap, Outcome, ReportRow, report_rows
from engine.review.reports.tables import Figure, Table
from engine.review.reports.topics import Topic, gap_topics
from engine.review.reports.trends import Acceptance, Trend, acceptance, trend
from engine.review.review import ReviewItem
from storage.review_store import Decision, Project


@dataclass(frozen=True)
class Corpus:
    """Every questionnaire of a workspace as the reports read it, in the workspace's order."""

    projects: tuple[Project, ...]
    rows: Mapping[int, tuple[ReportRow, ...]]  # by project id
    decided: Mapping[int, tuple[str, ...]]  # the times of every decision (history included), by project id
    skipped: tuple[str, ...] = ()  # questionnaires that could not be read, each with why (left out)

    @property
    def every_row(self) -> list[ReportRow]:
        return [r for p in self.projects for r in self.rows[p.id]]

    def trends(self) -> list[Trend]:
        return [trend(p, self.rows[p.id], self.decided.get(p.id, ())) for p in self.projects]


def corpus(
    reviews: Sequence[tuple[Project, Sequence[ReviewItem]]],
    entries: Mapping[Place, LibraryEntry],
    decisions: Sequence[tuple[int, Decision]],
) -> Corpus:
    """The corpus of ``reviews`` (each questionnaire with its Review's items), the library's
    ``entries`` by place, and ``decisions`` (every decision, with its project id)."""
    decided: dict[int, list[str]] = {}
    for project_id, d in decisions:
        decided.setdefault(project_id, []).append(d.created)
    return Corpus(
        tuple(p for p, _ in reviews),
        {p.id: tuple(report_rows(p, items, entries)) for p, items in reviews},
        {k: tuple(v) for k, v in decided.items()},
    )


@dataclass(frozen=True)
class CoverageReport:
    """One questionnaire's coverage, its gap topics ranked across the workspace, and the trends."""

    project: Project
    rows: tuple[ReportRow, ...]
    topics: tuple[tuple[int, Topic], ...]  # (rank across the workspace, topic) of the topics with a row here
    trends: tuple[Trend, ...]
    acceptance: tuple[Acceptance, ...]
    skipped: tuple[str, ...] = ()  # the workspace's questionnaires left out (cannot be read), each with why

    def by_source(self) -> dict[Basis, list[ReportRow]]:
        """The rows by what they rest on, every basis listed (in :class:`Basis`'s order)."""
        return {b: [r for r in self.rows if r.basis is b] for b in Basis}

    def gaps(self) -> list[ReportRow]:
        return [r for r in self.rows if r.gaps]

    def text_sources(self) -> dict[Basis, list[ReportRow]]:
        """The rows by what their text rests on (apart from the choice), every basis listed."""
        return {b: [r for r in self.rows if r.text_basis is b] for b in Basis}

    def tables(self) -> list[Table]:
        """The summaries first (by source, the texts by source, by section, gap topics, trends,
        acceptance), the table of every row last (issue #59, item 7)."""
        return [
            self._sources(),
            self._texts(),
            self._sections(),
            self._topics(),
            _trends(self.trends),
            _acceptance(self.acceptance),
            self._rows(),
        ]

    def _figure(self, what: str, rows: Sequence[ReportRow]) -> Figure:
        return Figure(f"{self.project.name}: {what}", tuple(r.ref for r in rows))

    def _rows(self) -> Table:
        rows = tuple(
            (
                r.label,
                r.section,
                r.question,
                r.basis.label,
                r.source or None,
                r.text_basis.label,
                r.text_source or None,
                r.state.label,
                r.outcome.label,
                r.by,
                r.decided,
                r.holder,
                ", ".join(g.label for g in r.gaps) or None,
                r.choice,
                r.answer or None,
            )
            for r in self.rows
        )
        return Table(
            "Rows",
            "Every row: what its choice (or its whole answer) rests on and what its text rests on, where the "
            "review stands and who decided, why it is a gap.",
            ("Row", "Section", "Question", "Rests on", "Source", "Text rests on", "Text source")
            + ("Status", "Decision", "By", "When", "Held by")
            + ("Gaps", "Choice", "Answer"),
            rows,
        )

    def _sources(self) -> Table:
        total = len(self.rows)
        rows = tuple(
            (b.label, self._figure(b.label, found), round(100 * len(found) / total, 1) if total else None)
            for b, found in self.by_source().items()
            if found
        )
        return Table(
            "By source", "The rows by what their latest draft rests on.", ("Rests on", "Rows", "Share %"), rows
        )

    def _texts(self) -> Table:
        total = len(self.rows)
        rows = tuple(
            (
                b.label,
                self._figure(f"text from {b.label}", found),
                round(100 * len(found) / total, 1) if total else None,
            )
            for b, found in self.text_sources().items()
            if found
        )
        return Table(
            "Texts by source",
            "The rows by what the text of their latest draft rests on, apart from its choice: a choice from another "
            "product's past answer can carry a document's sentence, the company's shared text or the model's wording.",
            ("Text rests on", "Rows", "Share %"),
            rows,
        )

    def _sections(self) -> Table:
        present = [b for b, found in self.by_source().items() if found]
        sections = list(dict.fromkeys(r.section for r in self.rows))
        rows = []
        for s in sections:
            mine = [r for r in self.rows if r.section == s]
            cells = [self._figure(f"{s}, {b.label}", [r for r in mine if r.basis is b]) for b in present]
            gaps = [r for r in mine if r.gaps]
            rows.append((s, self._figure(f"section {s}", mine), *cells, self._figure(f"{s}, gaps", gaps)))
        return Table(
            "By section",
            "The rows of each section (a question ID's letters, else its sheet) by what they rest on, and its gaps.",
            ("Section", "Rows", *(b.label for b in present), "Gaps"),
            tuple(rows),
        )

    def _topics(self) -> Table:
        rows = []
        for rank, topic in self.topics:
            everywhere = Figure(f"topic {topic.name}: every questionnaire", tuple(r.ref for r in topic.rows))
            reasons = [
                Figure(f"topic {topic.name}: {g.label}", tuple(r.ref for r in topic.rows if g in r.gaps)) for g in Gap
            ]
            here = self._figure(f"topic {topic.name}", topic.of(self.project.id))
            rows.append(
                (rank, topic.name, here, everywhere, len(topic.questionnaires), *reasons, topic.entry().question)
            )
        return Table(
            "Gap topics",
            "The gap rows (no source, rejected, rewritten, assigned to an expert) grouped by topic, ranked by how many "
            "gap rows of every questionnaire fall in each; the question a library answer would serve.",
            ("Rank", "Topic", "Rows here", "Rows, all questionnaires", "Questionnaires")
            + tuple(g.label.capitalize() for g in Gap)
            + ("Library answer for",),
            tuple(rows),
        )


def coverage_report(project_id: int, corpus: Corpus) -> CoverageReport:
    """The coverage report of questionnaire ``project_id`` of ``corpus``."""
    project = next((p for p in corpus.projects if p.id == project_id), None)
    if project is None:
        raise KeyError(f"no questionnaire {project_id} in the workspace")
    ranked = list(enumerate(gap_topics(corpus.every_row), 1))
    mine = tuple((rank, t) for rank, t in ranked if t.of(project_id))
    every = corpus.every_row
    return CoverageReport(
        project, corpus.rows[project_id], mine, tuple(corpus.trends()), tuple(acceptance(every)), corpus.skipped
    )


def _trends(trends: Sequence[Trend]) -> Table:
    rows = tuple(
        (
            t.project.name,
            t.project.product or "company-wide",
            t.figure("rows", t.rows),
            t.figure("drafted", t.drafted),
            *(t.figure(o.label, t.decided(o)) for o in (Outcome.ACCEPTED, Outcome.EDITED, Outcome.REJECTED)),
            t.figure(Outcome.NEEDS_SME.label, t.decided(Outcome.NEEDS_SME)),
            t.first,
            t.last,
            t.hours,
        )
        for t in trends
    )
    return Table(
        "Trends",
        "Each questionnaire of the workspace: its rows drafted from a source, what the reviewers did with those "
        "drafts, and the hours from its first to its last decision.",
        ("Questionnaire", "Product", "Rows", "Drafted", "Accepted unchanged", "Edited", "Rejected", "Needs SME")
        + ("First decision", "Last decision", "Reviewer hours"),
        rows,
    )


def _acceptance(found: Sequence[Acceptance]) -> Table:
    rows = tuple(
        (
            a.basis.label,
            Figure(f"decided drafts from {a.basis.label}", tuple(r.ref for r in a.rows)),
            *(Figure(f"{o.label}, from {a.basis.label}", tuple(r.ref for r in a.of(o))) for o in _DECIDED),
            a.rate,
        )
        for a in found
        if a.rows
    )
    return Table(
        "Acceptance by source",
        "The drafts the reviewers decided, every questionnaire, by what they rest on: the share accepted unchanged.",
        ("Rests on", "Decided", *(o.label.capitalize() for o in _DECIDED), "Acceptance rate"),
        rows,
    )


_DECIDED = (Outcome.ACCEPTED, Outcome.EDITED, Outcome.REJECTED, Outcome.NEEDS_SME)
