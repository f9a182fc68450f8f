"""The accounts of a workspace served to a team: adding, listing and removing them, new
passwords, and signing in (engine/core/accounts.py has the roles and what each may do;
storage/accounts_store.py the file). It lives beside the file, not in engine/app, so that
``python -m engine accounts`` and ``serve`` import no model's modules (engine/app's package
imports the knowledge base's); the app reads it through engine/app/accounts.py.

Passwords are hashed with Argon2id by argon2-cffi (its default parameters, RFC 9106's second
recommendation; an old hash is re-made with newer parameters at the next sign-in); the password
itself is never stored or logged. A sign-in that fails says only that the name or the password is
wrong, takes as long for an unknown name as for a wrong password (a hash is checked either way),
and is slowed: each failure under a name waits a second more (up to :data:`MAX_DELAY_S`), and
after :data:`MAX_FAILURES` failures in a row the name is refused for :data:`LOCKOUT` whatever the
password, without saying whether it is an account. A session ends after :func:`idle_timeout`
without a click (``RFP_SESSION_IDLE_HOURS``, default 8 h), when its person signs out, or when its
account is removed or given a new password (``Account.credential``).

Under load: each try is counted as a failure in the same transaction that reads the failures so
far, before its password is checked (a success clears it), so N tries at once count N and the
sixth of 40 simultaneous ones is already refused without a hash; and at most :data:`MAX_HASHING`
Argon2 hashes are made or checked at once in the process (each takes argon2-cffi's 64 MiB), so
however many people sign in together, with known or unknown names, hashing holds at most
``MAX_HASHING`` × 64 MiB.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from engine.core.accounts import Account, Role
from engine.core.people import person_name
from storage.accounts_store import ACCOUNTS_DB, AccountsStore, AccountsStoreError, Failures, present

MIN_PASSWORD = 12  # characters
MAX_PASSWORD = 1024  # characters: a longer one is refused before it is hashed
MAX_FAILURES = 5  # failed sign-ins in a row under one name before it is refused for LOCKOUT
LOCKOUT = timedelta(minutes=15)
MAX_DELAY_S = 5.0
IDLE_HOURS = 8.0  # default of RFP_SESSION_IDLE_HOURS
WRONG = "The name or the password is wrong."
MAX_HASHING = 2  # Argon2 hashes made or checked at once in this process (64 MiB each)

_hasher = PasswordHasher()
_hashing = threading.BoundedSemaphore(MAX_HASHING)


@functools.cache
def _dummy() -> str:
    """A hash checked when the name is unknown, so both refusals take as long (made when first
    needed: hashing takes a moment, which ``import`` should not)."""
    return _hash("a password nobody has")


def _hash(password: str) -> str:
    with _hashing:
        return _hasher.hash(password)


def _verify(stored: str, password: str) -> bool:
    with _hashing:
        try:
            return _hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


class SignInRefused(Exception):
    """A sign-in that did not succeed; the message never says which of name and password was
    wrong, nor whether the name is an account."""


def idle_timeout() -> timedelta:
    """How long a signed-in session lasts without a click: ``RFP_SESSION_IDLE_HOURS`` (default 8);
    ValueError naming the variable when it is not a positive number."""
    raw = os.environ.get("RFP_SESSION_IDLE_HOURS", "").strip()
    if not raw:
        return timedelta(hours=IDLE_HOURS)
    try:
        hours = float(raw)
    except ValueError:
        hours = -1.0
    if not hours > 0:
        raise ValueError(f"RFP_SESSION_IDLE_HOURS={raw!r} is not a positive number of hours; e.g. 8")
    return timedelta(hours=hours)


def local_only(address: str | None) -> bool:
    """Whether a server listening on ``address`` serves this machine only (a loopback address,
    or ``localhost``). None or empty is every interface to Streamlit; a host name may resolve to
    any interface."""
    text = (address or "").strip()
    if text.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


def now_utc() -> datetime:
    return datetime.now(timezone.utc)


def check_password(password: str) -> str:
    """``password`` when it may be used; ValueError with the rule otherwise."""
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"the password has {len(password)} characters; give at least {MIN_PASSWORD}")
    if len(password) > MAX_PASSWORD:
        raise ValueError(f"the password has {len(password)} characters; give at most {MAX_PASSWORD}")
    if password != password.strip() or any(ord(c) < 32 for c in password):
        raise ValueError("the password starts or ends with a space or holds a control character; leave them out")
    return password


class Accounts:
    """The accounts of the workspace ``folder`` (``accounts.sqlite``; opened when first needed,
    created only by :meth:`add`). ``sleep`` waits after a failed sign-in (tests pass their own)."""

    def __init__(self, folder: Path, sleep: Callable[[float], None] = time.sleep) -> None:
        self.path = Path(folder) / ACCOUNTS_DB
        self._store: AccountsStore | None = None
        self._sleep = sleep

    def _opened(self, create: bool = False) -> AccountsStore | None:
        """The store, checked again when its file changed on disk (``AccountsStore.current``)."""
        if self._store is not None:
            self._store.current()
        elif create or present(self.path):
            self._store = AccountsStore(self.path)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def exist(self) -> bool:
        """Whether anyone has an account (then everyone signs in). A damaged file raises
        ``AccountsStoreDamaged``: never "no accounts"."""
        store = self._opened()
        return store is not None and store.count() > 0

    def list(self) -> list[Account]:
        store = self._opened()
        return store.accounts() if store else []

    def get(self, name: str) -> Account | None:
        store = self._opened()
        found = store.get(name) if store else None
        return found[0] if found else None

    def add(self, name: str, role: Role, password: str) -> Account:
        name = person_name(name, "an account's name")
        at = now_utc().isoformat(timespec="seconds")
        account = Account(name, role, at, at)
        self._opened(create=True).add(account, _hash(check_password(password)))
        return account

    def remove(self, name: str) -> None:
        store = self._opened()
        if store is None:
            raise AccountsStoreError(f"{self.path}: there are no accounts; `accounts add` makes one")
        store.remove(name)

    def passwd(self, name: str, password: str) -> None:
        store = self._opened()
        if store is None:
            raise AccountsStoreError(f"{self.path}: there are no accounts; `accounts add` makes one")
        store.set_hash(name, _hash(check_password(password)), now_utc().isoformat(timespec="seconds"))

    def sign_in(self, name: str, password: str) -> Account:
        """The account when ``password`` is its password; :class:`SignInRefused` otherwise (the
        same words for an unknown name and a wrong password), after a delay that grows with the
        failures under that name; refused outright for :data:`LOCKOUT` after :data:`MAX_FAILURES`.
        The try is counted before the password is checked (see the module docstring)."""
        store = self._opened()
        name = " ".join(str(name).split())[:200]
        if store is None or not name or len(password) > MAX_PASSWORD:
            _verify(_dummy(), password[:MAX_PASSWORD])
            raise SignInRefused(WRONG)
        now = now_utc()
        before, counted = store.try_once(name, now.isoformat(timespec="seconds"), lambda f: _locked(f, now))
        if not counted:
            wait = LOCKOUT - (now - datetime.fromisoformat(before.last or now.isoformat()))
            raise SignInRefused(
                f"Too many failed sign-ins under this name: try again in {max(1, round(wait.total_seconds() / 60))} "
                "minutes, or ask a lead for a new password (`python -m engine accounts passwd NAME`)."
            )
        found = store.get(name)
        if found is not None and _verify(found[1], password):
            account, stored = found
            store.signed_in(account.name, now.isoformat(timespec="seconds"))
            if _hasher.check_needs_rehash(stored):
                store.rehash(account.name, _hash(password))
            return store.get(account.name)[0]
        if found is None:
            _verify(_dummy(), password)
        self._sleep(min(MAX_DELAY_S, float(before.count + 1)))
        raise SignInRefused(WRONG)


def _locked(failures: Failures, now: datetime) -> bool:
    """Whether a name with these failures is refused now (:data:`MAX_FAILURES` within :data:`LOCKOUT`)."""
    return (
        failures.count >= MAX_FAILURES
        and failures.last is not None
        and now - datetime.fromisoformat(failures.last) < LOCKOUT
    )
