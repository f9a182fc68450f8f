"""A workspace reads each questionnaire once per file and read options (engine/app/read_once.py),
and the app's warm-up reads them ahead, with their qualifiers (what the first Review, Export and
coverage report would otherwise wait for): real generated workbooks, read with openpyxl."""

from __future__ import annotations

import threading
from pathlib import Path

from engine.app.settings import GeneratorConfig, Settings
from engine.app.workspace import Workspace
from engine.index.kb import KnowledgeBase
from engine.questionnaire import ReadOptions
from storage.vector_store import release
from tests.fixtures import write_questionnaire


def _project(ws: Workspace, tmp_path: Path, name: str) -> int:
    book = write_questionnaire(
        tmp_path / name, questions=[(f"{name[:3].upper()}-0{i}", f"Question {i} of {name}?") for i in range(1, 5)]
    )
    project, _ = ws.add_questionnaire(name, book.read_bytes())
    return project.id


def test_a_questionnaire_is_read_once_per_file_and_read_options(tmp_path):
    ws = Workspace(tmp_path / "ws", Settings())
    try:
        pid = _project(ws, tmp_path, "vendor.xlsx")
        assert ws.questionnaire_read(pid)  # the upload's own read is kept
        first = ws.questionnaire(pid)
        assert ws.questionnaire(pid) is first and len(first.questions) == 4

        fewer = ws.set_read_options(pid, ReadOptions(exclude=("VEN-01",)))  # a reviewer's correction
        assert ws.questionnaire(pid) is fewer and [q.id for q in fewer.questions] == ["VEN-02", "VEN-03", "VEN-04"]

        path = ws.questionnaire_path(ws.project(pid))
        path.unlink()  # gone from the folder: written back from the review store, and read again
        assert not ws.questionnaire_read(pid)
        again = ws.questionnaire(pid)
        assert again is not fewer and again.questions == fewer.questions

        fresh = Workspace(tmp_path / "ws", Settings())  # another process: nothing read yet
        assert not fresh.questionnaire_read(pid)
        seen: list = []
        readers = [threading.Thread(target=lambda: seen.append(fresh.questionnaire(pid))) for _ in range(3)]
        for t in readers:
            t.start()
        for t in readers:
            t.join()
        assert len(seen) == 3 and all(q is seen[0] for q in seen)  # read once, the others waited for it
        fresh.review_store.close()
    finally:
        ws.review_store.close()


def test_the_warm_up_reads_every_questionnaire_and_its_qualifiers_ahead(tmp_path, encoder):
    folder = tmp_path / "ws"
    ws = Workspace(folder, Settings())
    pids = [_project(ws, tmp_path, name) for name in ("alpha.xlsx", "beta.xlsx")]
    ws.review_store.close()

    app = Workspace(folder, Settings(generator=GeneratorConfig(llm_url="http://127.0.0.1:9")))  # no model to load
    app.__dict__["kb"] = KnowledgeBase(folder, app.settings.engine, encoder)  # the session's MiniLM
    try:
        assert not any(app.questionnaire_read(p) for p in pids)
        assert app.warm_up().wait(120)
        assert all(app.questionnaire_read(p) for p in pids)
        assert all("_qualifiers" in app.questionnaire(p).__dict__ for p in pids)  # found once, kept on it
    finally:
        app.review_store.close()
        release(str(folder / "qdrant"))
