"""Lossless export: the customer's questionnaire back, with only the answer cells filled, by its
format's writer (engine/questionnaire/formats.py): a spreadsheet cell by cell
(engine/questionnaire/sheet/writer.py), a Word or PDF questionnaire in its answer places
(word/writer.py, pdf/writer.py: only those places change, checked before anything is written). A
flat PDF has no answer place: its answers go into a Word response document
(engine/questionnaire/pdf/response.py), written as the target with the suffix .docx
(:func:`completed_suffix`). Every write is atomic and the source is never modified.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from engine.questionnaire.formats import SUFFIXES, format_of
from engine.questionnaire.places import Unwritten, response_only
from engine.questionnaire.records import Questionnaire
from engine.questionnaire.writes import CellWrite, ExportError


def export(
    source: Path,
    target: Path,
    writes: Sequence[CellWrite],
    questionnaire: Questionnaire | None = None,
    unwritten: list[Unwritten] | None = None,
) -> Path:
    """Export by the source's format (engine/questionnaire/formats.py): a document format (.docx,
    .docm, .pdf) needs ``questionnaire`` (the source read: its answer places). Returns the file
    written: for a flat PDF, the Word response document ``target`` with the suffix .docx
    (:func:`completed_suffix`). Given ``unwritten``, an answer that cannot be written (a cell or
    answer place that cannot take it) is listed there and the others are written (the export is
    not refused for one question); without it, that answer refuses the export."""
    questionnaire_format = format_of(source)
    if questionnaire_format is None:
        raise ExportError(
            source,
            f"cannot export a {Path(source).suffix.lower() or 'extension-less'} file",
            f"export questionnaires saved as {', '.join(SUFFIXES)}",
        )
    return questionnaire_format.write(Path(source), Path(target), writes, questionnaire, unwritten)


def completed_suffix(questionnaire: Questionnaire) -> str:
    """The suffix of a questionnaire's export: its own, or .docx for a flat PDF (its answers go into
    a Word response document)."""
    return ".docx" if response_only(questionnaire.places) else questionnaire.path.suffix.lower()


__all__ = ["completed_suffix", "export"]
