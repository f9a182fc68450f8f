"""``python -m engine accounts …`` and ``serve`` in a child process, on a real workspace folder:
the password goes in on standard input (``--password-stdin``) and never comes out (not in the
file, not in ``list``); a duplicate name, a short password, an unknown role, no terminal to ask on
and a damaged accounts file each get one ``error:`` line and change nothing; ``serve --address``
beyond this machine is refused while the folder has no account (the listening check on a started
server is tests/e2e/test_browser_accounts.py)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage.accounts import Accounts, SignInRefused
from tests.adversarial.conftest import ROOT, Run

PASSWORD = "correct horse battery staple"


def engine(*args: str, stdin: str = "") -> Run:
    """``python -m engine ARGS…`` with ``stdin`` as its standard input (not a terminal)."""
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "RFP_WORKSPACE"},
        timeout=120,
    )
    return Run(done.returncode, done.stdout, done.stderr, time.monotonic() - start, 0.0, 0.0)


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_add_list_passwd_remove_keep_only_hashes(tmp_path):
    store = str(tmp_path / "ws")
    added = engine(
        "accounts", "add", "Ana Lima", "--role", "lead", "--store", store, "--password-stdin", stdin=PASSWORD
    )
    assert added.rc == 0 and added.stdout.strip() == f"added Ana Lima (lead) to {store}", added.stderr
    assert (
        engine(
            "accounts", "add", "bo", "--role", "Expert", "--store", store, "--password-stdin", stdin=PASSWORD + "\n"
        ).rc
        == 0
    )
    listed = engine("accounts", "list", "--store", store)
    assert listed.rc == 0
    rows = [line.split("\t") for line in listed.stdout.splitlines()]
    assert [(r[0], r[1], r[4]) for r in rows] == [
        ("Ana Lima", "lead", "last sign-in never"),
        ("bo", "expert", "last sign-in never"),
    ]
    assert "argon2" not in listed.stdout and PASSWORD not in listed.stdout
    data = b"".join(p.read_bytes() for p in (tmp_path / "ws").glob("accounts.sqlite*"))
    assert PASSWORD.encode() not in data and b"$argon2id$" in data

    new = "another long passphrase"
    assert engine("accounts", "passwd", "bo", "--store", store, "--password-stdin", stdin=new).rc == 0
    data = b"".join(p.read_bytes() for p in (tmp_path / "ws").glob("accounts.sqlite*"))
    assert new.encode() not in data
    accounts = Accounts(tmp_path / "ws", sleep=lambda seconds: None)  # the app's sign-in, without its delay
    try:
        with pytest.raises(SignInRefused, match="The name or the password is wrong"):
            accounts.sign_in("bo", PASSWORD)  # the old password no longer signs in
        assert accounts.sign_in("bo", new).name == "bo"  # the new one does
        assert accounts.sign_in("Ana Lima", PASSWORD).name == "Ana Lima"  # another account's is untouched
    finally:
        accounts.close()
    removed = engine("accounts", "remove", "BO", "--store", store)
    assert removed.rc == 0, removed.stderr
    assert [line.split("\t")[0] for line in engine("accounts", "list", "--store", store).stdout.splitlines()] == [
        "Ana Lima"
    ]


def test_refusals_are_one_line_and_change_nothing(tmp_path):
    folder = tmp_path / "ws"
    store = str(folder)
    assert (
        engine("accounts", "add", "ana", "--role", "lead", "--store", store, "--password-stdin", stdin=PASSWORD).rc == 0
    )
    before = digest(folder)
    duplicate = engine(
        "accounts", "add", "ANA", "--role", "expert", "--store", store, "--password-stdin", stdin=PASSWORD
    )
    assert duplicate.rc == 2
    assert "an account named 'ANA' exists; nothing was changed" in duplicate.error_line(f"{folder / 'accounts.sqlite'}")
    short = engine("accounts", "add", "bo", "--role", "expert", "--store", store, "--password-stdin", stdin="short")
    assert short.rc == 2 and short.stderr.strip() == "error: the password has 5 characters; give at least 12"
    no_terminal = engine("accounts", "add", "bo", "--role", "expert", "--store", store)
    assert no_terminal.rc == 2
    assert no_terminal.stderr.strip() == "error: no terminal to ask the password on; pipe it with --password-stdin"
    role = engine("accounts", "add", "bo", "--role", "boss", "--store", store, "--password-stdin", stdin=PASSWORD)
    assert role.rc == 2 and "invalid choice: 'boss' (choose from 'lead', 'reviewer', 'expert')" in role.stderr
    unknown = engine("accounts", "passwd", "zed", "--store", store, "--password-stdin", stdin=PASSWORD)
    assert unknown.rc == 2 and "no account named 'zed'" in unknown.error_line(str(folder / "accounts.sqlite"))
    assert digest(folder) == before


def test_a_damaged_accounts_file_is_one_line_everywhere(tmp_path):
    folder = tmp_path / "ws"
    folder.mkdir()
    path = folder / "accounts.sqlite"
    path.write_bytes(b"\x00garbage, not SQLite" * 200)
    before = digest(folder)
    for args in (("accounts", "list"), ("serve", "--address", "0.0.0.0")):
        run = engine(*args, "--store", str(folder))
        assert run.rc == 2
        line = run.error_line(str(path))
        assert "the accounts file is damaged" in line and "python -m engine accounts add" in line
    assert digest(folder) == before


def test_serve_refuses_to_listen_beyond_this_machine_without_accounts(tmp_path):
    folder = tmp_path / "ws"
    for address in ("0.0.0.0", "rfp.example.com"):  # every interface; a name that may resolve to any
        run = engine("serve", "--store", str(folder), "--address", address, "--port", "1")
        assert run.rc == 2
        line = run.error_line(str(folder))
        assert f"there is no account in this folder, so the app will not listen on {address}" in line
        assert "python -m engine accounts add NAME --role lead" in line
    assert not folder.exists()  # nothing was created
    bad = engine("serve", "--store", str(folder), "--idle-hours", "-1")
    assert bad.rc == 2 and "RFP_SESSION_IDLE_HOURS='-1.0' is not a positive number" in bad.stderr
