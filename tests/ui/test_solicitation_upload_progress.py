"""A long solicitation uploaded on the Questionnaire screen (AppTest, issue #57 item 8): read as the
served app reads it (in the read-apart child, ``uploads_apart``), in the background, with a
progress bar and a Stop button; stopped by the reviewer (the real Stop button, the real pipe to
the child), the requirements of the pages read are kept and shown with one line saying where it
stopped; Read the rest reads it whole. The file is a 40-page RFP the test writes.

No drafting runs here."""

from __future__ import annotations

import re

from engine.questionnaire.formats import read_questionnaire
from tests.solicitation_fixtures import long_pages, write_pdf
from tests.ui.conftest import button, texts
from ui.components import upload_progress

PDF = "application/pdf"


def requirements(at) -> str:
    return next(m.value for m in at.metric if m.label == "Requirements")


def progress_lines(at) -> list[str]:
    return [e.proto.text for e in at.get("progress")]


def ended(at):
    """The upload being read, waited for; then the page as it shows the result."""
    job = at.session_state[upload_progress.JOB]
    assert job.wait(120), "the upload was not read within 120 s"
    at.run()
    assert not at.exception
    return job


def test_a_long_solicitation_shows_its_progress_is_stopped_and_read_whole(
    open_screen, ui_workspace, tmp_path, monkeypatch
):
    monkeypatch.setattr(upload_progress, "WAIT", 0.0)  # the upload's run returns at once: Stop can be pressed
    ws = ui_workspace
    ws.uploads_apart = True  # as the served app (ui/resources.py): the file is read in a child process
    path = write_pdf(tmp_path / "long_rfp.pdf", long_pages(40))
    at = open_screen("questionnaire")
    key = "questionnaire_uploader_" + str(at.session_state["questionnaire_uploader_generation"])
    at.file_uploader(key=key).upload(path.name, path.read_bytes(), PDF)
    at.run()
    assert not at.exception
    (line,) = progress_lines(at)  # the bar, while the child starts (or reads its first pages)
    assert re.fullmatch(r"Opening long_rfp\.pdf…|Reading page \d+ of 40 of long_rfp\.pdf", line), line
    button(at, "Stop reading").click().run()  # the stop byte reaches the child before it read far
    job = ended(at)
    _, page, pages = job.reading.at  # reported by the child after every page it read
    assert pages == 40 and 1 <= page < 40 and job.reading.stopped_at == page
    assert f"long\\_rfp.pdf was read only up to page {page} of 40 (you stopped it)" in texts(at.warning)
    assert f"Read only up to page {page} of 40 of long\\_rfp.pdf" in texts(at.warning)
    kept = read_questionnaire(path, pages=page)  # the requirements of the pages read, and only those
    assert requirements(at) == str(len(kept.questions)) and len(kept.questions) < 124
    (project,) = ws.projects()
    assert ws.read_options(project.id).pages == page
    assert not progress_lines(at) and not [b for b in at.button if b.label == "Stop reading"]
    button(at, "Reset to detection").click().run()  # the corrections undone, the page kept (no whole read here)
    assert ws.read_options(project.id).pages == page and requirements(at) == str(len(kept.questions))

    button(at, "Read the rest").click().run()
    assert progress_lines(at) and button(at, "Stop reading")
    job = ended(at)
    assert job.reading.at == ("long_rfp.pdf", 40, 40) and job.reading.stopped_at is None
    assert "**long\\_rfp.pdf**: 124 requirements found." in texts(at.success)
    assert requirements(at) == "124" and "Read only up to" not in texts(at.warning)
    assert ws.read_options(project.id).pages is None
