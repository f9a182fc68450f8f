"""What the SQLite stores share: one connection per file (WAL, shared by threads under a lock,
explicit transactions) and the schema version in ``PRAGMA user_version``."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def connect(path: Path, error: type[Exception], not_ours: str) -> tuple[sqlite3.Connection, int]:
    """A connection to ``path`` (folders created) and its ``user_version``; a file that is not a
    database raises ``error`` with ``not_ours`` (what it should be and the fix) in the message."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        return db, db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise error(f"{path} is not {not_ours.format(exc=exc)}") from None


@contextmanager
def transaction(db: sqlite3.Connection, lock: threading.RLock) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any exception."""
    with lock:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
