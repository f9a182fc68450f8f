"""Read a PDF questionnaire: its questions and where each answer goes.

A PDF **form** (AcroForm fields) is read by engine/questionnaire/pdf/form.py: a question per field
or group of boxes, on the pseudo-sheet :data:`~engine.questionnaire.places.FORM_SHEET`, its
answer places the fields themselves (``PDF_FIELD``, ``PDF_BUTTONS``); engine/questionnaire/
pdf_writer.py fills them. A **flat** PDF (no fields) is read by pdf/flat/: questions in tables and
in numbered, bulleted or checklist lines, on :data:`~engine.questionnaire.places.DOCUMENT_SHEET`;
the page has no answer place, so each answer place is a ``RESPONSE``: the answers go into a Word
response document and a spreadsheet (engine/questionnaire/pdf/response.py).

Refused with one line naming the file, the problem and the fix
(:class:`~engine.questionnaire.sheet.reader.QuestionnaireError`), before anything else is read: a file
over the page limit (:class:`~engine.core.limits.LimitError`), a password-protected PDF, an
XFA-only form (its fields live in an XML package PyMuPDF cannot fill), a scanned PDF (no text and
no fields), fields lying over each other, and a flat PDF in which no question is found.

A **hybrid** form (AcroForm fields plus an XFA copy of them, as the IRS W-9) is read through its
AcroForm fields. Its XFA copy still holds the blank form: a viewer that draws XFA (Adobe
Acrobat and Reader; pdf.js when its XFA support is on) would show that copy and not the answers,
so the writer removes the XFA entry (and the Reader-extension signature ``/Perms`` that such
forms carry, which a changed XFA invalidates); every viewer then draws the AcroForm fields with
the answers. A note says so.

**Scripts are never run.** PyMuPDF does not run a PDF's JavaScript unless asked to
(``pdf_enable_js``), and nothing here asks; field scripts (formatting, keystroke checks) are read
as data only, noted, and kept in the written file. A field the form computes itself (a
calculate script) is left alone. A form whose permissions allow filling but not editing (the
DoD DD 2875) is read and filled: filling is what its author allowed.

:func:`read_pdf` is the reader of the ``.pdf`` format (engine/questionnaire/formats.py): the
questions with the reviewer's corrections; a PDF's questions can be left out (``exclude``), while
adding a missed one by hand (``include``, ``like``) is a Word document's correction only.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pymupdf

from engine.core.limits import Limits
from engine.core.types import IngestError
from engine.ingest import pdf as ingest_pdf
from engine.questionnaire.corrections import TableCorrection, corrected_questions
from engine.questionnaire.pdf.flat import FlatTables, read_flat
from engine.questionnaire.pdf.form import read_form
from engine.questionnaire.pdf.layout import PageText
from engine.questionnaire.pdf.questions import assemble
from engine.questionnaire.places import DOCUMENT_SHEET, FORM_SHEET, place_key
from engine.questionnaire.records import Questionnaire, QuestionnaireError, ReadOptions

SUFFIX = ".pdf"
XFA_FIX = "ask the sender for the Word version or for a PDF with AcroForm fields (saved without XFA)"
HYBRID_NOTE = (
    "the form also holds an XFA copy of its fields (a hybrid form); the answers go into its AcroForm "
    "fields, and the export removes the XFA copy (and the Reader-extension signature) so that every PDF viewer "
    "shows them"
)


def read_pdf_questionnaire(
    path: str | Path, limits: Limits | None = None, tables: tuple[TableCorrection, ...] = ()
) -> Questionnaire:
    """The questions of the PDF at ``path`` (see the module docstring); ``tables``: the responder's
    corrections of a flat PDF's table columns (engine/questionnaire/corrections.py)."""
    path = Path(path)
    name = path.name
    limits = limits or Limits.from_env()
    doc = open_pdf(path, limits)
    try:
        notes: list[str] = []
        pages: dict[int, PageText] = {}

        def texts(number: int) -> PageText:
            if number not in pages:
                pages[number] = PageText.of(doc[number])
            return pages[number]

        if _has_widgets(doc):
            if has_xfa(doc):
                notes.append(HYBRID_NOTE)
            found = read_form(doc, texts, notes)
            limits.check_text(name, (line.text for n in pages for line in pages[n].lines))
            if not found:
                raise QuestionnaireError(
                    name,
                    "is a PDF form whose fields are all signatures, buttons, read-only or hidden: nothing to answer",
                    "ask the sender for the fillable version of the questionnaire",
                )
            return assemble(path, FORM_SHEET, found, notes)
        _refuse_unfillable(doc, name)
        limits.check_rulings(doc, name)  # before any table is looked for: its cost grows with the crossings squared
        mapped = FlatTables(corrections=tuple(tables))
        found = read_flat(doc, name, limits, notes, mapped)
        return assemble(path, DOCUMENT_SHEET, found, notes, mapped.read)
    except (QuestionnaireError, IngestError):  # IngestError: LimitError, UnreadableFile
        raise
    except (RuntimeError, ValueError) as exc:  # MuPDF's errors on a damaged file
        raise QuestionnaireError(name, f"could not be read ({exc})", "open it in a PDF viewer, save it again") from exc
    finally:
        doc.close()


