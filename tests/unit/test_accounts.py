"""Accounts of a workspace served to a team (engine/app/accounts.py, storage/accounts_store.py,
engine/core/accounts.py): real SQLite files and real Argon2id hashes (argon2-cffi). The wait after
a failed sign-in is recorded instead of slept (``Accounts(sleep=…)``), so the tests say how long
it would be without waiting it; everything else runs as in the app."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core import accounts as core_accounts
from engine.core.accounts import NOBODY, Account, NotAllowed, Permission, Role, require, set_caller
from engine.core.types import StoreDamaged
from storage.accounts import (
    LOCKOUT,
    MAX_FAILURES,
    WRONG,
    Accounts,
    SignInRefused,
    idle_timeout,
    local_only,
)
from storage.accounts_store import ACCOUNTS_DB, AccountsStore, AccountsStoreDamaged, AccountsStoreError

PASSWORD = "correct horse battery staple"
OTHER = "tr0ub4dor&3-is-not-enough"


@pytest.fixture()
def waits() -> list[float]:
    return []


@pytest.fixture()
def accounts(tmp_path: Path, waits: list[float]) -> Accounts:
    found = Accounts(tmp_path, sleep=waits.append)
    yield found
    found.close()


@pytest.fixture()
def as_caller():
    """``as_caller(x)``: the engine sees ``x`` as the caller (what ui/components/sign_in.py
    installs for a session); the lookup in place before the test is put back after it."""
    before = core_accounts._caller
    yield lambda who: set_caller(lambda: who)
    set_caller(before)


def on_disk(folder: Path) -> bytes:
    """Every byte of the accounts file and its -wal."""
    return b"".join(p.read_bytes() for p in sorted(folder.glob(ACCOUNTS_DB + "*")))


def test_passwords_are_stored_only_as_argon2id_hashes(accounts, tmp_path):
    accounts.add("Ana Lima", Role.LEAD, PASSWORD)
    accounts.add("bo", Role.EXPERT, OTHER)
    data = on_disk(tmp_path)
    for secret in (PASSWORD, OTHER):
        assert secret.encode() not in data
        assert secret.encode("utf-16-le") not in data
        assert hashlib.sha256(secret.encode()).hexdigest().encode() not in data
    assert data.count(b"$argon2id$v=19$") >= 2  # the -wal may hold a page twice
    assert [(a.name, a.role) for a in accounts.list()] == [("Ana Lima", Role.LEAD), ("bo", Role.EXPERT)]
    assert accounts.list()[0].last_sign_in is None


def test_sign_in_says_the_same_for_an_unknown_name_and_a_wrong_password(accounts, waits):
    accounts.add("ana", Role.REVIEWER, PASSWORD)
    signed = accounts.sign_in("ANA", PASSWORD)  # names in any case
    assert (signed.name, signed.role) == ("ana", Role.REVIEWER) and signed.last_sign_in
    with pytest.raises(SignInRefused) as wrong:
        accounts.sign_in("ana", OTHER)
    with pytest.raises(SignInRefused) as unknown:
        accounts.sign_in("nobody", PASSWORD)
    assert str(wrong.value) == str(unknown.value) == WRONG
    assert waits == [1.0, 1.0]  # the first failure under each name waits a second


def test_failed_sign_ins_wait_longer_then_stop_the_name_even_with_the_right_password(accounts, waits, tmp_path):
    accounts.add("ana", Role.LEAD, PASSWORD)
    for _ in range(MAX_FAILURES):
        with pytest.raises(SignInRefused):
            accounts.sign_in("ana", "wrong password!")
    assert waits == [1.0, 2.0, 3.0, 4.0, 5.0]
    with pytest.raises(SignInRefused) as locked:
        accounts.sign_in("ana", PASSWORD)
    assert "Too many failed sign-ins" in str(locked.value) and "15 minutes" in str(locked.value)
    for _ in range(MAX_FAILURES):  # an unknown name is stopped the same way: nothing says it is not an account
        with pytest.raises(SignInRefused):
            accounts.sign_in("zed", "wrong password!")
    with pytest.raises(SignInRefused) as unknown_locked:
        accounts.sign_in("zed", PASSWORD)
    assert str(unknown_locked.value) == str(locked.value)
    accounts.passwd("ana", OTHER)  # a lead's new password lifts it
    assert accounts.sign_in("ana", OTHER).name == "ana"
    assert LOCKOUT.total_seconds() == 15 * 60


def test_a_successful_sign_in_clears_the_failures(accounts, waits):
    accounts.add("ana", Role.LEAD, PASSWORD)
    for _ in range(MAX_FAILURES - 1):
        with pytest.raises(SignInRefused):
            accounts.sign_in("ana", "wrong password!")
    accounts.sign_in("ana", PASSWORD)
    with pytest.raises(SignInRefused) as again:
        accounts.sign_in("ana", "wrong password!")
    assert str(again.value) == WRONG and waits[-1] == 1.0


def test_names_passwords_and_duplicates_are_checked(accounts):
    with pytest.raises(ValueError, match="at least 12"):
        accounts.add("ana", Role.LEAD, "short")
    with pytest.raises(ValueError, match="control character"):
        accounts.add("ana", Role.LEAD, "a long password\n")
    with pytest.raises(ValueError, match="line break"):
        accounts.add("ana\nroot", Role.LEAD, PASSWORD)
    accounts.add("Ana", Role.LEAD, PASSWORD)
    with pytest.raises(AccountsStoreError, match="an account named 'ana' exists"):
        accounts.add("ana", Role.EXPERT, PASSWORD)
    with pytest.raises(AccountsStoreError, match="no account named 'zed'"):
        accounts.remove("zed")
    accounts.remove("ANA")
    assert not accounts.exist() and accounts.list() == []


def test_no_file_means_no_accounts_and_nothing_is_created(tmp_path):
    accounts = Accounts(tmp_path)
    assert not accounts.exist() and accounts.get("ana") is None
    with pytest.raises(SignInRefused):
        accounts.sign_in("ana", PASSWORD)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("damage", ["truncated", "garbage", "wal-only"])
def test_a_damaged_accounts_file_is_refused_with_the_fix_and_never_read_as_no_accounts(tmp_path, damage):
    first = Accounts(tmp_path)
    first.add("ana", Role.LEAD, PASSWORD)
    first.close()
    path = tmp_path / ACCOUNTS_DB
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:1500])
    elif damage == "garbage":
        path.write_bytes(b"not a database at all" * 100)
    else:
        path.rename(tmp_path / "elsewhere.sqlite")
        (tmp_path / (ACCOUNTS_DB + "-wal")).write_bytes(b"\0" * 4096)
    before = on_disk(tmp_path)
    with pytest.raises(AccountsStoreDamaged) as refused:
        Accounts(tmp_path).exist()
    assert isinstance(refused.value, StoreDamaged)
    assert str(refused.value).startswith(f"{path}: the accounts file is damaged")
    assert "serves no one" in str(refused.value) and "python -m engine accounts add" in refused.value.fix
    assert on_disk(tmp_path) == before


def test_a_newer_schema_is_refused(tmp_path):
    store = AccountsStore(tmp_path / ACCOUNTS_DB)
    store._db.execute("PRAGMA user_version=9")
    store.close()
    with pytest.raises(AccountsStoreError, match="accounts schema 9, this version reads 2"):
        AccountsStore(tmp_path / ACCOUNTS_DB)


def test_roles_grant_what_the_issue_says():
    assert Role.LEAD.permissions == frozenset(Permission)
    assert Role.REVIEWER.permissions == {Permission.QUESTIONNAIRE, Permission.DECIDE, Permission.ASSIGN}
    assert Role.EXPERT.permissions == {Permission.DECIDE}


def test_the_engine_refuses_a_write_the_callers_role_may_not_make(tmp_path, as_caller):
    """The check is at the workspace's entries (as the app calls them), not only in the
    navigation: an expert's or an anonymous session's settings change is refused and nothing is
    written; a lead's is saved; a call from outside a session (None: the CLI) passes."""
    ws = Workspace(tmp_path / "ws", Settings())
    expert = Account("bo", Role.EXPERT, "2026-11-27T00:00:00+00:00", "2026-11-27T00:00:00+00:00")
    lead = Account("ana", Role.LEAD, "2026-11-27T00:00:00+00:00", "2026-11-27T00:00:00+00:00")
    try:
        as_caller(expert)
        with pytest.raises(NotAllowed, match=r"bo \(expert\) may not change the settings; nothing was done"):
            ws.apply_settings(ws.settings.changed(top_k=3))
        with pytest.raises(NotAllowed, match="may not add or draft a questionnaire"):
            ws.add_questionnaire("q.csv", b"ID,Question\nA-1,Is data encrypted?\n")
        assert not (tmp_path / "ws" / "settings.json").exists() and ws.projects() == []
        assert ws.reviewer == "bo"  # the session's account names the work, not the shared setting
        as_caller(NOBODY)
        with pytest.raises(NotAllowed, match="sign in to change the settings"):
            ws.apply_settings(ws.settings.changed(top_k=3))
        as_caller(lead)
        ws.apply_settings(ws.settings.changed(top_k=3))
        assert Settings.load(tmp_path / "ws").engine.top_k == 3
        as_caller(None)
        require(Permission.SETTINGS)
        assert ws.reviewer == ws.settings.reviewer_name
    finally:
        ws.review_store.close()


