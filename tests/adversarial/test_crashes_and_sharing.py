"""kill -9 in the middle of indexing and of drafting, and a second process on a store in use:
the store stays whole and queryable, finished drafts are kept, and the second process gets one
line that says what to do.

The drafting run killed is the real default model's through the CLI, run once per session for
this file and tests/integration/test_draft.py (``killed_draft``, tests/conftest.py); the resumed
run that checks the kept drafts uses the stated stand-in LLM (``QuotingGenerator``), because it
is about the review store, not about generation."""

from __future__ import annotations

import sqlite3

from engine.core.config import EngineConfig
from engine.drafting.drafter import Drafter
from engine.index.kb import KnowledgeBase
from engine.questionnaire import read_questionnaire
from engine.review.draft_run import draft_questionnaire
from storage.review_store import ReviewStore
from storage.vector_store import release
from tests.adversarial.conftest import assert_queryable, finished_drafts, killed_when, measured
from tests.fixtures import QuotingGenerator


def test_kill_9_while_indexing_leaves_the_previous_store(tmp_path, store, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(40):
        (docs / f"policy-{i:02d}.md").write_text(
            f"# Policy {i}\n\n" + f"Control {i} is reviewed every quarter. " * 120, encoding="utf-8"
        )
    generation = (store / "sparse").glob("g*")
    first = {p.name for p in generation}
    # killed once the next generation's index exists on disk: in the middle of writing it
    killed_when(
        ["kb", "add", str(docs), "--store", str(store)], lambda: {p.name for p in (store / "sparse").glob("g*")} - first
    )
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        assert [d.name for d in kb.documents()] == ["handbook.pdf"]
        assert {p.name for p in (store / "sparse").glob("g*")} == first  # the unfinished generation is gone
        report = kb.add([docs / "policy-00.md"])  # and the store takes documents again
        assert [d.name for d in report.added] == ["policy-00.md"]
    finally:
        release(str(store / "qdrant"))
    assert_queryable(store, encoder)


def test_kill_9_while_drafting_keeps_every_finished_draft(tmp_path, killed_draft, encoder):
    """The drafting run killed once a draft was stored is the session's ``killed_draft``
    (tests/conftest.py; tests/integration/test_draft.py resumes it with the CLI), copied here."""
    assert killed_draft.add.returncode == 0, killed_draft.add.stderr
    store, book = killed_draft.copy(tmp_path / "killed")
    review_db = store / "review.sqlite"
    kept = finished_drafts(review_db)
    assert kept == killed_draft.kept >= 1
    with sqlite3.connect(review_db) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        run = draft_questionnaire(read_questionnaire(book), Drafter(kb, QuotingGenerator()), ReviewStore(review_db))
        assert run.resumed == kept and len(run.drafted) == 4 - kept  # nothing done twice, nothing lost
    finally:
        release(str(store / "qdrant"))
    assert_queryable(store, encoder)


def test_a_second_process_on_a_store_in_use_gets_one_line(tmp_path, store, encoder):
    kb = KnowledgeBase(store, EngineConfig(), encoder)  # this process holds the store (as the app does)
    try:
        kb.documents()
        note = tmp_path / "note.md"
        note.write_text("# Note\n\nBackups are tested every quarter.\n", encoding="utf-8")
        for args in (["kb", "add", str(note)], ["search", "backups"], ["kb", "list"]):
            run = measured(*args, "--store", str(store))
            assert run.rc == 2 and "Traceback" not in run.stderr, run.stderr
            (line,) = run.lines
            assert line == (
                f"error: the store {store / 'qdrant'} is open in another process (the app or another "
                "`python -m engine` command). Close that process and try again, use another --store "
                "folder, or run a Qdrant server and set QDRANT_URL to share one store"
            ), line
            assert run.peak_mb <= 500, run.peak_mb
        assert [d.name for d in kb.documents()] == ["handbook.pdf"]
    finally:
        release(str(store / "qdrant"))
    assert_queryable(store, encoder)
