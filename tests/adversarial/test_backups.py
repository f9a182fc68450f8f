"""Backups that never destroy or block (issue #36, item 4).

Before #36: ``backups/`` as a regular file, or a folder that cannot be written, gave a traceback
on every screen at app start (the app unusable), and ``draft`` wrote its drafts and ``--out``,
then exited 1 with a traceback; a folder named like a snapshot gave ``IsADirectoryError`` at start
and left a stray ``.tmp``; ten damaged snapshots dated 2099 made retention delete every good
snapshot, and ``restore`` then found none.

* ``backups/`` a regular file, or a folder that cannot be written: ``Workspace.back_up`` (what
  the app does when it opens the workspace, and after each drafting run) returns one warning
  naming the folder, the problem and the fix; every screen of the app shows that line and works;
  ``draft`` (child process, the stated fake LLM server of tests/e2e) writes its drafts and
  ``--out`` and exits 0 with the warning on stderr; ``kb add`` adds its document, exit 0.
  The unwritable folder is ``chmod 0o500``; these tests run as root, whom permission bits do
  not stop, so the process that meets it runs without ``CAP_DAC_OVERRIDE`` (``setpriv
  --bounding-set -dac_override,-dac_read_search``: still root, but bound by the bits like any
  user), skipped where ``setpriv`` cannot drop it.
* A folder named like a snapshot, a stray ``.tmp`` and any other file in ``backups/`` are left
  alone (not read, not counted, not deleted) while snapshots are taken and retired.
* Retention reads the snapshots: ten damaged snapshots dated 2099 are never counted and never
  deleted, the newest :data:`KEEP` good ones stay, and ``restore`` (child process) brings back
  the newest good one.

Real SQLite, MiniLM and Qdrant local mode; the screens with the stated fake LLM of
tests/ui/conftest.py (these tests are about backups, not generation).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine.app.workspace import Workspace
from storage import snapshots
from storage.review_store import ReviewStore
from tests.adversarial.conftest import ROOT, Run, measured
from tests.adversarial.damaged import fill_review_store, fingerprint, library_files, library_state, review_state
from tests.fixtures import write_questionnaire
from tests.ui.conftest import APP, texts

WITHOUT_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
SCREENS = ("knowledge_base", "questionnaire", "review", "export", "settings")


def _bound_by_permissions(tmp_path: Path) -> list[str]:
    """The command prefix that runs a process bound by permission bits (see the module docstring)."""
    probe = tmp_path / "probe"
    probe.mkdir(mode=0o500)
    try:
        done = subprocess.run(
            WITHOUT_OVERRIDE + [sys.executable, "-c", f"import os, sys; sys.exit(os.access({str(probe)!r}, os.W_OK))"],
            capture_output=True,
            timeout=30,
        )
    except (FileNotFoundError, subprocess.TimeoutExpired):
        pytest.skip("setpriv is not available to drop CAP_DAC_OVERRIDE")
    finally:
        probe.rmdir()
    if done.returncode != 0:
        pytest.skip("setpriv cannot drop CAP_DAC_OVERRIDE here")
    return WITHOUT_OVERRIDE


def _blocked(folder: Path, how: str) -> dict[str, str]:
    """``folder/backups`` made unusable ``how``; what is there (to show it is left as it was)."""
    backups = folder / "backups"
    if how == "a file":
        if backups.exists():  # the snapshots made so far, out of the way
            backups.rename(folder / "backups-before")
        backups.write_text("not a folder: a file a sync tool left under this name\n")
    else:
        backups.mkdir(exist_ok=True)
        (backups / "README").write_text("kept read-only by the administrator\n")
        backups.chmod(0o500)
    return fingerprint(folder / "backups") if backups.is_dir() else {"backups": backups.read_text()}


def _left_as_it_was(folder: Path, how: str) -> dict[str, str]:
    backups = folder / "backups"
    return fingerprint(backups) if how == "a read-only folder" else {"backups": backups.read_text()}


def _unblock(folder: Path) -> None:
    if (folder / "backups").is_dir():
        (folder / "backups").chmod(0o700)


def _in_child(prefix: list[str], *args: str, timeout: float = 300) -> Run:
    """``python -m engine ARGS`` in a child process run behind ``prefix`` (no measurements)."""
    started = time.perf_counter()
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    return Run(done.returncode, done.stdout, done.stderr, time.perf_counter() - started, 0.0, 0.0)


BACK_UP = """
import sys
from engine.app.workspace import Workspace
ws = Workspace(sys.argv[1])
problem = ws.back_up()
print(problem if problem else "no problem")
"""


@pytest.mark.parametrize("how", ["a file", "a read-only folder"])
def test_back_up_with_unusable_backups_is_one_warning_and_changes_nothing(tmp_path, how):
    folder = tmp_path / "workspace"
    store = ReviewStore(folder / "review.sqlite")
    fill_review_store(store, tmp_path / "books")
    state = review_state(store)
    store.close()
    before = _blocked(folder, how)
    prefix = _bound_by_permissions(tmp_path) if how == "a read-only folder" else []
    try:
        done = subprocess.run(
            [*prefix, sys.executable, "-c", BACK_UP, str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
    finally:
        _unblock(folder)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    (line,) = done.stdout.splitlines()
    assert line.startswith(f"{folder / 'backups'}: no snapshot of review.sqlite was taken: "), line
    if how == "a file":
        assert "backups is a file, not a folder" in line and "move that file away" in line, line
    else:
        assert "cannot be written" in line and "make the folder writable" in line, line
    assert "The work goes on" in line
    assert _left_as_it_was(folder, how) == before
    back = ReviewStore(folder / "review.sqlite")
    assert review_state(back) == state
    back.close()
    assert not list(folder.glob("*.tmp")) and not list(folder.glob("backups/.*.tmp"))


def test_every_screen_shows_the_warning_and_works_when_backups_is_a_file(ui_workspace, tmp_path):
    ws = ui_workspace
    (ws.folder / "backups").write_text("a file, not a folder\n")
    problem = ws.back_up()  # what the app's start-up does (ui/resources.py), before any screen
    assert problem is not None and str(problem).startswith(f"{ws.folder / 'backups'}: no snapshot of review.sqlite")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    for screen in SCREENS:
        at.switch_page(f"screens/{screen}.py")
        at.run()
        assert not at.exception, (screen, [e.value for e in at.exception])
        shown = texts(at.warning).replace("\\", "").replace("**", "")
        assert f"{ws.folder / 'backups'}: No snapshot of review.sqlite was taken: backups is a file" in shown, shown
        assert not at.error, (screen, texts(at.error))
    assert (ws.folder / "backups").read_text() == "a file, not a folder\n"


@pytest.mark.parametrize("how", ["a file", "a read-only folder"])
def test_draft_writes_its_drafts_and_out_and_exits_0_with_one_warning(store, tmp_path, how):
    from tests.e2e.test_browser import quoting_llm_server

    book = write_questionnaire(tmp_path / "vendor.xlsx")
    out = tmp_path / "vendor_drafted.xlsx"
    before = _blocked(store, how)
    prefix = _bound_by_permissions(tmp_path) if how == "a read-only folder" else []
    try:
        with quoting_llm_server() as llm_url:
            args = ["draft", str(book), "--store", str(store), "--llm-url", llm_url, "--limit", "2", "--out", str(out)]
            run = _in_child(prefix, *args) if prefix else measured(*args, timeout=300)
    finally:
        _unblock(store)
    assert run.rc == 0, run
    assert "Traceback" not in run.stderr + run.stdout, run.stderr[-3000:]
    warnings = [line for line in run.lines if line.startswith("warning:")]
    assert len(warnings) == 1, run.stderr[-3000:]
    assert warnings[0].startswith(f"warning: {store / 'backups'}: no snapshot of review.sqlite was taken"), warnings
    assert out.is_file() and f"wrote {out}" in run.stdout, run.stdout
    drafted = ReviewStore(store / "review.sqlite")
    (project,) = drafted.projects()
    assert len(drafted.latest_drafts(project.id)) == 2
    drafted.close()
    assert _left_as_it_was(store, how) == before


def test_kb_add_adds_its_document_and_warns_once_when_backups_is_a_file(store, tmp_path):
    note = tmp_path / "retention.md"
    note.write_text("# Retention\n\nAudit logs are kept for 400 days in a separate account.\n")
    (store / "backups").rename(store / "backups-before")
    (store / "backups").write_text("a file\n")
    run = measured("kb", "add", str(note), "--store", str(store), "--summaries", "extractive", timeout=300)
    assert run.rc == 0 and "Traceback" not in run.stderr, run
    assert any(line.startswith("added: retention.md") for line in run.stdout.splitlines()), run.stdout
    (line,) = [line for line in run.lines if line.startswith("warning:")]
    assert line.startswith(f"warning: {store / 'backups'}: no snapshot of manifest.json was taken"), line
    assert (store / "backups").read_text() == "a file\n"


def test_a_folder_named_like_a_snapshot_and_a_stray_tmp_are_left_alone(tmp_path):
    folder = tmp_path / "workspace"
    store = ReviewStore(folder / "review.sqlite")
    fill_review_store(store, tmp_path / "books")
    backups = folder / "backups"
    named = backups / "review-20990101T000000000000Z.sqlite"  # a folder: newer than any snapshot by its name
    named.mkdir(parents=True)
    (named / "photo.jpg").write_bytes(b"\xff\xd8 not a database")
    (backups / "library-20990101T000000000000Z.sqlite").mkdir()
    (backups / ".review-20240101T000000000000Z.sqlite.tmp").write_bytes(b"half a copy from a crash")
    (backups / "notes.txt").write_text("where the offsite copies are\n")
    others = fingerprint(backups)

    for i in range(snapshots.KEEP + 2):  # enough to make retention delete
        store.decide(1, "ENC-01", "edited", answer=f"Yes ({i}).")
        snapshots.take_review(store)
    ws = Workspace(folder)
    ws.__dict__["review_store"] = store
    assert ws.back_up() is None  # the app's start-up: no IsADirectoryError
    assert len(snapshots.snapshots(folder, "review")) == snapshots.KEEP
    assert {k: v for k, v in fingerprint(backups).items() if k in others} == others  # every one of them kept
    assert named.is_dir() and (backups / "library-20990101T000000000000Z.sqlite").is_dir()
    state = review_state(store)
    store.close()

    listed = measured("restore", "--list", "--store", str(folder), timeout=120)
    assert listed.rc == 0 and "Traceback" not in listed.stderr, listed
    assert "photo.jpg" not in listed.stdout and "notes.txt" not in listed.stdout
    done = measured("restore", "--store", str(folder), timeout=120)
    assert done.rc == 0 and "from review-2099" not in done.stdout, done
    back = ReviewStore(folder / "review.sqlite")
    assert review_state(back) == state
    back.close()
    assert {k: v for k, v in fingerprint(backups).items() if k in others} == others


def _damaged_2099(backups: Path, kind: str) -> dict[str, str]:
    """Ten damaged snapshots of ``kind`` named as if taken in 2099 (a clock gone wrong, a copy from
    elsewhere); their fingerprints."""
    backups.mkdir(parents=True, exist_ok=True)
    for i in range(10):
        data = random.Random(i).randbytes(3 * 4096)
        if i % 2:
            data = b"SQLite format 3\x00" + data[16:]  # a header, then garbage
        (backups / f"{kind}-20990101T0000{i:02d}000000Z.sqlite").write_bytes(data)
    return {k: v for k, v in fingerprint(backups).items() if "-2099" in k}


def test_ten_damaged_snapshots_dated_2099_never_make_retention_delete_the_good_ones(tmp_path):
    folder = tmp_path / "workspace"
    store = ReviewStore(folder / "review.sqlite")
    fill_review_store(store, tmp_path / "books")
    snapshots.take_review(store)
    damaged = _damaged_2099(folder / "backups", "review")
    for i in range(snapshots.KEEP + 3):
        store.decide(1, "ENC-01", "edited", answer=f"Yes ({i}).")
        snapshots.take_review(store)
    state = review_state(store)
    store.close()

    kept = snapshots.snapshots(folder, "review")
    good = [s for s in kept if not snapshots.problem(s.path, "review")]
    assert len(good) == snapshots.KEEP
    assert {k: v for k, v in fingerprint(folder / "backups").items() if "-2099" in k} == damaged  # none deleted
    newest = ReviewStore(good[0].path)
    assert newest.latest_decisions(1)["ENC-01"].answer == f"Yes ({snapshots.KEEP + 2})."
    newest.close()

    (folder / "review.sqlite").write_bytes(b"")  # then the store is lost
    done = measured("restore", "--store", str(folder), timeout=120)
    assert done.rc == 0 and done.stdout.startswith(f"restored {folder / 'review.sqlite'} from {good[0].path.name}"), (
        done
    )
    back = ReviewStore(folder / "review.sqlite")
    assert review_state(back) == state
    back.close()


def test_library_retention_reads_its_snapshots_too(tmp_path, encoder):
    from engine.index.library import AnswerLibrary

    folder = tmp_path / "workspace"
    library_files(folder, encoder, with_wal=False)
    library = AnswerLibrary(folder, encoder)
    damaged = _damaged_2099(folder / "backups", "library")
    entries = library.entries()
    for e in entries[: snapshots.KEEP + 2]:
        library.retire(e.id)
        snapshots.take_library(library.store)
    state = library_state(library)
    library.close()
    good = [s for s in snapshots.snapshots(folder, "library") if not snapshots.problem(s.path, "library")]
    assert len(good) == snapshots.KEEP
    assert {k: v for k, v in fingerprint(folder / "backups").items() if "-2099" in k} == damaged

    (folder / "library.sqlite").write_bytes(b"")
    (restored,) = snapshots.restore(folder)
    assert restored.snapshot == good[0].path
    back = AnswerLibrary(folder, encoder)
    assert library_state(back) == state
    back.close()


def test_a_good_snapshot_dated_later_than_now_is_not_what_restore_picks(tmp_path):
    """Issue #47: a good snapshot dated 2099 (a clock set wrong, a file put there by hand) won
    ``restore`` over today's, bringing back an older state; now it comes after every snapshot
    dated up to now, and ``restore --list`` says so."""
    folder = tmp_path / "workspace"
    store = ReviewStore(folder / "review.sqlite")
    fill_review_store(store, tmp_path / "books")
    older = snapshots.take_review(store)
    planted = older.with_name("review-20990101T000000000000Z.sqlite")
    shutil.copyfile(older, planted)  # good, and older than what follows
    store.decide(1, "ENC-01", "edited", answer="Yes, today's answer.")
    today = snapshots.take_review(store)
    store.close()
    (folder / "review.sqlite").write_bytes(b"")  # then the store is lost

    done = measured("restore", "--store", str(folder), timeout=120)
    assert done.rc == 0 and done.stdout.startswith(f"restored {folder / 'review.sqlite'} from {today.name}"), done
    back = ReviewStore(folder / "review.sqlite")
    assert back.latest_decisions(1)["ENC-01"].answer == "Yes, today's answer."
    back.close()
    listed = measured("restore", "--list", "--store", str(folder), timeout=120)
    (line,) = [x for x in listed.stdout.splitlines() if x.startswith(planted.name)]
    assert "good" in line and "dated later than now" in line, line
