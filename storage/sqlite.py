"""What the SQLite stores share: one connection per file (WAL, shared by threads under a lock,
explicit transactions), the schema version in ``PRAGMA user_version``, and :func:`inspect`, the
check of an existing file (and its ``-wal``) made before anything opens it for writing.

What the check reads: the SQLite header and whole pages, then SQLite's own check (``PRAGMA
integrity_check``, indexes against their tables included, for a file up to
:data:`FULL_CHECK_BYTES`; ``quick_check`` above), then every record of every table read through
as the stores read them: a record SQLite's checks pass but that does not read (text that is not
UTF-8, from bytes overwritten inside it) is damage like the rest, found before anything writes.

Why the check works on a copy: SQLite itself, asked to open a damaged file, may change it even
read-only (a 0-byte main file opened with ``mode=ro`` has its ``-wal`` deleted, SQLite 3.40), and
a connection that can write folds the ``-wal`` into the main file. The copy is made in a
temporary folder, so the files being checked are only read.

A store is never opened through a link: a path (or its ``-wal``/``-shm``) that is a symbolic link,
a folder or anything but a regular file is a problem :func:`inspect` names, and :func:`connect`
refuses it (SQLite itself follows links, and creates the file a dangling link points to)."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from engine.core.files import NotRegularFile, not_regular
from engine.core.types import StoreReplaced

HEADER = b"SQLite format 3\x00"
FULL_CHECK_BYTES = 64 * 1024 * 1024  # up to this size, PRAGMA integrity_check; above, quick_check
SIDE_FILES = ("-wal", "-shm")  # what SQLite keeps beside a WAL database


@dataclass(frozen=True)
class Inspection:
    """What :func:`inspect` found: ``problem`` (a phrase) when the file cannot be used as a
    whole; ``exists`` False for a new database (nothing there yet)."""

    exists: bool
    version: int = 0
    problem: str | None = None


def side_files(path: Path) -> list[Path]:
    """The ``-wal`` and ``-shm`` files beside ``path`` that exist (a link counts, even a dangling one)."""
    return [p for p in (path.with_name(path.name + s) for s in SIDE_FILES) if os.path.lexists(p)]


def restore_fix(path: Path, kind: str, fresh: str) -> str:
    """The fix of a damaged store's one line: restore its newest snapshot (``backups/KIND-*.sqlite``,
    storage/snapshots.py's names), or, none kept, keep its bytes for a recovery tool and move it
    away to start ``fresh`` (a new review database, a new answer library)."""
    if any((path.parent / "backups").glob(f"{kind}-*.sqlite")):
        return (
            f"Stop the app, then restore the newest snapshot with `python -m engine restore --store {path.parent}` "
            "(`--list` shows them; the damaged file is moved aside, not rewritten)"
        )
    return (
        f"There is no snapshot of it in {path.parent / 'backups'}: keep a copy of the file (and its -wal) "
        f"for a recovery tool such as `sqlite3 {path.name} .recover`, then move them away to start {fresh}"
    )


def inspect(path: Path, tables: Sequence[str] = ()) -> Inspection:
    """Whether the database at ``path`` reads as a whole (that it is a regular file, its bytes,
    then SQLite's check and every record on a copy of it and its ``-wal``: the module docstring),
    its ``user_version``, and that ``tables`` exist once a version is set. Nothing at ``path`` is
    written, created or removed."""
    wal = path.with_name(path.name + "-wal")
    for p in (path, wal, path.with_name(path.name + "-shm")):
        what = not_regular(p)
        if what is not None:
            named = "it" if p == path else f"its {p.name[len(path.name) + 1 :]} file {p.name}"
            return Inspection(
                True, problem=f"{named} is {what}, not a regular file (a store is never opened through one)"
            )
    if not path.exists():
        if wal.exists():
            return Inspection(True, problem=f"the file is missing but its write-ahead log {wal.name} is there")
        return Inspection(False)
    if not path.is_file():
        return Inspection(True, problem="it is not a file")
    size = path.stat().st_size
    if size == 0:
        held = f" while its write-ahead log {wal.name} holds {wal.stat().st_size:,} bytes" if wal.exists() else ""
        return Inspection(True, problem=f"the file is empty (0 bytes){held}")
    head = _read(path, 0, 100)
    if not head.startswith(HEADER):
        return Inspection(
            True, problem=f"it is not an SQLite database (its first bytes are not {HEADER[:-1].decode()!r})"
        )
    page = int.from_bytes(head[16:18], "big") if len(head) >= 18 else 0
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1) or size % page:
        return Inspection(
            True,
            problem=f"the file is truncated or damaged ({size:,} bytes, not a whole number of "
            f"{page or '?'}-byte pages)",
        )
    for _ in range(2):  # a copy taken while another connection checkpoints may be torn: look twice
        problem, check, version, found = _check_copy(path, wal, size <= FULL_CHECK_BYTES)
        if problem is None and check == ["ok"]:
            break
    if problem:
        return Inspection(True, problem=problem)
    if check != ["ok"]:
        rows = [_one_line(c) for c in check[:3]]  # a row may hold several lines ("*** in database main ***\n…")
        return Inspection(True, problem=f"SQLite's integrity check fails ({'; '.join(rows)})")
    missing = [t for t in tables if t not in found]
    if version and missing:
        return Inspection(
            True,
            version,
            f"its table{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            f"{'are' if len(missing) > 1 else 'is'} missing",
        )
    return Inspection(True, version)


def _one_line(text: str, limit: int = 300) -> str:
    """An integrity-check row as one line of at most ``limit`` characters (the error is one line)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _check_copy(path: Path, wal: Path, full: bool) -> tuple[str | None, list[str], int, set[str]]:
    """SQLite's check (``integrity_check`` when ``full``, else ``quick_check``), ``user_version``
    and the tables of a copy of ``path`` and its ``wal`` (a problem phrase when SQLite cannot read
    it, or a record does not read: :func:`_unreadable`)."""
    with tempfile.TemporaryDirectory(prefix="sqlite-check-") as tmp:
        copy = Path(tmp) / path.name
        _copy(path, copy)
        if wal.exists():
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        try:
            db = sqlite3.connect(copy, isolation_level=None)
            try:
                check = [r[0] for r in db.execute(f"PRAGMA {'integrity' if full else 'quick'}_check").fetchall()]
                version = db.execute("PRAGMA user_version").fetchone()[0]
                found = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if check == ["ok"] and (unreadable := _unreadable(db, sorted(found))):
                    return unreadable, check, version, found
            finally:
                db.close()
        except sqlite3.DatabaseError as exc:
            return f"SQLite cannot read it ({exc})", [], 0, set()
    return None, check, version, found


def _unreadable(db: sqlite3.Connection, tables: Sequence[str]) -> str | None:
    """What keeps a record of ``tables`` from reading (every row read through, its text decoded
    as the stores decode it), or None."""
    for table in tables:
        try:
            for _ in db.execute(f'SELECT * FROM "{table}"'):
                pass
        except sqlite3.DatabaseError as exc:
            return f"a record of its table {table} does not read ({undecodable(exc) or _one_line(str(exc))})"
    return None


def undecodable(exc: Exception) -> str | None:
    """For SQLite's "Could not decode to UTF-8" (a record holding bytes that are not text: damage
    inside a record, which SQLite's own checks do not see), a phrase saying so; else None."""
    found = re.match(r"Could not decode to UTF-8 column '([^']*)'", str(exc))
    return f"its {found.group(1)} is not UTF-8 text" if found else None


def connect(path: Path, error: type[Exception], not_ours: str) -> tuple[sqlite3.Connection, int]:
    """A connection to ``path`` (folders created) and its ``user_version``; a file that is not a
    database raises ``error`` with ``not_ours`` (what it should be and the fix) in the message.
    Close it with :func:`close`, which keeps the file pinned while a connection is open."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for p in [path] + [path.with_name(path.name + s) for s in SIDE_FILES]:
        what = not_regular(p)
        if what is not None:
            raise NotRegularFile(p, what)
    try:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise error(f"{path} is not {not_ours.format(exc=exc)}") from None
    _pin(db, path)
    return db, version


# ---- reading a database file this process has open ------------------------------------------------
# POSIX advisory locks belong to the process and the file, not to a descriptor: closing ANY
# descriptor of a database file drops every lock this process's SQLite connections hold on it.
# Another process closing its connection then believes it is the last one, checkpoints and deletes
# the -wal, and the next commit of this process's connection goes into the deleted file: lost. So
# while a connection of this process is open on a file, :func:`inspect` reads it through one
# descriptor opened with the first connection and closed after the last one (never in between).
_pinned: dict[tuple[int, int], list[int]] = {}  # (device, inode) → [descriptor, open connections]
_connections: dict[int, tuple[int, int]] = {}  # id(connection) → the (device, inode) of its file
_pins = threading.Lock()


def _pin(db: sqlite3.Connection, path: Path) -> None:
    found = path.stat()
    key = (found.st_dev, found.st_ino)
    with _pins:
        pinned = _pinned.get(key)
        if pinned is None:
            pinned = _pinned[key] = [os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), 0]
        pinned[1] += 1
        _connections[id(db)] = key


def close(db: sqlite3.Connection) -> None:
    """Close a connection made by :func:`connect` (the file's pinned descriptor goes with the
    last connection of this process)."""
    db.close()
    with _pins:
        key = _connections.pop(id(db), None)
        pinned = _pinned.get(key) if key else None
        if pinned is not None:
            pinned[1] -= 1
            if pinned[1] == 0:
                del _pinned[key]
                os.close(pinned[0])  # no connection of this process is left on the file: no lock to drop


def _descriptor(path: Path) -> int | None:
    """The pinned descriptor of ``path`` while a connection of this process has it open."""
    found = path.stat()
    with _pins:
        pinned = _pinned.get((found.st_dev, found.st_ino))
        return pinned[0] if pinned else None


def _read(path: Path, offset: int, size: int) -> bytes:
    """``size`` bytes of ``path`` from ``offset``, read without closing a descriptor of a file
    this process has open through SQLite."""
    fd = _descriptor(path)
    if fd is not None:
        return os.pread(fd, size, offset)
    with path.open("rb") as f:
        f.seek(offset)
        return f.read(size)


def _copy(path: Path, target: Path) -> None:
    """A copy of ``path`` at ``target``, made as :func:`_read` reads."""
    if _descriptor(path) is None:
        shutil.copyfile(path, target)
        return
    with target.open("wb") as out:
        offset = 0
        while block := _read(path, offset, 1 << 20):
            out.write(block)
            offset += len(block)


@dataclass(frozen=True)
class FileIdentity:
    """Which file a connection opened (device and inode): a store replaced or moved on disk
    while it is open (``restore``, a copy by hand) is noticed before the next write, which would
    otherwise go into the file moved aside."""

    path: Path
    device: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> FileIdentity:
        found = path.stat()
        return cls(path, found.st_dev, found.st_ino)

    def check(self) -> None:
        """Raise ``StoreReplaced`` when ``path`` is no longer the file that was opened."""
        try:
            found = self.path.stat()
        except FileNotFoundError:
            raise StoreReplaced(self.path) from None
        if (found.st_dev, found.st_ino) != (self.device, self.inode):
            raise StoreReplaced(self.path)


@contextmanager
def transaction(
    db: sqlite3.Connection, lock: threading.RLock, opened: FileIdentity | None = None
) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any exception; with ``opened``, refused
    (``StoreReplaced``) when the file on disk is no longer the one the connection opened. Inside
    a transaction this thread holds already (``lock`` held, so no other thread's), it is part of
    that one: the outer commits or rolls back the whole (a batch of writes, all or none)."""
    with lock:
        if opened is not None:
            opened.check()
        if db.in_transaction:  # the outer transaction's (every write on this connection holds ``lock``)
            yield db
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