def test_session_idle_timeout_and_local_addresses(monkeypatch):
    monkeypatch.delenv("RFP_SESSION_IDLE_HOURS", raising=False)
    assert idle_timeout().total_seconds() == 8 * 3600
    monkeypatch.setenv("RFP_SESSION_IDLE_HOURS", "0.5")
    assert idle_timeout().total_seconds() == 1800
    monkeypatch.setenv("RFP_SESSION_IDLE_HOURS", "forever")
    with pytest.raises(ValueError, match="RFP_SESSION_IDLE_HOURS='forever' is not a positive number"):
        idle_timeout()
    assert all(local_only(a) for a in ("127.0.0.1", "127.0.0.2", "::1", "localhost"))
    assert not any(local_only(a) for a in ("0.0.0.0", "::", "", None, "10.0.0.5", "rfp.example.com"))


def test_an_expert_decides_only_the_rows_assigned_to_them(tmp_path, as_caller):
    """The engine's decision entries (``Review.accept`` …, ``team.assign``) with a real review
    store and a real questionnaire: an expert's decision on a row held by someone else (or by
    nobody) is refused and nothing is stored; on their own row it is stored under their name;
    an expert cannot assign a row to themselves."""
    from engine.review import team
    from tests.fixtures import write_questionnaire

    ws = Workspace(tmp_path / "ws", Settings())
    lead = Account("ana", Role.LEAD, "2026-11-27T00:00:00+00:00", "2026-11-27T00:00:00+00:00")
    expert = Account("bo", Role.EXPERT, "2026-11-27T00:00:00+00:00", "2026-11-27T00:00:00+00:00")
    try:
        book = write_questionnaire(tmp_path / "q.xlsx")
        as_caller(lead)
        project, _ = ws.add_questionnaire(book.name, book.read_bytes())
        review = ws.review(project.id)
        first, second = review.items()[:2]
        team.assign(review, [first], "bo")
        as_caller(expert)
        with pytest.raises(NotAllowed, match="may not assign rows"):
            team.assign(review, [second], "bo")
        review = ws.review(project.id)
        with pytest.raises(
            NotAllowed,
            match=r"bo \(expert\) may decide only the rows assigned to them, and this one "
            "is assigned to nobody",
        ):
            review.accept(second.key, "Yes.", expected=review.item(second.key).version)
        decided = review.accept(first.key, "Yes, by the expert.", expected=review.item(first.key).version)
        assert decided.by == "bo"
        as_caller(None)
        after = ws.review(project.id)
        assert after.item(second.key).decision is None and after.item(first.key).answer == "Yes, by the expert."
    finally:
        ws.review_store.close()


