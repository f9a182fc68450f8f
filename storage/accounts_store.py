"""The accounts of a workspace served to a team: one SQLite file (``accounts.sqlite`` in the
workspace folder) with each person's name, role, password hash (never the password: the hash is
made by engine/app/accounts.py with Argon2id) and times (created, password changed, last sign-in),
and the failed sign-ins per name typed (a count and the time of the last one, cleared by a
successful sign-in or a new password), which slow and then stop guessing. Each account has a
``credential``, drawn anew with each password: a session signed in with an older one has ended.

Written in SQLite transactions, so ``python -m engine accounts …`` runs beside the app (an account
added or removed there counts at the app's next click). ``PRAGMA user_version`` holds the schema
version (2; version 1 had no ``credential``, added when a version-1 file is opened). An existing
file is checked before it is opened (``storage.sqlite.inspect``); a damaged one raises
:class:`AccountsStoreDamaged` naming the file, the problem and the fix, and is never taken for "no
accounts": an app whose accounts cannot be read serves no one. While it is open, the file is
checked again whenever it is no longer the same on disk (:meth:`AccountsStore.current`: another
file in its place, another size or modification time), and any read SQLite fails on is the same
damage: from that moment the app serves no one, with the same line as at its start.
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from engine.core.accounts import Account, Role
from engine.core.types import StoreDamaged
from storage.sqlite import FileIdentity, close, connect, inspect, transaction

ACCOUNTS_DB = "accounts.sqlite"  # its name in a workspace folder
SCHEMA_VERSION = 2  # 2 added accounts.credential

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    role TEXT NOT NULL,
    hash TEXT NOT NULL,
    created TEXT NOT NULL,
    password_changed TEXT NOT NULL,
    last_sign_in TEXT,
    credential TEXT
);
CREATE TABLE IF NOT EXISTS failures (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    count INTEGER NOT NULL,
    last TEXT NOT NULL
);
PRAGMA user_version={SCHEMA_VERSION};
"""
_TABLES = ("accounts", "failures")
_COLUMNS = "name, role, created, password_changed, last_sign_in, credential"


class AccountsStoreError(Exception):
    """The accounts database cannot be used, or an account change is refused; the message says
    why and what to do."""


class AccountsStoreDamaged(AccountsStoreError, StoreDamaged):
    """An existing accounts file (or its ``-wal``) that cannot be read as a whole; nothing was
    written to it."""

    def __init__(self, path: Path, damage: str) -> None:
        StoreDamaged.__init__(
            self,
            path,
            f"the accounts file is damaged: {damage}; nothing was changed, and the app serves no one until it reads",
            f"move it (and its -wal) away, then add the accounts again with `python -m engine accounts add NAME "
            f"--role ROLE --store {path.parent}`",
        )


def present(path: Path) -> bool:
    """Whether there are accounts at ``path``: the file, or only its ``-wal`` (damage)."""
    return path.exists() or path.with_name(path.name + "-wal").exists()


@dataclass(frozen=True)
class Failures:
    """The failed sign-ins under one name since its last success: how many, and the last one's
    time (ISO 8601 UTC)."""

    count: int = 0
    last: str | None = None


