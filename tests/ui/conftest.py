"""Shared AppTest set-up for the screen tests: a real workspace on a temporary folder (real
MiniLM, real Qdrant local mode, real review store) that ``ui.resources.workspace`` returns, an
AppTest of ``ui/app.py`` switched to one screen, and the bytes behind a download button.

The LLM is replaced by ``QuotingGenerator`` (a stated fake) because these tests are about the
screens, not about generation; the end-to-end browser test drafts with the real model."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.index.kb import KnowledgeBase
from storage.vector_store import release
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf, write_questionnaire
from ui.components import upload_progress

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "ui" / "app.py")


@pytest.fixture()
def ui_workspace(tmp_path: Path, encoder, monkeypatch) -> Workspace:
    """An empty workspace (no documents, no questionnaire) that the app under test uses."""
    import ui.resources

    folder = tmp_path / "workspace"
    ws = Workspace(folder, Settings())
    ws.__dict__["kb"] = KnowledgeBase(folder, ws.settings.engine, encoder)
    ws.__dict__["generator"] = QuotingGenerator()  # a stated fake LLM: the tests are about the UI
    monkeypatch.setenv("RFP_WORKSPACE", str(folder))
    monkeypatch.setattr(ui.resources, "workspace", lambda folder=None: ws)
    # an upload is read in the background and its page waits 5 s for it (ui/components/upload_progress.py);
    # AppTest sees the page as one run leaves it, so a read slowed past 5 s by a loaded machine would show the
    # bar, not the result: the page waits as long as the read takes (the progress tests set 0 themselves)
    monkeypatch.setattr(upload_progress, "WAIT", 120.0)
    yield ws
    for project in ws.projects():  # a drafting thread started by a test ends before the folder goes
        ws.jobs.cancel(project.id)
        ws.jobs.wait(project.id, 60)
    if ws.warming is not None:  # so do the models the app started loading (ui/app.py)
        ws.warming.wait(120)
    release(str(folder / "qdrant"))


def add_handbook(ws: Workspace, tmp_path: Path, name: str = "handbook.pdf") -> Path:
    """Index a small generated PDF (one page per topic: encryption, backups, access…)."""
    pdf = write_pdf(tmp_path / name, topic_pages())
    report = ws.kb.add_file(pdf, name)
    assert not report.errors, report.errors
    return pdf


def add_questionnaire(ws: Workspace, tmp_path: Path, name: str = "vendor_questionnaire.xlsx") -> int:
    """Upload the 4-question workbook (ENC-01, BCK-01, INC-01, ACC-01) as a project; its id."""
    book = write_questionnaire(tmp_path / name)
    project, _ = ws.add_questionnaire(name, book.read_bytes())
    return project.id


def button(at, label: str):
    """The one button labelled ``label`` on the screen under test."""
    matches = [b for b in at.button if b.label == label]
    assert len(matches) == 1, f"{len(matches)} buttons {label!r}; buttons: {[b.label for b in at.button]}"
    return matches[0]


def texts(elements) -> str:
    """The text of some elements (``at.info``, ``at.markdown``…), one per line."""
    return "\n".join(str(e.value) for e in elements)


@pytest.fixture()
def open_screen(ui_workspace) -> Callable:
    """``open_screen("export")`` → an AppTest of the whole app, run on that screen."""
    from streamlit.testing.v1 import AppTest

    def _open(screen: str, timeout: float = 60):
        at = AppTest.from_file(APP, default_timeout=timeout)
        at.run()
        at.switch_page(f"screens/{screen}.py")
        return at.run()

    return _open


@pytest.fixture()
def downloads(monkeypatch) -> Callable:
    """``downloads(button)`` → the file a download button serves (``.content`` bytes,
    ``.filename``, ``.mimetype``). AppTest keeps its media files
    in a mock runtime dropped after each run, so the files are recorded as they are added."""
    import streamlit.testing.v1.app_test as app_test
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    files: dict = {}

    class Recording(MemoryMediaFileStorage):
        def __init__(self, media_endpoint: str) -> None:
            super().__init__(media_endpoint)
            self._files_by_id = files  # shared by every run of the test

    monkeypatch.setattr(app_test, "MemoryMediaFileStorage", Recording)

    def _file(button):
        url = button.proto.url
        assert url, f"the download button {button.label!r} has no file"
        return files[Path(url).stem]

    return _file


class GatedGenerator(QuotingGenerator):
    """The stated fake LLM, held before each question until the test sets ``gate``: a drafting
    run that stays "running" for as long as a test needs to look at the screens meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def generate(self, question, passages, choices):
        assert self.gate.wait(60), "the test never opened the gate"
        return super().generate(question, passages, choices)


@pytest.fixture()
def gated_generator(ui_workspace) -> GatedGenerator:
    """Install a :class:`GatedGenerator` in the workspace (before its drafter is built)."""
    generator = GatedGenerator()
    ui_workspace.__dict__["generator"] = generator
    ui_workspace.__dict__.pop("drafter", None)
    yield generator
    generator.gate.set()  # a run still waiting finishes before the workspace is closed
