"""The workspace behind the app: questionnaires kept as projects, background drafting that
survives a restart, reviewer decisions and the three exports. The LLM is the stated fake
``QuotingGenerator`` because these tests are about the review flow, not generation (real
generation is tested in test_generate.py and test_draft.py)."""

from __future__ import annotations

import csv
import io
import os
import sqlite3
from pathlib import Path

import openpyxl
import pytest

from engine.app.settings import Settings
from engine.app.workspace import STOPPED, ReadOptions, Workspace
from engine.core.config import EngineConfig
from engine.index.kb import KnowledgeBase
from engine.questionnaire import QuestionnaireError
from engine.review.review import ReviewState
from storage.review_store import SCHEMA_VERSION, ReviewStore
from storage.vector_store import release
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf, write_questionnaire


def open_workspace(folder: Path, encoder) -> Workspace:
    ws = Workspace(folder, Settings())
    ws.__dict__["kb"] = KnowledgeBase(folder, EngineConfig(), encoder)
    ws.__dict__["generator"] = QuotingGenerator()
    return ws


@pytest.fixture()
def ws(tmp_path: Path, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    workspace = open_workspace(tmp_path / "ws", encoder)
    workspace.kb.add([docs])
    yield workspace
    release(str(tmp_path / "ws" / "qdrant"))


def upload(ws: Workspace, tmp_path: Path, **kw):
    book = write_questionnaire(tmp_path / "Customer questionnaire.xlsx", **kw)
    return ws.add_questionnaire(book.name, book.read_bytes())


def test_questionnaire_becomes_a_project_once(ws, tmp_path):
    # the same file uploaded twice: one workbook's bytes (openpyxl stamps the save time, so
    # writing it twice could give two different files across a second boundary)
    book = write_questionnaire(tmp_path / "Customer questionnaire.xlsx")
    project, q = ws.add_questionnaire(book.name, book.read_bytes())
    again, _ = ws.add_questionnaire(book.name, book.read_bytes())
    assert again.id == project.id and len(ws.projects()) == 1
    assert len(q.questions) == 4 and ws.questionnaire(project.id).questions == q.questions
    # the project's file comes back from the review store when the copy on disk is gone
    path = ws.questionnaire_path(project)
    path.unlink()
    assert len(ws.questionnaire(project.id).questions) == 4


def test_an_upload_is_read_as_its_project_file_reads(tmp_path):
    # the upload's reading is kept (not read again) when the project's file has its name; the same
    # bytes uploaded again under another name are read as the project's file, whose name a CSV's
    # sheet takes
    ws = Workspace(tmp_path / "ws", Settings())
    data = b"ID,Question,Answer\nQ-01,Do you encrypt data at rest?,\nQ-02,Do you keep backups?,\n"
    project, first = ws.add_questionnaire("first.csv", data)
    again, renamed = ws.add_questionnaire("renamed.csv", data)
    assert again.id == project.id
    for q in (first, renamed):
        assert q.path == ws.questionnaire_path(project) and q.questions == ws.questionnaire(project.id).questions
        assert [x.sheet for x in q.questions] == ["first", "first"]


def test_bad_questionnaire_is_refused_and_nothing_kept(ws, tmp_path):
    bad = tmp_path / "broken.xlsx"
    bad.write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(QuestionnaireError) as err:
        ws.add_questionnaire(bad.name, bad.read_bytes())
    assert "broken.xlsx" in str(err.value)
    with pytest.raises(QuestionnaireError, match="empty"):
        ws.add_questionnaire("empty.csv", b"")
    with pytest.raises(QuestionnaireError, match="not a questionnaire"):
        ws.add_questionnaire("notes.odt", b"PK\x03\x04 an OpenDocument text")
    with pytest.raises(QuestionnaireError, match="not a readable PDF"):  # a PDF is a questionnaire format (#48)
        ws.add_questionnaire("notes.pdf", b"%PDF-1.7")
    assert ws.projects() == []
    assert not list((ws.folder / "questionnaires").rglob("*.xlsx"))


def test_read_options_are_validated_and_kept(ws, tmp_path):
    project, _ = upload(ws, tmp_path)
    with pytest.raises(QuestionnaireError):
        ws.set_read_options(project.id, ReadOptions(sheet="No such sheet"))
    assert ws.read_options(project.id) == ReadOptions()  # the bad override was not saved
    q = ws.set_read_options(project.id, ReadOptions(answer_col="D"))
    assert {x.text_cell[0] for x in q.questions} == {"D"}
    assert ws.read_options(project.id) == ReadOptions(answer_col="D")


def test_background_drafting_resumes_after_a_restart(ws, tmp_path, encoder):
    project, _ = upload(ws, tmp_path)
    status = ws.jobs.start(project.id, limit=1)
    status = ws.jobs.wait(project.id, timeout=120)
    assert not status.running and status.error is None and status.done == status.total == 1
    assert ws.review_store.runs(unfinished=True) == []
    # a run the process did not finish (the app was killed) is resumed by the next process
    ws.review_store.start_run(project.id, {"limit": None, "redo_answered": False})
    release(str(ws.folder / "qdrant"))
    ws.review_store.close()
    restarted = open_workspace(ws.folder, encoder)
    (resumed,) = restarted.jobs.resume()
    final = restarted.jobs.wait(project.id, timeout=300)
    assert resumed.total == 4 and final.done == 4 and final.error is None
    assert restarted.review_store.runs(unfinished=True) == []
    assert restarted.generator.calls == 3  # the first draft was kept, not redone
    counts = restarted.review(project.id).counts()
    assert counts[ReviewState.PENDING] == 0 and sum(counts.values()) == 4


def test_stop_keeps_finished_drafts(ws, tmp_path):
    project, _ = upload(ws, tmp_path)
    ws.jobs.start(project.id)
    ws.jobs.cancel(project.id)
    status = ws.jobs.wait(project.id, timeout=120)
    assert status.error == "stopped by the reviewer" and not status.running
    drafted = len(ws.review_store.latest_drafts(project.id))
    assert 0 <= drafted < 4 or status.done == 4
    assert ws.review_store.runs(unfinished=True) == []


def test_decisions_and_exports(ws, tmp_path):
    project, _ = upload(ws, tmp_path)
    ws.jobs.start(project.id)
    ws.jobs.wait(project.id, timeout=300)
    review = ws.review(project.id)
    enc, bck, inc, acc = (item.key for item in review.items())
    review.accept(enc)
    review.edit(bck, "=Backups are kept for 35 days.", "Yes")
    review.needs_sme(inc, "ask the security team")
    with pytest.raises(ValueError, match="Maybe"):
        review.edit(acc, "x", "Maybe")
    states = {i.key: i.state for i in ws.review(project.id).items()}  # a fresh read: persisted
    assert states[enc] is ReviewState.ACCEPTED and states[bck] is ReviewState.EDITED
    assert states[inc] is ReviewState.NEEDS_SME and states[acc] is not ReviewState.ACCEPTED
    assert [i.key for i in review.unapproved()] == [inc, acc]

    out = review.export_workbook(tmp_path / "out.xlsx")
    sheet = openpyxl.load_workbook(out)["Security"]
    accepted = review.item(enc)
    assert sheet["C4"].value == accepted.choice and sheet["D4"].value == accepted.answer
    assert sheet["C5"].value == "Yes" and sheet["D5"].value == "=Backups are kept for 35 days."
    assert sheet["D5"].data_type == "s"  # text, never a formula
    assert sheet["C6"].value is None and sheet["C7"].value is None  # needs SME, unreviewed
    with_drafts = openpyxl.load_workbook(io.BytesIO(review.workbook_bytes(include_unreviewed=True)))["Security"]
    left = review.item(acc)  # unreviewed: written as drafted (a choice may stand without its text, #50)
    drafted = left.state is ReviewState.DRAFTED
    assert (with_drafts["C7"].value, with_drafts["D7"].value) == (
        (left.choice, left.answer or None) if drafted else (None, None)
    )

    rows = list(csv.DictReader(io.StringIO(review.answers_csv())))
    assert [r["state"] for r in rows] == ["accepted", "edited", "needs_sme", states[acc].value]
    assert rows[1]["answer"] == "'=Backups are kept for 35 days."
    report = list(csv.DictReader(io.StringIO(review.citations_report())))
    cited = [r for r in report if r["id"] == "ENC-01"]
    assert cited and cited[0]["source"] == "handbook.pdf" and cited[0]["location"].startswith("page ")


def test_review_store_upgrades_a_version_1_file(tmp_path):
    path = tmp_path / "review.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL, file_name TEXT NOT NULL, "
        "file_sha256 TEXT NOT NULL, file_bytes BLOB NOT NULL, created TEXT NOT NULL); PRAGMA user_version=1;"
    )
    db.close()
    store = ReviewStore(path)
    assert store.runs() == [] and store.options(1) == {}
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_warm_up_loads_the_embedder_and_the_model_once_in_the_background(tmp_path):
    """The real MiniLM and the real (small) SmolLM2, loaded by the warm-up into the workspace's
    own objects: a drafting run asking for the model meanwhile gets the same one, and a change
    of a retrieval setting does not load the model again."""
    from engine.app.settings import GeneratorConfig
    from engine.app.workspace import WarmState
    from engine.drafting.generate import ModelWorker
    from engine.drafting.generate.models import TEST_MODEL

    folder = tmp_path / "ws"
    ws = Workspace(folder, Settings(generator=GeneratorConfig(model=TEST_MODEL)))
    try:
        warm = ws.warm_up()
        assert ws.warm_up() is warm and ws.warming is warm  # started once
        generator = ws.generator  # as a drafting run would, while it loads
        assert warm.wait(180)
        assert {n: s.state for n, s in warm.steps.items()} == {"embedder": WarmState.READY, "model": WarmState.READY}
        assert all(s.seconds > 0 and s.error is None for s in warm.steps.values())
        assert isinstance(generator, ModelWorker) and ws.__dict__["generator"] is generator
        assert generator.pid is not None and generator.pid != os.getpid()  # the model runs in its own process
        assert "encoder" in ws.kb.__dict__  # built: the first search does not load it

        ws.apply_settings(ws.settings.changed(top_k=3))
        assert ws.warming is None and ws.generator is generator  # the same LLM, not loaded again
        again = ws.warm_up()
        assert again is not warm and again.wait(60) and not again.failed()
        assert ws.settings.engine.top_k == 3 and ws.kb.config.top_k == 3
    finally:
        release(str(folder / "qdrant"))