def read_pdf(path: Path, options: ReadOptions, limits: Limits) -> Questionnaire:
    """The questions of the PDF at ``path`` without those the reviewer left out, with the text and
    kind the reviewer gave (see the module docstring); an ``include`` or ``like`` correction is a
    note (nothing is added)."""
    q = read_pdf_questionnaire(path, limits, options.tables)
    notes = list(q.notes)
    if options.include or options.like:
        notes.append("questions cannot be added by hand to a PDF (--include, --like): only left out; nothing added")
    if not options.exclude and not options.questions:
        return replace(q, notes=tuple(notes))
    sheets = tuple(replace(s, questions=tuple(x for x in s.questions if not options.excludes(x))) for s in q.sheets)
    kept = {place_key(x.sheet, c) for s in sheets for x in s.questions for c in (x.choice_cell, x.text_cell) if c}
    places = {k: v for k, v in q.places.items() if k in kept}
    fixed = []
    for s in sheets:  # a question's text or kind as the reviewer corrected it
        questions, places = corrected_questions(list(s.questions), places, options.questions)
        fixed.append(replace(s, questions=tuple(questions)))
    return replace(q, sheets=tuple(fixed), notes=tuple(notes), places=places)


def open_pdf(path: Path, limits: Limits | None = None) -> pymupdf.Document:
    """``path`` opened as a PDF (unlocked with the empty password when that is enough: the
    loader's own opening, engine/ingest/pdf.py), or a QuestionnaireError saying why not. Never
    enables JavaScript. With ``limits``, its structure and page count are checked first
    (``Limits.check_pdf_document``: a looping or lying page tree, a field larger than its page…),
    before any page is counted or read."""
    try:
        doc = ingest_pdf.open_pdf(path, path.name)
    except IngestError as exc:
        fix = (
            "ask the sender for the password and save an unprotected copy, or ask for the Word version"
            if "password" in exc.problem
            else "open it in a PDF viewer, save it again"
        )
        raise QuestionnaireError(path.name, exc.problem, fix) from None
    if limits is not None:
        try:
            limits.check_pdf_document(doc, path.name)
        except IngestError:
            doc.close()
            raise
    if doc.page_count == 0:
        doc.close()
        raise QuestionnaireError(path.name, "has no pages", "ask the sender for the questionnaire again")
    return doc


def has_xfa(doc: pymupdf.Document) -> bool:
    """Whether the form's AcroForm dictionary holds an XFA package."""
    cat = doc.pdf_catalog()
    return doc.xref_get_key(cat, "AcroForm/XFA")[0] != "null"


def _has_widgets(doc: pymupdf.Document) -> bool:
    return any(page.first_widget is not None for page in doc)


def _refuse_unfillable(doc: pymupdf.Document, name: str) -> None:
    """An XFA-only form or a scanned PDF: refused (no fields, no text to find questions in)."""
    if has_xfa(doc):
        raise QuestionnaireError(
            name, "is an XFA form (its fields live in an XML package, with no AcroForm fields to fill)", XFA_FIX
        )
    if not any(page.get_text("text").strip() for page in doc):
        raise QuestionnaireError(
            name,
            f"has no text layer on any of its {doc.page_count} page{'s' if doc.page_count > 1 else ''} (scanned images)",
            "ask the sender for the Word version or a text PDF, or run OCR (e.g. ocrmypdf) on it and read the copy",
        )


__all__ = ["HYBRID_NOTE", "SUFFIX", "XFA_FIX", "has_xfa", "open_pdf", "read_pdf", "read_pdf_questionnaire"]
