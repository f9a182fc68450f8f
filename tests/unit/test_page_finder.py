"""Document Page Finder on generated PDFs with the same boilerplate on every page."""

from __future__ import annotations

import pytest

from engine.drafting.page_finder import PageFinder
from engine.index.chunking import Chunker
from engine.ingest import load_document
from tests.fixtures import TOPICS, topic_pages, write_pdf


def test_every_chunk_is_found_on_its_page(tmp_path, encoder):
    doc = load_document(write_pdf(tmp_path / "h.pdf", topic_pages(3)))
    chunks = Chunker(encoder.token_counter(), encoder.chunk_tokens).chunk(doc, "h")
    finder = PageFinder(doc.units)
    for chunk in chunks:
        match = finder.locate(chunk.text)
        assert match.page in chunk.pages
        assert match.runner_up is not None and match.runner_up != match.page
        assert match.score >= match.runner_up_score


@pytest.mark.parametrize("page, topic", list(enumerate(TOPICS, 1)))
def test_a_sentence_finds_its_page(tmp_path, page, topic):
    doc = load_document(write_pdf(tmp_path / "h.pdf", topic_pages()))
    sentence = TOPICS[topic].split(". ")[1]
    assert PageFinder(doc.units).locate(sentence).page == page


def test_word_order_separates_pages_with_the_same_words(tmp_path):
    # the same bag of words on both pages; only the order differs
    a = "the vendor reviews access every quarter and the owner approves changes. " * 5
    b = "the owner reviews changes every quarter and the vendor approves access. " * 5
    doc = load_document(write_pdf(tmp_path / "o.pdf", [a, b]))
    finder = PageFinder(doc.units)
    assert finder.locate("the owner reviews changes every quarter").page == 2
    assert finder.locate("the vendor reviews access every quarter").page == 1


def test_a_document_without_text_is_refused():
    with pytest.raises(ValueError):
        PageFinder([])
