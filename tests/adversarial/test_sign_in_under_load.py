"""Sign-in under load, on the app as a team serves it (issue #47, items 2 and 3): ``python -m engine
serve`` on a real workspace with real accounts (Argon2id), attacked by visitors that speak
Streamlit's protocol (tests/adversarial/served_app.py), 40 of them at the same moment.

Before #47: 40 simultaneous sign-ins as the lead all had their password checked (the failures
were read before hashing and written after), so the right password sent among them signed in;
each sign-in hashed at 64 MiB with nothing bounding how many at once (24 unknown names took
1.5 GB); a visitor who never signed in could make the server hold files through Streamlit's
upload endpoint, and read ``/_stcore/metrics``; a session signed in with an old password survived
``accounts passwd``; and accounts.sqlite emptied, then overwritten with garbage, while the app ran
still let new visitors sign in as the lead (only a restart refused).

The LLM setting points at an address where nothing listens: no model loads here (the embedder
does, in the background, once someone signs in)."""

from __future__ import annotations

import asyncio
import threading
import urllib.error
import urllib.request

import pytest

from engine.app.settings import GeneratorConfig, Settings
from engine.core.accounts import Role
from storage.accounts import MAX_FAILURES, WRONG, Accounts
from tests.adversarial.served_app import PASSWORD, Visitor, engine, peak_mb, resident_mb, serving

pytestmark = pytest.mark.timeout(600)
LOCKED = "Too many failed sign-ins under this name"
DAMAGED = "The accounts file is damaged"  # as the app words it (problem_text)
TRIES = 40


def team(folder) -> None:
    """A workspace with a lead (ana) and an expert (bo), and no model to load."""
    Settings(generator=GeneratorConfig(llm_url="http://127.0.0.1:9/v1")).save(folder)
    accounts = Accounts(folder)
    try:
        accounts.add("ana", Role.LEAD, PASSWORD)
        accounts.add("bo", Role.EXPERT, PASSWORD)
    finally:
        accounts.close()


class Memory:
    """The server's resident memory, sampled every 20 ms while ``with`` runs; ``added_mb``: the
    most it held above what it held before (its VmHWM counted too, when that rose meanwhile)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def __enter__(self) -> Memory:
        self.idle_mb, self.hwm_before = resident_mb(self.pid), peak_mb(self.pid)
        self.most, self._done = self.idle_mb, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            self.most = max(self.most, resident_mb(self.pid))

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()
        hwm = peak_mb(self.pid)
        if hwm > self.hwm_before:
            self.most = max(self.most, hwm)
        self.added_mb = self.most - self.idle_mb


async def at_once(port: int, tries: list[tuple[str, str]]) -> list[list[str]]:
    """Every ``(name, password)`` from its own visitor, the forms loaded first and then all sent
    together; what each one's page said (its alerts, or its titles when none)."""
    visitors = [Visitor(port) for _ in tries]
    for v in visitors:
        await v.__aenter__()
    try:
        await asyncio.gather(*(v.load() for v in visitors))
        pages = await asyncio.gather(*(v.sign_in(n, p) for v, (n, p) in zip(visitors, tries)))
        return [page.alerts or page.titles for page in pages]
    finally:
        for v in visitors:
            await v.__aexit__()


