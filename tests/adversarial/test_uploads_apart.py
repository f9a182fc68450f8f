"""Uploads read apart from the server (issue #56, item 3): the served app's workspace
(``Workspace(..., uploads_apart=True)``, as ui/resources.py makes it) reads an uploaded
questionnaire, document or packet in a child process with a memory ceiling (``RFP_UPLOAD_MB``) and a
time limit (``RFP_UPLOAD_SECONDS``): engine/app/read_apart.py. A file the size limits refuse is
refused there in its own line; one that would take more memory or time is stopped in one line
naming the limit; the server's memory stays where it was, and another reviewer's request is
answered meanwhile. Before, the server read every upload itself: a PDF field 2·10⁹ points tall
grew it by 2.5 GB and made another reviewer's page take 9.9 s.

Real files and real readers; the server is the engine the app calls, in this test's process (its
sessions are threads, as Streamlit's are)."""

from __future__ import annotations

import threading
import time

import psutil
import pytest

from engine.app.read_apart import UploadStopped
from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.types import UnreadableFile
from engine.review.packet import PacketRefused
from tests.adversarial import hostile_structure as h
from tests.fixtures import write_questionnaire

MB = 1_000_000


@pytest.fixture()
def ws(tmp_path) -> Workspace:
    return Workspace(tmp_path / "workspace", Settings(reviewer="lead"), uploads_apart=True)


def _rss() -> int:
    return psutil.Process().memory_info().rss


def test_a_hostile_upload_is_refused_apart_in_its_own_line_and_kept_nowhere(ws, tmp_path):
    for make, name, words in (
        (
            lambda p: h.cell_attribute(p, '<w:gridSpan w:val="2000000000"/>'),
            "spans.docx",
            "spans 2,000,000,000 columns",
        ),
        (h.tall_field, "tall.pdf", "2,000,000,104 points"),
    ):
        path = make(tmp_path / name)
        before = _rss()
        with pytest.raises(UnreadableFile) as exc:
            ws.add_questionnaire(name, path.read_bytes())
        assert exc.value.file == name and words in exc.value.problem and "\n" not in str(exc.value)
        assert _rss() - before < 100 * MB  # the server never read it
    assert ws.projects() == [] and not any((ws.folder / "questionnaires").rglob("*.*"))


def test_an_upload_needing_more_memory_is_stopped_at_the_ceiling(ws, tmp_path, monkeypatch):
    """Two million empty paragraphs (12 MB of XML in 30 kB) with the paragraph limit raised past
    them: the reader's tree of them takes far more than 150 MB (6.6 million were killed at 3 GB
    before #56); the child is stopped at 150 MB more, the server does not grow."""
    monkeypatch.setenv("RFP_MAX_PARAGRAPHS", "10000000")
    monkeypatch.setenv("RFP_UPLOAD_MB", "150")
    monkeypatch.setenv("RFP_UPLOAD_SECONDS", "120")
    path = h.empty_paragraphs(tmp_path / "paragraphs.docx", 2_000_000)
    before = _rss()
    with pytest.raises(UploadStopped) as exc:
        ws.add_questionnaire("paragraphs.docx", path.read_bytes())
    assert "needed more than 150 MB of memory, the limit for reading an upload" in exc.value.problem
    assert "RFP_UPLOAD_MB=600" in exc.value.fix and "\n" not in str(exc.value)
    assert _rss() - before < 100 * MB
    assert ws.projects() == []


def test_another_reviewer_is_answered_while_an_upload_is_stopped_at_the_time_limit(ws, tmp_path, monkeypatch):
    """A 60 × 60 grid on 300 pages with the crossing limits raised (171 s of table finding before
    #56): stopped at the time limit; meanwhile another session reads its questionnaire again and
    again, each answer within 2 s."""
    book = write_questionnaire(tmp_path / "vendor.xlsx")
    project, _ = ws.add_questionnaire("vendor.xlsx", book.read_bytes())
    monkeypatch.setenv("RFP_MAX_CROSSINGS", "100000000")
    monkeypatch.setenv("RFP_MAX_PAGE_CROSSINGS", "100000")
    monkeypatch.setenv("RFP_UPLOAD_SECONDS", "15")
    grid = h.ruled_grid(tmp_path / "grid.pdf")
    refused: list[BaseException] = []

    def upload() -> None:
        try:
            ws.add_questionnaire("grid.pdf", grid.read_bytes())
        except BaseException as exc:  # noqa: BLE001 (kept for the assertion)
            refused.append(exc)

    thread = threading.Thread(target=upload)
    started = time.perf_counter()
    thread.start()
    waits = []
    while thread.is_alive():
        t = time.perf_counter()
        questions = ws.questionnaire(project.id).questions
        assert questions
        ws.projects()
        waits.append(time.perf_counter() - t)
        time.sleep(0.2)
    thread.join()
    assert time.perf_counter() - started < 40
    (exc,) = refused
    assert isinstance(exc, UploadStopped), exc
    assert (
        "took more than 15 s, the time limit for reading an upload" in exc.problem
        and "RFP_UPLOAD_SECONDS=60" in exc.fix
    )
    assert len(waits) > 10 and max(waits) < 2.0, max(waits)
    assert [p.file_name for p in ws.projects()] == ["vendor.xlsx"]


def test_a_packet_is_opened_apart_before_it_is_read(ws, tmp_path):
    """A packet that is no workbook at all: refused by the child's reading, as a PacketRefused line."""
    bad = tmp_path / "packet.xlsx"
    bad.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(PacketRefused) as exc:
        ws.vet_packet(bad)
    assert "\n" not in str(exc.value)
