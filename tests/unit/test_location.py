"""One Location, one label(): each reader's wording of a source location, byte for byte as the
formatters it replaced wrote it (the prompt's labels are part of what the model reads, so a
change here would move the drafting figures)."""

from __future__ import annotations

from engine.cli.demo import where
from engine.core.location import CAPTION, DEMO, PROMPT, SEARCH, SHORT, WORDS, Location
from engine.core.types import Chunk, SourceKind
from engine.drafting.anchoring import AnchorLabel, SourceSpan
from engine.drafting.ask import Excerpt
from engine.drafting.drafter import source_label
from engine.drafting.records import Citation

PDF = Chunk("a.pdf", "h", 0, SourceKind.PDF, "t", 0, 1, page_start=2, page_end=3, page=3)
ROW = Chunk("a.xlsx", "h", 0, SourceKind.SHEET, "t", 0, 1, sheet="Sheet 1", row=7)
SECTION = Chunk("a.docx", "h", 0, SourceKind.DOCX, "t", 0, 1, section="Security > Encryption")
HEADLESS = Chunk("a.md", "h", 0, SourceKind.TEXT, "t", 0, 1)
CHUNKS = (PDF, ROW, SECTION, HEADLESS)


def cite(chunk: Chunk) -> Citation:
    return Citation(
        chunk.doc,
        chunk.kind,
        "q",
        AnchorLabel.VERIFIED,
        90.0,
        0.5,
        page=chunk.page,
        sheet=chunk.sheet,
        row=chunk.row,
        section=chunk.section,
    )


def test_the_prompt_labels_are_unchanged():
    assert [source_label(i, c) for i, c in enumerate(CHUNKS, 1)] == [
        "[1] a.pdf p. 3",
        "[2] a.xlsx, sheet Sheet 1 row 7",
        "[3] a.docx, Security > Encryption",
        "[4] a.md",
    ]
    past = Location.past_answer("past.xlsx", "Security", 4, "ENC-01")
    assert past.label(PROMPT) == past.label() == "past answer: past.xlsx, sheet Security, row 4, ID ENC-01"


def test_each_style_words_the_same_places_as_before():
    words = {
        WORDS: ["page 3", "sheet Sheet 1, row 7", "section Security > Encryption", ""],
        SHORT: ["p. 3", "sheet Sheet 1, row 7", "section Security > Encryption", ""],
        CAPTION: ["page 3", "sheet Sheet 1, row 7", "section “Security > Encryption”", "before the first heading"],
        DEMO: ["page 3", "sheet Sheet 1, row 7", "section Security > Encryption", "whole file"],
        SEARCH: ["p. 3", "Sheet 1 row 7", "Security > Encryption", ""],
    }
    for style, expected in words.items():
        assert [Location.of_chunk(c).label(style) for c in CHUNKS] == expected
        assert [cite(c).location.label(style) for c in CHUNKS] == expected
    assert [where(c) for c in CHUNKS] == words[DEMO]
    assert Location.of_chunk(PDF, page=2).label() == "page 2"  # the page finder's page


def test_page_ranges_and_ask_excerpts():
    assert Location("a.pdf", SourceKind.PDF, (3, 4, 5)).label() == "pages 3–5"
    assert Location("a.pdf", SourceKind.PDF, (3, 4)).label(SHORT) == "pp. 3–4"
    spans = (SourceSpan(0, 3, 0, 5), SourceSpan(1, 4, 0, 9))
    excerpt = Excerpt(1, "a.pdf", SourceKind.PDF, "t", spans, (0, 1), (), AnchorLabel.VERIFIED, 90.0)
    assert excerpt.where() == "pp. 3–4"
    row = Excerpt(
        2,
        "a.xlsx",
        SourceKind.SHEET,
        "t",
        (SourceSpan(0, None, 0, 5),),
        (0, 0),
        (),
        AnchorLabel.VERIFIED,
        90.0,
        sheet="S",
        row=2,
    )
    assert row.where() == "sheet S, row 2"


def test_a_past_answer_citation_is_named_the_same_in_every_style():
    c = Citation("past.csv", SourceKind.LIBRARY, "q", AnchorLabel.VERIFIED, 100.0, 1.0, sheet="past", row=7)
    assert {c.location.label(s) for s in (WORDS, SHORT, CAPTION, PROMPT)} == {
        "past answer: past.csv, sheet past, row 7"
    }
