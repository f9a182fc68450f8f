"""The questionnaire formats, in one table (:data:`FORMATS`): for each suffix the :class:`Format`
that reads it and writes the answers back into a copy of it, each in its own folder:

- a spreadsheet (.xlsx, .xlsm, .csv): engine/questionnaire/sheet/ (reader.py, writer.py, check.py);
- a Word document (.docx, .docm): engine/questionnaire/word/ (reader.py, writer.py, check.py);
- a PDF (.pdf): engine/questionnaire/pdf/ (reader.py; writer.py fills a form's fields and checks
  them; a flat PDF has no answer place, so its answers go into a Word response document,
  response.py).

A document format reads its questions into the same records as a spreadsheet (its answer places in
``Questionnaire.places``: engine/questionnaire/places.py); its writer takes the questionnaire read,
and a document whose answers all go into a response document (a flat PDF, a solicitation) is
answered in one, whatever its format (:func:`_document`). Adding a format is one entry of
:data:`FORMATS`. Formats that look like questionnaires but are not read (.doc, .xls) are refused in
one line that says what to save them as.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from engine.core.limits import Limits
from engine.core.types import FileProblem, Progress
from engine.ingest.paths import named_file
from engine.questionnaire.corrections import QuestionCorrection, TableCorrection
from engine.questionnaire.pdf.questions import ROWS_PER_PAGE, page_of_row
from engine.questionnaire.pdf.response import write_response_docx
from engine.questionnaire.places import AnswerWrite, Unwritten, answer_values, response_only
from engine.questionnaire.records import Question, Questionnaire, QuestionnaireError, ReadOptions
from engine.questionnaire.sheet.check import check_csv, check_workbook
from engine.questionnaire.sheet.reader import read_sheets
from engine.questionnaire.sheet.writer import export_csv, export_xlsx
from engine.questionnaire.word.check import ChangedOutsidePlaces, verify
from engine.questionnaire.word.package import main_part, relationships
from engine.questionnaire.word.reader import docx_paragraphs, read_docx
from engine.questionnaire.word.writer import write_docx
from engine.questionnaire.writes import CellWrite, ExportError, check_paths

# reads a questionnaire file: (path, the reviewer's options and corrections, the size limits)
Reader = Callable[[Path, ReadOptions, Limits], Questionnaire]
# writes the answers into a copy of a questionnaire: (source, target, the writes, the questionnaire read
# (a document's answer places; a spreadsheet's writer needs none), the list that takes the answers it could
# not write, or None to refuse the export on the first) → the file written
Writer = Callable[[Path, Path, Sequence[CellWrite], "Questionnaire | None", "list[Unwritten] | None"], Path]
# the no-other-change check of a written copy: (original, written, the writes, the questionnaire read) → where
# the copy differs from the original other than in the places written, one line each (empty: nowhere)
Check = Callable[[Path, Path, Sequence[CellWrite], "Questionnaire | None"], list[str]]
# where a question is in its file, in the reviewer's words ("page 3", "paragraph 12", "sheet Security · row 7")
Location = Callable[[Questionnaire, Question], str]
# a document's paragraphs (number, text) a reviewer may add as a question (ReadOptions.include)
Paragraphs = Callable[[Path, Limits], list[tuple[int, str]]]
# a document format's own writer: (questionnaire read, target, the writes, unwritten or None) → target
DocumentWriter = Callable[[Questionnaire, Path, Iterable[AnswerWrite], "list[Unwritten] | None"], Path]


@dataclass(frozen=True)
class Format:
    name: str  # the format, in the reviewer's words: "Word document"
    noun: str  # what the Export screen calls the answered copy: "workbook", "document", "form"
    read: Reader
    write: Writer
    check: Check
    location: Location
    paragraphs: Paragraphs | None = None  # None: nothing can be added by hand (only left out)
    # whether a file of this format that asks nothing is read as a solicitation, its requirements the rows
    # (engine/questionnaire/solicitation/)
    solicitation: bool = False
    # whether a folder's files of this format are taken for questionnaires (``library import FOLDER``):
    # a folder's PDFs are the knowledge base's documents, so a filled PDF questionnaire is imported by its name
    in_folders: bool = True


# ---------------------------------------------------------------- spreadsheets


def _cells(write: Callable[[Path, Path, Sequence[CellWrite], "list[Unwritten] | None"], Path]) -> Writer:
    """A spreadsheet's writer: cell by cell, without the questionnaire read."""
    return lambda source, target, writes, questionnaire, unwritten: write(source, target, writes, unwritten)


def _sheet_location(questionnaire: Questionnaire, q: Question) -> str:
    return f"sheet {q.sheet} · row {q.row}"


# ---------------------------------------------------------------- documents


