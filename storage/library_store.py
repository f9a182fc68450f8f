"""The answer library's store: one SQLite file (``library.sqlite`` in the store folder) holding
every past answer with its question's dense vector (float32 bytes, beside the name of the
embedder that made it, so a change of embedder is noticed and the vectors re-made). No pickle;
``PRAGMA user_version`` holds the schema version.

Imported entries mirror their file, identified by its path and its content (SHA-256), not by
its bare name: importing a file again (the same path, or the same bytes from elsewhere) replaces
its entries, while ``custB/HECVAT.xlsx`` leaves those of ``custA/HECVAT.xlsx`` alone. Entries
recorded from reviews (``origin = review``) are kept by imports and updated in place when the
same question (text, file, sheet, row) is decided again.

Entries carry the product they answered for (``product``; None: company-wide, engine/core/scopes.py).

Governance (#39): each entry has an ``owner``, the date of the questionnaire it answered
(``dated``, and ``dated_from``: where that date came from, :class:`Dated`), an explicit
``review_by`` date when one was set (None: the questionnaire's date plus the library's period,
engine/index/library.py ``LibraryPolicy``), and ``pending`` (an answer accepted in a review,
waiting for its owner or a lead to approve it: never reused until then). Every change to the
library (import, record, write, approve, retire, owner, renew) appends one row to ``changes`` with who
and when; no row there is ever updated or deleted, and an entry replaced by a re-import keeps
its rows (its last one says it was replaced; an id is never given to another entry).

Schema versions: 1 identified imports by file name only and had no product; 2 added the
``product`` column; 3 added ``source`` and ``sha256``; 4 adds ``owner``, ``dated``,
``dated_from``, ``review_by``, ``pending`` and the ``changes`` table; 5 adds ``language`` (the
language the entry is written in, a code: "en", "de"…; None where no version detected it: the
library detects it on read, engine/index/library.py ``entry_language``), ``question_en`` and
``answer_en`` (an entry in another language than the company's: the English question it was
drafted as and the English text its answer was translated from, issue #58). Opening an older file adds
whichever columns it lacks (empty for the old entries, which a later import of a file of the
same name still replaces, as before; version-4 columns: no owner, dated their ``imported`` day
(``dated_from`` "import"), no explicit review-by date, not pending; version-5 columns: no language
stored, no English text), creates ``changes`` and sets the current version, in one transaction. (A development build of #16 wrote a version 2 with ``source``
and ``sha256`` but no ``product``: it is upgraded the same way, since the columns present are
read from the file, not assumed from its version.)

What is promised for a file that is there (the file, or only its ``-wal``): it is checked
before anything opens it for writing (``storage.sqlite.inspect``: its bytes, SQLite's integrity
check on a copy of it and its ``-wal``, every record read through, the schema version, the
``entries`` table). A damaged one — emptied beside its ``-wal``, a ``-wal`` without its file,
truncated, garbage, bytes overwritten inside a record (text that is no longer UTF-8) — raises
:class:`LibraryStoreDamaged`, which names the file, the problem and ``python -m engine restore
--store FOLDER`` (``storage/snapshots.py`` keeps ``backups/library-<time>.sqlite``), or, with no
snapshot, how to keep the bytes for ``sqlite3 library.sqlite .recover``. A damaged file is never
"no library" and never replaced by a new empty one: not one byte of it or of its ``-wal`` is
changed. A file that SQLite finds malformed later, or a record that does not read, while it is
open, raises the same error instead of ``sqlite3.DatabaseError``. Only a folder with neither the file nor its ``-wal``
(:func:`present`) has no library; a new one is made there when one is asked for.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from engine.core.location import Location
from engine.core.types import StoreDamaged
from storage.sqlite import FileIdentity, close, connect, inspect, restore_fix, transaction, undecodable

LIBRARY_DB = "library.sqlite"  # its name in a store folder
# 2 added entries.product, 3 entries.source and entries.sha256, 4 the governance columns and the
# changes table, 5 the language columns (older files upgraded in place)
SCHEMA_VERSION = 5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    question TEXT NOT NULL,
    choice TEXT,
    answer TEXT NOT NULL,
    comment TEXT,
    file TEXT NOT NULL,
    sheet TEXT NOT NULL,
    row INTEGER NOT NULL,
    qid TEXT,
    imported TEXT NOT NULL,
    origin TEXT NOT NULL,
    retired INTEGER NOT NULL DEFAULT 0,
    embedder TEXT NOT NULL,
    vector BLOB NOT NULL,
    product TEXT,
    source TEXT,
    sha256 TEXT,
    owner TEXT,
    dated TEXT,
    dated_from TEXT,
    review_by TEXT,
    pending INTEGER NOT NULL DEFAULT 0,
    language TEXT,
    question_en TEXT,
    answer_en TEXT
);
CREATE INDEX IF NOT EXISTS entries_by_file ON entries(file, origin);
"""
_CHANGES = """
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY,
    entry INTEGER NOT NULL,
    action TEXT NOT NULL,
    by TEXT NOT NULL,
    at TEXT NOT NULL,
    detail TEXT
);
CREATE INDEX IF NOT EXISTS changes_by_entry ON changes(entry);
"""
_TABLES = ("entries",)  # in every version
_ADDED_COLUMNS = {  # added by versions 2 to 5; NULL (pending: 0) for older entries
    "product": "TEXT",
    "source": "TEXT",
    "sha256": "TEXT",
    "owner": "TEXT",
    "dated": "TEXT",
    "dated_from": "TEXT",
    "review_by": "TEXT",
    "pending": "INTEGER NOT NULL DEFAULT 0",
    "language": "TEXT",
    "question_en": "TEXT",
    "answer_en": "TEXT",
}
_COLUMNS = (
    "id, question, choice, answer, comment, file, sheet, row, qid, imported, origin, retired, product, source, sha256, "
    "owner, dated, dated_from, review_by, pending, language, question_en, answer_en"
)


