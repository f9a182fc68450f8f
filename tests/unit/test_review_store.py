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


# what a version-4 store holds (storage/review_store.py before names were kept), written as it wrote it
_V4 = """
CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL, file_name TEXT NOT NULL,
    file_sha256 TEXT NOT NULL, file_bytes BLOB NOT NULL, created TEXT NOT NULL, product TEXT);
CREATE TABLE questions (project_id INTEGER NOT NULL REFERENCES projects(id), key TEXT NOT NULL,
    position INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (project_id, key));
CREATE TABLE drafts (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, key TEXT NOT NULL, status TEXT NOT NULL,
    answer TEXT NOT NULL, choice TEXT, data TEXT NOT NULL, created TEXT NOT NULL);
CREATE INDEX drafts_by_question ON drafts(project_id, key, id);
CREATE TABLE decisions (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, key TEXT NOT NULL, action TEXT NOT NULL,
    answer TEXT, choice TEXT, note TEXT, created TEXT NOT NULL);
CREATE INDEX decisions_by_question ON decisions(project_id, key, id);
CREATE TABLE project_options (project_id INTEGER PRIMARY KEY REFERENCES projects(id), data TEXT NOT NULL);
CREATE TABLE added_citations (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, key TEXT NOT NULL,
    data TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, options TEXT NOT NULL, started TEXT NOT NULL,
    finished TEXT, error TEXT);
INSERT INTO projects VALUES (1, 'q', 'q.xlsx', 'abc', X'00', '2025-01-01T00:00:00+00:00', NULL);
INSERT INTO runs VALUES (1, 1, '{}', '2025-01-01T00:00:01+00:00', '2025-01-01T00:00:09+00:00', NULL);
INSERT INTO drafts VALUES (1, 1, 'S!2', 'drafted', 'Yes, AES-256.', 'Yes', '{}', '2025-01-01T00:00:02+00:00');
INSERT INTO decisions VALUES (1, 1, 'S!2', 'edited', 'Yes, AES-256 at rest.', 'Yes', NULL, '2025-01-02T00:00:00+00:00');
PRAGMA user_version=4;
"""


def test_a_version_4_file_is_upgraded_in_place_and_new_records_carry_a_name(tmp_path):
    """Version 5 keeps who made each run, draft and decision: a version-4 file opens, keeps every
    record (made before names were kept: ``by`` None), and what is added now carries its name."""
    path = tmp_path / "review.sqlite"
    old = sqlite3.connect(path)
    old.executescript(_V4)
    old.close()
    store = ReviewStore(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    kept = store.history(1, "S!2")
    assert [(h.answer, h.by) for h in kept] == [("Yes, AES-256.", None), ("Yes, AES-256 at rest.", None)]
    assert store.run(1).by is None and store.run(1).finished
    before = store.version(1, "S!2")
    store.add_draft(1, StoredDraft("S!2", DraftStatus.DRAFTED, "Yes.", "Yes"), by="ana")
    made = store.decide(1, "S!2", Action.ACCEPT, "Yes.", "Yes", by="bob")
    run = store.start_run(1, {}, by="ana")
    store.close()

    store = ReviewStore(path)  # reopened: version 5 as it is, nothing upgraded twice
    now = store.history(1, "S!2")
    assert [h.by for h in now] == [None, None, "ana", "bob"] and now[-1] == made
    assert store.latest_decisions(1)["S!2"].by == "bob" and store.run(run.id).by == "ana"
    assert store.version(1, "S!2") == type(before)(now[2].id, made.id) and made.id == 2
    assert store.assignments(1) == {} and store.comments(1) == []


def test_assignments_and_comments_are_appended_never_rewritten(tmp_path):
    store = ReviewStore(tmp_path / "review.sqlite")
    upload = tmp_path / "q.xlsx"
    upload.write_bytes(b"workbook bytes")
    pid = store.project_for(upload).id
    first = store.assign(pid, ["S!2", "S!3"], "ana", by="lead", due="2026-12-01", note="yours")
    store.decide(pid, "S!2", Action.NEEDS_SME, note="ask infra", by="lead")
    moved = store.assign(pid, ["S!2"], "infra", by="lead")
    store.assign(pid, ["S!3"], None, by="ana", note="not mine")
    said = store.comment(pid, "S!2", "@bob please look", by="ana")

    held = store.assignments(pid)
    assert held[(pid, "S!2")].to == "infra" and held[(pid, "S!2")].decision_then == 1 > first[0].decision_then
    assert held[(pid, "S!3")].to is None and held[(pid, "S!3")].by == "ana"
    trail = store.assignment_history(pid, "S!2")
    assert [(a.to, a.by, a.due, a.note) for a in trail] == [
        ("ana", "lead", "2026-12-01", "yours"),
        ("infra", "lead", None, None),
    ]
    assert trail[-1] == moved[0] and store.comments(pid, "S!2") == [said] and said.decision_then == 1
    assert store.comments() == [said] and store.assignments()[(pid, "S!2")] == moved[0]