def test_forty_simultaneous_sign_ins_count_as_forty_and_hold_memory(tmp_path):
    folder = tmp_path / "ws"
    team(folder)
    with serving(folder, tmp_path / "serve.log") as (port, proc):
        asyncio.run(at_once(port, [("nobody", "a wrong password")]))  # the page's modules imported: idle
        with Memory(proc.pid) as unknown:  # 40 unknown names: 40 password checks, 2 at a time
            said = asyncio.run(at_once(port, [(f"stranger{i}", "a wrong password") for i in range(TRIES)]))
        assert all(s == [WRONG] for s in said), said
        print(f"server {unknown.idle_mb:.0f} MB idle; 40 unknown names at once: +{unknown.added_mb:.0f} MB")
        assert unknown.added_mb < 1000, unknown.added_mb
        with Memory(proc.pid) as lead:
            said = asyncio.run(at_once(port, [("ana", f"wrong password {i}") for i in range(TRIES)]))
        wrong = sum(s == [WRONG] for s in said)
        locked = sum(len(s) == 1 and s[0].startswith(LOCKED) for s in said)
        assert (wrong, locked) == (MAX_FAILURES, TRIES - MAX_FAILURES), said
        (right,) = asyncio.run(at_once(port, [("ana", PASSWORD)]))  # the right one, after them
        assert right[0].startswith(LOCKED), right
        print(f"40 wrong passwords for the lead at once: +{lead.added_mb:.0f} MB")
        assert lead.added_mb < 1000, lead.added_mb


async def _visit_signed_in(port: int, name: str):
    visitor = await Visitor(port).__aenter__()
    page = await visitor.sign_in(name, PASSWORD)
    assert page.signed_in_as == name, (page.titles, page.alerts)
    return visitor


def test_uploads_need_a_signed_in_session_and_passwd_or_remove_end_sessions(tmp_path):
    folder = tmp_path / "ws"
    team(folder)

    async def attack(port: int) -> None:
        async with Visitor(port) as anonymous:
            assert (await anonymous.load()).titles == ["Sign in"]
            assert await anonymous.upload(b"x" * 100_000) == 403  # not held by the server
        lead, expert = await _visit_signed_in(port, "ana"), await _visit_signed_in(port, "bo")
        try:
            assert await lead.upload(b"notes") == 204  # the endpoint works for a signed-in session
            changed = engine(
                "accounts", "passwd", "ana", "--store", str(folder), "--password-stdin", stdin="a new long password"
            )
            assert changed.returncode == 0, changed.stderr
            after = await lead.run()  # the next click
            assert after.titles == ["Sign in"] and any("new password" in a for a in after.alerts), after.alerts
            assert await lead.upload(b"notes") == 403
            removed = engine("accounts", "remove", "bo", "--store", str(folder))
            assert removed.returncode == 0, removed.stderr
            assert (await expert.run()).titles == ["Sign in"]
        finally:
            await lead.__aexit__()
            await expert.__aexit__()

    with serving(folder, tmp_path / "serve.log") as (port, _):
        with pytest.raises(urllib.error.HTTPError) as metrics:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/metrics", timeout=10)
        assert metrics.value.code == 404
        asyncio.run(attack(port))


def test_accounts_damaged_while_the_app_runs_serve_no_one_from_that_moment(tmp_path):
    folder = tmp_path / "ws"
    team(folder)
    path = folder / "accounts.sqlite"

    async def visit(port: int) -> tuple[str | None, list[str]]:
        """Come to the app and sign in as the lead: whom the page says is signed in, its alerts."""
        async with Visitor(port) as visitor:
            page = await visitor.load()
            if page.titles == ["Sign in"]:
                page = await visitor.sign_in("ana", PASSWORD)
            return page.signed_in_as, page.alerts

    with serving(folder, tmp_path / "serve.log") as (port, _):
        assert asyncio.run(visit(port))[0] == "ana"  # the lead signs in while the file is whole
        for damage in (b"", b"garbage, not a database " * 200):
            path.write_bytes(damage)  # emptied, then overwritten, while the app runs
            who, alerts = asyncio.run(visit(port))
            assert who is None and len(alerts) == 1 and DAMAGED in alerts[0], (who, alerts)
            assert "serves no one" in alerts[0] and "python -m engine accounts add" in alerts[0]
    started = engine("serve", "--store", str(folder), "--port", "9")  # started on the damaged file: refused
    (line,) = started.stderr.splitlines()
    assert started.returncode == 2 and "not an SQLite database" in line and "serves no one" in line, line
    assert "not an SQLite database" in alerts[0]  # the same words the running app showed