def test_a_version_1_file_gets_credentials_and_a_new_password_changes_them(tmp_path):
    """A file written before credentials were kept (schema 1) is upgraded when opened: its
    accounts read with no credential until their next password; each password draws a new one."""
    path = tmp_path / ACCOUNTS_DB
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE accounts (name TEXT PRIMARY KEY COLLATE NOCASE, role TEXT NOT NULL, hash TEXT NOT NULL, "
        "created TEXT NOT NULL, password_changed TEXT NOT NULL, last_sign_in TEXT);"
        "CREATE TABLE failures (name TEXT PRIMARY KEY COLLATE NOCASE, count INTEGER NOT NULL, last TEXT NOT NULL);"
        "PRAGMA user_version=1;"
    )
    db.execute("INSERT INTO accounts VALUES ('ana', 'lead', 'x', '2026-01-01', '2026-01-01', NULL)")
    db.commit()
    db.close()
    accounts = Accounts(tmp_path)
    try:
        assert accounts.get("ana").credential is None
        accounts.passwd("ana", PASSWORD)
        first = accounts.sign_in("ana", PASSWORD).credential
        accounts.passwd("ana", OTHER)
        assert first and accounts.get("ana").credential not in (None, first)
        accounts.add("bo", Role.EXPERT, PASSWORD)
        assert accounts.get("bo").credential not in (None, accounts.get("ana").credential)
    finally:
        accounts.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
