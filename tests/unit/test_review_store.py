"""The review store keeps every draft and decision, survives reopening, and keeps the
questionnaire's bytes so export never depends on the upload."""

import sqlite3

import pytest

from engine.core.types import Action, DraftStatus
from storage.review_store import SCHEMA_VERSION, ReviewStore, ReviewStoreError, StoredDraft


def test_drafts_and_decisions_persist_with_history(tmp_path):
    upload = tmp_path / "q.xlsx"
    upload.write_bytes(b"workbook bytes")
    store = ReviewStore(tmp_path / "review.db")
    project = store.project_for(upload)
    assert store.project_for(upload).id == project.id  # same bytes → same project
    store.set_questions(project.id, [("S!2", {"text": "Encrypted?"}), ("S!3", {"text": "Backups?"})])
    store.add_draft(
        project.id,
        StoredDraft("S!2", DraftStatus.DRAFTED, "Yes, AES-256.", "Yes", {"citations": [{"file": "a.pdf", "page": 3}]}),
    )
    store.add_draft(project.id, StoredDraft("S!2", DraftStatus.NO_CONTEXT, "", None))
    store.decide(project.id, "S!2", Action.EDIT, answer="Yes, AES-256 at rest.", choice="Yes")
    store.decide(project.id, "S!2", Action.ACCEPT)
    store.close()
    upload.unlink()  # the upload is gone; the store still has it

    store = ReviewStore(tmp_path / "review.db")
    assert store.source_bytes(project.id) == b"workbook bytes"
    assert [k for k, _ in store.questions(project.id)] == ["S!2", "S!3"]
    latest = store.latest_drafts(project.id)
    assert set(latest) == {"S!2"} and latest["S!2"].status is DraftStatus.NO_CONTEXT
    assert store.latest_decisions(project.id)["S!2"].action is Action.ACCEPT
    history = store.history(project.id, "S!2")
    assert [getattr(h, "status", None) or h.action for h in history] == [
        DraftStatus.DRAFTED,
        DraftStatus.NO_CONTEXT,
        Action.EDIT,
        Action.ACCEPT,
    ]
    assert history[0].data["citations"][0]["page"] == 3 and all(h.created for h in history)
    assert sqlite3.connect(tmp_path / "review.db").execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_file_that_is_not_a_database_gets_a_clear_error(tmp_path):
    bad = tmp_path / "review.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ReviewStoreError, match="not an SQLite database"):
        ReviewStore(bad)


def test_citations_a_reviewer_adds_are_kept_per_question_and_a_version_2_file_is_upgraded(tmp_path):
    path = tmp_path / "review.db"
    old = sqlite3.connect(path)  # what a version-2 store leaves: no added_citations table
    old.executescript(
        "CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL, file_name TEXT NOT NULL, "
        "file_sha256 TEXT NOT NULL, file_bytes BLOB NOT NULL, created TEXT NOT NULL); PRAGMA user_version=2;"
    )
    old.close()
    upload = tmp_path / "q.xlsx"
    upload.write_bytes(b"workbook bytes")
    store = ReviewStore(path)
    project = store.project_for(upload)
    assert store.added_citations(project.id) == {}
    store.add_citation(project.id, "S!2", {"file": "a.pdf", "page": 3, "quote": "first"})
    store.add_citation(project.id, "S!2", {"file": "a.pdf", "page": 7, "quote": "second"})
    store.add_citation(project.id, "S!3", {"file": "b.md", "section": "Keys", "quote": "other"})
    store.close()

    store = ReviewStore(path)
    added = store.added_citations(project.id)
    assert [c["quote"] for c in added["S!2"]] == ["first", "second"] and added["S!3"][0]["section"] == "Keys"
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
