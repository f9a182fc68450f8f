"""Damaged stores, made the way a failed copy, a full disk or a sync tool makes them, for the
tests of issue #23 (tests/adversarial/test_damaged_stores.py, tests/ui/test_damaged_store_screens.py).

* :func:`fill_review_store` writes a review store through the real ``ReviewStore`` API: two
  questionnaires (generated workbooks), their questions and read options, drafts, reviewer
  decisions, an added citation and a drafting run; :func:`review_state` reads all of it back.
* :func:`review_store_files` leaves ``review.sqlite`` in a folder either closed (no ``-wal``)
  or as a killed app leaves it: the data of a first session checkpointed into the main file,
  the second session's still in the ``-wal`` only.
* :func:`library_files` leaves ``library.sqlite`` the same two ways, holding 16 imported
  answers (a generated filled workbook, through the real ``AnswerLibrary.import_file``) and 5 a
  reviewer accepted (``AnswerLibrary.record``, as Review's Accept does); :func:`library_state`
  reads every entry back with its vector.
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
from engine.index.library import AnswerLibrary
from storage.folder_lock import LOCK_FILE
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


PAST_QUESTIONS = [
    (f"PAST-{i:02d}", f"Question {i}: is control number {i} of the security baseline in place?") for i in range(1, 17)
]
REVIEWED = [(f"REV-{i:02d}", f"Reviewed question {i}: is safeguard {i} tested every year?") for i in range(1, 6)]


def fill_library(library: AnswerLibrary, scratch: Path, first: bool = True) -> None:
    """One session's work: the 16 answers of a filled workbook imported (``first``), or 5
    answers a reviewer accepted."""
    if first:
        scratch.mkdir(parents=True, exist_ok=True)
        answered = {4 + i: ("Yes", "No")[i % 2] for i in range(len(PAST_QUESTIONS))}
        comments = {4 + i: f"Past answer {i + 1}, as the customer was told." for i in range(len(PAST_QUESTIONS))}
        book = write_questionnaire(scratch / "past.xlsx", answered, PAST_QUESTIONS, comments)
        assert library.import_file(book).entries == len(PAST_QUESTIONS)
        return
    for row, (qid, text) in enumerate(REVIEWED, start=4):
        library.record(text, "Yes", f"Accepted by the reviewer ({qid}).", "renewal.xlsx", "Security", row, qid)


def library_state(library: AnswerLibrary) -> list[tuple]:
    """Every entry (retired ones too) with its embedder and vector bytes."""
    entries, embedders, vectors = library.store.vectors(include_retired=True)
    return [(e, name, bytes(v)) for e, name, v in zip(entries, embedders, vectors)]


def library_files(folder: Path, encoder, with_wal: bool) -> list[tuple]:
    """``folder/library.sqlite`` holding both sessions' work, the 16 imported entries and the 5
    a reviewer accepted, closed (no ``-wal``) or as a killed app leaves it (the imports
    checkpointed into the file, the reviewers' answers still in the ``-wal`` only); the state
    it holds."""
    folder.mkdir(parents=True, exist_ok=True)
    work = folder.parent / f"{folder.name}-library"
    library = AnswerLibrary(work, encoder)
    fill_library(library, work / "books")
    library.close()  # the first session ends: its data is checkpointed into the main file
    library = AnswerLibrary(work, encoder)
    fill_library(library, work / "books", first=False)
    state = library_state(library)
    if with_wal:  # the app killed: what is on disk while the connection is open
        for suffix in ("", "-wal"):
            shutil.copyfile(work / f"library.sqlite{suffix}", folder / f"library.sqlite{suffix}")
        assert (folder / "library.sqlite-wal").stat().st_size > 0
        library.close()
    else:
        library.close()
        shutil.copyfile(work / "library.sqlite", folder / "library.sqlite")
        assert not (work / "library.sqlite-wal").exists()
    shutil.rmtree(work)
    assert len(state) == len(PAST_QUESTIONS) + len(REVIEWED)
    return state


def library_fingerprint(folder: Path) -> dict[str, str]:
    """``library.sqlite`` and its side files (and any copy moved aside) and their SHA-256."""
    return {k: v for k, v in fingerprint(folder).items() if k.startswith("library.sqlite")}


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


def _random_in_the_middle(data: bytes) -> bytes:
    third = len(data) // 3
    return data[:third] + random.Random(23).randbytes(third) + data[2 * third :]


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "0 bytes": _emptied,
    "truncated to whole pages": _whole_pages,
    "cut mid-page": _mid_page,
    "garbage": _random,
    "garbage behind the header": _random_behind_header,
}
GARBAGE_IN_THE_MIDDLE = {"garbage in the middle": _random_in_the_middle}  # the issue #36 library case


def damage(path: Path, how: str) -> None:
    path.write_bytes((DAMAGES | GARBAGE_IN_THE_MIDDLE)[how](path.read_bytes()))


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path) and its SHA-256; the workspace lock
    (storage/folder_lock.py: who holds the folder, not data) is left out."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != LOCK_FILE
    }
