"""Lossless export: the customer's questionnaire back, with only the answer cells filled.

A spreadsheet (.xlsx, .xlsm, .csv) is written cell by cell by engine/questionnaire/sheet/writer.py. A
Word or PDF questionnaire (.docx, .docm, .pdf) is written by its format's writer
(engine/questionnaire/formats.py: word/writer.py, pdf/writer.py; only its answer places change,
checked before anything is written). A flat PDF has no answer place: its answers go into a Word
response document (engine/questionnaire/pdf/response.py), written as the target with the suffix .docx
(:func:`completed_suffix`). Every write is atomic and the source is never modified.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from engine.core.types import FileProblem
from engine.questionnaire.formats import SUFFIXES, DocumentFormat, document_format
from engine.questionnaire.pdf.response import write_response_docx
from engine.questionnaire.places import Unwritten, response_only
from engine.questionnaire.records import Questionnaire
from engine.questionnaire.sheet.writer import export_csv, export_xlsx
from engine.questionnaire.writes import CellWrite, ExportError, check_paths


def export(
    source: Path,
    target: Path,
    writes: Sequence[CellWrite],
    questionnaire: Questionnaire | None = None,
    unwritten: list[Unwritten] | None = None,
) -> Path:
    """Export by the source's extension: .xlsx / .xlsm or .csv by engine/questionnaire/sheet/writer.py, a document format (.docx, .docm,
    .pdf) by its writer (engine/questionnaire/formats.py), which needs ``questionnaire`` (the source
    read: its answer places). Returns the file written: for a flat PDF, the Word response document
    ``target`` with the suffix .docx (:func:`completed_suffix`). Given ``unwritten``, an answer
    that cannot be written (a cell or answer place that cannot take it) is listed there and the
    others are written (the export is not refused for one question); without it, that answer
    refuses the export."""
    suffix = Path(source).suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return export_xlsx(source, target, writes, unwritten)
    if suffix == ".csv":
        return export_csv(source, target, writes, unwritten)
    document = document_format(Path(source))
    if document is not None:
        return _export_document(document, Path(source), Path(target), writes, questionnaire, unwritten)
    raise ExportError(
        source,
        f"cannot export a {suffix or 'extension-less'} file",
        f"export questionnaires saved as {', '.join(SUFFIXES)}",
    )


def completed_suffix(questionnaire: Questionnaire) -> str:
    """The suffix of a questionnaire's export: its own, or .docx for a flat PDF (its answers go into
    a Word response document)."""
    return ".docx" if response_only(questionnaire.places) else questionnaire.path.suffix.lower()


def _export_document(
    document: DocumentFormat,
    source: Path,
    target: Path,
    writes: Sequence[CellWrite],
    questionnaire: Questionnaire | None,
    unwritten: list[Unwritten] | None = None,
) -> Path:
    """A document questionnaire's export: each write to its answer place (the last write to a place
    wins), or a flat PDF's answers into its response document."""
    if questionnaire is None or not questionnaire.places:
        raise ExportError(source, "a document questionnaire is exported with its answer places", "read it first")
    if response_only(questionnaire.places):
        target = target.with_suffix(".docx")
    source, target = check_paths(source, target)
    if Path(questionnaire.path).resolve() != source.resolve():
        raise ExportError(source, f"the answer places given are {questionnaire.path.name}'s", "read this file first")
    try:
        if response_only(questionnaire.places):
            return write_response_docx(questionnaire, target, writes)
        return document.write(questionnaire, target, writes, unwritten)
    except FileProblem as exc:
        raise ExportError(exc.file, exc.problem, exc.fix) from None


__all__ = ["completed_suffix", "export"]
