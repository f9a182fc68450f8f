"""What every export takes and raises: :class:`CellWrite` (one answer into one cell or answer
place), :class:`ExportError` (an export that cannot be done) and :func:`check_paths` (the source and
target every writer checks first). Apart from engine/questionnaire/export.py so that the formats'
writers it dispatches to (engine/questionnaire/sheet/writer.py, word/writer.py, pdf/writer.py,
pdf/response.py) share them without importing it.

An export is never refused for one question: the answers a document writer could not put in their
place (:class:`~engine.questionnaire.places.Unwritten`, by place) are named by question here
(:func:`unwritten_answers`: :class:`UnwrittenAnswer`, its ID or row and why), for the CLI's output
and the Export screen; the file holds the other answers."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.core.types import FileProblem
from engine.questionnaire.places import Unwritten, place_key
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.records import Questionnaire


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


def check_paths(source: Path, target: Path) -> tuple[Path, Path]:
    """``source`` and ``target`` as paths, after refusing a source that is not a file, a target that is
    the source itself, and a target whose folder does not exist."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise ExportError(source, "the questionnaire file does not exist", "check the path")
    if target.resolve() == source.resolve() or (target.exists() and os.path.samefile(source, target)):
        raise ExportError(
            target,
            "the export target is the source questionnaire itself",
            "export to a new file (e.g. NAME-answered.xlsx); the original stays untouched",
        )
    if not target.parent.is_dir():
        raise ExportError(target, "the target folder does not exist", "create the folder or choose another target")
    return source, target


@dataclass(frozen=True)
class UnwrittenAnswer:
    """A question whose answer the export could not write (the other answers were written)."""

    key: str  # the question's key (engine.questionnaire.qualifiers.question_key)
    label: str  # how a reviewer names it: its ID, else "Form row 12"
    problem: str
    fix: str

    def line(self) -> str:
        return f"{self.label}: not written: {self.problem}. {self.fix}"


def unwritten_answers(questionnaire: Questionnaire, unwritten: list[Unwritten]) -> tuple[UnwrittenAnswer, ...]:
    """The questions of ``unwritten`` places (a place no question owns is named by its key)."""
    owner = {}
    for q in questionnaire.questions:
        for cell in (q.choice_cell, q.text_cell):
            if cell:
                owner.setdefault(place_key(q.sheet, cell), q)
    out = []
    for u in unwritten:
        q = owner.get(u.place)
        label = (q.id or f"{q.sheet} row {q.row}") if q is not None else u.place
        out.append(UnwrittenAnswer(question_key(q) if q is not None else u.place, label, u.problem, u.fix))
    return tuple(out)


__all__ = ["CellWrite", "ExportError", "UnwrittenAnswer", "check_paths", "unwritten_answers"]
