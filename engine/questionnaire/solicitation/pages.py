"""A solicitation file's text, page by page: a PDF's pages as PyMuPDF extracts them
(``page.get_text()``, whitespace collapsed to single spaces: the text every quote is a verbatim
substring of), a Word document's paragraphs and table cells as the lines of one page. Bad input
(encrypted, scanned, damaged, another format) is refused in one line naming the file, the
problem and the fix (:class:`~engine.questionnaire.sheet.reader.QuestionnaireError`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from engine.core.limits import Limits
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.solicitation.records import Page

SUFFIXES = (".pdf", ".docx", ".docm")
STORE_EVERY = 25  # pages between two emptyings of MuPDF's object cache (a 1,000-page PDF's grew 50 KB a page)
_SPACE = re.compile(r"\s+")


def collapse(text: str) -> str:
    """``text`` with every run of whitespace one space, stripped (the README's normalisation)."""
    return _SPACE.sub(" ", text).strip()


def page_of(file: str, number: int, raw: str, paragraphs: bool = False) -> Page:
    """A page from its raw extracted text: the collapsed text and its lines' offsets in it (the
    collapsed lines joined by single spaces are exactly the collapsed page text). ``paragraphs``:
    each line is a paragraph of its own (a Word document's), as after a blank line."""
    parts, lines, gaps, at, blank = [], [], set(), 0, False
    for line in raw.split("\n"):
        line = collapse(line)
        if not line:
            blank = True
            continue
        if (blank or paragraphs) and lines:
            gaps.add(len(lines))
        blank = False
        if parts:
            at += 1
        parts.append(line)
        lines.append((at, at + len(line)))
        at += len(line)
    return Page(file, number, " ".join(parts), tuple(lines), frozenset(gaps))


def read_pages(path: str | Path, limits: Limits | None = None) -> Iterator[Page]:
    """The pages of a solicitation file, one at a time (a PDF is never held whole as text)."""
    path = Path(path)
    name, suffix = path.name, path.suffix.lower()
    if suffix not in SUFFIXES:
        raise QuestionnaireError(
            name, f"is not a solicitation file this reads ('{path.suffix}')", "save it as PDF or .docx"
        )
    if not path.is_file():
        raise QuestionnaireError(name, "does not exist or is not a file", f"check the path {path}")
    if path.stat().st_size == 0:
        raise QuestionnaireError(name, "is empty (0 bytes)", "download the solicitation again")
    limits = limits or Limits.from_env()
    if suffix == ".pdf":
        yield from _pdf_pages(path, limits)
    else:
        yield _docx_page(path)


def page_count(path: str | Path) -> int:
    """How many pages :func:`read_pages` will give (a Word file: 1), for a progress bar; 0 when
    the file cannot be opened (then :func:`read_pages` says why, in one line)."""
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        return 1
    import pymupdf  # noqa: PLC0415 (deferred: MuPDF loads only for a PDF)

    try:
        with pymupdf.open(path) as doc:
            return doc.page_count
    except (RuntimeError, ValueError, OSError):
        return 0


def _pdf_pages(path: Path, limits: Limits) -> Iterator[Page]:
    import pymupdf  # noqa: PLC0415 (deferred: MuPDF loads only for a PDF)

    from engine.questionnaire.pdf.reader import open_pdf  # noqa: PLC0415

    doc = open_pdf(path)  # refuses an encrypted or damaged file in one line
    try:
        limits.check_pages(path.name, doc.page_count)
        texted = 0
        for index in range(doc.page_count):
            try:
                raw = doc[index].get_text()
            except (RuntimeError, ValueError) as exc:
                raise QuestionnaireError(
                    path.name,
                    f"page {index + 1} could not be read ({exc})",
                    "open it in a PDF viewer and save it again",
                ) from None
            texted += bool(raw.strip())
            if index % STORE_EVERY == STORE_EVERY - 1:
                pymupdf.TOOLS.store_shrink(100)  # MuPDF's cache of the pages read: emptied, so memory stays flat
            yield page_of(path.name, index + 1, raw)
        if not texted:
            n = doc.page_count
            raise QuestionnaireError(
                path.name,
                f"has no text layer on any of its {n} page{'s' if n > 1 else ''} (scanned images)",
                "run OCR on it (e.g. ocrmypdf) and shred the copy, or ask the buyer for a text PDF or Word file",
            )
    finally:
        doc.close()


def _docx_page(path: Path) -> Page:
    import docx  # noqa: PLC0415 (deferred: only a Word solicitation needs python-docx)
    from docx.opc.exceptions import PackageNotFoundError  # noqa: PLC0415

    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, KeyError, ValueError, OSError) as exc:
        raise QuestionnaireError(
            path.name,
            f"is not a Word document that can be opened ({type(exc).__name__}; encrypted or damaged)",
            "remove the password in Word (File > Info > Protect Document) or save it again as .docx",
        ) from None
    lines = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            for cell in row.cells:
                lines.extend(p.text for p in cell.paragraphs)
    return page_of(path.name, 1, "\n".join(lines), paragraphs=True)
