"""The questionnaire formats, in one table: which suffixes are read, by what, and what writes the
answers back into the original file.

Spreadsheets (.xlsx, .xlsm, .csv) are read by engine/questionnaire/sheet/reader.py and written back by
engine/questionnaire/export.py, cell by cell. A document format reads its questions into the same
records (its answer places in ``Questionnaire.places``: engine/questionnaire/places.py) and
writes the answers back through its own writer: adding a format is one entry of
:data:`DOCUMENTS`. A PDF is read by engine/questionnaire/pdf/reader.py: a form's answers go into
its fields (pdf_writer.py); a flat PDF has no answer place, so its answers go into a Word response
document (engine/questionnaire/export.py sends them there: engine/questionnaire/pdf/response.py). Formats that
look like questionnaires but are not read (.doc, .xls) are refused in one line that says what to
save them as.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.core.limits import Limits
from engine.core.types import Progress
from engine.ingest.paths import named_file
from engine.questionnaire.corrections import QuestionCorrection, TableCorrection
from engine.questionnaire.places import AnswerWrite, Unwritten
from engine.questionnaire.records import Questionnaire, QuestionnaireError, ReadOptions
from engine.questionnaire.sheet.reader import WORKBOOK_SUFFIXES, read_sheets
from engine.questionnaire.word.reader import docx_paragraphs, read_docx
from engine.questionnaire.word.writer import write_docx

# reads a document questionnaire: (path, the reviewer's options and corrections, the size limits)
Reader = Callable[[Path, ReadOptions, Limits], Questionnaire]
# writes the answers into a copy of the questionnaire read: (questionnaire, target, the writes, the list that
# takes the answers it could not write, or None to refuse the export on the first) → target
Writer = Callable[[Questionnaire, Path, Iterable[AnswerWrite], "list[Unwritten] | None"], Path]
# the document's paragraphs (number, text) a reviewer may add as a question (ReadOptions.include)
Paragraphs = Callable[[Path, Limits], list[tuple[int, str]]]


@dataclass(frozen=True)
class DocumentFormat:
    name: str  # in the reviewer's words: "Word document"
    read: Reader
    write: Writer
    paragraphs: Paragraphs | None = None  # None: nothing can be added by hand (only left out)
    # whether a folder's files of this format are taken for questionnaires (``library import FOLDER``):
    # a folder's PDFs are the knowledge base's documents, so a filled PDF questionnaire is imported by its name
    in_folders: bool = True


def _read_pdf(path: Path, options: ReadOptions, limits: Limits) -> Questionnaire:
    from engine.questionnaire.pdf.reader import read_pdf  # noqa: PLC0415 (deferred: a command that reads no PDF does not load MuPDF)

    return read_pdf(path, options, limits)


def _write_pdf(
    questionnaire: Questionnaire, target: Path, writes: Iterable[AnswerWrite], unwritten: list[Unwritten] | None
) -> Path:
    from engine.questionnaire.pdf.writer import write_pdf  # noqa: PLC0415 (deferred, as _read_pdf)

    return write_pdf(questionnaire, target, writes, unwritten)


SHEET_SUFFIXES = WORKBOOK_SUFFIXES + (".csv",)
DOCUMENTS: dict[str, DocumentFormat] = {
    ".docx": DocumentFormat("Word document", read_docx, write_docx, docx_paragraphs),
    ".docm": DocumentFormat("Word document with macros (never run, kept)", read_docx, write_docx, docx_paragraphs),
    ".pdf": DocumentFormat(
        "PDF (a form's fields filled; a flat PDF answered in a Word document)", _read_pdf, _write_pdf, in_folders=False
    ),
}
DOCUMENT_SUFFIXES = tuple(DOCUMENTS)
SUFFIXES = SHEET_SUFFIXES + DOCUMENT_SUFFIXES
FOLDER_SUFFIXES = SHEET_SUFFIXES + tuple(s for s, d in DOCUMENTS.items() if d.in_folders)  # a folder's questionnaires
REFUSED = {  # suffix: (what it is, the fix)
    ".doc": ("an old Word 97–2003 document (.doc), which is not read", "open it in Word and save it as .docx"),
    ".xls": ("an old Excel 97–2003 workbook (.xls), which is not read", "open it in Excel and save it as .xlsx"),
}


def document_format(path: Path) -> DocumentFormat | None:
    """The document format of ``path`` by its suffix (None: a spreadsheet, or not a questionnaire)."""
    return DOCUMENTS.get(Path(path).suffix.lower())


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
    reader: a spreadsheet's (engine/questionnaire/sheet/reader.py) or a document's (:data:`DOCUMENTS`).

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
    document = document_format(path)
    if document is None:
        return read_sheets(path, ov, limits)
    try:
        return document.read(path, ov, limits)
    except QuestionnaireError as exc:
        if "no question" not in exc.problem:
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
    "DOCUMENTS",
    "DOCUMENT_SUFFIXES",
    "FOLDER_SUFFIXES",
    "REFUSED",
    "SHEET_SUFFIXES",
    "SUFFIXES",
    "DocumentFormat",
    "document_format",
]
