"""The reports (#51): the coverage of a questionnaire (coverage.py: what each row rests on, its
gaps by topic, the trends across questionnaires) and the health of the answer library
(library_report.py), laid out as typed tables (tables.py) that the app draws and xlsx.py and
html.py write. They read the review store's rows through :class:`~engine.review.review.Review`,
the answer library and the drafts' records; the workspace (engine/app/workspace.py) gathers them.
docs/reports.md explains every figure."""

from engine.review.reports.basis import Basis
from engine.review.reports.coverage import Corpus, CoverageReport, corpus, coverage_report
from engine.review.reports.html import html_text
from engine.review.reports.library_health import Band, EntryHealth
from engine.review.reports.library_report import LibraryReport, library_report
from engine.review.reports.rows import Gap, Outcome, ReportRow
from engine.review.reports.tables import Figure, Ref, Table
from engine.review.reports.topics import EntryDraft, Topic
from engine.review.reports.xlsx import xlsx_bytes

__all__ = [
    "Band",
    "Basis",
    "Corpus",
    "CoverageReport",
    "EntryDraft",
    "EntryHealth",
    "Figure",
    "Gap",
    "LibraryReport",
    "Outcome",
    "Ref",
    "ReportRow",
    "Table",
    "Topic",
    "corpus",
    "coverage_report",
    "html_text",
    "library_report",
    "xlsx_bytes",
]
