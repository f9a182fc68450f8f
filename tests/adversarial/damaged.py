"""Damaged stores, made the way a failed copy, a full disk or a sync tool makes them, for the
tests of issue #23 (tests/adversarial/test_damaged_stores.py, tests/ui/test_damaged_store_screens.py).

* :func:`fill_review_store` writes a review store through the real ``ReviewStore`` API: two
  questionnaires (generated workbooks), their questions and read options, drafts, reviewer
  decisions, an added citation and a drafting run; :func:`review_state` reads all of it back.
* :func:`review_store_files` leaves ``review.sqlite`` in a folder either closed (no ``-wal``)
  or as a killed app leaves it: the data of a first session checkpointed into the main file,
  the second session's still in the ``-wal`` only.
* :data:`DAMAGES` cut a file: emptied (0 bytes), truncated to whole pages, cut mid-page,
  overwritten with random bytes, or random bytes behind an intact SQLite header.
* :func:`fingerprint`: every file under a folder and its SHA-256, to show nothing changed.
"""

from __future__ import annotations

import hashlib
import random
import shutil
from pathlib import Path
from typing import Callable

from engine.core.types import Action, DraftStatus
from storage.review_store import ReviewStore, StoredDraft
from tests.fixtures import write_questionnaire

PAGE = 4096  # SQLite's default page size


def fill_review_store(store: ReviewStore, scratch: Path, first: bool = True) -> None:
    """One session's work (``first``: the first questionnaire; else the second one and a
    decision on the first)."""
    scratch.mkdir(parents=True, exist_ok=True)
    if first:
        book = write_questionnaire(scratch / "vendor.xlsx")
        project = store.project_for(book, "Vendor questionnaire")
        store.set_options(project.id, {"read": {"sheet": "Security"}})
        store.set_questions(
            project.id,
            [
                ("ENC-01", {"text": "Is customer data encrypted at rest?"}),
                ("BCK-01", {"text": "How long are backups kept?"}),
            ],
        )
        run = store.start_run(project.id, {"limit": None, "redo_answered": False})
        store.add_draft(
            project.id,
            StoredDraft(
                "ENC-01",
                DraftStatus.DRAFTED,
                "Yes, AES-256.",
                "Yes",
                {"citations": [{"file": "handbook.pdf", "page": 1}]},
            ),
        )
        store.add_draft(project.id, StoredDraft("BCK-01", DraftStatus.NO_CONTEXT, "", None))
        store.finish_run(run.id)
        store.decide(project.id, "ENC-01", Action.ACCEPT)
        return
    book = write_questionnaire(scratch / "renewal.xlsx", questions=[("ACC-01", "Do employees use MFA?")])
    project = store.project_for(book, "Renewal")
    store.set_questions(project.id, [("ACC-01", {"text": "Do employees use MFA?"})])
    store.add_draft(project.id, StoredDraft("ACC-01", DraftStatus.DRAFTED, "Yes.", "Yes"))
    store.decide(project.id, "ACC-01", Action.EDIT, answer="Yes, for every employee.", choice="Yes", note="checked")
    store.add_citation(project.id, "ACC-01", {"file": "handbook.pdf", "page": 4, "quote": "MFA is required."})
    store.decide(1, "BCK-01", Action.NEEDS_SME, note="ask the DBA")


def review_state(store: ReviewStore) -> dict:
    """Everything the store holds, per project."""
    state = {}
    for p in store.projects():
        keys = [k for k, _ in store.questions(p.id)]
        state[p.id] = {
            "project": p,
            "source": store.source_bytes(p.id),
            "options": store.options(p.id),
            "questions": store.questions(p.id),
            "drafts": store.latest_drafts(p.id),
            "decisions": store.latest_decisions(p.id),
            "citations": store.added_citations(p.id),
            "runs": store.runs(p.id),
            "history": {k: store.history(p.id, k) for k in keys},
        }
    return state


def review_store_files(folder: Path, with_wal: bool) -> dict:
    """``folder/review.sqlite`` holding both sessions' work (closed, or with the second
    session in its ``-wal``); the state it holds."""
    folder.mkdir(parents=True, exist_ok=True)
    work = folder.parent / f"{folder.name}-writing"
    store = ReviewStore(work / "review.sqlite")
    fill_review_store(store, work / "books")
    store.close()  # the first session ends: its data is checkpointed into the main file
    store = ReviewStore(work / "review.sqlite")
    fill_review_store(store, work / "books", first=False)
    state = review_state(store)
    if with_wal:  # the app killed: what is on disk while the connection is open
        for suffix in ("", "-wal"):
            shutil.copyfile(work / f"review.sqlite{suffix}", folder / f"review.sqlite{suffix}")
        assert (folder / "review.sqlite-wal").stat().st_size > 0
        store.close()
    else:
        store.close()
        shutil.copyfile(work / "review.sqlite", folder / "review.sqlite")
        assert not (work / "review.sqlite-wal").exists()
    shutil.rmtree(work)
    return state


def _emptied(data: bytes) -> bytes:
    return b""


def _whole_pages(data: bytes) -> bytes:
    return data[: max(PAGE, len(data) // 2 // PAGE * PAGE)]


def _mid_page(data: bytes) -> bytes:
    return data[: len(data) // 2 + 1234]


def _random(data: bytes) -> bytes:
    return random.Random(23).randbytes(len(data))


def _random_behind_header(data: bytes) -> bytes:
    return data[:100] + random.Random(23).randbytes(len(data) - 100)


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "0 bytes": _emptied,
    "truncated to whole pages": _whole_pages,
    "cut mid-page": _mid_page,
    "garbage": _random,
    "garbage behind the header": _random_behind_header,
}


def damage(path: Path, how: str) -> None:
    path.write_bytes(DAMAGES[how](path.read_bytes()))


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path) and its SHA-256."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
