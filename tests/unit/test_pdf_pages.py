"""The PDF viewer's excerpts: only the cited page(s), the quote's boxes renumbered onto them,
and no box at all for an unverified quote. On a generated 3-page PDF; the boxes come from
PyMuPDF's own search, as the anchorer's do."""

from __future__ import annotations

import os
from pathlib import Path

import pymupdf
import pytest

from engine.core.types import SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation
from engine.review.pdf_pages import (
    SourcePageError,
    annotations,
    citation_excerpt,
    excerpt_bytes,
    highlightable,
    pages_for,
)
from tests.fixtures import TOPICS, write_pdf

PAGES = [
    TOPICS["encryption"],
    TOPICS["backups"] + " The last restore test was in March.",
    "The restore test report is kept by the operations team. " + TOPICS["incident"],
]


@pytest.fixture()
def pdf(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "handbook.pdf", PAGES)


def boxes(pdf: Path, page: int, text: str) -> list[tuple]:
    with pymupdf.open(pdf) as doc:
        found = doc[page - 1].search_for(text)
    assert found, f"{text!r} is not on page {page}"
    return [(page, r.x0, r.y0, r.x1, r.y1) for r in found]


def cite(rects=(), label=AnchorLabel.VERIFIED, page=None, kind=SourceKind.PDF, quote="q") -> Citation:
    return Citation("handbook.pdf", kind, quote, label, 100.0, 0.5, page=page, rects=tuple(rects))


def opened(data: bytes) -> pymupdf.Document:
    return pymupdf.open(stream=data, filetype="pdf")


def test_a_quote_on_one_page_gives_a_one_page_pdf_with_its_boxes_on_page_1(pdf):
    quote = (
        "Backups of the production databases are taken every night and kept for thirty-five days. "
        "Restores are tested each quarter"
    )
    rects = boxes(pdf, 2, quote)
    excerpt = citation_excerpt(pdf, cite(rects, page=2, quote=quote))
    doc = opened(excerpt.pdf)
    assert doc.page_count == 1 and excerpt.pages == (2,) and excerpt.source_page(1) == 2
    with pymupdf.open(pdf) as source:
        assert doc[0].get_text() == source[1].get_text()  # the cited page, all its text
        assert doc[0].rect.width < source[1].rect.width  # its empty margins cropped: the words show larger
    assert len(excerpt.annotations) == len(rects) >= 2  # one box per line
    ((ox, oy),) = excerpt.origins
    assert ox > 0 and oy > 0
    for a, (_, x0, y0, x1, y1) in zip(excerpt.annotations, rects):
        x0, y0, x1, y1 = x0 - ox, y0 - oy, x1 - ox, y1 - oy  # on the cropped page
        assert a["page"] == 1 and a["color"]
        assert a["x"] <= x0 and a["y"] <= y0 and a["x"] + a["width"] >= x1 and a["y"] + a["height"] >= y1
        assert a["width"] - (x1 - x0) < 4 and a["height"] - (y1 - y0) < 4  # a little padding, no more
    first = excerpt.annotations[0]  # the first box holds the quote's first words on the excerpt's page
    inside = doc[0].get_textbox(
        pymupdf.Rect(first["x"], first["y"], first["x"] + first["width"], first["y"] + first["height"])
    )
    assert inside.startswith("Backups of the production")


def test_a_quote_across_a_page_break_shows_both_pages_renumbered(pdf):
    end, start = boxes(pdf, 2, "The last restore test was in March."), boxes(pdf, 3, "The restore test report is kept")
    excerpt = citation_excerpt(pdf, cite(end + start, page=2))
    assert opened(excerpt.pdf).page_count == 2 and excerpt.pages == (2, 3)
    assert [a["page"] for a in excerpt.annotations] == [1] * len(end) + [2] * len(start)
    assert "March" in opened(excerpt.pdf)[0].get_text() and "operations team" in opened(excerpt.pdf)[1].get_text()


def test_never_more_than_two_pages(pdf):
    rects = boxes(pdf, 1, "AES-256") + boxes(pdf, 2, "thirty-five") + boxes(pdf, 3, "post-mortem")
    excerpt = citation_excerpt(pdf, cite(rects, page=1))
    assert excerpt.pages == (1, 2) and opened(excerpt.pdf).page_count == 2
    assert {a["page"] for a in excerpt.annotations} == {1, 2}  # the third page's box is dropped


def test_an_unverified_quote_shows_its_page_and_no_box(pdf):
    rects = boxes(pdf, 1, "AES-256")  # even if boxes were recorded, they are not drawn
    plain = cite(rects, label=AnchorLabel.UNVERIFIED, page=3)
    assert not highlightable(plain) and pages_for(plain) == (3,)
    excerpt = citation_excerpt(pdf, plain)
    assert excerpt.annotations == () and excerpt.pages == (3,)
    assert "post-mortem" in opened(excerpt.pdf)[0].get_text()
    assert annotations(plain, (1,)) == []


def test_a_repaired_quote_is_highlighted(pdf):
    rects = boxes(pdf, 1, "Keys are rotated every twelve months.")
    excerpt = citation_excerpt(pdf, cite(rects, label=AnchorLabel.REPAIRED, page=1))
    assert len(excerpt.annotations) == len(rects) and excerpt.pages == (1,)


def test_nothing_to_show(pdf):
    assert citation_excerpt(pdf, cite(label=AnchorLabel.UNVERIFIED)) is None  # no page at all
    assert citation_excerpt(pdf, cite(kind=SourceKind.SHEET, page=None)) is None


def test_a_missing_page_or_file_names_the_file_and_the_fix(pdf, tmp_path):
    with pytest.raises(SourcePageError, match=r"handbook\.pdf: page 9 is not in the file \(3 pages\)\. re-index"):
        excerpt_bytes(pdf, (9,))
    with pytest.raises(SourcePageError, match=r"gone\.pdf: the stored copy cannot be read"):
        excerpt_bytes(tmp_path / "gone.pdf", (1,))


def test_an_empty_page_is_left_whole(tmp_path):
    blank = tmp_path / "blank.pdf"
    with pymupdf.open() as doc:
        doc.new_page(width=595, height=842)
        doc.save(blank)
    data, origins = excerpt_bytes(blank, (1,))
    assert origins == ((0.0, 0.0),) and opened(data)[0].rect == pymupdf.Rect(0, 0, 595, 842)


def test_excerpts_are_cached_per_file_version(pdf):
    first = excerpt_bytes(pdf, (2,))
    assert excerpt_bytes(pdf, (2,)) is first  # the same bytes, not built again
    write_pdf(pdf, ["A new first page.", "A replaced second page."])
    stat = pdf.stat()
    os.utime(pdf, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
    again = excerpt_bytes(pdf, (2,))
    assert again is not first and "replaced second page" in opened(again[0])[0].get_text()


def test_an_excerpt_of_a_long_pdf_holds_one_page(tmp_path):
    long = write_pdf(tmp_path / "long.pdf", [TOPICS["vendors"]] * 120)
    data, _ = excerpt_bytes(long, (77,))
    assert opened(data).page_count == 1 and len(data) < long.stat().st_size / 10