class LibraryStoreError(Exception):
    """The library database cannot be used; the message says why and what to do."""


class LibraryStoreDamaged(LibraryStoreError, StoreDamaged):
    """An existing answer library (or its ``-wal``) that cannot be read as a whole; nothing was
    written to it. ``damage`` is the problem found, in a phrase."""

    def __init__(self, path: Path, damage: str) -> None:
        self.damage = damage
        fix = restore_fix(path, "library", "a new answer library")
        StoreDamaged.__init__(self, path, f"the answer library is damaged: {damage}; nothing was changed", fix)


def present(path: Path) -> bool:
    """Whether there is a library at ``path``: the file, or only its ``-wal`` (damage, never
    "no library")."""
    return path.exists() or path.with_name(path.name + "-wal").exists()


class Origin(str, Enum):
    """Where an entry came from."""

    IMPORT = "import"  # a past filled questionnaire
    REVIEW = "review"  # an answer a reviewer accepted or edited
    WRITTEN = "written"  # written in the library by hand (a gap's answer, #51)


class Dated(str, Enum):
    """Where an entry's questionnaire date (``LibraryEntry.dated``) came from."""

    GIVEN = "given"  # the importer gave it (``library import --date``)
    WORKBOOK = "workbook"  # the workbook's own "modified" date (its document properties)
    IMPORT = "import"  # the day it was imported (neither of the above; entries older than schema 4)
    REVIEW = "review"  # the day a reviewer accepted it in a questionnaire
    WRITTEN = "written"  # the day it was written in the library


class Change(str, Enum):
    """What a row of the library's ``changes`` records."""

    IMPORT = "import"
    REPLACED = "replaced"  # by a re-import of its file (the entry is gone; its rows stay)
    RECORD = "record"  # accepted in a review (pending or not: the detail says)
    WRITE = "write"  # written in the library by hand
    APPROVE = "approve"
    RETIRE = "retire"
    RESTORE = "restore"  # retired, then brought back
    OWNER = "owner"
    RENEW = "renew"
    # changes to the library as a whole (entry :data:`LIBRARY_WIDE`), the detail naming the product
    RETIRE_PRODUCT = "retire-product"  # a product named as no longer sold (LibraryPolicy.retired_products)
    RESTORE_PRODUCT = "restore-product"  # a product sold again


LIBRARY_WIDE = 0  # the entry of a change to the library as a whole (no entry has id 0)


