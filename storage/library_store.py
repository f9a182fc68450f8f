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

Schema versions: 1 identified imports by file name only and had no product; 2 added the
``product`` column; 3 adds ``source`` and ``sha256``. Opening a version-1 or version-2 file
adds whichever of the three columns it lacks (empty for the old entries, which a later import
of a file of the same name still replaces, as before) and sets version 3. (A development build
of #16 wrote a version 2 with ``source`` and ``sha256`` but no ``product``: it is upgraded the
same way, since the columns present are read from the file, not assumed from its version.)

What is promised for a file that is there (the file, or only its ``-wal``): it is checked
before anything opens it for writing (``storage.sqlite.inspect``: its bytes, ``PRAGMA
quick_check`` on a copy of it and its ``-wal``, the schema version, the ``entries`` table). A
damaged one — emptied beside its ``-wal``, a ``-wal`` without its file, truncated, garbage —
raises :class:`LibraryStoreDamaged`, which names the file, the problem and ``python -m engine
restore --store FOLDER`` (``storage/snapshots.py`` keeps ``backups/library-<time>.sqlite``), or,
with no snapshot, how to keep the bytes for ``sqlite3 library.sqlite .recover``. A damaged file is
never "no library" and never replaced by a new empty one: not one byte of it or of its ``-wal``
is changed. A file that SQLite finds malformed later, while it is open, raises the same error
instead of ``sqlite3.DatabaseError``. Only a folder with neither the file nor its ``-wal``
(:func:`present`) has no library; a new one is made there when one is asked for.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from engine.core.location import Location
from engine.core.types import StoreDamaged
from storage.sqlite import FileIdentity, close, connect, inspect, restore_fix, transaction

LIBRARY_DB = "library.sqlite"  # its name in a store folder
SCHEMA_VERSION = 3  # 2 added entries.product, 3 entries.source and entries.sha256 (older files upgraded in place)

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
    sha256 TEXT
);
CREATE INDEX IF NOT EXISTS entries_by_file ON entries(file, origin);
"""
_TABLES = ("entries",)  # in every version
_ADDED_COLUMNS = ("product", "source", "sha256")  # added by versions 2 and 3, all TEXT, NULL for older entries
_COLUMNS = (
    "id, question, choice, answer, comment, file, sheet, row, qid, imported, origin, retired, product, source, sha256"
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


@dataclass(frozen=True)
class LibraryEntry:
    """One past answer. ``answer`` is the explanation text (the comment column of a dropdown
    question, or the answer cell of a free-text one); ``choice`` the dropdown value; ``comment``
    a further note when the source has one. ``imported`` is the ISO date it was imported or
    recorded. ``id`` is 0 until stored. ``source`` (the path it was imported from) and
    ``sha256`` (of that file's bytes) identify the file of an imported entry."""

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

    def to_json(self) -> dict:
        d = asdict(self)
        d["origin"] = self.origin.value
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
    i, question, choice, answer, comment, file, sheet, r, qid, imported, origin, retired, product, source, sha256 = row
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
            self._db.executescript(_SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION};")
        elif version < SCHEMA_VERSION:
            self._upgrade()

    def _upgrade(self) -> None:
        """Bring a version 1 or 2 file to the current schema: add the columns it lacks, in one
        transaction (another process may have done it meanwhile: then nothing is left to do)."""
        with transaction(self._db, self._lock, self._opened) as db:
            if db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
                return
            present = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
            for column in _ADDED_COLUMNS:
                if column not in present:
                    db.execute(f"ALTER TABLE entries ADD COLUMN {column} TEXT")
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
                if type(exc) is not sqlite3.DatabaseError:  # locked, constraint…: not damage
                    raise
                raise LibraryStoreDamaged(self.path, inspect(self.path, _TABLES).problem or str(exc)) from None

    def version(self) -> tuple[int, int]:
        """Changes whenever the entries change, by this connection or another process."""
        with self._reading():
            return self._db.execute("PRAGMA data_version").fetchone()[0], self._writes

    # ---- reading -----------------------------------------------------------------------------
    def entries(self, include_retired: bool = False) -> list[LibraryEntry]:
        where = "" if include_retired else " WHERE retired = 0"
        with self._reading():
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM entries{where} ORDER BY id").fetchall()
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
        """The entries with the embedder name and raw float32 bytes of each question vector."""
        where = "" if include_retired else " WHERE retired = 0"
        with self._reading():
            rows = self._db.execute(f"SELECT {_COLUMNS}, embedder, vector FROM entries{where} ORDER BY id").fetchall()
        return [_entry(r[:-2]) for r in rows], [r[-2] for r in rows], [r[-1] for r in rows]

    # ---- writing -----------------------------------------------------------------------------
    def replace_file(
        self, file: str, source: str, sha256: str, entries: Sequence[LibraryEntry], vectors: np.ndarray, embedder: str
    ) -> int:
        """Put ``entries`` (imported from ``source``, a file whose bytes have ``sha256``, shown as
        ``file``) in place of every entry imported before from the same path or the same bytes
        (and of the entries of schema 1, which have neither, imported from a file named ``file``);
        an entry identical to one retired before stays retired. Returns how many were replaced."""
        same = "origin = ? AND (source = ? OR sha256 = ? OR (source IS NULL AND sha256 IS NULL AND file = ?))"
        args = (Origin.IMPORT.value, source, sha256, file)
        with self._tx() as db:
            old = [_entry(r) for r in db.execute(f"SELECT {_COLUMNS} FROM entries WHERE {same}", args)]
            retired = {e.place for e in old if e.retired}
            db.execute(f"DELETE FROM entries WHERE {same}", args)
            for e, v in zip(entries, vectors):
                self._insert(
                    db, replace(e, retired=e.retired or e.place in retired, source=source, sha256=sha256), v, embedder
                )
        return len(old)

    def upsert_review(self, entry: LibraryEntry, vector: np.ndarray, embedder: str) -> LibraryEntry:
        """Add a reviewed answer, or update the review entry of the same question, file, sheet and row."""
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
                    "retired = 0, embedder = ?, vector = ?, product = ? WHERE id = ?",
                    (
                        entry.choice,
                        entry.answer,
                        entry.comment,
                        entry.qid,
                        entry.imported,
                        embedder,
                        _blob(vector),
                        entry.product,
                        entry_id,
                    ),
                )
        return self.entry(entry_id)

    def set_retired(self, entry_id: int, retired: bool = True) -> LibraryEntry:
        self.entry(entry_id)  # a clear error for an unknown id
        with self._tx() as db:
            db.execute("UPDATE entries SET retired = ? WHERE id = ?", (int(retired), entry_id))
        return self.entry(entry_id)

    def set_vectors(self, ids: Sequence[int], vectors: np.ndarray, embedder: str) -> None:
        with self._tx() as db:
            db.executemany(
                "UPDATE entries SET embedder = ?, vector = ? WHERE id = ?",
                [(embedder, _blob(v), i) for i, v in zip(ids, vectors)],
            )

    @staticmethod
    def _insert(db: sqlite3.Connection, e: LibraryEntry, vector: np.ndarray, embedder: str) -> int:
        cur = db.execute(
            "INSERT INTO entries (question, choice, answer, comment, file, sheet, row, qid, imported, origin, "
            "retired, embedder, vector, product, source, sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
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
            ),
        )
        return int(cur.lastrowid)


def _blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def unblob(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype="<f4")
