"""The accounts of a workspace served to a team: one SQLite file (``accounts.sqlite`` in the
workspace folder) with each person's name, role, password hash (never the password: the hash is
made by engine/app/accounts.py with Argon2id) and times (created, password changed, last sign-in),
and the failed sign-ins per name typed (a count and the time of the last one, cleared by a
successful sign-in or a new password), which slow and then stop guessing.

Written in SQLite transactions, so ``python -m engine accounts …`` runs beside the app (an account
added or removed there counts at the app's next click). ``PRAGMA user_version`` holds the schema
version (1). An existing file is checked before it is opened (``storage.sqlite.inspect``); a
damaged one raises :class:`AccountsStoreDamaged` naming the file, the problem and the fix, and is
never taken for "no accounts": an app whose accounts cannot be read serves no one.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from engine.core.accounts import Account, Role
from engine.core.types import StoreDamaged
from storage.sqlite import FileIdentity, close, connect, inspect, transaction

ACCOUNTS_DB = "accounts.sqlite"  # its name in a workspace folder
SCHEMA_VERSION = 1

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    role TEXT NOT NULL,
    hash TEXT NOT NULL,
    created TEXT NOT NULL,
    password_changed TEXT NOT NULL,
    last_sign_in TEXT
);
CREATE TABLE IF NOT EXISTS failures (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    count INTEGER NOT NULL,
    last TEXT NOT NULL
);
PRAGMA user_version={SCHEMA_VERSION};
"""
_TABLES = ("accounts", "failures")
_COLUMNS = "name, role, created, password_changed, last_sign_in"


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
        found = inspect(self.path, _TABLES)
        if found.problem:
            raise AccountsStoreDamaged(self.path, found.problem)
        if found.version > SCHEMA_VERSION:
            raise AccountsStoreError(
                f"{self.path} has accounts schema {found.version}, this version reads {SCHEMA_VERSION}; "
                "use the version that wrote it (nothing was changed)"
            )
        self._db, version = connect(
            self.path, AccountsStoreError, "an accounts database ({exc}); move it away and add the accounts again"
        )
        self._lock = threading.RLock()
        self._opened = FileIdentity.of(self.path)
        if version == 0:
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        close(self._db)

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as exc:
                raise AccountsStoreDamaged(self.path, f"SQLite cannot read it ({exc})") from None

    def count(self) -> int:
        return self._read("SELECT COUNT(*) FROM accounts")[0][0]

    def accounts(self) -> list[Account]:
        return [_account(r) for r in self._read(f"SELECT {_COLUMNS} FROM accounts ORDER BY name COLLATE NOCASE")]

    def get(self, name: str) -> tuple[Account, str] | None:
        """The account named ``name`` (any case) and its password hash."""
        rows = self._read(f"SELECT {_COLUMNS}, hash FROM accounts WHERE name = ?", (name,))
        return (_account(rows[0][:5]), rows[0][5]) if rows else None

    def add(self, account: Account, password_hash: str) -> None:
        with transaction(self._db, self._lock, self._opened) as db:
            if db.execute("SELECT 1 FROM accounts WHERE name = ?", (account.name,)).fetchone():
                raise AccountsStoreError(
                    f"{self.path}: an account named {account.name!r} exists; nothing was changed. Give another name, "
                    f"or `python -m engine accounts remove {account.name!r}` first (`accounts passwd` sets a new "
                    "password)"
                )
            db.execute(
                "INSERT INTO accounts (name, role, hash, created, password_changed) VALUES (?, ?, ?, ?, ?)",
                (account.name, account.role.value, password_hash, account.created, account.password_changed),
            )

    def set_hash(self, name: str, password_hash: str, at: str) -> None:
        """A new password hash (and no failed sign-ins left under the name)."""
        with transaction(self._db, self._lock, self._opened) as db:
            done = db.execute(
                "UPDATE accounts SET hash = ?, password_changed = ? WHERE name = ?", (password_hash, at, name)
            )
            if done.rowcount == 0:
                raise AccountsStoreError(f"{self.path}: no account named {name!r}; `accounts list` shows them")
            db.execute("DELETE FROM failures WHERE name = ?", (name,))

    def remove(self, name: str) -> None:
        with transaction(self._db, self._lock, self._opened) as db:
            if db.execute("DELETE FROM accounts WHERE name = ?", (name,)).rowcount == 0:
                raise AccountsStoreError(f"{self.path}: no account named {name!r}; `accounts list` shows them")
            db.execute("DELETE FROM failures WHERE name = ?", (name,))

    def failures(self, name: str) -> Failures:
        rows = self._read("SELECT count, last FROM failures WHERE name = ?", (name,))
        return Failures(*rows[0]) if rows else Failures()

    def failed(self, name: str, at: str) -> Failures:
        """Count one more failed sign-in under ``name`` (an account's or not: the same either way)."""
        with transaction(self._db, self._lock, self._opened) as db:
            db.execute(
                "INSERT INTO failures (name, count, last) VALUES (?, 1, ?) "
                "ON CONFLICT(name) DO UPDATE SET count = count + 1, last = excluded.last",
                (name, at),
            )
            return Failures(*db.execute("SELECT count, last FROM failures WHERE name = ?", (name,)).fetchone())

    def signed_in(self, name: str, at: str) -> None:
        """A successful sign-in: its time, and no failures left under the name."""
        with transaction(self._db, self._lock, self._opened) as db:
            db.execute("UPDATE accounts SET last_sign_in = ? WHERE name = ?", (at, name))
            db.execute("DELETE FROM failures WHERE name = ?", (name,))

    def rehash(self, name: str, password_hash: str) -> None:
        """The same password under newer hashing parameters (the password-changed time stays)."""
        with transaction(self._db, self._lock, self._opened) as db:
            db.execute("UPDATE accounts SET hash = ? WHERE name = ?", (password_hash, name))


def _account(row: tuple) -> Account:
    return Account(row[0], Role(row[1]), row[2], row[3], row[4])