def _document(write: DocumentWriter) -> Writer:
    """A document format's writer: each write to its answer place (the last write to a place wins) by
    ``write``, or every answer into a Word response document when the document has no answer place
    of its own (a flat PDF, a solicitation): written as the target with the suffix .docx."""

    def export(
        source: Path,
        target: Path,
        writes: Sequence[CellWrite],
        questionnaire: Questionnaire | None,
        unwritten: list[Unwritten] | None,
    ) -> Path:
        if questionnaire is None or not questionnaire.places:
            raise ExportError(source, "a document questionnaire is exported with its answer places", "read it first")
        if response_only(questionnaire.places):
            target = target.with_suffix(".docx")
        source, target = check_paths(source, target)
        if Path(questionnaire.path).resolve() != source.resolve():
            raise ExportError(
                source, f"the answer places given are {questionnaire.path.name}'s", "read this file first"
            )
        try:
            if response_only(questionnaire.places):
                return write_response_docx(questionnaire, target, writes)
            return write(questionnaire, target, writes, unwritten)
        except FileProblem as exc:
            raise ExportError(exc.file, exc.problem, exc.fix) from None

    return export


def _response(check: Check) -> Check:
    """A document format's check; a response document is a new file, with no original to compare."""

    def checked(
        original: Path, written: Path, writes: Sequence[CellWrite], questionnaire: Questionnaire | None
    ) -> list[str]:
        if questionnaire is None or not questionnaire.places:
            return [f"{Path(written).name}: a document's export is checked with its answer places (read it first)"]
        return [] if response_only(questionnaire.places) else check(original, written, writes, questionnaire)

    return checked


def _check_docx(
    original: Path, written: Path, writes: Sequence[CellWrite], questionnaire: Questionnaire | None
) -> list[str]:
    """word/check.py's check of the written package, with the answer places ``writes`` fill."""
    places = questionnaire.places if questionnaire is not None else {}
    filled = [places[key] for key in answer_values(writes) if key in places]
    with zipfile.ZipFile(original) as a, zipfile.ZipFile(written) as b:
        lower = {n.lower(): n for n in a.namelist()}
        document_part = main_part(a, lower)
        try:
            verify(a, b, document_part, relationships(a, lower, document_part).get("/numbering"), filled, original)
        except ChangedOutsidePlaces as exc:
            return [f"{Path(written).name}: {exc.problem}"]
    return []


def _word_location(questionnaire: Questionnaire, q: Question) -> str:
    """A paragraph's number; a Word solicitation's requirement by its order in the document (its rows
    are numbered as a flat PDF's, page × 1000 + the order, and a Word document has no pages)."""
    if response_only(questionnaire.places):
        return f"requirement {q.row % ROWS_PER_PAGE} of the document"
    return f"paragraph {q.row}"


def _pdf_location(questionnaire: Questionnaire, q: Question) -> str:
    return f"page {page_of_row(q.row)}"  # a form's field or a flat PDF's question


def _read_pdf(path: Path, options: ReadOptions, limits: Limits) -> Questionnaire:
    from engine.questionnaire.pdf.reader import read_pdf  # noqa: PLC0415 (deferred: a command that reads no PDF does not load MuPDF)

    return read_pdf(path, options, limits)


def _write_pdf(
    questionnaire: Questionnaire, target: Path, writes: Iterable[AnswerWrite], unwritten: list[Unwritten] | None
) -> Path:
    from engine.questionnaire.pdf.writer import write_pdf  # noqa: PLC0415 (deferred, as _read_pdf)

    return write_pdf(questionnaire, target, writes, unwritten)


def _check_pdf(
    original: Path, written: Path, writes: Sequence[CellWrite], questionnaire: Questionnaire | None
) -> list[str]:
    from engine.questionnaire.pdf.writer import check_form  # noqa: PLC0415 (deferred, as _read_pdf)

    return check_form(original, written, writes, questionnaire)


_WORKBOOK = Format("Excel workbook", "workbook", read_sheets, _cells(export_xlsx), check_workbook, _sheet_location)
_WORD = Format(
    "Word document",
    "document",
    read_docx,
    _document(write_docx),
    _response(_check_docx),
    _word_location,
    docx_paragraphs,
    solicitation=True,
)
FORMATS: dict[str, Format] = {
    ".xlsx": _WORKBOOK,
    ".xlsm": replace(_WORKBOOK, name="Excel workbook with macros (never run, kept)"),
    ".csv": Format("CSV file", "workbook", read_sheets, _cells(export_csv), check_csv, _sheet_location),
    ".docx": _WORD,
    ".docm": replace(_WORD, name="Word document with macros (never run, kept)"),
    ".pdf": Format(
        "PDF (a form's fields filled; a flat PDF answered in a Word document)",
        "form",
        _read_pdf,
        _document(_write_pdf),
        _response(_check_pdf),
        _pdf_location,
        solicitation=True,
        in_folders=False,
    ),
}
SUFFIXES = tuple(FORMATS)
SHEET_SUFFIXES = tuple(s for s, f in FORMATS.items() if f.read is read_sheets)  # a sheet's columns can be named
DOCUMENT_SUFFIXES = tuple(s for s in SUFFIXES if s not in SHEET_SUFFIXES)  # answers go into answer places
FOLDER_SUFFIXES = tuple(s for s, f in FORMATS.items() if f.in_folders)  # a folder's questionnaires
REFUSED = {  # suffix: (what it is, the fix)
    ".doc": ("an old Word 97–2003 document (.doc), which is not read", "open it in Word and save it as .docx"),
    ".xls": ("an old Excel 97–2003 workbook (.xls), which is not read", "open it in Excel and save it as .xlsx"),
}


