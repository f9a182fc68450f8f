"""Quote anchors: labels, exact offsets, page breaks, windows (Algorithm 2) and PDF rects."""

from __future__ import annotations

import pymupdf
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.core.types import Unit
from engine.drafting.anchoring import CUTOFF, MIN_QUOTE_WORDS, Anchor, AnchorLabel, QuoteAnchorer, anchor, rects_for
from engine.index.chunking import PAGE_SEPARATOR
from engine.index.sentences import loose, sentence_spans
from engine.ingest import load_document
from tests.fixtures import TOPICS, topic_pages, write_pdf

PAGES = [Unit(text=text.replace(". ", ".\n", 1) + "\n", page=n) for n, text in enumerate(TOPICS.values(), 1)]


def assert_offsets(anchorer: QuoteAnchorer, found: Anchor) -> None:
    """The invariant: every span is the source text it claims, and together they are the match."""
    assert found.spans
    for span in found.spans:
        text = anchorer.units[span.unit].text
        assert 0 <= span.start < span.end <= len(text)
        assert span.page == anchorer.units[span.unit].page
    assert found.matched_text == PAGE_SEPARATOR.join(anchorer.units[s.unit].text[s.start : s.end] for s in found.spans)


@pytest.fixture(scope="module")
def anchorer() -> QuoteAnchorer:
    return QuoteAnchorer(PAGES)


def test_sentence_spans_are_offsets_into_the_text():
    text = "  Keys are rotated by Mr. Smith every year.  Backups run nightly!\n\nSection two\nhas no stop"
    spans = sentence_spans(text)
    assert [text[s:e] for s, e in spans] == [
        "Keys are rotated by Mr. Smith every year.",
        "Backups run nightly!",
        "Section two\nhas no stop",
    ]


def test_a_verbatim_quote_with_other_whitespace_is_verified(anchorer):
    found = anchorer.anchor("Keys are rotated   every\ttwelve months.")
    assert found.label is AnchorLabel.VERIFIED and found.score == 100
    assert found.matched_text == "Keys are rotated every twelve months."
    assert found.page == 1 and found.highlighted
    assert_offsets(anchorer, found)


@pytest.mark.parametrize(
    "quote",
    [
        "keys are rotated every twelve months",  # case and punctuation
        "Keys are rotated every months.",  # a dropped word
        "Backups of the production databases are taken night every and kept for thirty-five days.",  # a swap
        "restores are tested each quarter, and the recovery point objective is one hour with a",  # truncated
        "Restores are tested each quarter and the recovery point objective is 1 hour",  # a changed token
    ],
)
def test_misquotes_are_repaired_to_the_source_text(anchorer, quote):
    found = anchorer.anchor(quote)
    assert found.label is AnchorLabel.REPAIRED and CUTOFF <= found.score <= 100
    assert_offsets(anchorer, found)
    assert loose(found.matched_text).split()[:2] == loose(quote).split()[:2]
    sentence = anchorer.sentences[found.sentence]
    assert (sentence.unit, sentence.page) == (found.spans[0].unit, found.page)


@pytest.mark.parametrize(
    "quote",
    [
        "The data centre is staffed around the clock by armed guards.",
        "months twelve every rotated are keys",  # the right words in another order
        "",
        "...",
    ],
)
def test_quotes_not_in_the_source_are_unverified_and_never_highlighted(anchorer, quote):
    found = anchorer.anchor(quote)
    assert found.label is AnchorLabel.UNVERIFIED and not found.highlighted
    assert found.spans == () and found.matched_text == "" and found.page is None and found.window is None


def test_a_quote_of_fewer_than_three_words_is_never_verified(anchorer):
    """One or two words are found in any document and support no claim: never highlighted."""
    for quote in ("a", "AES-256", "customer data", "is encrypted."):
        found = anchorer.anchor(quote)
        assert found.label is AnchorLabel.UNVERIFIED and not found.spans, quote
    assert anchorer.anchor("customer data is").label is AnchorLabel.VERIFIED
    assert anchorer.anchor("customer DATA, is").label is AnchorLabel.REPAIRED


