"""The answer library (``library.sqlite``) protected like the review store (issue #36, item 1).

Before #36: the library cut to 0 bytes while its ``-wal`` held 16 imported and 5
reviewer-accepted answers made ``library list`` say there was no library (exit 0), ``draft``
reuse nothing, the app show an empty library — each silently created a new empty one and the
``-wal`` was gone; truncated, it gave ``sqlite3.DatabaseError`` tracebacks and was rewritten;
garbage in the middle, exit 1 with a traceback; ``backups/`` held no copy and ``restore`` ignored it.

* Every damage (emptied, truncated, cut mid-page, garbage, garbage behind the header, garbage in
  the middle; with and without the ``-wal`` a killed app leaves; a ``-wal`` without its file)
  raises ``LibraryStoreDamaged`` naming the file, the problem and the way back, and not one
  byte of the file or its ``-wal`` changes (no empty library made over it).
* The CLI (``library list``, ``library check``, ``library import``, ``draft``, in a child
  process) gives one ``error: FILE: …`` line, exit 2, no traceback, the library's bytes kept.
* ``back_up`` (what the app does when it opens the workspace) snapshots the library;
  ``restore --store`` (child process) brings back exactly the 21 entries (with their vectors,
  the reviewer-accepted ones too), moves the damaged file and its ``-wal`` aside byte for byte,
  and leaves the review store (not damaged) alone; ``restore library-<time>.sqlite`` by name too.
* Review: Accept while the library is damaged stores the decision in the review store, says it
  went there only (``library_problem``), and writes nothing into the library.
* The app (AppTest): the Knowledge base screen shows the one line (file, problem, ``restore``)
  instead of a traceback or an empty library; the Review screen says so on top, and Accept
  says "accepted — saved in the review store only: …".

Real MiniLM, real SQLite, the CLI in child processes; no LLM (every command here is refused, or
done, before a model would load; the screens draft with the stated fake LLM of tests/ui/conftest.py).
"""

from __future__ import annotations

import shutil

import pytest

from engine.app.workspace import Workspace
from engine.core.types import Action, DraftStatus, StoreDamaged
from engine.drafting.records import Draft
from engine.index.library import AnswerLibrary, has_library
from engine.questionnaire.qualifiers import question_key
from storage import snapshots
from storage.library_store import LibraryStore, LibraryStoreDamaged
from storage.review_store import ReviewStore
from tests.adversarial.conftest import measured
from tests.adversarial.damaged import (
    DAMAGES,
    GARBAGE_IN_THE_MIDDLE,
    damage,
    library_files,
    library_fingerprint,
    library_state,
)
from tests.fixtures import write_questionnaire
from tests.ui.conftest import button, texts
from tests.ui.test_review import drafted_project

ALL_DAMAGES = list(DAMAGES) + list(GARBAGE_IN_THE_MIDDLE)


@pytest.mark.parametrize("with_wal", [True, False], ids=["with -wal", "without -wal"])
@pytest.mark.parametrize("how", ALL_DAMAGES)
def test_a_damaged_library_is_refused_with_its_fix_and_left_as_it_was(tmp_path, encoder, how, with_wal):
    folder = tmp_path / "workspace"
    library_files(folder, encoder, with_wal)
    db = folder / "library.sqlite"
    damage(db, how)
    before = library_fingerprint(folder)

    with pytest.raises(LibraryStoreDamaged) as refused:
        LibraryStore(db)
    message = str(refused.value)
    assert message.startswith(f"{db}: the answer library is damaged"), message
    assert "There is no snapshot of it" in message and "library.sqlite .recover" in message and "\n" not in message
    assert isinstance(refused.value, StoreDamaged)  # the app's screens show it as their one line
    assert has_library(folder)  # never "no library"
    with pytest.raises(LibraryStoreDamaged):
        AnswerLibrary(folder, encoder)
    ws = Workspace(folder)
    assert ws.back_up() is None  # the app starts: the review store is snapshotted, the damaged library is not
    with pytest.raises(LibraryStoreDamaged):
        ws.library
    assert not snapshots.snapshots(folder, "library")
    ws.review_store.close()
    assert library_fingerprint(folder) == before  # not one byte written, no file added or removed


def test_a_wal_without_its_library_file_is_damage_not_no_library(tmp_path, encoder):
    folder = tmp_path / "workspace"
    library_files(folder, encoder, with_wal=True)
    (folder / "library.sqlite").unlink()
    before = library_fingerprint(folder)
    with pytest.raises(LibraryStoreDamaged, match="the file is missing but its write-ahead log library.sqlite-wal"):
        AnswerLibrary(folder, encoder)
    listed = measured("library", "list", "--store", str(folder), timeout=120)
    assert listed.rc == 2, listed
    assert "the file is missing but its write-ahead log" in listed.error_line(str(folder / "library.sqlite"))
    assert library_fingerprint(folder) == before


