"""Turn a source file into a :class:`~engine.core.types.LoadedDocument`.

``load_document`` does the checks common to every format (name, existence, size,
extension) and hands the file to the loader registered for its extension, which checks the
size limits of its format before parsing (:mod:`engine.core.limits`); the characters of the loaded
text are checked last. Every failure is an :class:`~engine.core.types.IngestError` naming the file,
the problem and the fix.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path, PurePosixPath, PureWindowsPath

from engine.core.limits import Limits
from engine.core.types import IngestError, LoadedDocument
from engine.ingest import docx as docx_loader
from engine.ingest import pdf as pdf_loader
from engine.ingest import sheet as sheet_loader
from engine.ingest import text as text_loader

Loader = Callable[[Path, str, Limits], LoadedDocument]

_LOADERS: dict[str, Loader] = {
    ".pdf": pdf_loader.load,
    ".docx": docx_loader.load,
    ".xlsx": sheet_loader.load_workbook_file,
    ".xlsm": sheet_loader.load_workbook_file,
    ".csv": sheet_loader.load_csv,
    ".md": text_loader.load,
    ".markdown": text_loader.load,
    ".txt": text_loader.load,
}

SUPPORTED_EXTENSIONS: tuple[str, ...] = tuple(_LOADERS)

__all__ = ["SUPPORTED_EXTENSIONS", "load_document", "validate_name"]


def _shown(name: str) -> str:
    """The name with control characters escaped, safe to put in a one-line message."""
    if not name:
        return '""'
    return "".join(c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) == "Cc" else c for c in name)


def validate_name(name: str) -> str:
    """Return ``name`` if it is a plain file name (no directories), else raise IngestError."""
    bad = (
        name in ("", ".", "..")
        or "/" in name
        or "\\" in name
        or (len(name) >= 2 and name[1] == ":" and name[0].isalpha())  # C:x.pdf
        or any(unicodedata.category(c) == "Cc" for c in name)
    )
    if bad:
        plain = PureWindowsPath(PurePosixPath(name.replace("\\", "/")).name).name
        plain = "".join(c for c in plain if unicodedata.category(c) != "Cc").strip(". ")
        raise IngestError(
            _shown(name),
            "the name contains a path, control characters or is empty; a document name must be a plain file name",
            f"rename the file to a plain name such as {plain or 'document.pdf'}",
        )
    return name


def _extension(path: Path, name: str) -> str:
    """The extension that picks the loader: the path's, or the name's if the path has none."""
    return (path.suffix or Path(name).suffix).lower()


def load_document(path: Path, name: str | None = None, limits: Limits | None = None) -> LoadedDocument:
    """Load ``path`` (shown to the user as ``name``, default ``path.name``) into units, within
    ``limits`` (default: the ``RFP_MAX_*`` environment variables, else the defaults)."""
    path = Path(path)
    name = validate_name(path.name if name is None else name)
    if not path.exists():
        raise IngestError(name, f"file not found at {path}", "check the path and add it again")
    if not path.is_file():
        raise IngestError(name, f"{path} is not a file", "add a file, not a folder")
    if path.stat().st_size == 0:
        raise IngestError(name, "is empty (0 bytes)", "re-export or re-download it; the copy may be incomplete")
    ext = _extension(path, name)
    loader = _LOADERS.get(ext)
    if loader is None:
        shown_ext = ext or "(no extension)"
        raise IngestError(
            name,
            f"has an unsupported file type {shown_ext} (supported: {', '.join(SUPPORTED_EXTENSIONS)})",
            "convert it to PDF or save it as .xlsx/.csv, .docx or .md/.txt and add that",
        )
    limits = limits or Limits.from_env()
    doc = loader(path, name, limits)
    limits.check_text(name, (unit.text for unit in doc.units))
    return doc
