"""A solicitation uploaded to the served app is shredded in the read-apart child (#56) with its
pages reported and a stop that keeps the pages read (#57, engine/app/read_apart.py): a real
child process, a real 40-page PDF written by the test, the real pipes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app import read_apart as read_apart_module
from engine.app.read_apart import Ceiling, Reading, read_apart
from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.questionnaire.formats import read_questionnaire
from engine.questionnaire.qualifiers import question_key
from tests.solicitation_fixtures import long_pages, write_pdf

READ = "engine.questionnaire.formats:read_questionnaire"


@pytest.fixture
def long_rfp(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "long_rfp.pdf", long_pages(40))


def ids(questionnaire) -> list[str]:
    return [q.id for q in questionnaire.questions]


def test_every_page_is_reported_and_the_whole_file_read(long_rfp):
    reading = Reading()
    apart = read_apart(long_rfp.name, READ, long_rfp, reading=reading)
    assert reading.at == ("long_rfp.pdf", 40, 40)
    assert reading.stopped_at is None and not reading.timed_out
    assert ids(apart) == ids(read_questionnaire(long_rfp))  # the same rows as read in this process
    assert len(apart.questions) == 7 + 3 * 39


def test_a_stop_keeps_the_pages_read(long_rfp):
    reading = Reading()
    reading.stop.set()  # asked before the child read a page: it stops after the first
    apart = read_apart(long_rfp.name, READ, long_rfp, reading=reading)
    assert reading.at == ("long_rfp.pdf", 1, 40) and reading.stopped_at == 1
    assert ids(apart) == ids(read_questionnaire(long_rfp, pages=1))
    assert {"1.1", "1.3"} <= set(ids(apart))  # page one's requirements, and only those
    assert not any("task" in q.text.lower() for q in apart.questions)  # the pages after it: "TASK AREA n"


def test_a_stopped_upload_keeps_its_page_and_is_read_whole_again(long_rfp, tmp_path):
    ws = Workspace(tmp_path / "ws", Settings(reviewer="lead"), uploads_apart=True)
    reading = Reading()
    reading.stop.set()
    project, questionnaire = ws.add_questionnaire(long_rfp.name, long_rfp.read_bytes(), reading=reading)
    assert ws.read_options(project.id).pages == 1
    shredded = ws.solicitation(project.id, ws.questionnaire(project.id))
    assert shredded is not None and shredded.stopped.startswith("stopped after page 1 of 40 of long_rfp.pdf")
    assert [r.id for r in shredded.requirements] == ids(questionnaire)
    again = Reading()  # read the rest: the same file again, whole
    same, whole = ws.read_rest(project.id, again)
    assert same.id == project.id and again.at == ("long_rfp.pdf", 40, 40)
    assert ws.read_options(project.id).pages is None and len(whole.questions) == 124
    keys = {question_key(q): q.id for q in whole.questions}  # a row decided on a page read keeps its key
    assert all(keys.get(question_key(q)) == q.id for q in questionnaire.questions)
    assert ws.solicitation(project.id, ws.questionnaire(project.id)).stopped == ""


def test_in_process_the_same_stop(long_rfp, tmp_path):
    """The CLI's and the tests' workspace reads in this process: the same callback stops it."""
    ws = Workspace(tmp_path / "ws", Settings(reviewer="lead"))
    reading = Reading()
    reading.stop.set()
    project, questionnaire = ws.add_questionnaire(long_rfp.name, long_rfp.read_bytes(), reading=reading)
    assert reading.stopped_at == 1 and ws.read_options(project.id).pages == 1
    assert ids(questionnaire) == ids(read_questionnaire(long_rfp, pages=1))


def test_the_time_limit_stops_the_shred_and_keeps_the_pages_read(tmp_path, monkeypatch):
    """The upload's time limit (1 s here: the child's start alone takes about that) asks the shred
    to stop as the reviewer would, and the pages read come back instead of a refusal. The grace
    for them to come back is 60 s here (5 s served), so that a loaded machine's slow PDF pass
    before the shred is not taken for a child that does not answer."""
    monkeypatch.setattr(read_apart_module, "GRACE", 60)
    rfp = write_pdf(tmp_path / "long_rfp.pdf", long_pages(600))
    reading = Reading()
    apart = read_apart(rfp.name, READ, rfp, reading=reading, ceiling=Ceiling(seconds=1))
    assert reading.timed_out and reading.stopped_at is not None and 1 <= reading.stopped_at < 600
    assert ids(apart) == ids(read_questionnaire(rfp, pages=reading.stopped_at))
