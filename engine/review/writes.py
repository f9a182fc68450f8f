"""What every export takes and raises: :class:`CellWrite` (one answer into one cell or answer
place) and :class:`ExportError` (an export that cannot be done). Apart from engine/review/export.py
so that the writers it dispatches to (engine/review/pdf_response.py, a flat PDF's response
document) share them without importing it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.types import FileProblem


@dataclass(frozen=True)
class CellWrite:
    """One answer: ``value`` goes into ``cell`` (an A1 reference such as "D12") of ``sheet``.

    For CSV questionnaires ``sheet`` is ignored and ``cell`` addresses the CSV grid; for a Word or
    PDF questionnaire ``sheet!cell`` names an answer place (engine/questionnaire/places.py).
    """

    sheet: str
    cell: str
    value: str
    kind: str = "text"  # "date": a date, written as a date into a date-formatted cell
    day: str | None = None  # a "date" write's ISO date when ``value`` is in another format ("11/24/2026")


class ExportError(FileProblem):
    """An export that cannot be done."""


__all__ = ["CellWrite", "ExportError"]
