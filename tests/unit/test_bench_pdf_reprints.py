"""The reprints of ``bench pdf-reprints`` (engine/bench/pdf_reprints.py): each keeps every word of the
original on the pages its rule says, and the truth follows the pages the reprint moves."""

from __future__ import annotations

import unicodedata

import pymupdf

from engine.bench.pdf_families import draw, variants
from engine.bench.pdf_layouts import PANELS, UNEQUAL
from engine.bench.pdf_reprints import KINDS, WATERMARK, reprint, transfer


def _plain(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def _two_pages(tmp_path):
    v = next(v for v in variants("numbered checklist", 12) if v.paging == "two pages")
    original = tmp_path / "original.pdf"
    return original, draw(v, original)


def test_every_reprint_keeps_the_originals_words(tmp_path):
    original, items = _two_pages(tmp_path)
    with pymupdf.open(original) as doc:
        words = _plain("".join(page.get_text() for page in doc))
    for kind in KINDS:
        out = tmp_path / f"{kind}.pdf"
        reprint(original, kind, out)
        with pymupdf.open(out) as doc:
            text = _plain("".join(page.get_text() for page in doc))
            pages = doc.page_count
        for item in items:
            assert _plain(item["text"]) in text or kind == "page cut in two", (kind, item["text"])
        assert pages == {"two pages on one": 1, "page cut in two": 4}.get(kind, 2)
        if kind in ("reprinted as is", "rotated", "wide margins"):
            assert text == words
    with pymupdf.open(tmp_path / "rotated.pdf") as doc:
        assert doc[0].rotation == 90
    with pymupdf.open(tmp_path / "watermark.pdf") as doc:
        assert _plain(WATERMARK) in _plain(doc[0].get_text())
    with pymupdf.open(tmp_path / "header and footer.pdf") as doc:
        assert "Page2of2" in _plain(doc[1].get_text()) and "CONFIDENTIAL" in doc[1].get_text()


def test_the_truth_follows_the_pages_the_reprint_moves(tmp_path):
    original, items = _two_pages(tmp_path)
    assert transfer(items, "watermark", original, []) == items
    assert [i["page"] for i in transfer(items, "two pages on one", original, [])] == [1] * 8
    out = tmp_path / "cut.pdf"
    cuts = reprint(original, "page cut in two", out)
    moved = transfer(items, "page cut in two", original, cuts)
    with pymupdf.open(out) as doc:
        for item in moved:  # each question's first words on the page the truth now names
            assert _plain(item["text"])[:10] in _plain(doc[item["page"] - 1].get_text()), item
    assert {i["page"] for i in moved} - {1, 2, 3, 4} == set()


def test_the_panels_without_a_label_and_the_unequal_columns_are_drawn_as_named(tmp_path):
    for v in variants(PANELS, 6):
        draw(v, tmp_path / "panels.pdf")
        with pymupdf.open(tmp_path / "panels.pdf") as doc:
            text = "".join(page.get_text() for page in doc)
        label = dict(v.layout)["panel label"]
        assert ("Guidance" in text or "Hinweis" in text or "Help" in text) is False
        assert ("Note:" in text or "Anmerkung:" in text) is (label != "none"), label
    for v in variants(UNEQUAL, 4):
        draw(v, tmp_path / "unequal.pdf")
        with pymupdf.open(tmp_path / "unequal.pdf") as doc:
            starts = sorted({round(b[0]) for b in doc[0].get_text("blocks") if b[1] > 120})
        wide = dict(v.layout)["widths"]
        width = pymupdf.paper_size("a4")[1 if v.orientation == "landscape" else 0] - 80
        second = (width - 48) * (0.5 if wide == "2:1:1" else 0.25) + 24 + 40
        assert any(abs(s - second) < 20 for s in starts), (wide, starts, second)
