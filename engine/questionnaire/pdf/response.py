"""The answers to a flat PDF questionnaire, written beside it: a Word response document and a
spreadsheet (XLSX or CSV).

A flat PDF has no place for an answer (engine/questionnaire/pdf/flat/ gives each question a
``RESPONSE`` place), so its answers go into documents of their own, in the PDF's order:

- :func:`write_response_docx`: the PDF's name as the title, then per question its number (the
  document's own ID, else its position: "Q7") and text in bold, then its choice ("Answer: Yes")
  and its text answer; a question without an answer says so ("No answer yet").
- :func:`write_response_table`: one row per question (number, page, question, choice, answer),
  as XLSX or CSV by the target's extension; every cell is text (a value starting with "=" is
  never a formula: CSV cells through engine/questionnaire/csv_writer.py, XLSX cells typed as strings).

A document format's write (engine/questionnaire/formats.py) sends a flat PDF's export here (and a
solicitation's, whatever its format). The AcroForm writer that fills the PDF itself is engine/questionnaire/pdf/writer.py. An answer is the
write to the question's choice or text cell, else what the file already held (a filled PDF read
as past answers). Both files are written atomically.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import docx
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

from engine.core.files import write_atomic
from engine.core.workbook_text import plain_text, set_text
from engine.questionnaire.csv_writer import csv_text
from engine.questionnaire.pdf.questions import page_of_row
from engine.questionnaire.places import AnswerWrite
from engine.questionnaire.records import Question, Questionnaire
from engine.questionnaire.writes import ExportError

HEADER = ("Number", "Page", "Question", "Answer", "Explanation")
_WIDTHS = (12, 7, 70, 14, 70)
NO_ANSWER = "No answer yet"


@dataclass(frozen=True)
class ResponseRow:
    """One question of the response, with its answer."""

    number: str
    page: int
    question: str
    choice: str
    answer: str


def response_rows(questionnaire: Questionnaire, writes: Iterable[AnswerWrite]) -> list[ResponseRow]:
    """The questions in the PDF's order with their answers: the last write to the choice or text
    cell, else what the file held."""
    written: dict[tuple[str, str], str] = {}
    for w in writes:
        written[(w.sheet, w.cell)] = "" if w.value is None else str(w.value)
    rows = []
    for n, q in enumerate(sorted(questionnaire.questions, key=lambda q: q.row), start=1):
        rows.append(
            ResponseRow(
                number=q.id or f"Q{n}",
                page=page_of_row(q.row),
                question=q.text,
                choice=_answer(written, q, q.choice_cell, q.existing_choice),
                answer=_answer(written, q, q.text_cell, q.existing_answer),
            )
        )
    return rows


def _answer(written: dict[tuple[str, str], str], q: Question, cell: str | None, existing: str | None) -> str:
    if cell is None:
        return ""
    return written.get((q.sheet, cell), existing or "")


def write_response_docx(questionnaire: Questionnaire, target: str | Path, writes: Iterable[AnswerWrite]) -> Path:
    """The Word response document of a flat PDF questionnaire (see the module docstring)."""
    target = _target(questionnaire, target, (".docx",))
    document = docx.Document()
    document.add_heading(plain_text(Path(questionnaire.path).name), level=0)
    document.add_paragraph(
        plain_text(f"Answers to {Path(questionnaire.path).name}, question by question in the order of the document.")
    )
    for row in response_rows(questionnaire, writes):
        title = document.add_paragraph()
        title.add_run(plain_text(row.number) + " ").bold = True
        title.add_run(plain_text(row.question)).bold = True
        title.add_run(f" (page {row.page})").italic = True
        if row.choice:
            document.add_paragraph("Answer: " + plain_text(row.choice))
        for line in row.answer.splitlines():
            document.add_paragraph(plain_text(line))
        if not row.choice and not row.answer.strip():
            document.add_paragraph().add_run(NO_ANSWER).italic = True
    buffer = io.BytesIO()
    document.save(buffer)
    write_atomic(target, buffer.getvalue())
    return target


def write_response_table(questionnaire: Questionnaire, target: str | Path, writes: Iterable[AnswerWrite]) -> Path:
    """The answers of a flat PDF questionnaire as one row per question, XLSX or CSV by ``target``'s
    extension (see the module docstring)."""
    target = _target(questionnaire, target, (".xlsx", ".csv"))
    rows = [(r.number, str(r.page), r.question, r.choice, r.answer) for r in response_rows(questionnaire, writes)]
    if target.suffix.lower() == ".csv":
        write_atomic(target, csv_text(HEADER, rows))
        return target
    wb = Workbook()
    ws = wb.active
    ws.title = "Answers"
    for r, values in enumerate([HEADER, *rows], start=1):
        for c, value in enumerate(values, start=1):
            cell = set_text(ws.cell(r, c), value)  # text, never a formula
            cell.alignment = Alignment(wrap_text=True, vertical="top")
            if r == 1:
                cell.font = Font(bold=True)
    for c, width in enumerate(_WIDTHS, start=1):
        ws.column_dimensions[ws.cell(1, c).column_letter].width = width
    ws.freeze_panes = "A2"
    buffer = io.BytesIO()
    wb.save(buffer)
    write_atomic(target, buffer.getvalue())
    return target


def _target(questionnaire: Questionnaire, target: str | Path, suffixes: tuple[str, ...]) -> Path:
    target = Path(target)
    if target.suffix.lower() not in suffixes:
        raise ExportError(target, f"a response document must be {' or '.join(suffixes)}", f"name it *{suffixes[0]}")
    if not target.parent.is_dir():
        raise ExportError(target, "the target folder does not exist", "create the folder or choose another target")
    if target.resolve() == Path(questionnaire.path).resolve():
        raise ExportError(target, "the export target is the questionnaire itself", "export to a new file")
    return target


__all__ = ["HEADER", "NO_ANSWER", "ResponseRow", "response_rows", "write_response_docx", "write_response_table"]
