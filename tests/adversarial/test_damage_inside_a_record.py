"""Damage inside a record is damage (issue #47, item 5): 40 bytes overwritten inside one answer of
``library.sqlite`` (or inside a question of ``review.sqlite``) leave every page and record header
whole, so SQLite's ``PRAGMA quick_check`` passes; the text is no longer UTF-8.

Before #47: ``library import`` then opened the library and rewrote the file, ``library history``
crashed with "Could not decode to UTF-8", ``restore --list`` said the file "reads as a whole" and
``restore`` had nothing to restore; the review store opened for writing the same way. Now the
check made before a store is opened for writing (storage/sqlite.inspect) reads every record, so
this is the same one line, the same refusal (not one byte changed) and the same way back
(``restore``) as any other damage.

Real MiniLM, real SQLite, the CLI in child processes; no LLM."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.index.library import AnswerLibrary
from storage import snapshots
from storage.library_store import LibraryStore
from storage.review_store import ReviewStore, ReviewStoreDamaged
from tests.adversarial.conftest import measured
from tests.adversarial.damaged import fill_review_store, library_files, library_fingerprint
from tests.fixtures import write_questionnaire

GARBAGE = bytes([0xFF, 0xFE]) * 20  # 40 bytes, never UTF-8


def garble(path: Path, inside: bytes) -> None:
    """``path`` with 40 bytes of garbage written over the text ``inside`` (its one copy in the
    file); SQLite's quick check still passes."""
    data = path.read_bytes()
    assert data.count(inside) == 1 and len(inside) >= len(GARBAGE)
    at = data.index(inside)
    path.write_bytes(data[:at] + GARBAGE + data[at + len(GARBAGE) :])
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]  # what was checked before #47


def test_garbage_inside_a_library_record_is_refused_listed_and_restored(tmp_path, encoder):
    folder = tmp_path / "workspace"
    library_files(folder, encoder, with_wal=False)  # 16 imported answers, 5 accepted in a review
    db = folder / "library.sqlite"
    store = LibraryStore(db)
    snapshot = snapshots.take_library(store)
    store.close()
    garble(db, b"Past answer 7, as the customer was told.")
    before = library_fingerprint(folder)

    book = write_questionnaire(tmp_path / "vendor.xlsx", answered={4: "Yes"})
    for command in (["library", "history"], ["library", "list"], ["library", "import", str(book)]):
        run = measured(*command, "--store", str(folder), timeout=180)
        line = run.error_line(str(db))  # no traceback ("Could not decode to UTF-8")
        assert run.rc == 2 and "the answer library is damaged" in line and "nothing was changed" in line, line
        assert "a record of its table entries does not read (its answer is not UTF-8 text)" in line, line
        assert f"python -m engine restore --store {folder}" in line, line
        assert library_fingerprint(folder) == before, command  # not rewritten

    listed = measured("restore", "--list", "--store", str(folder), timeout=120)
    assert f"{db}: damaged: a record of its table entries does not read" in listed.stdout, listed.stdout
    done = measured("restore", "--store", str(folder), timeout=120)
    assert done.rc == 0 and done.stdout.startswith(f"restored {db} from {snapshot.name}"), done
    library = AnswerLibrary(folder, encoder)
    try:
        answers = {e.answer for e in library.store.entries(include_retired=True, include_pending=True)}
    finally:
        library.close()
    assert "Past answer 7, as the customer was told." in answers and len(answers) == 21
    assert [p.name for p in folder.glob("library.sqlite.damaged-*")], "the damaged file is kept aside"


def test_garbage_inside_a_review_record_is_refused_before_anything_writes(tmp_path):
    folder = tmp_path / "workspace"
    store = ReviewStore(folder / "review.sqlite")
    fill_review_store(store, tmp_path / "books")
    store.close()
    db = folder / "review.sqlite"
    garble(db, b'{"text": "Is customer data encrypted at rest?"}')
    before = db.read_bytes()
    with pytest.raises(ReviewStoreDamaged) as refused:
        ReviewStore(db)
    assert "a record of its table questions does not read (its data is not UTF-8 text)" in str(refused.value)
    assert db.read_bytes() == before
    listed = measured("restore", "--list", "--store", str(folder), timeout=120)
    assert f"{db}: damaged: a record of its table questions does not read" in listed.stdout, listed.stdout
