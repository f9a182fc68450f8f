"""The app with a damaged store (issue #23): one line naming the file, the problem and the way
back, on every screen, never a traceback, and nothing in the workspace changed.

* ``review.sqlite`` emptied while its ``-wal`` still holds the work (the issue's data-loss
  case): before #23 the app opened a new empty database ("There is no questionnaire to review
  yet") and overwrote the ``-wal``. Here the app's real start-up runs (``ui.resources.workspace``
  on ``RFP_WORKSPACE``): it loads no model before it stops.
* The knowledge base's Qdrant folder with its files cut in half (before #23: a
  ``JSONDecodeError`` traceback from ``ask_pane.shown_excerpt`` on the Review screen).

Real MiniLM, Qdrant local mode and review store; the LLM is ``QuotingGenerator`` (a stated
fake: these tests are about the screens, not generation)."""

from __future__ import annotations

import shutil

import pytest
from streamlit.testing.v1 import AppTest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.index.kb import KnowledgeBase
from storage import snapshots
from storage.review_store import ReviewStore
from storage.vector_store import release
from tests.adversarial.damaged import damage, fingerprint, review_store_files
from tests.fixtures import QuotingGenerator
from tests.ui.conftest import APP, add_handbook, add_questionnaire, texts

SCREENS = ("knowledge_base", "questionnaire", "review", "export", "settings")


def _screens():
    """Each screen of the app, opened in turn: (screen, AppTest after its run)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    yield "start", at
    for screen in SCREENS:
        at.switch_page(f"screens/{screen}.py")
        yield screen, at.run()


def test_a_damaged_review_store_shows_its_line_on_every_screen_and_is_not_replaced(tmp_path, monkeypatch):
    import ui.resources

    folder = tmp_path / "workspace"
    review_store_files(folder, with_wal=True)
    copy = tmp_path / "copy"  # the snapshot an earlier start of the app took
    shutil.copytree(folder, copy)
    earlier = ReviewStore(copy / "review.sqlite")
    snapshots.take_review(earlier)
    earlier.close()
    shutil.move(copy / "backups", folder / "backups")
    damage(folder / "review.sqlite", "0 bytes")
    before = fingerprint(folder)
    monkeypatch.setenv("RFP_WORKSPACE", str(folder))
    ui.resources.workspace.clear()  # the real start-up, not a workspace cached by another test

    for screen, at in _screens():
        assert not at.exception, (screen, [e.value for e in at.exception])
        shown = texts(at.error).replace("\\", "")  # Markdown escapes
        assert f"{folder / 'review.sqlite'}" in shown, (screen, shown)
        assert "review database is damaged: the file is empty" in shown, (screen, shown)
        assert f"python -m engine restore --store {folder}" in shown, (screen, shown)
        assert "There is no questionnaire" not in texts(at.info) + texts(at.markdown), screen
    assert fingerprint(folder) == before


@pytest.fixture()
def damaged_kb_workspace(tmp_path, encoder, monkeypatch):
    """A workspace with a document and a drafted questionnaire, whose Qdrant files are then cut
    in half; the app gets a fresh ``Workspace`` on it (as after a restart)."""
    import ui.resources

    folder = tmp_path / "workspace"
    ws = Workspace(folder, Settings())
    ws.__dict__["kb"] = KnowledgeBase(folder, ws.settings.engine, encoder)
    ws.__dict__["generator"] = QuotingGenerator()
    add_handbook(ws, tmp_path)
    add_questionnaire(ws, tmp_path)
    ws.review_store.close()
    release(str(folder / "qdrant"))
    for path in sorted((folder / "qdrant").rglob("*")):
        if path.is_file() and path.name != ".lock":
            data = path.read_bytes()
            path.write_bytes(data[: len(data) // 2])
    fresh = Workspace(folder, Settings())
    fresh.__dict__["generator"] = QuotingGenerator()  # a stated fake LLM: the test is about the screens
    monkeypatch.setenv("RFP_WORKSPACE", str(folder))
    monkeypatch.setattr(ui.resources, "workspace", lambda folder=None: fresh)
    yield fresh
    if fresh.warming is not None:
        fresh.warming.wait(120)
    release(str(folder / "qdrant"))


def test_a_damaged_knowledge_base_index_shows_one_line_on_every_screen(damaged_kb_workspace):
    folder = damaged_kb_workspace.folder
    before = fingerprint(folder / "qdrant")
    for screen, at in _screens():
        assert not at.exception, (screen, [e.value for e in at.exception])
        shown = texts(at.error).replace("\\", "")
        assert "vector index (Qdrant local folder) is damaged" in shown, (screen, shown)
        assert f"python -m engine kb reindex --store {folder}" in shown, (screen, shown)
    assert fingerprint(folder / "qdrant") == before
