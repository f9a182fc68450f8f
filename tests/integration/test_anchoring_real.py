"""Quote anchors on the real PDFs of ../shared/data (skipped when it is absent)."""

from __future__ import annotations

import pymupdf
import pytest

from engine.bench.quotes import bench_quotes
from engine.drafting.anchoring import AnchorLabel, QuoteAnchorer
from engine.index.sentences import loose
from engine.ingest import load_document


@pytest.fixture(scope="module")
def pdfs(shared_data):
    folder = shared_data / "pdfs"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return folder


def test_bench_meets_the_targets(pdfs):
    largest = max(pdfs.glob("*.pdf"), key=lambda p: p.stat().st_size)
    files = sorted({largest, *sorted(pdfs.glob("*.pdf"))[:3]})
    result = bench_quotes([str(f) for f in files], n=300, seed=3)
    assert result["quotes"] == 300 and result["negatives"] == 300
    assert result["sentence_accuracy"] >= 98.0
    assert (
        result["false_anchor_rate"] <= 0.5
    )  # its speed (ms_per_quote) is the benchmark's: python -m engine bench quotes


def test_a_wrapped_quote_on_a_real_page_is_boxed_where_its_text_is(pdfs):
    path = pdfs / "IT Policy and Procedures.pdf"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    a = QuoteAnchorer(load_document(path).units)
    quote = "accessing data a server or an account for any purpose other than conducting business even if you have access is prohibited"
    found = a.anchor(quote)
    assert found.label is AnchorLabel.REPAIRED
    for span in found.spans:
        assert a.units[span.unit].text[span.start : span.end] in found.matched_text
    rects = a.rects(path, found.spans)
    assert len(rects) == 2
    with pymupdf.open(path) as doc:
        boxed = " ".join(doc[r[0] - 1].get_textbox(pymupdf.Rect(r[1:])) for r in rects)
    assert loose(boxed) == loose(found.matched_text)


def test_the_sentences_of_a_largest_document_are_found_again(pdfs):
    """Every 1/200th sentence of the longest PDF, flattened and lower-cased, is highlighted again;
    how fast is the benchmark's (``python -m engine bench quotes``), not a wall-clock limit here."""
    path = max(pdfs.glob("*.pdf"), key=lambda p: len(pymupdf.open(p)))
    a = QuoteAnchorer(load_document(path).units)
    quotes = [
        " ".join(a.sentence_text(i).split()).lower()
        for i in range(0, len(a.sentences), max(1, len(a.sentences) // 200))
    ]
    found = [a.anchor(q) for q in quotes]
    assert sum(f.highlighted for f in found) >= 0.9 * len(quotes)
