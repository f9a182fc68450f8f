"""Bad files get one clear line each (file, problem, fix) and the rest of the batch is indexed;
the CLI prints what the README and docs/cli.md say it prints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import fitz
import pytest

from engine.core.config import EngineConfig
from engine.index.kb import KnowledgeBase
from engine.retrieval.retrieve import search
from storage.vector_store import release
from tests.fixtures import topic_pages, write_pdf

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.fixture()
def bad_batch(tmp_path: Path) -> Path:
    folder = tmp_path / "batch"
    folder.mkdir()
    write_pdf(folder / "good.pdf", topic_pages())
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    (folder / "empty.docx").write_bytes(b"")
    (folder / "slides.pptx").write_bytes(b"PK\x03\x04 not really")
    scanned = fitz.open()
    scanned.new_page()
    scanned.save(folder / "scanned.pdf")
    locked = fitz.open()
    locked.new_page().insert_text((72, 72), "secret text")
    locked.save(folder / "locked.pdf", encryption=fitz.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user")
    (folder / "protected.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)
    return folder


EXPECTED = {
    "corrupt.pdf": "re-export",
    "empty.docx": "empty",
    "slides.pptx": "convert",
    "scanned.pdf": "OCR",
    "locked.pdf": "password",
    "protected.xlsx": "password",
}


def test_each_bad_file_gets_one_clear_line_and_the_rest_is_indexed(tmp_path, bad_batch, encoder):
    kb = KnowledgeBase(tmp_path / "store", EngineConfig(), encoder)
    files = sorted(bad_batch.iterdir()) + [tmp_path / "missing.pdf"]
    report = kb.add(files)
    assert [d.name for d in report.added] == ["good.pdf"]
    by_file = {Path(e.file).name: str(e) for e in report.errors}
    assert set(by_file) == set(EXPECTED) | {"missing.pdf"}
    for name, fix_word in EXPECTED.items():
        message = by_file[name]
        assert "\n" not in message and message.startswith(name)
        assert fix_word.lower() in message.lower(), message
    release(str(tmp_path / "store" / "qdrant"))


def test_an_uploaded_name_with_a_path_is_refused(tmp_path, encoder):
    pdf = write_pdf(tmp_path / "x.pdf", topic_pages())
    kb = KnowledgeBase(tmp_path / "store", EngineConfig(), encoder)
    for name in ("../x.pdf", "a/b.pdf", "/etc/x.pdf"):
        report = kb.add_file(pdf, name)
        assert not report.added and len(report.errors) == 1
        assert "plain" in str(report.errors[0]) or "path" in str(report.errors[0])
    assert kb.documents() == []
    assert not any((tmp_path / "store").glob("**/x.pdf"))
    report = kb.add_file(pdf, "x.pdf")
    assert [d.name for d in report.added] == ["x.pdf"]
    release(str(tmp_path / "store" / "qdrant"))


def test_cli_add_list_search_remove(tmp_path, bad_batch, encoder):
    """Each command in a child process. ``--mode`` is handed to the same ``search`` whatever its
    value, so it is given once on the command line; the five modes are then searched in this
    process on the store the commands built (one embedder load, not five child processes)."""
    store = str(tmp_path / "store")
    added = cli("kb", "add", str(bad_batch), "--store", store)
    assert added.returncode == 1, added.stderr  # some files were refused (#38); the good one is indexed
    assert added.stderr.strip().splitlines()[-1].startswith(f"refused: {len(EXPECTED)} files not indexed (")
    assert "added: good.pdf (pdf, 5 pages" in added.stdout
    error_lines = [line for line in added.stderr.splitlines() if line.startswith("error: ")]
    assert len(error_lines) == len(EXPECTED)  # one line per bad file
    listed = json.loads(cli("kb", "list", "--store", store, "--json").stdout)
    assert [d["name"] for d in listed] == ["good.pdf"] and listed[0]["pages"] == 5
    found = cli("search", "How long are backups kept?", "--store", store, "--json", "--top-k", "2")
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert len(hits) == 2
    assert set(hits[0]) >= {"file", "page", "sheet", "row", "score", "text"}
    assert hits[0]["file"] == "good.pdf" and "thirty-five days" in hits[0]["text"]
    out = cli("search", "multi-factor authentication", "--store", store, "--json", "--mode", "dense+sparse")
    assert out.returncode == 0 and json.loads(out.stdout)[0]["file"] == "good.pdf", out.stderr
    kb = KnowledgeBase(Path(store), EngineConfig.from_env(), encoder)
    for mode in ("dense", "paper", "concat", "dense+sparse", "weighted"):
        assert search(kb, "multi-factor authentication", mode=mode)[0].to_json()["file"] == "good.pdf", mode
    release(str(Path(store) / "qdrant"))  # the next command opens the store
    removed = cli("kb", "remove", "good.pdf", "--store", store)
    assert removed.returncode == 0 and "removed: good.pdf" in removed.stdout
    empty = cli("search", "anything", "--store", store)
    assert empty.returncode == 2 and "empty; add documents" in empty.stderr


def test_cli_missing_document_and_bad_mode(tmp_path):
    store = str(tmp_path / "store")
    out = cli("kb", "remove", "nope.pdf", "--store", store)
    assert out.returncode == 2 and "no document named 'nope.pdf'" in out.stderr
    out = cli("search", "x", "--store", store, "--mode", "cosine")
    assert out.returncode == 2 and "invalid choice" in out.stderr