def test_the_screens_read_the_knowledge_base_and_the_runs_through_the_workspace(ws, tmp_path):
    # what the screens call (ui/ never reaches into ws.kb or ws.review_store): the stored documents, their
    # pages and copies, the index's manifest, a summary corrected by the reviewer, a project's runs and drafts
    (doc,) = ws.documents()
    assert doc.name == "handbook.pdf" and ws.document_hash("handbook.pdf") == doc.doc_hash
    assert ws.source_path("handbook.pdf").read_bytes() == (tmp_path / "docs" / "handbook.pdf").read_bytes()
    assert {u.page for u in ws.document_units("handbook.pdf")} == set(range(1, len(topic_pages()) + 1))
    assert ws.index_manifest().embedder == ws.kb.encoder.name and ws.index_manifest().documents == (doc,)
    assert ws.edit_summary("handbook.pdf", "A handbook about  encryption.").text == "A handbook about encryption."
    assert ws.summary("handbook.pdf").text == "A handbook about encryption."
    project, _ = upload(ws, tmp_path)
    assert ws.project(project.id) == project and ws.runs(project.id) == []
    ws.jobs.start(project.id, limit=1)
    status = ws.jobs.wait(project.id, timeout=120)
    (run,) = ws.runs(project.id)
    assert ws.run(run.id) == run and run.finished and run.id == status.run_id
    (draft,) = ws.latest_drafts(project.id).values()
    assert draft.key in {d.key for d in ws.review(project.id).items()}
    # a stopped run says so in the one string the Questionnaire screen compares with
    ws.jobs.start(project.id, redo_answered=True)
    ws.jobs.cancel(project.id)
    assert ws.jobs.wait(project.id, timeout=120).error == STOPPED


def test_the_cli_drafts_a_file_through_the_workspace_and_the_app_sees_its_project(ws, tmp_path):
    # `python -m engine draft` calls draft_file: the file's bytes are its project (the same file again
    # continues), the results and the completed workbook are written, a snapshot is taken after the
    # run as after the app's runs, and a folder without an answer library is not given one
    from engine.questionnaire import read_questionnaire
    from storage.snapshots import snapshots

    book = write_questionnaire(tmp_path / "vendor.xlsx")
    results, out = tmp_path / "r.jsonl", tmp_path / "out.xlsx"
    first = ws.draft_file(read_questionnaire(book), limit=2, results=results, out=out)
    assert len(first.drafted) == 2 and first.resumed == 0 and first.exported == out and out.is_file()
    (project,) = ws.projects()
    assert project.file_name == "vendor.xlsx" and len(ws.latest_drafts(project.id)) == 2
    assert {s.kind for s in snapshots(ws.folder)} == {"review", "manifest"}
    assert not (ws.folder / "library.sqlite").exists()
    again = ws.draft_file(read_questionnaire(book), results=results)
    assert again.resumed == 2 and len(again.drafted) == 2 and ws.generator.calls == 4
    assert len(results.read_text(encoding="utf-8").splitlines()) == 4
