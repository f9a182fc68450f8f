"""Chunk offsets are exact and chunks never exceed what the dense model reads."""

from __future__ import annotations

import fitz
import pytest

from engine.core.types import LoadedDocument, SourceKind, Unit
from engine.index.chunking import PAGE_SEPARATOR, Chunker
from engine.ingest import load_document
from tests.fixtures import BOILERPLATE, write_pdf


@pytest.fixture(scope="module")
def chunker(encoder):
    return Chunker(encoder.token_counter(), encoder.chunk_tokens, overlap=20)


def long_pages() -> list[str]:
    sentence = "Policy {p}.{i}: access to system {i} on page {p} is reviewed by its owner every quarter."
    return [" ".join(sentence.format(p=p, i=i) for i in range(28)) for p in range(1, 5)]


def test_single_page_chunks_are_exact_substrings_of_their_page_despite_boilerplate(tmp_path, chunker):
    path = write_pdf(tmp_path / "handbook.pdf", long_pages())
    doc = load_document(path)
    pages = {u.page: u.text for u in doc.units}
    chunks = chunker.chunk(doc, "h")
    assert len(chunks) > 4
    assert all(BOILERPLATE in text for text in pages.values())  # the same header on every page
    single = [c for c in chunks if c.page_start == c.page_end]
    assert single, "expected chunks within one page"
    for c in single:
        assert pages[c.page_start][c.start : c.end] == c.text


def test_boilerplate_only_chunks_point_at_their_own_page(chunker):
    # Short pages made of nothing but the same boilerplate: every chunk text is identical,
    # so only offsets found in order can tell them apart.
    text = "Confidential. Do not distribute. " * 60
    doc = LoadedDocument("b.pdf", SourceKind.PDF, tuple(Unit(text, page=p) for p in (1, 2, 3)), pages=3)
    chunks = chunker.chunk(doc, "h")
    pages = {u.page: u.text for u in doc.units}
    assert {c.page_start for c in chunks} == {1, 2, 3}
    for c in chunks:
        if c.page_start == c.page_end:
            assert pages[c.page_start][c.start : c.end] == c.text
    starts = [(c.page_start, c.start) for c in chunks]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_a_chunk_across_a_page_break_keeps_both_ends(chunker):
    pages = ["Intro. " + "Backups run nightly and are kept for thirty five days. " * 40] * 2
    doc = LoadedDocument("x.pdf", SourceKind.PDF, tuple(Unit(t, page=i + 1) for i, t in enumerate(pages)), pages=2)
    chunks = chunker.chunk(doc, "h")
    spanning = [c for c in chunks if c.page_start != c.page_end]
    assert spanning
    for c in spanning:
        assert c.text == pages[0][c.start :] + PAGE_SEPARATOR + pages[1][: c.end]


def test_chunks_fit_the_model_and_overlap(chunker, encoder):
    text = " ".join(f"Sentence number {i} explains control {i % 7} of the security programme." for i in range(400))
    doc = LoadedDocument("a.md", SourceKind.TEXT, (Unit(text, section="All"),))
    chunks = chunker.chunk(doc, "h")
    assert len(chunks) > 5
    count = encoder.token_counter()
    assert max(len(count(c.text)) for c in chunks) <= encoder.max_seq_length - 2
    assert all(text[c.start : c.end] == c.text and c.section == "All" for c in chunks)
    # consecutive chunks overlap (20 tokens): the next one starts before the previous ends
    assert all(b.start < a.end for a, b in zip(chunks, chunks[1:]))


def test_spreadsheet_rows_keep_sheet_and_row(chunker):
    units = (
        Unit("Question: Do you encrypt?\nAnswer: Yes", sheet="Answers", row=4),
        Unit("Question: MFA?\nAnswer: Yes", sheet="Answers", row=5),
    )
    chunks = chunker.chunk(LoadedDocument("p.xlsx", SourceKind.SHEET, units), "h")
    assert [(c.sheet, c.row, c.text) for c in chunks] == [("Answers", 4, units[0].text), ("Answers", 5, units[1].text)]


def test_scanned_pages_are_not_chunked_but_numbering_is_kept(tmp_path, chunker):
    path = tmp_path / "mixed.pdf"
    doc = fitz.open()
    for body in ("First page text about encryption keys.", None, "Third page text about backups."):
        page = doc.new_page()
        if body:
            page.insert_text((72, 72), body)
    doc.save(path)
    loaded = load_document(path)
    chunks = chunker.chunk(loaded, "h")
    assert loaded.notes and "2" in loaded.notes[0]
    assert chunks[0].page_start == 1 and chunks[-1].page_end == 3


def test_a_multi_page_chunk_cites_the_page_with_most_of_its_text(chunker):
    pages = ["Short intro on page one.", "Backups run nightly and are kept for thirty five days. " * 3]
    doc = LoadedDocument("x.pdf", SourceKind.PDF, tuple(Unit(t, page=i + 1) for i, t in enumerate(pages)), pages=2)
    (chunk,) = chunker.chunk(doc, "h")
    assert (chunk.page_start, chunk.page_end, chunk.page) == (1, 2, 2)