@pytest.mark.parametrize("how", ["0 bytes", "truncated to whole pages", "garbage in the middle"])
def test_the_cli_gives_a_damaged_library_one_line_and_keeps_its_bytes(tmp_path, encoder, how):
    folder = tmp_path / "workspace"
    library_files(folder, encoder, with_wal=True)
    db = folder / "library.sqlite"
    damage(db, how)
    before = library_fingerprint(folder)
    book = write_questionnaire(tmp_path / "vendor.xlsx", answered={4: "Yes"})
    commands = [["library", "list"], ["draft", str(book)]]  # draft: refused before any model loads
    if how == "0 bytes":  # the case: every command that opens the library
        commands += [["library", "check"], ["library", "import", str(book)]]

    for command in commands:
        run = measured(*command, "--store", str(folder), timeout=180)
        assert run.rc == 2, (command, run)
        line = run.error_line(str(db))
        assert "the answer library is damaged" in line and "nothing was changed" in line, (command, line)
        assert "no answer library" not in run.stdout, (command, run.stdout)
        if how == "0 bytes":
            assert "the file is empty (0 bytes) while its write-ahead log library.sqlite-wal holds" in line, line
        assert library_fingerprint(folder) == before, command


@pytest.mark.parametrize("with_wal", [True, False], ids=["with -wal", "without -wal"])
def test_restore_brings_back_every_library_entry_and_keeps_the_damaged_bytes_aside(tmp_path, encoder, with_wal):
    folder = tmp_path / "workspace"
    state = library_files(folder, encoder, with_wal)
    db = folder / "library.sqlite"
    on_disk = {p: p.read_bytes() for p in (db, folder / "library.sqlite-wal") if p.exists()}
    ws = Workspace(folder)
    assert ws.back_up() is None  # what the app does when it opens the workspace
    (snapshot,) = snapshots.snapshots(folder, "library")
    ws.library.close()
    ws.review_store.close()
    for path, data in on_disk.items():  # then killed: the files as it left them
        path.write_bytes(data)
    review = (folder / "review.sqlite").read_bytes()
    damage(db, "0 bytes")
    damaged = library_fingerprint(folder)

    listed = measured("restore", "--list", "--store", str(folder), timeout=120)
    assert listed.rc == 0 and f"{db}: damaged: the file is empty" in listed.stdout, listed
    assert f"{snapshot.path.name}  " in listed.stdout and "good" in listed.stdout, listed.stdout
    with pytest.raises(LibraryStoreDamaged) as refused:
        LibraryStore(db)
    assert f"restore the newest snapshot with `python -m engine restore --store {folder}`" in str(refused.value)

    done = measured("restore", "--store", str(folder), timeout=120)
    assert done.rc == 0 and "Traceback" not in done.stderr, done
    assert done.stdout.startswith(f"restored {db} from library-"), done.stdout
    assert "review.sqlite" not in done.stdout  # not damaged: left alone

    restored = AnswerLibrary(folder, encoder)
    assert library_state(restored) == state  # the 16 imported and the 5 reviewer-accepted entries, vectors too
    assert sum(e.origin.value == "review" for e, _, _ in state) == 5
    restored.close()
    aside = {name: digest for name, digest in library_fingerprint(folder).items() if ".damaged-" in name}
    assert sorted(aside.values()) == sorted(damaged.values())  # every byte of the file and its -wal kept
    assert len(aside) == (2 if with_wal else 1)
    assert (folder / "review.sqlite").read_bytes() == review
    assert not list(folder.glob("review.sqlite.*"))


def test_restore_can_name_a_library_snapshot(tmp_path, encoder):
    folder = tmp_path / "workspace"
    state = library_files(folder, encoder, with_wal=False)
    library = AnswerLibrary(folder, encoder)
    older = snapshots.take_library(library.store)
    library.retire(state[0][0].id)
    newer = snapshots.take_library(library.store)
    assert newer != older
    library.close()
    done = measured("restore", older.name, "--store", str(folder), timeout=120)
    assert done.rc == 0 and done.stdout.startswith(f"restored {folder / 'library.sqlite'} from {older.name}"), done
    back = AnswerLibrary(folder, encoder)
    assert library_state(back) == state  # nothing retired in the older one
    back.close()
    assert len(list(folder.glob("library.sqlite.replaced-*"))) == 1  # the good file moved aside, not rewritten


