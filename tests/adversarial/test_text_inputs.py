"""Text that is too long, in UTF-16/32, or not text at all.

* A 50 MB one-line .txt (29,915 chunks and 5.7 GB before #16) is refused by default, counted
  1 MiB at a time, in one line that names ``--max-chars``; the limit moves with the flag, the
  variable and :class:`~engine.core.limits.Limits`.
* UTF-16 (with a byte-order mark, or without one: recognised by its NUL bytes) and UTF-32
  questionnaires read their questions, not cp1252 garbage "already answered" (before #16 every
  question of a UTF-16 CSV was "already answered"); ``kb add`` and ``library import`` read them
  through the same helper (engine/core/decoding.py).
* Text that still decodes to NUL characters is refused with a clear error by ``kb add``,
  ``inspect`` and ``library import`` alike.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from engine.core.config import EngineConfig
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.retrieval.retrieve import search
from storage.vector_store import release
from tests.adversarial.conftest import CLI_IMPORTS_MB, assert_queryable, measured

QUESTIONNAIRE = (
    "ID,Question,Answer,Comments\r\n"
    "ENC-01,Is customer data encrypted at rest?,,\r\n"
    "BCK-01,How long are backups kept — thirty-five days?,,\r\n"
    "INC-01,Are customers notified of a breach (« sous 72 h »)?,,\r\n"
)
FILLED = QUESTIONNAIRE.replace("rest?,,", "rest?,Yes,AES-256").replace("days?,,", "days?,Yes,35 days")
ENCODINGS = {  # name: (byte-order mark, codec)
    "utf-16-le-bom": (codecs.BOM_UTF16_LE, "utf-16-le"),
    "utf-16-be-bom": (codecs.BOM_UTF16_BE, "utf-16-be"),
    "utf-16-le-no-bom": (b"", "utf-16-le"),
    "utf-16-be-no-bom": (b"", "utf-16-be"),
    "utf-32-le-bom": (codecs.BOM_UTF32_LE, "utf-32-le"),
}


def write_encoded(path: Path, text: str, encoding: str) -> Path:
    bom, codec = ENCODINGS[encoding]
    path.write_bytes(bom + text.encode(codec))
    return path


@pytest.fixture(scope="module")
def one_line(tmp_path_factory) -> Path:
    """The issue's file: 50 MB of text on one line, no heading, no sentence end."""
    path = tmp_path_factory.mktemp("text") / "one_line.txt"
    block = ("lorem ipsum dolor sit amet " * 40_000)[:1_000_000]
    with path.open("w", encoding="ascii") as f:
        for _ in range(50):
            f.write(block)
    return path


def test_a_50_mb_one_line_text_is_refused_by_default(one_line, store, encoder):
    run = measured("kb", "add", str(one_line), "--store", str(store))
    line = run.error_line("one_line.txt")
    assert "has 50,000,000 characters of text, over the limit of 20,000,000 characters" in line, line
    assert "--max-chars 50000000" in line and "RFP_MAX_CHARS=50000000" in line
    assert run.rc == 1 and "1 documents" in run.stdout
    assert run.within(cpu_seconds=10, peak_mb=CLI_IMPORTS_MB), run
    assert_queryable(store, encoder)


def test_the_character_limit_moves_with_its_setting(tmp_path, store, encoder):
    """The same 2,600-character note: refused under a limit of 1,000, indexed by default."""
    from engine.core.limits import Limits

    note = tmp_path / "note.md"
    note.write_text(
        "# Audit logs\n\n" + "Audit logs are copied to a second region every night. " * 48, encoding="utf-8"
    )
    kb = KnowledgeBase(store, EngineConfig(), encoder, limits=Limits(chars=1_000))
    try:
        (error,) = kb.add([note]).errors
        assert str(error).startswith("note.md: has 2,6") and "over the limit of 1,000 characters" in str(error)
    finally:
        release(str(store / "qdrant"))
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        assert [d.name for d in kb.add([note]).added] == ["note.md"]
    finally:
        release(str(store / "qdrant"))
    assert_queryable(store, encoder)


@pytest.mark.parametrize("encoding", ["utf-16-le-bom", "utf-16-be-no-bom", "utf-32-le-bom"])
def test_a_utf16_or_utf32_questionnaire_reads_its_questions(tmp_path, encoding):
    path = write_encoded(tmp_path / f"{encoding}.csv", QUESTIONNAIRE, encoding)
    run = measured("inspect", str(path), "--json")
    assert run.rc == 0 and "Traceback" not in run.stderr, run.stderr
    found = json.loads(run.stdout)
    assert found["answered"] == 0
    (sheet,) = found["sheets"]
    assert [q["text"] for q in sheet["questions"]] == [
        "Is customer data encrypted at rest?",
        "How long are backups kept — thirty-five days?",
        "Are customers notified of a breach (« sous 72 h »)?",
    ]
    assert run.peak_mb <= CLI_IMPORTS_MB


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_kb_add_and_library_import_read_utf16_and_utf32(tmp_path, store, encoder, encoding):
    notes = write_encoded(
        tmp_path / "retention.txt",
        "Retention\n\nAudit logs are retained for 400 days in the Frankfurt region.\n",
        encoding,
    )
    filled = write_encoded(tmp_path / "past.csv", FILLED, encoding)
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        assert [d.name for d in kb.add([notes]).added] == ["retention.txt"]
        (hit, *_) = search(kb, "How long are audit logs retained?")
        assert hit.chunk.doc == "retention.txt" and "400 days in the Frankfurt region" in hit.chunk.text
        library = AnswerLibrary(store, kb.encoder)
        report = library.import_file(filled)
        assert report.entries == 2 and [(e.question, e.choice or e.answer) for e in library.entries()] == [
            ("Is customer data encrypted at rest?", "Yes"),
            ("How long are backups kept — thirty-five days?", "Yes"),
        ]
        library.close()
    finally:
        release(str(store / "qdrant"))
    assert_queryable(store, encoder)


def test_text_that_decodes_to_nul_characters_is_refused_everywhere(tmp_path, store, encoder):
    """UTF-32 without a byte-order mark (NULs on both sides of every pair: not taken for UTF-16)
    and a binary file named .csv: each refused in one line, nothing indexed or imported."""
    garbled = tmp_path / "garbled.csv"
    garbled.write_bytes(QUESTIONNAIRE.encode("utf-32-le"))
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"ID,Question\r\n" + bytes(range(32)) * 64)
    added = measured("kb", "add", str(garbled), str(binary), "--store", str(store))
    assert added.rc == 1
    for name in ("garbled.csv", "binary.csv"):
        line = added.error_line(name)
        assert "NUL characters" in line and "save it again as UTF-8 text" in line, line
    inspected = measured("inspect", str(garbled))
    assert inspected.rc == 2 and "NUL characters" in inspected.error_line("garbled.csv")
    imported = measured("library", "import", str(binary), "--store", str(tmp_path / "lib"))
    assert imported.rc == 1 and "NUL characters" in imported.error_line("binary.csv")
    assert added.peak_mb <= 2_000, added  # the embedder loads before the text is decoded
    for run in (inspected, imported):
        assert run.peak_mb <= CLI_IMPORTS_MB, run
    assert_queryable(store, encoder)
