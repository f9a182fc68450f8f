"""One writer per folder (issue #36, item 3): ``restore`` ran under a live app (exit 0), and the
app went on writing into the file ``restore`` had moved aside — both decisions lost from the live
store.

* A process holding the workspace (the app, or a command that writes its stores) makes
  ``restore``, ``draft``, ``kb add``, ``library import`` and ``profile --set`` refuse with one line
  naming it (what, its process id, since when), before anything is read or written; reading
  commands (``restore --list``, ``library list``) still run. Killed with ``kill -9``, it leaves no
  stale lock: the next ``restore`` runs.
* In the browser: the app open on a drafted questionnaire, a row accepted, ``restore`` refused,
  a second row accepted: both decisions are in the live store.
* A store replaced on disk by hand while the app has it open (``storage.sqlite.FileIdentity``):
  the next write through the old connection is refused with one line (``StoreReplaced``) and
  nothing is written to either file; the Review screen shows that line, not a traceback.

Real SQLite, real child processes (``python -m engine``), Debian's Chromium for the browser case
(skipped without it, like the other browser tests). The review screens draft with the stated fake
LLM of tests/ui/conftest.py: these tests are about the stores, not about generation.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.app.workspace import Workspace
from engine.core.types import Action, FolderBusy, StoreReplaced
from storage import folder_lock, snapshots
from storage.review_store import ReviewStore
from tests.adversarial.conftest import ROOT, measured
from tests.adversarial.damaged import fingerprint, review_store_files
from tests.e2e.test_browser import NEEDS_CHROMIUM
from tests.fixtures import write_questionnaire
from tests.ui.conftest import button
from tests.ui.test_review import drafted_project, on_screen

HOLDER = """
import sys, time
from engine.app.workspace import Workspace
ws = Workspace(sys.argv[1])
ws.hold("the app")
print("held", flush=True)
time.sleep(600)
"""


def holding(folder: Path) -> subprocess.Popen:
    """A child process that holds ``folder`` as the app does (``Workspace.hold("the app")``)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_every_writing_command_refuses_while_another_process_holds_the_folder(tmp_path):
    folder = tmp_path / "workspace"
    review_store_files(folder, with_wal=False)
    store = ReviewStore(folder / "review.sqlite")
    snapshots.take_review(store)
    store.close()
    book = write_questionnaire(tmp_path / "vendor.xlsx")
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nBackups are tested every quarter.\n", encoding="utf-8")
    app = holding(folder)
    try:
        before = fingerprint(folder)
        writers = {
            "restore": ["restore", "--store", str(folder)],
            "draft": ["draft", str(book), "--store", str(folder)],
            "kb": ["kb", "add", str(note), "--store", str(folder)],
            "library": ["library", "import", str(book), "--store", str(folder)],
            "profile": ["profile", "--set", "contact_email", "a@example.com", "--store", str(folder)],
        }
        for command, args in writers.items():
            run = measured(*args, timeout=120)
            assert run.rc == 2, (command, run)
            line = run.error_line(str(folder))
            assert f"the app (process {app.pid}, since " in line, line
            assert f"`python -m engine {command}` would write its stores beside it" in line, line
            assert "nothing was changed" in line, line
            assert run.peak_mb <= 500, (command, run.peak_mb)  # refused before any model loads
        assert fingerprint(folder) == before
        listed = measured("restore", "--list", "--store", str(folder), timeout=120)  # reading runs beside it
        assert listed.rc == 0 and "reads as a whole" in listed.stdout, listed
        assert folder_lock.holder(folder).pid == app.pid
    finally:
        app.send_signal(signal.SIGKILL)  # as a crash ends it: the lock ends with the process
        app.wait()
    assert folder_lock.holder(folder) is None
    done = measured("restore", "--store", str(folder), timeout=120)
    assert done.rc == 0 and done.stdout.startswith(f"restored {folder / 'review.sqlite'}"), done


def test_one_process_holds_a_folder_once_and_a_second_is_named(tmp_path):
    folder = tmp_path / "workspace"
    first = folder_lock.hold(folder, "the app")
    try:
        assert folder_lock.hold(folder, "`python -m engine draft`") == first  # shared within the process
        assert folder_lock.holder(folder) == first
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys\nfrom storage.folder_lock import hold\nhold(sys.argv[1], 'a second app')",
                str(folder),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert probe.returncode == 1 and "FolderBusy" in probe.stderr, probe.stderr
        assert f"the app (process {os.getpid()}" in probe.stderr, probe.stderr
    finally:
        folder_lock.release(folder)
    assert folder_lock.holder(folder) is None