def test_a_quote_over_a_page_break_has_a_span_on_each_page():
    units = [
        Unit("Intro.\nAll backups are encrypted and\n", page=1),
        Unit("copied to a second region daily.\nEnd.\n", page=2),
    ]
    a = QuoteAnchorer(units)
    for quote, label in [
        ("All backups are encrypted and copied to a second region daily.", AnchorLabel.VERIFIED),
        ("all backups are encrypted and copied to a second region", AnchorLabel.REPAIRED),
    ]:
        found = a.anchor(quote)
        assert found.label is label
        assert [s.page for s in found.spans] == [1, 2]
        assert_offsets(a, found)
        assert units[0].text[found.spans[0].start :].startswith("All backups")


def test_the_expected_page_wins_among_identical_matches():
    units = [Unit(f"Access is reviewed every quarter.\nPage {n} only.\nBody {n}.\n", page=n) for n in (1, 2, 3)]
    a = QuoteAnchorer(units)
    assert a.anchor("Access is reviewed every quarter.").page == 1
    assert a.anchor("Access is reviewed every quarter.", page=3).page == 3
    assert a.anchor("access is reviewed each quarter", page=2).page == 2
    assert QuoteAnchorer(units, skip_furniture=False).anchor("Access is reviewed every quarter.", page=2).page == 2


def test_page_furniture_is_skipped_but_never_a_whole_page():
    bodies = ["Keys rotate yearly and", "backups run nightly while", "access is reviewed."]
    units = [Unit(f"Security Handbook v2\n{body}\nPage {n}\n", page=n) for n, body in enumerate(bodies, 1)]
    a = QuoteAnchorer(units)
    assert a.anchor("Security Handbook v2").label is AnchorLabel.UNVERIFIED  # the header of every page
    found = a.anchor("Backups run nightly while access is")  # over the break, footer and header skipped
    assert found.label is AnchorLabel.REPAIRED and [s.page for s in found.spans] == [2, 3]
    assert_offsets(a, found)
    alone = [Unit("Security Handbook v2\n", page=n) for n in (1, 2, 3)]
    assert QuoteAnchorer(alone).anchor("Security Handbook v2", page=2).page == 2


def test_windows_expand_and_merge(anchorer):
    # sentences 0-2 on page 1, 3-4 on page 2, 5-6 on page 3, 7-8 on page 4, 9-10 on page 5
    first = anchorer.anchor("Keys are rotated every twelve months.")  # sentence 1
    second = anchorer.anchor("Backups of the production databases are taken every night")  # sentence 3
    far = anchorer.anchor("Subprocessors that handle personal data sign a data processing agreement")  # sentence 10
    lost = anchorer.anchor("Nothing like this is in the handbook at all, anywhere.")
    assert (first.sentences, second.sentences, far.sentences) == ((1, 1), (3, 3), (10, 10))
    assert (first.window, second.window, far.window) == ((0, 2), (2, 4), (9, 10))
    windows = anchorer.windows([first, lost, far, second])
    assert [(w.first, w.last, w.anchors) for w in windows] == [(0, 4, (0, 3)), (9, 10, (2,))]
    assert [s.page for s in windows[0].spans] == [1, 2]
    assert windows[0].text.startswith("All customer data") and windows[0].text.endswith(
        "recovery time objective of four hours."
    )
    assert [(w.first, w.last) for w in anchorer.windows([first, second, far], window=0)] == [(1, 1), (3, 3), (10, 10)]
    assert [(w.first, w.last) for w in anchorer.windows([first, second], window=1)] == [(0, 4)]


def test_bad_settings_are_refused_with_the_rule():
    with pytest.raises(ValueError, match="cutoff 120"):
        QuoteAnchorer(PAGES, cutoff=120)
    with pytest.raises(ValueError, match="window -1"):
        QuoteAnchorer(PAGES, window=-1)


def test_the_one_off_function_anchors_a_misquote_to_its_source_text():
    """Golden values: the incident page (page 4, unit 3) reads "…within fifteen minutes.\nCustomers
    are notified within seventy-two hours of a confirmed breach, and …"; the quote's "72" is the
    source's "seventy-two", so the anchor is repaired to characters 79 to 148 of that page, its
    second sentence (sentence 8 of the handbook: 7 and 8 are page 4's), in the window of 7 to 9."""
    found = anchor("Customers are notified within 72 hours of a confirmed breach", PAGES)
    assert found.label is AnchorLabel.REPAIRED and CUTOFF <= found.score < 100
    assert [(s.unit, s.page, s.start, s.end) for s in found.spans] == [(3, 4, 79, 148)]
    assert found.matched_text == "Customers are notified within seventy-two hours of a confirmed breach"
    assert PAGES[3].text[79:148] == found.matched_text  # the offsets are the source's
    assert (found.page, found.sentence, found.sentences, found.window) == (4, 8, (8, 8), (7, 9))


