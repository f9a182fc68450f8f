"""An upload read in the background (#57): a long solicitation's shred takes a while, so the
app's page does not wait on it; it shows where the shred stands (``job.reading.at``: file, page,
pages, reported after every page) and offers a stop (``job.reading.stop``), the requirements of
the pages read kept (engine/app/read_apart.py: the shred itself still runs in the read-apart child
of the served app, within its memory ceiling and time limit). No Streamlit here: the page polls."""

from __future__ import annotations

import threading
from collections.abc import Callable

from engine.app.read_apart import Reading
from engine.app.workspace import Workspace
from engine.core.accounts import Permission, require
from engine.questionnaire import Questionnaire, ReadOptions
from storage.review_store import Project

Added = tuple[Project, Questionnaire]


class UploadJob:
    """One upload being read in a thread: ``result`` once it is added, or ``error`` (a file's
    refusal in one line); ``reading`` says where it stands and stops it."""

    def __init__(self, name: str, work: Callable[[Reading], Added], tag: object = None) -> None:
        self.name = name
        self.tag = tag  # the caller's own note on what this upload is (the uploader's file id)
        self.reading = Reading()
        self.result: Added | None = None
        self.error: Exception | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(work,), name=f"upload {name}", daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[Reading], Added]) -> None:
        try:
            self.result = work(self.reading)
        except Exception as exc:  # noqa: BLE001 (QuestionnaireError / LimitError / UploadStopped: shown in one line)
            self.error = exc
        finally:
            self._done.set()

    def wait(self, seconds: float) -> bool:
        """Whether it ended, waiting at most ``seconds`` for it."""
        return self._done.wait(seconds)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def line(self) -> str:
        """Where it stands, in words: "page N of M of FILE", or what comes before the first page."""
        file, page, pages = self.reading.at
        if self.reading.stop.is_set() and not self.done:
            return f"Stopping after page {page} of {file}…" if page else f"Stopping {self.name}…"
        return f"Reading page {page} of {pages} of {file}" if page else f"Opening {self.name}…"

    def fraction(self) -> float:
        _, page, pages = self.reading.at
        return min(page / pages, 1.0) if pages else 0.0

    def stopped_line(self) -> str | None:
        """One line when a stop cut the reading short (None: read whole): the page it reached,
        why it stopped, and that the rest can be read."""
        page = self.reading.stopped_at
        if page is None:
            return None
        file, _, pages = self.reading.at
        why = "the time limit for reading an upload came" if self.reading.timed_out else "you stopped it"
        return (
            f"{file} was read only up to page {page} of {pages} ({why}): the requirements of those pages are "
            "kept; Read the rest reads it whole."
        )


def upload(ws: Workspace, name: str, data: bytes, options: ReadOptions, tag: object = None) -> UploadJob:
    """``ws.add_questionnaire`` in the background (the caller's permission checked here, first)."""
    require(Permission.QUESTIONNAIRE)
    return UploadJob(name, lambda reading: ws.add_questionnaire(name, data, options, reading), tag)


def read_rest(ws: Workspace, project_id: int) -> UploadJob:
    """``ws.read_rest`` in the background: a stopped solicitation read whole."""
    require(Permission.QUESTIONNAIRE)
    name = ws.project(project_id).file_name
    return UploadJob(name, lambda reading: ws.read_rest(project_id, reading), project_id)


__all__ = ["UploadJob", "read_rest", "upload"]