def test_accept_while_the_library_is_damaged_is_kept_in_the_review_store_and_says_so(tmp_path, encoder):
    folder = tmp_path / "workspace"
    library_files(folder, encoder, with_wal=True)
    damage(folder / "library.sqlite", "0 bytes")
    before = library_fingerprint(folder)
    ws = Workspace(folder)
    book = write_questionnaire(tmp_path / "vendor.xlsx")
    project, questionnaire = ws.add_questionnaire(book.name, book.read_bytes())
    q = questionnaire.questions[0]  # ENC-01
    key = question_key(q)
    draft = Draft(key, q.id, q.sheet, q.row, q.text, "Yes, AES-256.", "Yes", DraftStatus.DRAFTED)
    ws.review_store.add_draft(project.id, draft.stored())

    review = ws.review(project.id)
    assert isinstance(review.library_problem, LibraryStoreDamaged)
    decision = review.accept(key)
    assert decision.action is Action.ACCEPT
    assert ws.review_store.latest_decisions(project.id)[key].answer == "Yes, AES-256."
    assert isinstance(review.library_problem, LibraryStoreDamaged)  # what the screen says beside "accepted"
    ws.review_store.close()
    assert library_fingerprint(folder) == before


def test_a_library_damaged_while_open_is_the_same_one_line(tmp_path, encoder):
    """SQLite finding the open file malformed (a sync tool rewrote it under the app) raises
    ``LibraryStoreDamaged``, not ``sqlite3.DatabaseError``."""
    folder = tmp_path / "workspace"
    library_files(folder, encoder, with_wal=False)
    library = AnswerLibrary(folder, encoder)
    good = (folder / "library.sqlite").read_bytes()
    shutil.copyfile(folder / "library.sqlite", tmp_path / "copy.sqlite")
    damage(folder / "library.sqlite", "garbage behind the header")
    try:
        with pytest.raises(LibraryStoreDamaged, match="the answer library is damaged"):
            library.entries()
    finally:
        library.close()
    assert (tmp_path / "copy.sqlite").read_bytes() == good


# ---- the app's screens (AppTest; the stated fake LLM of tests/ui/conftest.py) -----------------------
def test_the_knowledge_base_screen_shows_the_damaged_library_line_not_a_traceback(ui_workspace, encoder, open_screen):
    folder = ui_workspace.folder
    library_files(folder, encoder, with_wal=False)
    library = AnswerLibrary(folder, encoder)
    snapshots.take_library(library.store)  # an earlier start of the app
    library.close()
    db = folder / "library.sqlite"
    damage(db, "truncated to whole pages")  # the "truncated in half"
    before = library_fingerprint(folder)

    at = open_screen("knowledge_base")
    assert not at.exception, [e.value for e in at.exception]
    shown = texts(at.error).replace("\\", "").replace("**", "")
    assert f"{db}: The answer library is damaged: " in shown, shown
    assert f"python -m engine restore --store {folder}" in shown, shown
    assert "The library is empty" not in texts(at.caption)
    assert library_fingerprint(folder) == before


def test_accept_on_the_review_screen_says_the_answer_went_to_the_review_store_only(
    ui_workspace, encoder, open_screen, tmp_path
):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path)
    for name in ("drafter", "_profile"):
        ws.__dict__.pop(name, None)
    ws.__dict__.pop("library").close()  # the app restarted after the library was damaged
    for path in ws.folder.glob("library.sqlite*"):
        path.unlink()
    library_files(ws.folder, encoder, with_wal=True)
    damage(ws.folder / "library.sqlite", "0 bytes")  # the issue's case: the -wal holds the reviewers' answers
    before = library_fingerprint(ws.folder)
    enc = ws.review(pid).items()[0]

    at = open_screen("review")
    assert not at.exception, [e.value for e in at.exception]
    top = texts(at.warning).replace("\\", "").replace("**", "")
    assert "saved in the review store only" in top and "The answer library is damaged: the file is empty" in top, top
    at = button(at, "Accept").click().run()
    assert not at.exception, [e.value for e in at.exception]
    said = texts(at.warning).replace("\\", "").replace("**", "")
    assert "ENC-01 accepted — saved in the review store only: " in said, said
    assert f"{ws.folder / 'library.sqlite'}: The answer library is damaged" in said, said
    assert not any("accepted" in t.value for t in at.toast)  # not the plain "accepted"
    stored = ReviewStore(ws.folder / "review.sqlite")
    assert stored.latest_decisions(pid)[enc.key].action is Action.ACCEPT
    stored.close()
    assert library_fingerprint(ws.folder) == before
