"""Typed values that cross module boundaries.

Payload dicts exist only at the edges (Qdrant payload, JSON output); inside the engine
everything is one of these frozen dataclasses. The closed sets the review store persists
(``DraftStatus``, ``Action``) have their one home here too, so that storage imports only
engine/core; the drafting records that hold them (``Draft``, ``Citation``) are in
engine/drafting/records.py.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Callable

from engine.core.scopes import Scope

# progress(stage, done, total): long operations report through this; the CLI draws a bar.
Progress = Callable[[str, int, int], None]


def no_progress(stage: str, done: int, total: int) -> None:
    """The default progress callback: report nothing."""


class SourceKind(str, Enum):
    """What a knowledge-base document is, which decides how it is cited."""

    PDF = "pdf"  # cited by page
    DOCX = "docx"  # cited by section (heading path)
    SHEET = "sheet"  # XLSX / XLSM / CSV: cited by sheet and row
    TEXT = "text"  # Markdown / TXT: cited by section
    LIBRARY = "library"  # a past answer of the answer library: cited by file, sheet, row and question ID


class DraftStatus(str, Enum):
    """What became of a question's draft; persisted by the review store (storage/review_store.py),
    so it sits here, below storage and drafting alike (its one home; the drafting records of
    engine/drafting/records.py and the review use it)."""

    DRAFTED = "drafted"
    NO_CONTEXT = "no_context"
    ERROR = "error"
    NOT_REQUIRED = "not_required"  # a qualifier switches its section off (engine/drafting/sections.py): not drafted


class Action(str, Enum):
    """What a reviewer did to a draft; persisted by the review store, defined here beside
    ``DraftStatus`` for the same reason."""

    ACCEPT = "accepted"
    EDIT = "edited"
    NEEDS_SME = "needs_sme"
    REJECT = "rejected"


class FileProblem(Exception):
    """Bad input: the message names the file, the problem and the fix."""

    def __init__(self, file: object, problem: str, fix: str) -> None:
        self.file, self.problem, self.fix = str(file), problem, fix
        super().__init__(f"{self.file}: {problem}. {fix}")

    def __reduce__(self):
        """Pickled whole, whatever the subclass's constructor takes: a file read in a child
        process (engine/app/read_apart.py) raises its one line in the server as it is."""
        return (_rebuilt, (type(self), str(self), dict(self.__dict__)))


def _rebuilt(cls: type[FileProblem], message: str, state: dict) -> FileProblem:
    problem = cls.__new__(cls)
    Exception.__init__(problem, message)
    problem.__dict__.update(state)
    return problem


class StoreDamaged(FileProblem):
    """A file the product keeps (the review store, the knowledge base's manifest or index) that
    cannot be read as a whole. It was left as it was; ``fix`` says how to restore or rebuild it."""


class FolderBusy(FileProblem):
    """A workspace folder another process writes to (the app, or a ``python -m engine`` command
    that writes its stores: storage/folder_lock.py); nothing was done."""

    def __init__(self, folder: object, holder: str, doing: str) -> None:
        super().__init__(
            folder,
            f"{holder} is working on this folder, and {doing} would write its stores beside it",
            f"nothing was changed; close it (or let it finish), then run {doing} again",
        )


class StoreReplaced(FileProblem):
    """A store file (``review.sqlite``, ``library.sqlite``) replaced or moved on disk while this
    process had it open: nothing more is written through the old connection."""

    def __init__(self, path: object) -> None:
        super().__init__(
            path,
            "the file was replaced or moved on disk while the app had it open (by `restore`, or by hand); "
            "nothing more was written to it",
            "restart the app (or the command) to work on the file that is there now",
        )


class IngestError(FileProblem):
    """A file that cannot be indexed."""


class UnreadableFile(IngestError):
    """A Word, PDF or Office package whose structure cannot be read safely, damaged or crafted (a
    corrupt part, tables nested 600 deep, a cell that says it spans 2 billion columns, a page
    tree that loops): refused before any reader allocates for it (engine/core/zip_parts.py,
    word_scan.py, pdf_scan.py), in one line naming the file, what is wrong in a responder's
    words and the fix. An IngestError, so that indexing reports it like any other file it cannot
    take; the questionnaire readers raise it as it is (issue #56)."""


@dataclass(frozen=True)
class Unit:
    """A piece of a source document with exact provenance.

    PDF: one unit per page (``page`` is 1-based, ``text`` is the page text exactly as
    PyMuPDF returns it, so offsets into ``text`` are offsets into the page).
    DOCX / Markdown / TXT: one unit per section, ``section`` is the heading path
    ("Security > Encryption"), or None before the first heading.
    Spreadsheets: one unit per data row as "header: value" lines; ``sheet`` and the
    1-based worksheet ``row``.
    """

    text: str
    page: int | None = None
    sheet: str | None = None
    row: int | None = None
    section: str | None = None


@dataclass(frozen=True)
class LoadedDocument:
    """What a loader returns for one file."""

    name: str  # file name shown in citations (no directories)
    kind: SourceKind
    units: tuple[Unit, ...]
    pages: int | None = None  # PDF page count (including pages without text)
    notes: tuple[str, ...] = ()  # things the user should know: scanned pages, hidden sheets…


@dataclass(frozen=True)
class Chunk:
    """A retrievable span of one document.

    PDF chunks may cross page breaks: ``start`` is the offset into the text of
    ``page_start`` and ``end`` the offset into the text of ``page_end``; for a single-page
    chunk ``page_text[start:end] == text``. For the other kinds the offsets are into the
    text of the unit (section or row) the chunk came from.
    """

    doc: str  # document name
    doc_hash: str  # sha256 of the file bytes
    index: int  # position within the document
    kind: SourceKind
    text: str
    start: int
    end: int
    page_start: int | None = None
    page_end: int | None = None
    page: int | None = None  # the page holding most of the chunk's text (what a citation shows)
    sheet: str | None = None
    row: int | None = None
    section: str | None = None

    @property
    def pages(self) -> tuple[int, ...]:
        if self.page_start is None or self.page_end is None:
            return ()
        return tuple(range(self.page_start, self.page_end + 1))

    def to_dict(self) -> dict:
        """Plain values, for JSON files and the vector store payload."""
        d = asdict(self)
        d["kind"] = self.kind.value
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Chunk:
        fields = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        fields["kind"] = SourceKind(fields["kind"])
        return cls(**fields)


@dataclass(frozen=True)
class Hit:
    """One retrieval result."""

    chunk: Chunk
    score: float

    def to_json(self) -> dict:
        c = self.chunk
        return {
            "file": c.doc,
            "page": c.page,
            "pages": list(c.pages),
            "sheet": c.sheet,
            "row": c.row,
            "section": c.section,
            "score": round(float(self.score), 6),
            "text": c.text,
        }


@dataclass(frozen=True)
class PageMatch:
    """Document Page Finder result: best page and runner-up (1-based)."""

    page: int
    score: float
    runner_up: int | None = None
    runner_up_score: float | None = None


@dataclass(frozen=True)
class DocumentInfo:
    """A document in the knowledge base, as listed by ``kb list``."""

    name: str
    doc_hash: str
    kind: SourceKind
    chunks: int
    added: str  # ISO-8601 UTC
    pages: int | None = None
    source: str | None = None  # path it was added from
    notes: tuple[str, ...] = field(default_factory=tuple)
    scope: Scope = field(default_factory=Scope)  # company-wide, products' or a third party's (engine/core/scopes.py)

    @classmethod
    def from_json(cls, d: dict) -> DocumentInfo:
        return cls(
            name=d["name"],
            doc_hash=d["hash"],
            kind=SourceKind(d["kind"]),
            chunks=d["chunks"],
            added=d["added"],
            pages=d.get("pages"),
            source=d.get("source"),
            notes=tuple(d.get("notes", ())),
            scope=Scope.from_json(d.get("scope")),  # absent in manifests written before scopes: company-wide
        )

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "hash": self.doc_hash,
            "kind": self.kind.value,
            "chunks": self.chunks,
            "pages": self.pages,
            "added": self.added,
            "source": self.source,
            "notes": list(self.notes),
            "scope": self.scope.to_json(),
        }
