"""PDF loader (PyMuPDF): one unit per page that has a text layer."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.limits import Limits
from engine.core.types import IngestError, LoadedDocument, SourceKind, Unit

if TYPE_CHECKING:
    import pymupdf

_OCR_FIX = "run OCR (e.g. ocrmypdf) to index them"


def page_ranges(pages: list[int]) -> str:
    """Compact a sorted list of page numbers: [1, 2, 3, 7] -> "1-3, 7"."""
    parts: list[str] = []
    start = prev = pages[0]
    for p in pages[1:] + [0]:
        if p == prev + 1:
            prev = p
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = p
    return ", ".join(parts)


def _corrupt(name: str) -> IngestError:
    return IngestError(name, "is not a readable PDF (corrupt or truncated)", "re-export or re-download it")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def open_pdf(path: Path, name: str) -> pymupdf.Document:
    """Open ``path`` as a PDF, unlocking it with the empty password if that is enough."""
    import pymupdf  # noqa: PLC0415 (deferred: a command that reads no PDF does not load MuPDF)

    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for damaged files
        raise _corrupt(name) from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise IngestError(
            name,
            "is password-protected (encrypted)",
            "save an unprotected copy (remove the password) and add that",
        )
    return doc


def load(path: Path, name: str, limits: Limits) -> LoadedDocument:
    """Load a PDF: ``Unit(text=page.get_text(), page=n)`` for each page with text (the page
    count is checked against ``limits`` before any text is extracted)."""
    doc = open_pdf(path, name)
    try:
        limits.check_pdf_document(doc, name, form=False)  # its structure and page count, before any text is read
        page_count = doc.page_count
        repaired = doc.is_repaired  # MuPDF had to rebuild a damaged file
        texts = [page.get_text() for page in doc]
    except IngestError:
        raise
    except Exception as exc:
        raise _corrupt(name) from exc
    finally:
        doc.close()
    if page_count == 0:
        raise _corrupt(name)

    units = tuple(Unit(text=t, page=i) for i, t in enumerate(texts, 1) if t.strip())
    scanned = [i for i, t in enumerate(texts, 1) if not t.strip()]
    if not units and repaired:
        raise _corrupt(name)
    if not units:
        raise IngestError(
            name,
            f"has no text layer on any of its {_plural(page_count, 'page')} (scanned images)",
            "run OCR (e.g. ocrmypdf) on it and add the searchable copy",
        )
    notes: list[str] = []
    if repaired:
        notes.append(
            "the file is damaged and was repaired on opening, so text may be missing; re-export or re-download it"
        )
    if scanned:
        label, verb = ("page", "has") if len(scanned) == 1 else ("pages", "have")
        notes.append(
            f"{label} {page_ranges(scanned)} of {page_count} {verb} no text layer (scanned images); {_OCR_FIX}"
        )
    return LoadedDocument(name=name, kind=SourceKind.PDF, units=units, pages=page_count, notes=tuple(notes))