def test_rects_cover_the_span_line_by_line(tmp_path):
    path = write_pdf(tmp_path / "h.pdf", topic_pages(2))
    doc = load_document(path)
    a = QuoteAnchorer(doc.units)
    quote = "Access rights follow the principle of least privilege and are reviewed every quarter by the owners of each system"
    found = a.anchor(quote)
    assert found.label is AnchorLabel.VERIFIED and found.page == 3
    rects = a.rects(path, found.spans)
    assert len(rects) >= 2 and {r[0] for r in rects} == {3}
    with pymupdf.open(path) as pdf:
        page = pdf[2]
        boxed = " ".join(page.get_textbox(pymupdf.Rect(r[1:])) for r in rects)
        assert all(0 <= r[1] < r[3] <= page.rect.width and 0 <= r[2] < r[4] <= page.rect.height for r in rects)
        assert [r[2] for r in rects] == sorted(r[2] for r in rects)  # one per line, top to bottom
        # the same call with an open document
        assert rects_for(pdf, 3, doc.units[2].text, found.spans[0].start, found.spans[0].end) == rects
    assert loose(boxed) == loose(quote)


def test_the_same_sentence_twice_on_a_page_is_boxed_where_it_was_matched(tmp_path):
    sentence = "Keys are rotated every twelve months."
    path = write_pdf(tmp_path / "d.pdf", [f"{sentence} Backups run nightly. {sentence} Access is logged."])
    doc = load_document(path)
    text = doc.units[0].text
    second = text.index(sentence, text.index(sentence) + 1)
    (only,) = rects_for(path, 1, text, second, second + len(sentence))
    (first,) = rects_for(path, 1, text, text.index(sentence), text.index(sentence) + len(sentence))
    assert only[1] > first[3] or only[2] > first[2]  # later on the line, or on a later line


def test_a_window_over_a_page_break_is_outlined_on_the_body_lines_only(tmp_path):
    # ask's excerpts are windows of sentences: one running from page 1 to page 2 used to take
    # page 1's footer and page 2's header with it, and outline them
    pages = ["Intro line. Keys are rotated every year.", "Backups run nightly. Restores are tested.", "Last page."]
    path = write_pdf(tmp_path / "w.pdf", pages)
    a = QuoteAnchorer(load_document(path).units)
    found = a.anchor("Keys are rotated every year.")
    (window,) = a.windows([found], window=1)  # the footer "Page 1 of 3" is not counted as a sentence
    assert [s.page for s in window.spans] == [1, 2]
    assert "Page 1 of 3" not in window.text and "ACME" not in window.text
    assert window.text == "Intro line. Keys are rotated every year." + PAGE_SEPARATOR + "Backups run nightly."
    rects = a.rects(path, window.spans)
    assert rects and all(70 <= r[2] <= 100 for r in rects)  # the body lines, not the header (y 40) or footer (y 815)


def test_a_quote_over_a_page_break_skips_the_footer_and_header_between(tmp_path):
    # every page has the same header and a "Page n of 3" footer (tests/fixtures.py)
    pages = ["Intro line.\nAll backups are encrypted and", "copied to a second region daily.\nEnd.", "Last page."]
    path = write_pdf(tmp_path / "b.pdf", pages)
    a = QuoteAnchorer(load_document(path).units)
    for quote, label in [
        ("All backups are encrypted and copied to a second region daily.", AnchorLabel.VERIFIED),
        ("all backups are encrypted and copied to a second region", AnchorLabel.REPAIRED),
    ]:
        found = a.anchor(quote)
        assert found.label is label
        assert found.matched_text.startswith(
            "All backups are encrypted and" + PAGE_SEPARATOR + "copied to a second region"
        )
        assert "Page 1" not in found.matched_text and "ACME" not in found.matched_text
        assert_offsets(a, found)
        rects = a.rects(path, found.spans)
        assert [r[0] for r in rects] == [1, 2]
        assert all(70 <= r[2] <= 100 for r in rects)  # the body lines, not the header or footer