class AccountsStore:
    """Thread-safe (one connection, one lock): the app's sessions sign in from their threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        """A connection to the file as it is now, checked first (:class:`AccountsStoreDamaged`)."""
        seen = _identity(self.path)
        found = inspect(self.path, _TABLES)
        if found.problem:
            raise AccountsStoreDamaged(self.path, found.problem)
        if found.version > SCHEMA_VERSION:
            raise AccountsStoreError(
                f"{self.path} has accounts schema {found.version}, this version reads {SCHEMA_VERSION}; "
                "use the version that wrote it (nothing was changed)"
            )
        db, version = connect(
            self.path, AccountsStoreError, "an accounts database ({exc}); move it away and add the accounts again"
        )
        self._opened = FileIdentity.of(self.path)
        if version == 0:
            db.executescript(_SCHEMA)
        elif version < SCHEMA_VERSION:
            with transaction(db, self._lock, self._opened):
                if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:  # another process may have
                    db.execute("ALTER TABLE accounts ADD COLUMN credential TEXT")
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._seen = seen if seen == _identity(self.path) else None  # made or changed here: looked at again
        return db

    def current(self) -> None:
        """Check the file again when it is no longer the one last checked (another file in its place,
        another size or modification time: emptied, overwritten, restored, or written by ``python -m
        engine accounts`` in another process): :class:`AccountsStoreDamaged` when it does not read
        (a file that is gone included: accounts are never "none" once there were), else read from
        now on (through a new connection when it is another file)."""
        with self._lock:
            now = _identity(self.path)
            if now is not None and now == self._seen:
                return
            if now is None:
                raise AccountsStoreDamaged(self.path, "it was removed or moved away while the app had it open")
            found = inspect(self.path, _TABLES)
            if found.problem:
                raise AccountsStoreDamaged(self.path, found.problem)
            if now[:2] != (self._opened.device, self._opened.inode):
                close(self._db)
                self._db = self._open()
            else:
                self._seen = now

    def close(self) -> None:
        close(self._db)

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock; what SQLite cannot read is :class:`AccountsStoreDamaged`
        (a constraint, or the file busy with another process's write, is not damage)."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.IntegrityError) or re.search(r"\b(locked|busy)\b", str(exc)):
                    raise
                raise AccountsStoreDamaged(self.path, f"SQLite cannot read it ({exc})") from None

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._reading():
            with transaction(self._db, self._lock, self._opened) as db:
                yield db

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._reading() as db:
            return db.execute(sql, params).fetchall()

    def count(self) -> int:
        return self._read("SELECT COUNT(*) FROM accounts")[0][0]

    def accounts(self) -> list[Account]:
        return [_account(r) for r in self._read(f"SELECT {_COLUMNS} FROM accounts ORDER BY name COLLATE NOCASE")]

    def get(self, name: str) -> tuple[Account, str] | None:
        """The account named ``name`` (any case) and its password hash."""
        rows = self._read(f"SELECT {_COLUMNS}, hash FROM accounts WHERE name = ?", (name,))
        return (_account(rows[0][:6]), rows[0][6]) if rows else None

    def add(self, account: Account, password_hash: str) -> None:
        with self._tx() as db:
            if db.execute("SELECT 1 FROM accounts WHERE name = ?", (account.name,)).fetchone():
                raise AccountsStoreError(
                    f"{self.path}: an account named {account.name!r} exists; nothing was changed. Give another name, "
                    f"or `python -m engine accounts remove {account.name!r}` first (`accounts passwd` sets a new "
                    "password)"
                )
            db.execute(
                "INSERT INTO accounts (name, role, hash, created, password_changed, credential) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (account.name, account.role.value, password_hash, account.created, account.password_changed, _drawn()),
            )

    def set_hash(self, name: str, password_hash: str, at: str) -> None:
        """A new password hash and credential (the sessions signed in with the old one end), and
        no failed sign-ins left under the name."""
        with self._tx() as db:
            done = db.execute(
                "UPDATE accounts SET hash = ?, password_changed = ?, credential = ? WHERE name = ?",
                (password_hash, at, _drawn(), name),
            )
            if done.rowcount == 0:
                raise AccountsStoreError(f"{self.path}: no account named {name!r}; `accounts list` shows them")
            db.execute("DELETE FROM failures WHERE name = ?", (name,))

    def remove(self, name: str) -> None:
        with self._tx() as db:
            if db.execute("DELETE FROM accounts WHERE name = ?", (name,)).rowcount == 0:
                raise AccountsStoreError(f"{self.path}: no account named {name!r}; `accounts list` shows them")
            db.execute("DELETE FROM failures WHERE name = ?", (name,))

    def try_once(self, name: str, at: str, locked: Callable[[Failures], bool]) -> tuple[Failures, bool]:
        """One sign-in try under ``name`` (an account's or not: the same either way), in one
        transaction: the failures before it, and whether it was counted. It is counted as a failure
        before its password is checked (:meth:`signed_in` clears it), so that N tries at once count
        N; it is not counted, and may not go on, when ``locked`` holds for the failures before it."""
        with self._tx() as db:
            row = db.execute("SELECT count, last FROM failures WHERE name = ?", (name,)).fetchone()
            before = Failures(*row) if row else Failures()
            if locked(before):
                return before, False
            db.execute(
                "INSERT INTO failures (name, count, last) VALUES (?, 1, ?) "
                "ON CONFLICT(name) DO UPDATE SET count = count + 1, last = excluded.last",
                (name, at),
            )
            return before, True

    def signed_in(self, name: str, at: str) -> None:
        """A successful sign-in: its time, and no failures left under the name."""
        with self._tx() as db:
            db.execute("UPDATE accounts SET last_sign_in = ? WHERE name = ?", (at, name))
            db.execute("DELETE FROM failures WHERE name = ?", (name,))

    def rehash(self, name: str, password_hash: str) -> None:
        """The same password under newer hashing parameters (the password-changed time and the
        credential stay: no session ends)."""
        with self._tx() as db:
            db.execute("UPDATE accounts SET hash = ? WHERE name = ?", (password_hash, name))


def _identity(path: Path) -> tuple[int, int, int, int] | None:
    """Which file is at ``path`` and how it is (device, inode, size, modification time), None when
    nothing is there."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns


def _drawn() -> str:
    """A new credential (see :class:`~engine.core.accounts.Account`)."""
    return secrets.token_hex(16)


def _account(row: tuple) -> Account:
    return Account(row[0], Role(row[1]), row[2], row[3], row[4], row[5])
