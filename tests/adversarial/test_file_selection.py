"""No file is read that was not asked for, and every name survives.

Before #16, ``kb add DIR`` followed ``DIR/users.txt → /etc/passwd`` and ``search`` returned the
system's accounts; a symlinked PDF was stored without its extension, after which
``source_path()`` raised StopIteration and every draft citing it became ``error``. Now folders
are walked without following links (each skip said, with its reason), a link named on the
command line is read as its target under the target's own name and extension, and a store
written before keeps its citations."""

from __future__ import annotations

import os

import pytest

from engine.core.config import EngineConfig
from engine.core.types import DraftStatus
from engine.drafting.drafter import Drafter
from engine.index.kb import KnowledgeBase
from engine.questionnaire import read_questionnaire
from storage.vector_store import release
from tests.adversarial.conftest import assert_queryable, measured
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf, write_questionnaire

SECRET = "TOPSECRET-42 the launch codes are in the blue binder"


@pytest.fixture()
def kb(store, encoder):
    base = KnowledgeBase(store, EngineConfig(), encoder)
    yield base
    release(str(store / "qdrant"))


def all_text(kb: KnowledgeBase) -> str:
    return "\n".join(c.text for d in kb.documents() for c in kb.chunks(d.name))


def test_kb_add_of_a_folder_reads_no_link_pipe_or_hidden_file(tmp_path, store, encoder):
    """The CLI, as a user runs it (it loads the embedder for the one real file: ≈ 1 GB)."""
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "policy.md").write_text("# Retention\n\nAudit logs are retained for 400 days.\n", encoding="utf-8")
    (docs / "users.txt").symlink_to("/etc/passwd")
    (docs / "more").symlink_to(secret, target_is_directory=True)
    (docs / "inbox.txt").symlink_to(secret / "secret.md")
    os.mkfifo(docs / "pipe.txt")  # reading it would wait forever
    (docs / ".notes.md").write_text(SECRET, encoding="utf-8")
    run = measured("kb", "add", str(docs), "--store", str(store))
    assert run.rc == 0 and "added: policy.md (text, 1 chunks, " in run.stdout, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    skipped = [line for line in run.lines if line.startswith("skipped: ")]
    assert skipped == [
        f"skipped: {docs / 'more'}: a link to a folder ({secret}); links inside folders are not followed: "
        "name the folder itself to add it",
        f"skipped: {docs / 'inbox.txt'}: a link (to {secret / 'secret.md'}); links inside folders are not "
        "followed: name the file itself to add it",
        f"skipped: {docs / 'pipe.txt'}: a named pipe (FIFO), not a regular file",
        f"skipped: {docs / 'users.txt'}: a link (to /etc/passwd); links inside folders are not followed: "
        "name the file itself to add it",
        f"skipped: {docs}: 1 hidden file or folder (names starting with '.')",
    ], skipped
    assert "2 documents" in run.stdout and run.peak_mb <= 2_000, run.peak_mb
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        assert [d.name for d in kb.documents()] == ["handbook.pdf", "policy.md"]
        text = all_text(kb)
        assert "root:" not in text and "TOPSECRET" not in text
    finally:
        release(str(store / "qdrant"))
    assert_queryable(store, encoder)


def test_a_link_named_explicitly_is_read_as_its_real_file(tmp_path, kb):
    real = write_pdf(tmp_path / "Security Overview 2024.pdf", topic_pages())
    latest = tmp_path / "latest"
    latest.symlink_to(real)  # a link without an extension, to a PDF
    report = kb.add([latest])
    assert [d.name for d in report.added] == ["Security Overview 2024.pdf"] and not report.errors
    assert kb.source_path("Security Overview 2024.pdf").suffix == ".pdf"

    blob = tmp_path / "cas" / "5f2b9c"
    blob.parent.mkdir()
    write_pdf(blob.with_suffix(".pdf"), ["Backups are encrypted with AES-256."]).rename(blob)
    named_pdf = tmp_path / "handbook-copy.pdf"
    named_pdf.symlink_to(blob)  # a .pdf link to a file without an extension: the real name decides
    passwd = tmp_path / "passwd.txt"
    passwd.symlink_to("/etc/passwd")
    folder = tmp_path / "folder-link"
    folder.symlink_to(tmp_path / "cas", target_is_directory=True)
    report = kb.add([named_pdf, passwd, folder])
    assert report.added == []
    assert [str(e) for e in report.errors] == [
        f"{folder}: is a link to {tmp_path / 'cas'}, which is a folder. name a regular file, or the folder itself "
        "(links are not followed)",
        "5f2b9c: has an unsupported file type (no extension) (supported: .pdf, .docx, .xlsx, .xlsm, .csv, .md, "
        ".markdown, .txt). convert it to PDF or save it as .xlsx/.csv, .docx or .md/.txt and add that",
        "passwd: has an unsupported file type (no extension) (supported: .pdf, .docx, .xlsx, .xlsm, .csv, .md, "
        ".markdown, .txt). convert it to PDF or save it as .xlsx/.csv, .docx or .md/.txt and add that",
    ]
    assert "root:" not in all_text(kb)


def test_drafts_cite_a_document_stored_without_its_extension(tmp_path, kb):
    """A store written before #16 holds a linked PDF as ``source`` (no extension): its citations
    still get their page and highlight boxes, not "error: generator raised StopIteration"."""
    for stored in (kb.folder / "docs").glob("*/source.pdf"):
        stored.rename(stored.with_name("source"))
    assert kb.source_path("handbook.pdf").name == "source"
    question = read_questionnaire(write_questionnaire(tmp_path / "q.xlsx")).questions[0]
    draft = Drafter(kb, QuotingGenerator()).draft(question)  # a stated stand-in LLM: the test is about citations
    assert draft.status is DraftStatus.DRAFTED, draft.error
    (cite,) = draft.citations
    assert cite.file == "handbook.pdf" and cite.page == 1 and cite.rects


NAMES = [
    "Données — sécurité ✓.md",
    "名前と方針.txt",
    'Report "final".md',
    "\u202eexe.md",
    "a%22b.md",
    "=HYPERLINK(1).md",
    " leading space.md",
]


def test_unicode_and_path_like_names(tmp_path, kb, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i, name in enumerate(NAMES):
        (docs / name).write_text(f"# Topic {i}\n\nParagraph number {i} about data retention.\n", encoding="utf-8")
    report = kb.add([docs])
    assert not report.errors and sorted(d.name for d in report.added) == sorted(NAMES)
    for name in NAMES:
        assert kb.source_path(name).read_text(encoding="utf-8").startswith("# Topic")
    pdf = write_pdf(tmp_path / "x.pdf", ["Backups are encrypted."], header=None)
    for bad in ("../x.pdf", "/etc/x.pdf", "a\\b.pdf", "C:x.pdf", "x\n.pdf", "", ".."):
        (error,) = kb.add_file(pdf, bad).errors
        assert "\n" not in str(error) and "plain file name" in str(error), str(error)
    assert not list(tmp_path.glob("*.pdf.*")) and [p.name for p in (tmp_path / "store").glob("x.pdf")] == []
    release(str(kb.folder / "qdrant"))
    assert_queryable(kb.folder, encoder)