def test_rects_skip_characters_the_page_text_does_not_share(tmp_path):
    path = write_pdf(tmp_path / "m.pdf", ["Keys are rotated every twelve months."], header=None)
    text = load_document(path).units[0].text
    edited = "XX " + text  # the stored text differs from the page: only equal runs are boxed
    rects = rects_for(path, 1, edited, 0, len(edited))
    assert len(rects) == 2  # the body line and the footer line; nothing for "XX "
    assert rects_for(path, 1, edited, 0, 3) == []


# ---- properties -------------------------------------------------------------------------

WORDS = st.sampled_from(
    "access audit backup control data encryption firewall incident key log network owner "
    "password policy review risk server token user vendor quarterly annual".split()
)
SENTENCES = st.lists(WORDS, min_size=6, max_size=14).map(lambda ws: " ".join(ws).capitalize() + ".")
PAGE_TEXTS = st.lists(SENTENCES, min_size=1, max_size=6).map(lambda ss: "\n".join(ss) + "\n")
DOCS = st.lists(PAGE_TEXTS, min_size=1, max_size=4).map(lambda ps: [Unit(t, page=n) for n, t in enumerate(ps, 1)])
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(DOCS, st.data())
def test_any_substring_of_the_document_is_verified_at_its_offsets(units, data):
    a = QuoteAnchorer(units, skip_furniture=False)  # with it, a line repeated at page edges is left out
    u = data.draw(st.integers(0, len(units) - 1))
    text = units[u].text
    start = data.draw(st.integers(0, len(text) - 2))
    end = data.draw(st.integers(start + 1, len(text)))
    assume(text[start:end].strip())
    quote = " ".join(text[start:end].split())
    found = a.anchor(quote)
    if len(loose(quote).split()) < MIN_QUOTE_WORDS:
        assert found.label is AnchorLabel.UNVERIFIED  # too short to support anything
        return
    assert found.label is AnchorLabel.VERIFIED
    assert_offsets(a, found)
    assert " ".join(found.matched_text.split()) == quote


@SETTINGS
@given(DOCS, st.data())
def test_a_sentence_with_a_word_dropped_is_repaired_to_real_text(units, data):
    a = QuoteAnchorer(units, skip_furniture=False)
    i = data.draw(st.integers(0, len(a.sentences) - 1))
    sentence = a.sentence_text(i)
    words = sentence.split()
    dropped = words.pop(data.draw(st.integers(0, len(words) - 1)))
    # the promise is for a word that is a small part of its sentence: "quarterly" dropped from
    # "Access access quarterly audit key risk." takes a quarter of its characters and scores
    # 84.85, under the 85 cutoff that `bench quotes` chose (found by this test in CI)
    assume(len(dropped) <= 0.15 * len(sentence))
    found = a.anchor(" ".join(words).lower())
    assert found.label is not AnchorLabel.UNVERIFIED
    assert_offsets(a, found)
    assert found.sentences[0] <= found.sentence <= found.sentences[1]
    assert found.window[0] <= found.sentences[0] and found.sentences[1] <= found.window[1]


@SETTINGS
@given(DOCS, st.text(max_size=200))
def test_any_text_gets_a_label_and_only_highlighted_anchors_have_spans(units, quote):
    a = QuoteAnchorer(units)
    found = a.anchor(quote)
    assert 0 <= found.score <= 100 and found.quote == quote
    if found.highlighted:
        assert_offsets(a, found)
        assert found.label is AnchorLabel.VERIFIED or found.score >= CUTOFF
    else:
        assert found.spans == () and found.matched_text == ""


@SETTINGS
@given(st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "Zs", "Cc"]), max_size=400))
def test_sentence_spans_cover_every_visible_character_once(text):
    spans = sentence_spans(text)
    covered = [False] * len(text)
    previous = 0
    for start, end in spans:
        assert previous <= start < end <= len(text)
        assert text[start:end] == text[start:end].strip()
        covered[start:end] = [True] * (end - start)
        previous = end
    assert all(covered[i] for i, c in enumerate(text) if not c.isspace())