def test_a_store_replaced_on_disk_stops_the_writes_of_the_old_connection(tmp_path):
    folder = tmp_path / "workspace"
    review_store_files(folder, with_wal=False)
    ws = Workspace(folder)
    review = ws.review_store
    review.decide(1, "ENC-01", Action.EDIT, "Yes, AES-256 (edited).", "Yes")
    ws.back_up()
    review.decide(1, "BCK-01", Action.ACCEPT)
    snapshots.restore(folder)  # by hand, around the lock: the file is moved aside, the snapshot put back
    (aside,) = [p for p in folder.glob("review.sqlite.replaced-*") if not p.name.endswith(("-wal", "-shm"))]
    before = fingerprint(folder)

    with pytest.raises(StoreReplaced) as refused:
        review.decide(1, "ENC-01", Action.REJECT)
    message = str(refused.value)
    assert message.startswith(f"{folder / 'review.sqlite'}: the file was replaced or moved on disk"), message
    assert "restart the app" in message and "\n" not in message
    assert fingerprint(folder) == before  # nothing written to the new file nor the one moved aside
    review.close()
    for path in (folder / "review.sqlite", aside):
        store = ReviewStore(path)
        assert store.latest_decisions(1)["ENC-01"].action is Action.EDIT, path
        store.close()


def test_the_review_screen_says_the_store_was_replaced_in_one_line(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path)
    at = open_screen("review")
    assert on_screen(at) == "ENC-01"
    ws.back_up()
    snapshots.restore(ws.folder)  # replaced by hand under the open app
    at = button(at, "Accept").click().run()
    assert not at.exception, at.exception
    shown = [e.value for e in at.error]
    assert any("replaced or moved on disk" in text and "Restart the app" in text for text in shown), shown
    fresh = ReviewStore(ws.folder / "review.sqlite")
    assert fresh.latest_decisions(pid) == {}
    fresh.close()


@pytest.mark.timeout(300)
@NEEDS_CHROMIUM
def test_restore_under_the_open_app_is_refused_and_no_decision_is_lost(tmp_path):
    from tests.e2e.test_browser import open_question, quoting_llm_server
    from tests.e2e.test_browser_cases import assert_no_traceback, browser_on, prepared_workspace, review_items

    started = time.monotonic()
    book = write_questionnaire(tmp_path / "vendor.xlsx")
    folder = tmp_path / "workspace"
    with quoting_llm_server() as llm_url:
        pid, _ = prepared_workspace(folder, llm_url, book, {"ENC-01": "Yes", "BCK-01": "Yes", "INC-01": "Yes"})
        with browser_on(folder, tmp_path / "streamlit.log", "one_writer") as app:
            open_question(app, "ENC-01")
            app.button("Accept").click()
            app.expect_text("ENC-01 accepted")
            refused = measured("restore", "--store", str(folder), timeout=120)
            assert refused.rc == 2, refused
            line = refused.error_line(str(folder))
            assert "the app (process " in line and "`python -m engine restore`" in line, line
            assert not list(folder.glob("review.sqlite.replaced-*"))
            open_question(app, "BCK-01")
            app.button("Accept").click()
            app.expect_text("BCK-01 accepted")
            app.shot("both_accepted")
            assert_no_traceback(app)
    items = review_items(folder, pid)
    assert {k: items[k].decision.action.value for k in ("ENC-01", "BCK-01")} == {
        "ENC-01": "accepted",
        "BCK-01": "accepted",
    }
    print(f"\nrestore under the open app: {time.monotonic() - started:.1f} s")


def test_a_second_app_on_a_held_folder_shows_who_holds_it(tmp_path):
    """The app's own start (ui/resources.workspace) holds the folder; a folder held by another
    process is refused with ``FolderBusy`` before the review store is opened."""
    folder = tmp_path / "workspace"
    app = holding(folder)
    try:
        ws = Workspace(folder)
        with pytest.raises(FolderBusy) as refused:
            ws.hold("the app")
        assert f"the app (process {app.pid}" in str(refused.value)
        assert not (folder / "review.sqlite").exists()
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait()


COUNT_DECISIONS = (
    "import sqlite3, sys\n"
    "db = sqlite3.connect(sys.argv[1])\n"
    "print(db.execute('SELECT count(*) FROM decisions').fetchone()[0])\n"
    "db.close()"
)


def test_checking_a_store_this_process_has_open_keeps_its_connections_writes(tmp_path):
    """Found while building the two-reviewer checks: ``inspect`` (run whenever a store is opened)
    read the database with Python's own open/close, and closing any descriptor of a file drops
    the POSIX locks this process's SQLite connections hold on it. A reader in another process
    that closed next (``restore --list``, ``review show``) then took itself for the last one,
    deleted the ``-wal``, and the open connection's next decision went into the deleted file."""
    folder = tmp_path / "workspace"
    review_store_files(folder, with_wal=False)
    db = folder / "review.sqlite"
    live = ReviewStore(db)  # the app's connection
    ReviewStore(db).close()  # a second store opened in the same process: inspect() reads the file
    other = subprocess.run([sys.executable, "-c", COUNT_DECISIONS, str(db)], capture_output=True, text=True)
    assert other.returncode == 0, other.stderr
    before = int(other.stdout)
    live.decide(1, "BCK-01", Action.ACCEPT)
    seen = subprocess.run([sys.executable, "-c", COUNT_DECISIONS, str(db)], capture_output=True, text=True)
    assert int(seen.stdout) == before + 1, seen
    live.close()