@dataclass(frozen=True)
class LibraryChange:
    """One change to an entry (or to the library as a whole: :data:`LIBRARY_WIDE`): what, by
    whom, when (UTC, ISO seconds) and its detail."""

    id: int
    entry: int
    action: Change
    by: str
    at: str
    detail: str | None

    def to_json(self) -> dict:
        return asdict(self) | {"action": self.action.value}


def now() -> str:
    """The time a change is recorded at: UTC, ISO 8601 to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class LibraryEntry:
    """One past answer. ``answer`` is the explanation text (the comment column of a dropdown
    question, or the answer cell of a free-text one); ``choice`` the dropdown value; ``comment``
    a further note when the source has one. ``imported`` is the ISO date it was imported or
    recorded. ``id`` is 0 until stored. ``source`` (the path it was imported from) and
    ``sha256`` (of that file's bytes) identify the file of an imported entry. ``owner``, ``dated``
    (ISO date of its questionnaire), ``dated_from``, ``review_by`` (an explicit ISO date, None:
    the library's period after ``dated``) and ``pending`` govern it (the module docstring)."""

    id: int
    question: str
    choice: str | None
    answer: str
    comment: str | None
    file: str
    sheet: str
    row: int
    qid: str | None
    imported: str
    origin: Origin
    retired: bool = False
    product: str | None = None  # the product it answered for; None: company-wide (engine/core/scopes.py)
    source: str | None = None
    sha256: str | None = None
    owner: str | None = None
    dated: str | None = None
    dated_from: Dated | None = None
    review_by: str | None = None
    pending: bool = False
    # issue #58: the language it is written in (a code; None: not stored, detected on read by
    # engine/index/library.py), and for an entry in another language than the company's the English
    # question it was drafted as (what it is matched by) and the English text its answer was translated from
    language: str | None = None
    question_en: str | None = None
    answer_en: str | None = None

    @property
    def matched_by(self) -> str:
        """The question text the library matches it by: its English wording when it has one (an
        answer accepted in a German questionnaire is found for the same question in any language,
        each asked in English), else its own."""
        return self.question_en or self.question

    def to_json(self) -> dict:
        d = asdict(self)
        d["origin"] = self.origin.value
        d["dated_from"] = self.dated_from.value if self.dated_from else None
        return d

    @property
    def location(self) -> Location:
        """Where this past answer is cited: file, sheet, row and question ID."""
        return Location.past_answer(self.file, self.sheet, self.row, self.qid)

    @property
    def place(self) -> tuple[str, int, str, str]:
        """What identifies the same past answer across re-imports (retirement survives them)."""
        return (self.sheet, self.row, self.question, f"{self.choice}\x00{self.answer}")


def _entry(row: tuple) -> LibraryEntry:
    (i, question, choice, answer, comment, file, sheet, r, qid, imported, origin, retired, product, source, sha256) = (
        row[:15]
    )
    owner, dated, dated_from, review_by, pending, language, question_en, answer_en = row[15:23]
    return LibraryEntry(
        i,
        question,
        choice,
        answer,
        comment,
        file,
        sheet,
        r,
        qid,
        imported,
        Origin(origin),
        bool(retired),
        product,
        source,
        sha256,
        owner,
        dated or imported,
        Dated(dated_from) if dated_from else (Dated.REVIEW if origin == Origin.REVIEW.value else Dated.IMPORT),
        review_by,
        bool(pending),
        language,
        question_en,
        answer_en,
    )


class LibraryStore:
    """Thread-safe (one connection, one lock): the drafting thread matches while a screen imports."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        found = inspect(self.path, _TABLES)  # before anything may write to the file
        if found.problem:
            raise LibraryStoreDamaged(self.path, found.problem)
        if found.version > SCHEMA_VERSION:
            raise LibraryStoreError(
                f"{self.path} has library schema {found.version}, this version reads {SCHEMA_VERSION}; "
                "use the version that wrote it (nothing was changed)"
            )
        self._db, version = connect(
            self.path, LibraryStoreError, "an answer-library database ({exc}); move it away and import the files again"
        )
        self._lock = threading.RLock()
        self._opened = FileIdentity.of(self.path)  # a file replaced under it is noticed before a write
        self._writes = 0
        if version == 0:
            self._db.executescript(_SCHEMA + _CHANGES + f"PRAGMA user_version={SCHEMA_VERSION};")
        elif version < SCHEMA_VERSION:
            self._upgrade()

    def _upgrade(self) -> None:
        """Bring a version 1 to 4 file to the current schema: add the columns it lacks and the
        ``changes`` table, in one transaction (another process may have done it meanwhile: then
        nothing is left to do). The old entries' values are read as the module docstring says;
        no row is rewritten."""
        with transaction(self._db, self._lock, self._opened) as db:
            if db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
                return
            present = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
            for column, kind in _ADDED_COLUMNS.items():
                if column not in present:
                    db.execute(f"ALTER TABLE entries ADD COLUMN {column} {kind}")
            for statement in filter(str.strip, _CHANGES.split(";")):
                db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        close(self._db)

    def backup_to(self, target: Path) -> None:
        """A consistent copy of the whole library at ``target`` (SQLite's online backup API: a
        drafting thread may match meanwhile): what storage/snapshots.py keeps."""
        dest = sqlite3.connect(target)
        try:
            with self._reading():
                self._db.backup(dest)
        finally:
            dest.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._reading():
            with transaction(self._db, self._lock, self._opened) as db:
                yield db
            self._writes += 1  # PRAGMA data_version does not count this connection's own commits

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """The lock held; SQLite's "malformed" or "not a database" (the file damaged while open)
        raised as :class:`LibraryStoreDamaged`, which names the file and the way back."""
        with self._lock:
            try:
                yield
            except sqlite3.DatabaseError as exc:
                if type(exc) is not sqlite3.DatabaseError and not undecodable(exc):  # locked, constraint…: not damage
                    raise
                raise LibraryStoreDamaged(self.path, inspect(self.path, _TABLES).problem or str(exc)) from None

    def version(self) -> tuple[int, int]:
        """Changes whenever the entries change, by this connection or another process."""
        with self._reading():
            return self._db.execute("PRAGMA data_version").fetchone()[0], self._writes

    # ---- reading -----------------------------------------------------------------------------
    def entries(self, include_retired: bool = False, include_pending: bool = False) -> list[LibraryEntry]:
        """The entries, oldest first: the active ones (approved, not retired), with the retired
        and the pending ones when asked."""
        where = " AND ".join(
            w for w, skip in (("retired = 0", include_retired), ("pending = 0", include_pending)) if not skip
        )
        with self._reading():
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM entries{f' WHERE {where}' if where else ''} ORDER BY id"
            ).fetchall()
        return [_entry(r) for r in rows]

    def entry(self, entry_id: int) -> LibraryEntry:
        with self._reading():
            row = self._db.execute(f"SELECT {_COLUMNS} FROM entries WHERE id = ?", (entry_id,)).fetchone()
        if row is None:
            raise LibraryStoreError(f"no library entry {entry_id} in {self.path}; list them with `library list --all`")
        return _entry(row)

    def entry_at(self, file: str, sheet: str | None, row: int | None) -> LibraryEntry | None:
        """The newest entry (retired or not) from ``file``, ``sheet``, ``row``; None when none."""
        with self._reading():
            found = self._db.execute(
                f"SELECT {_COLUMNS} FROM entries WHERE file = ? AND sheet IS ? AND row IS ? ORDER BY id DESC LIMIT 1",
                (file, sheet, row),
            ).fetchone()
        return _entry(found) if found else None

    def vectors(self, include_retired: bool = False) -> tuple[list[LibraryEntry], list[str], list[bytes]]:
        """The entries that may be reused (never a pending one), with the embedder name and raw
        float32 bytes of each question vector."""
        where = " WHERE pending = 0" if include_retired else " WHERE retired = 0 AND pending = 0"
        with self._reading():
            rows = self._db.execute(f"SELECT {_COLUMNS}, embedder, vector FROM entries{where} ORDER BY id").fetchall()
        return [_entry(r[:-2]) for r in rows], [r[-2] for r in rows], [r[-1] for r in rows]

    def changes(self, entry_id: int | None = None) -> list[LibraryChange]:
        """The recorded changes, oldest first: of one entry, or of the whole library."""
        where, args = ("WHERE entry = ? ", (entry_id,)) if entry_id is not None else ("", ())
        with self._reading():
            rows = self._db.execute(
                f"SELECT id, entry, action, by, at, detail FROM changes {where}ORDER BY id", args
            ).fetchall()
        return [LibraryChange(i, e, Change(a), by, at, d) for i, e, a, by, at, d in rows]

    # ---- writing -----------------------------------------------------------------------------
    def replace_file(
        self,
        file: str,
        source: str,
        sha256: str,
        entries: Sequence[LibraryEntry],
        vectors: np.ndarray,
        embedder: str,
        by: str,
    ) -> int:
        """Put ``entries`` (imported from ``source``, a file whose bytes have ``sha256``, shown as
        ``file``) in place of every entry imported before from the same path or the same bytes
        (and of the entries of schema 1, which have neither, imported from a file named ``file``);
        an entry identical to one retired before stays retired. ``by`` imported it: one change
        per new entry, one per replaced one. Returns how many were replaced."""
        same = "origin = ? AND (source = ? OR sha256 = ? OR (source IS NULL AND sha256 IS NULL AND file = ?))"
        args = (Origin.IMPORT.value, source, sha256, file)
        at = now()
        with self._tx() as db:
            old = [_entry(r) for r in db.execute(f"SELECT {_COLUMNS} FROM entries WHERE {same}", args)]
            retired = {e.place for e in old if e.retired}
            db.execute(f"DELETE FROM entries WHERE {same}", args)
            for e in old:
                self._log(db, e.id, Change.REPLACED, by, f"re-import of {file}", at)
            for e, v in zip(entries, vectors):
                e = replace(e, retired=e.retired or e.place in retired, source=source, sha256=sha256)
                entry_id = self._insert(db, e, v, embedder)
                dated = f"{e.dated or e.imported} ({(e.dated_from or Dated.IMPORT).value})"
                detail = f"from {file}, {e.sheet} row {e.row}; owner {e.owner or '(none)'}; dated {dated}"
                self._log(db, entry_id, Change.IMPORT, by, detail + ("; retired as before" if e.retired else ""), at)
        return len(old)

    def upsert_review(self, entry: LibraryEntry, vector: np.ndarray, embedder: str, by: str) -> LibraryEntry:
        """Add a reviewed answer, or update the review entry of the same question, file, sheet and
        row (its owner kept when it has one; pending again when ``entry`` is); ``by`` accepted it."""
        with self._tx() as db:
            row = db.execute(
                "SELECT id FROM entries WHERE origin = ? AND question = ? AND file = ? AND sheet = ? AND row = ?",
                (Origin.REVIEW.value, entry.question, entry.file, entry.sheet, entry.row),
            ).fetchone()
            if row is None:
                entry_id = self._insert(db, entry, vector, embedder)
            else:
                entry_id = row[0]
                db.execute(
                    "UPDATE entries SET choice = ?, answer = ?, comment = ?, qid = ?, imported = ?, "
                    "retired = 0, embedder = ?, vector = ?, product = ?, owner = COALESCE(owner, ?), dated = ?, "
                    "dated_from = ?, review_by = ?, pending = ?, language = ?, question_en = ?, answer_en = ? WHERE id = ?",
                    (
                        entry.choice,
                        entry.answer,
                        entry.comment,
                        entry.qid,
                        entry.imported,
                        embedder,
                        _blob(vector),
                        entry.product,
                        entry.owner,
                        entry.dated,
                        entry.dated_from.value if entry.dated_from else None,
                        entry.review_by,
                        int(entry.pending),
                        entry.language,
                        entry.question_en,
                        entry.answer_en,
                        entry_id,
                    ),
                )
            said = " — ".join(x for x in (entry.choice, entry.answer) if x)
            state = "pending approval" if entry.pending else "in use at once"
            self._log(db, entry_id, Change.RECORD, by, f"{said[:200]} ({state}; from {entry.file})", now())
        return self.entry(entry_id)

    def add_written(self, entry: LibraryEntry, vector: np.ndarray, embedder: str, by: str) -> LibraryEntry:
        """Add an entry written by hand (``origin = written``); its row is its id, so that a
        citation of it (file, sheet, row) names it alone. ``by`` wrote it."""
        with self._tx() as db:
            entry_id = self._insert(db, entry, vector, embedder)
            db.execute("UPDATE entries SET row = ? WHERE id = ?", (entry_id, entry_id))
            said = " — ".join(x for x in (entry.choice, entry.answer) if x)
            self._log(
                db, entry_id, Change.WRITE, by, f"{said[:200]} (product {entry.product or 'company-wide'})", now()
            )
        return self.entry(entry_id)

    def set_retired(self, entry_id: int, by: str, retired: bool = True) -> LibraryEntry:
        """Retire the entry (kept, never matched again), or bring it back."""
        return self._change(entry_id, by, Change.RETIRE if retired else Change.RESTORE, "retired = ?", int(retired))

    def approve(self, entry_id: int, by: str) -> LibraryEntry:
        """A pending entry approved: reused from now on. An entry not pending: a clear error."""
        if not self.entry(entry_id).pending:
            raise LibraryStoreError(f"library entry {entry_id} is not pending; nothing to approve")
        return self._change(entry_id, by, Change.APPROVE, "pending = ?", 0)

    def set_owner(self, entry_id: int, owner: str, by: str) -> LibraryEntry:
        before = self.entry(entry_id).owner
        return self._change(entry_id, by, Change.OWNER, "owner = ?", owner, f"{before or '(none)'} → {owner}")

    def renew(self, entry_id: int, review_by: str, by: str) -> LibraryEntry:
        """Set the entry's review-by date (ISO), checked and kept as it is."""
        before = self.entry(entry_id).review_by or "the period after its date"
        return self._change(
            entry_id, by, Change.RENEW, "review_by = ?", review_by, f"review by {review_by} (was {before})"
        )

    def _change(
        self, entry_id: int, by: str, action: Change, assignment: str, value, detail: str | None = None
    ) -> LibraryEntry:
        """One column of one entry set, and the change appended, in one transaction."""
        self.entry(entry_id)  # a clear error for an unknown id
        with self._tx() as db:
            db.execute(f"UPDATE entries SET {assignment} WHERE id = ?", (value, entry_id))
            self._log(db, entry_id, action, by, detail, now())
        return self.entry(entry_id)

    def log_products(self, action: Change, products: Sequence[str], by: str) -> None:
        """A change to the library as a whole recorded for each of ``products`` (one transaction)."""
        at = now()
        with self._tx() as db:
            for product in products:
                self._log(db, LIBRARY_WIDE, action, by, product, at)

    @staticmethod
    def _log(db: sqlite3.Connection, entry_id: int, action: Change, by: str, detail: str | None, at: str) -> None:
        db.execute(
            "INSERT INTO changes (entry, action, by, at, detail) VALUES (?, ?, ?, ?, ?)",
            (entry_id, action.value, by, at, detail),
        )

    def set_vectors(self, ids: Sequence[int], vectors: np.ndarray, embedder: str) -> None:
        with self._tx() as db:
            db.executemany(
                "UPDATE entries SET embedder = ?, vector = ? WHERE id = ?",
                [(embedder, _blob(v), i) for i, v in zip(ids, vectors)],
            )

    @staticmethod
    def _insert(db: sqlite3.Connection, e: LibraryEntry, vector: np.ndarray, embedder: str) -> int:
        """A new entry, with an id no entry ever had (SQLite would reuse a deleted entry's, whose
        changes are kept: the new entry would inherit a history that is not its own)."""
        (last,) = db.execute(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM entries), 0), COALESCE((SELECT MAX(entry) FROM changes), 0))"
        ).fetchone()
        cur = db.execute(
            "INSERT INTO entries (id, question, choice, answer, comment, file, sheet, row, qid, imported, origin, "
            "retired, embedder, vector, product, source, sha256, owner, dated, dated_from, review_by, pending, language, "
            "question_en, answer_en) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                last + 1,
                e.question,
                e.choice,
                e.answer,
                e.comment,
                e.file,
                e.sheet,
                e.row,
                e.qid,
                e.imported,
                e.origin.value,
                int(e.retired),
                embedder,
                _blob(vector),
                e.product,
                e.source,
                e.sha256,
                e.owner,
                e.dated or e.imported,
                e.dated_from.value if e.dated_from else None,
                e.review_by,
                int(e.pending),
                e.language,
                e.question_en,
                e.answer_en,
            ),
        )
        return int(cur.lastrowid)


def _blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def unblob(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype="<f4")