def format_of(path: str | Path) -> Format | None:
    """The format of ``path`` by its suffix (None: not a questionnaire that is read)."""
    return FORMATS.get(Path(path).suffix.lower())


def read_questionnaire(
    path: str | Path,
    *,
    sheet: str | None = None,
    header_row: int | None = None,
    question_col: str | None = None,
    answer_col: str | None = None,
    comment_col: str | None = None,
    exclude: Iterable[str] = (),
    include: Iterable[str] = (),
    like: Iterable[str] = (),
    tables: Iterable[TableCorrection | dict] = (),
    questions: Iterable[QuestionCorrection | dict] = (),
    kinds: Iterable[str] = (),
    added: Iterable[str] = (),
    splits: Iterable[str] = (),
    merges: Iterable[str] = (),
    pages: int | None = None,
    limits: Limits | None = None,
    progress: Progress | None = None,
) -> Questionnaire:
    """The questions of a questionnaire file and where their answers go, read by its format's
    reader (:data:`FORMATS`).

    The keyword arguments override detection: ``sheet`` (name), ``header_row`` (1-based; only
    rows below it are questions), and column letters for the question, answer and comment cells;
    ``exclude`` (question keys or IDs left out), ``include`` (a document's paragraph numbers added
    as questions), ``like`` (example question keys whose like are added), ``tables`` (a table
    column's role, every row following), ``questions`` (a question's text, kind or answer
    place: engine/questionnaire/corrections.py), ``kinds`` (a solicitation's requirements whose
    kind is changed, "ID=kind"), ``added``, ``splits`` and ``merges`` (a solicitation's sentences
    added as requirements, requirements split, "ID=FRAGMENT", and merged, "ID+ID":
    engine/questionnaire/solicitation/edits.py) are the reviewer's corrections
    (:class:`~engine.questionnaire.sheet.reader.ReadOptions`). ``limits`` bound what is read
    (default: the ``RFP_MAX_*`` environment variables, else the defaults; a file over one raises
    :class:`~engine.core.limits.LimitError` before it is parsed). A solicitation's ``progress`` and
    ``pages`` (stopped there before): :func:`~engine.questionnaire.solicitation.shred.shred`'s. Raises
    :class:`~engine.questionnaire.sheet.reader.QuestionnaireError` for a file that is not a
    questionnaire it reads, an unreadable one, and one without questions. A link is read only
    when it points to a regular file, under that file's name.
    """
    path = Path(path)
    if path.is_symlink():
        path = named_file(path)
    name, suffix = path.name, path.suffix.lower()
    limits = limits or Limits.from_env()
    corrections = {"exclude": tuple(exclude), "include": tuple(include), "like": tuple(like)}
    corrections |= {"tables": tuple(tables), "questions": tuple(questions), "kinds": tuple(kinds)}
    corrections |= {"added": tuple(added), "splits": tuple(splits), "merges": tuple(merges)}
    ov = ReadOptions(sheet, header_row, question_col, answer_col, comment_col, **corrections, pages=pages).checked(name)
    if suffix in REFUSED:
        what, fix = REFUSED[suffix]
        raise QuestionnaireError(name, f"is {what}", fix)
    if suffix not in SUFFIXES:
        raise QuestionnaireError(
            name,
            f"has an unsupported extension '{path.suffix}'",
            f"save it as one of {', '.join(SUFFIXES)} and try again",
        )
    if not path.exists():
        raise QuestionnaireError(name, "does not exist", f"check the path {path}")
    if not path.is_file():
        raise QuestionnaireError(
            name, "is not a regular file (a folder, a pipe or a device)", "give the path of the questionnaire file"
        )
    if path.stat().st_size == 0:
        raise QuestionnaireError(name, "is empty (0 bytes)", "export the questionnaire again")
    questionnaire_format = FORMATS[suffix]
    try:
        return questionnaire_format.read(path, ov, limits)
    except QuestionnaireError as exc:
        if not questionnaire_format.solicitation or "no question" not in exc.problem:
            raise
        # a solicitation asks nothing: its requirements are the rows
        if (solicitation := _read_solicitation(path, ov, limits, progress)) is None:
            raise
        return solicitation


def _read_solicitation(
    path: Path, options: ReadOptions, limits: Limits, progress: Progress | None
) -> Questionnaire | None:
    from engine.questionnaire.solicitation.as_questionnaire import read_solicitation  # noqa: PLC0415 (deferred)

    return read_solicitation(path, options, limits, progress)


__all__ = [
    "DOCUMENT_SUFFIXES",
    "FOLDER_SUFFIXES",
    "FORMATS",
    "REFUSED",
    "SHEET_SUFFIXES",
    "SUFFIXES",
    "Format",
    "format_of",
    "read_questionnaire",
]
