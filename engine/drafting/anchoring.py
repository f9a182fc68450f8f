"""Quote anchors (the Embedding-Free RAG paper, its Algorithms 1–2).

The generator returns word-for-word quotes; each is mapped back to the source text it came
from, so the review screen can highlight exactly that text and nothing else.

A ``QuoteAnchorer`` indexes one document's units (PDF pages, DOCX sections, sheet rows) once:
its sentences with character offsets, its words with offsets, and an inverted index from
word to sentences. ``anchor(quote)`` then

1. looks for the quote verbatim, with only whitespace normalised → ``verified``;
2. otherwise picks candidate sentences by the inverse document frequency of the words they
   share with the quote, aligns the quote inside each candidate (with the sentences around
   it, since a quote may run over a sentence or page break) with RapidFuzz's
   ``partial_ratio_alignment`` on lower-cased words without punctuation, snaps the alignment
   to word boundaries and scores it with the normalised Levenshtein (Indel) ratio of the
   quote and the matched text → ``repaired`` at or above ``cutoff``, else ``unverified``.
   An unverified anchor has no spans: it is never highlighted.

Page headers and footers (edge lines repeated on many pages, numbers aside) are left out of
matching, so a quote that runs over a page break is found with them skipped, and its spans
(one per page) cover only the quoted text. ``skip_furniture=False`` keeps them.

Offsets are kept, never re-searched: for every span ``units[s.unit].text[s.start:s.end]`` is
the matched source text (a match over a page break has one span per page). The matched
sentences are widened by ``window`` sentences on each side, and ``windows()`` merges the
overlapping windows of several anchors (Algorithm 2). ``rects_for`` turns a span of a PDF
page into highlight rectangles from PyMuPDF's character boxes, one per line.

``bench quotes`` measures it; ``CUTOFF`` was chosen there (see engine/bench/quotes.py).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from enum import Enum
from itertools import accumulate
from typing import Iterable, Sequence

import numpy as np
from rapidfuzz import fuzz

from engine.core.types import Unit
from engine.index.chunking import PAGE_SEPARATOR
from engine.index.sentences import WORD, page_furniture, sentence_spans

# Indel ratio (0–100) a repaired quote must reach. Measured on the 14 PDFs of ../shared/data
# (3,000 perturbed quotes, 3,000 negatives, seed 1): cutoff 75 → 100 % right, 0.40 % false
# anchors; 80 → 99.97 %, 0.20 %; 85 → 99.73 %, 0.07 %; 90 → 99.07 %, 0.03 %. A wrong
# highlight is worse than none, so the default keeps a wide margin below the 0.5 % target.
CUTOFF = 85.0
CANDIDATES = 6  # sentences aligned per quote, best shared-word IDF first
PRUNE = 30.0  # word-level alignments this far below the cutoff (or the best) are not refined
MIN_QUOTE_WORDS = 3  # "a", "the policy": found everywhere, support nothing; never verified

_TOKEN = re.compile(r"\S+")  # whitespace-separated tokens: the "verified" form


class AnchorLabel(str, Enum):
    VERIFIED = "verified"  # verbatim in the source, up to whitespace
    REPAIRED = "repaired"  # matched after normalising case, punctuation, a word or two
    UNVERIFIED = "unverified"  # no source text close enough: never highlighted


@dataclass(frozen=True)
class SourceSpan:
    """``units[unit].text[start:end]``; ``page`` is that unit's page (None outside PDFs)."""

    unit: int
    page: int | None
    start: int
    end: int


@dataclass(frozen=True)
class Sentence:
    """A sentence of one unit, ``units[unit].text[start:end]``."""

    unit: int
    page: int | None
    start: int
    end: int


@dataclass(frozen=True)
class Anchor:
    """Where a quote sits in the source.

    ``spans``: the matched source text, one span per unit it covers (empty when unverified).
    ``sentence``: index of the sentence holding most of the match; ``sentences``: first and
    last sentence the match touches; ``window``: those widened by the anchorer's window.
    ``score``: 0–100, the Indel ratio of the normalised quote and the matched text (100 for
    verified quotes; for an unverified one, the best score that was found).
    """

    quote: str
    label: AnchorLabel
    score: float
    spans: tuple[SourceSpan, ...] = ()
    matched_text: str = ""
    sentence: int | None = None
    sentences: tuple[int, int] | None = None
    window: tuple[int, int] | None = None

    @property
    def page(self) -> int | None:
        """The page a citation shows: where most of the matched text is."""
        if not self.spans:
            return None
        return max(self.spans, key=lambda s: s.end - s.start).page

    @property
    def highlighted(self) -> bool:
        return self.label is not AnchorLabel.UNVERIFIED


@dataclass(frozen=True)
class Window:
    """Merged sentence windows (Algorithm 2): sentences ``first..last`` and the anchors in them."""

    first: int
    last: int
    spans: tuple[SourceSpan, ...]
    text: str
    anchors: tuple[int, ...]  # positions in the list given to ``windows``


class QuoteAnchorer:
    """Anchors quotes in one document. Build once per document; ``anchor`` is fast."""

    def __init__(
        self, units: Sequence[Unit], *, cutoff: float = CUTOFF, window: int = 1, skip_furniture: bool = True
    ) -> None:
        if not 0 <= cutoff <= 100:
            raise ValueError(f"cutoff {cutoff} is outside 0–100; use a score such as {CUTOFF}")
        if window < 0:
            raise ValueError(f"window {window} is negative; use 0 (the matched sentences only) or more")
        self.units = tuple(units)
        self.cutoff, self.window = cutoff, window
        sentences: list[Sentence] = []
        words: list[str] = []
        w_unit: list[int] = []
        w_start: list[int] = []
        w_end: list[int] = []
        w_sent: list[int] = []
        tokens: list[str] = []
        self._t_unit: list[int] = []
        self._t_start: list[int] = []
        self._t_end: list[int] = []
        # page headers and footers: (start, end) of their lines per unit, left out of matching
        self.furniture: dict[int, list[tuple[int, int]]] = page_furniture(self.units) if skip_furniture else {}
        furniture = self.furniture
        for u, unit in enumerate(self.units):
            skip = furniture.get(u, ())
            first = len(sentences)
            sentences += [Sentence(u, unit.page, s, e) for s, e in sentence_spans(unit.text)]
            ends = [s.end for s in sentences[first:]]
            for m in WORD.finditer(unit.text):
                if any(a <= m.start() < b for a, b in skip):
                    continue
                words.append(m.group(0).lower())
                w_unit.append(u)
                w_start.append(m.start())
                w_end.append(m.end())
                w_sent.append(first + min(bisect.bisect_right(ends, m.start()), len(ends) - 1))
            for m in _TOKEN.finditer(unit.text):
                if any(a <= m.start() < b for a, b in skip):
                    continue
                tokens.append(m.group(0))
                self._t_unit.append(u)
                self._t_start.append(m.start())
                self._t_end.append(m.end())
        self.sentences = tuple(sentences)
        # a sentence that is nothing but a page header or footer ("Page 3 of 9") does not count
        # as one of a window's sentences
        self._body = [
            s.unit not in furniture or bool(self._trimmed(s.unit, s.start, s.end, skip=furniture[s.unit]))
            for s in sentences
        ]
        self._words, self._w_unit, self._w_start, self._w_end, self._w_sent = words, w_unit, w_start, w_end, w_sent
        # the loose text: every word, one space apart; _w_pos[i] is where word i starts in it
        self._w_pos = list(accumulate((len(w) + 1 for w in words[:-1]), initial=0)) if words else []
        self._loose = " ".join(words)
        self._t_pos = list(accumulate((len(t) + 1 for t in tokens[:-1]), initial=0)) if tokens else []
        self._collapsed = " ".join(tokens)
        self._s_starts = [(s.unit, s.start) for s in sentences]
        self._s_ends = [(s.unit, s.end) for s in sentences]
        # first word of each sentence, and the inverted index word -> sentences with its IDF
        self._s_first = [0] * len(sentences)
        self._s_last = [-1] * len(sentences)
        postings: dict[str, list[int]] = {}
        for i, (w, s) in enumerate(zip(words, w_sent)):
            if self._s_last[s] < 0:
                self._s_first[s] = i
            self._s_last[s] = i
            ids = postings.setdefault(w, [])
            if not ids or ids[-1] != s:
                ids.append(s)
        n = max(len(sentences), 1)
        self._s_words = np.asarray([b - a + 1 for a, b in zip(self._s_first, self._s_last)], dtype=float)
        self._postings = {w: np.asarray(ids, dtype=np.int32) for w, ids in postings.items()}
        self._vocab = {w: i for i, w in enumerate(postings)}
        self._ids = [self._vocab[w] for w in words]
        self._idf = {w: float(np.log(1 + n / len(ids))) for w, ids in postings.items()}

    # ---- matching ----------------------------------------------------------------------

    def anchor(self, quote: str, *, page: int | None = None) -> Anchor:
        """Anchor one quote. ``page``: where the caller expects it (e.g. the Document Page
        Finder's page); among equally good matches, the one nearest that page wins."""
        if len(WORD.findall(quote)) < MIN_QUOTE_WORDS:
            return Anchor(quote, AnchorLabel.UNVERIFIED, 0.0)
        verified = self._verbatim(quote, page)
        if verified is not None:
            return verified
        qwords = [w.lower() for w in WORD.findall(quote)]
        if not qwords or not self._words:
            return Anchor(quote, AnchorLabel.UNVERIFIED, 0.0)
        q = " ".join(qwords)
        qids = [self._vocab.get(w, -1 - i) for i, w in enumerate(qwords)]  # unknown words match nothing
        best: tuple[float, float, int, int] | None = None  # (score, -distance, first, last word)
        seen = 0.0
        for a, b in self._regions(qwords):
            # align word by word (fast, and the match starts and ends on words), then score characters
            found = fuzz.partial_ratio_alignment(qids, self._ids[a : b + 1])
            seen = max(seen, found.score)
            if found.score < self.cutoff - PRUNE or (best is not None and found.score < best[0] - PRUNE):
                continue  # cannot reach the cutoff or the best so far: not worth refining
            score, first, last = self._refine(q, a + found.dest_start, a + max(found.dest_end - 1, found.dest_start))
            key = (score, -self._distance(first, page), first, last)
            if best is None or key[:2] > best[:2]:
                best = key
            if score == 100 and page is None:
                break
        if best is None:
            return Anchor(quote, AnchorLabel.UNVERIFIED, round(seen, 2))
        score, _, first, last = best
        if score < self.cutoff:
            return Anchor(quote, AnchorLabel.UNVERIFIED, round(score, 2))
        spans = self._pieces(
            self._w_unit, self._w_start, self._w_end, first, last, self._w_start[first], self._w_end[last]
        )
        counts = np.bincount(self._w_sent[first : last + 1])
        return self._anchor(
            quote,
            AnchorLabel.REPAIRED,
            round(score, 2),
            spans,
            int(np.argmax(counts)),
            self._w_sent[first],
            self._w_sent[last],
        )

    def anchor_many(self, quotes: Iterable[str], *, page: int | None = None) -> list[Anchor]:
        return [self.anchor(q, page=page) for q in quotes]

    def _verbatim(self, quote: str, page: int | None) -> Anchor | None:
        q = " ".join(quote.split())
        if not q:
            return None
        hits: list[int] = []
        at = self._collapsed.find(q)
        while at >= 0 and len(hits) < 50:
            hits.append(at)
            at = self._collapsed.find(q, at + 1)
        if not hits:
            return None
        at = min(hits, key=lambda h: self._distance_page(self._t_unit[bisect.bisect_right(self._t_pos, h) - 1], page))
        k0 = bisect.bisect_right(self._t_pos, at) - 1
        k1 = bisect.bisect_right(self._t_pos, at + len(q) - 1) - 1
        start = self._t_start[k0] + at - self._t_pos[k0]
        end = self._t_start[k1] + at + len(q) - self._t_pos[k1]
        spans = self._pieces(self._t_unit, self._t_start, self._t_end, k0, k1, start, end)
        (u0, start), (u1, end) = (spans[0].unit, spans[0].start), (spans[-1].unit, spans[-1].end)
        touched = range(bisect.bisect_right(self._s_ends, (u0, start)), bisect.bisect_left(self._s_starts, (u1, end)))
        if not touched:  # only punctuation between sentences
            return Anchor(quote, AnchorLabel.VERIFIED, 100.0, spans, self._text(spans))
        main = max(touched, key=lambda i: self._overlap(self.sentences[i], spans))
        return self._anchor(quote, AnchorLabel.VERIFIED, 100.0, spans, main, touched[0], touched[-1])

    def _regions(self, qwords: list[str]) -> list[tuple[int, int]]:
        """Word ranges to align the quote in: each candidate sentence with as many words on
        either side as the quote has, candidates by the IDF of the words shared with it."""
        present = [w for w in set(qwords) if w in self._postings]
        if not present:
            return []
        ids = np.concatenate([self._postings[w] for w in present])
        weights = np.repeat([self._idf[w] for w in present], [len(self._postings[w]) for w in present])
        # ties (every quote word present) go to the shorter sentence: a page header alone
        # rather than the header run together with the body text under it
        scores = np.bincount(ids, weights, minlength=len(self.sentences)) - 1e-4 * self._s_words
        top = np.argpartition(-scores, CANDIDATES)[:CANDIDATES] if len(scores) > CANDIDATES else np.arange(len(scores))
        top = sorted(top, key=lambda s: -scores[s])
        n, last = len(qwords), len(self._words) - 1
        regions = []
        for s in top:
            if scores[s] <= 0 or self._s_last[s] < 0:
                continue
            regions.append((max(0, self._s_first[s] - n), min(last, self._s_last[s] + n)))
        return regions

    def _refine(self, q: str, first: int, last: int) -> tuple[float, int, int]:
        """Move the ends of an alignment by up to two words to the best Indel ratio."""
        best = (-1.0, first, last)
        top = len(self._words) - 1
        for a in range(max(0, first - 2), min(top, first + 2) + 1):
            for b in range(max(a, last - 2), min(top, last + 2) + 1):
                score = fuzz.ratio(
                    q, self._loose[self._w_pos[a] : self._w_pos[b] + len(self._words[b])], score_cutoff=best[0]
                )
                if score > best[0]:
                    best = (score, a, b)
        return best

    def _word_at(self, pos: int) -> int:
        return max(0, bisect.bisect_right(self._w_pos, pos) - 1)

    def _distance(self, word: int, page: int | None) -> int:
        return self._distance_page(self._w_unit[word], page)

    def _distance_page(self, unit: int, page: int | None) -> int:
        found = self.units[unit].page
        return 0 if page is None or found is None else abs(found - page)

    # ---- spans, windows, rects -----------------------------------------------------------

    def _pieces(self, units, starts, ends, first: int, last: int, start: int, end: int) -> tuple[SourceSpan, ...]:
        """Spans of the words (or tokens) ``first..last``, one per unit: from the first to the
        last of them on that unit, so headers and footers between two pages are left out.
        ``start`` and ``end`` are the exact offsets of the ends (inside the first and last)."""
        bounds: dict[int, list[int]] = {}
        for i in range(first, last + 1):
            b = bounds.setdefault(units[i], [starts[i], ends[i]])
            b[1] = ends[i]
        bounds[units[first]][0], bounds[units[last]][1] = start, end
        return tuple(SourceSpan(u, self.units[u].page, a, b) for u, (a, b) in bounds.items())

    def _spans(self, u0: int, start: int, u1: int, end: int) -> tuple[SourceSpan, ...]:
        """The text from ``start`` on unit ``u0`` to ``end`` on unit ``u1``, without the page
        headers and footers on the way (a window over a page break is outlined on the body lines)."""
        spans = []
        for u in range(u0, u1 + 1):
            text = self.units[u].text
            s = start if u == u0 else 0
            e = end if u == u1 else len(text)
            spans += self._trimmed(u, s, e, skip=self.furniture.get(u, ()))
        return tuple(spans)

    def _trimmed(self, u: int, s: int, e: int, skip: Sequence[tuple[int, int]] = ()) -> list[SourceSpan]:
        """Unit ``u``'s text from ``s`` to ``e`` without the ranges in ``skip``, as spans
        stripped of surrounding whitespace (none when nothing but whitespace is left)."""
        cuts = [bound for a, b in sorted(skip) if a < e and b > s for bound in (a, b)]
        bounds = [s, *cuts, e]  # the pieces kept: s..a1, b1..a2, …, bn..e
        out = []
        for lo, hi in zip(bounds[::2], bounds[1::2]):
            piece = self.units[u].text[lo:hi]
            lo, hi = lo + len(piece) - len(piece.lstrip()), lo + len(piece.rstrip())
            if hi > lo:
                out.append(SourceSpan(u, self.units[u].page, lo, hi))
        return out

    def text_of(self, spans: Sequence[SourceSpan]) -> str:
        """The source text of ``spans``, one page (or unit) after the other."""
        return PAGE_SEPARATOR.join(self.units[s.unit].text[s.start : s.end] for s in spans)

    _text = text_of

    @staticmethod
    def _overlap(sentence: Sentence, spans: Sequence[SourceSpan]) -> int:
        return sum(
            max(0, min(sentence.end, s.end) - max(sentence.start, s.start)) for s in spans if s.unit == sentence.unit
        )

    def _widen(self, first: int, last: int, w: int) -> tuple[int, int]:
        """Sentences ``first..last`` and ``w`` more body sentences on each side."""
        lo, hi, n = first, last, 0
        while lo > 0 and n < w:
            lo -= 1
            n += self._body[lo]
        n = 0
        while hi < len(self.sentences) - 1 and n < w:
            hi += 1
            n += self._body[hi]
        return lo, hi

    def _anchor(self, quote: str, label: AnchorLabel, score: float, spans, main: int, first: int, last: int) -> Anchor:
        window = self._widen(first, last, self.window)
        return Anchor(quote, label, score, spans, self._text(spans), main, (first, last), window)

    def sentence_text(self, index: int) -> str:
        s = self.sentences[index]
        return self.units[s.unit].text[s.start : s.end]

    def window_spans(self, first: int, last: int) -> tuple[SourceSpan, ...]:
        """The source text of sentences ``first..last``, one span per unit."""
        a, b = self.sentences[first], self.sentences[last]
        return self._spans(a.unit, a.start, b.unit, b.end)

    def windows(self, anchors: Sequence[Anchor], window: int | None = None) -> list[Window]:
        """Algorithm 2: widen each highlighted anchor's sentences by ``window`` sentences on
        each side (default: the anchorer's), then merge windows that overlap or touch."""
        w = self.window if window is None else window
        ranges = sorted(
            (*self._widen(*a.sentences, w), i)
            for i, a in enumerate(anchors)
            if a.highlighted and a.sentences is not None
        )
        merged: list[list] = []
        for first, last, i in ranges:
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
                merged[-1][2].append(i)
            else:
                merged.append([first, last, [i]])
        out = []
        for first, last, ids in merged:
            spans = self.window_spans(first, last)
            out.append(Window(first, last, spans, self._text(spans), tuple(sorted(ids))))
        return out

    def rects(self, pdf, spans: Sequence[SourceSpan]) -> list[tuple[int, float, float, float, float]]:
        """Highlight rectangles of ``spans`` (an anchor's or a window's) in ``pdf``."""
        if not spans:
            return []
        doc, own = _open(pdf)
        try:
            return [
                r
                for s in spans
                if s.page is not None
                for r in rects_for(doc, s.page, self.units[s.unit].text, s.start, s.end)
            ]
        finally:
            if own:
                doc.close()


def _open(pdf):
    import pymupdf

    if isinstance(pdf, pymupdf.Document):
        return pdf, False
    return pymupdf.open(pdf), True


def rects_for(pdf, page: int, unit_text: str, start: int, end: int) -> list[tuple[int, float, float, float, float]]:
    """Rectangles ``(page, x0, y0, x1, y1)`` (PDF points, top-left origin, 1-based page) that
    cover ``unit_text[start:end]`` on ``page``, one per line the span touches.

    ``unit_text`` is the page text as ingested (``page.get_text()``). Each of its characters
    is paired with the box of the same character in PyMuPDF's ``rawdict`` (which lists the
    page text character by character, lines in the same order); where the two differ, only
    characters in equal runs are paired, so a character is never boxed at a wrong place.
    ``pdf`` is a path or an open ``pymupdf.Document``.
    """
    import pymupdf

    doc, own = _open(pdf)
    try:
        raw = doc[page - 1].get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)
    finally:
        if own:
            doc.close()
    chars: list[str] = []
    boxes: list[tuple | None] = []  # (line number, bbox) of each character of the rebuilt text
    line_no = 0
    for block in raw["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                for c in span["chars"]:
                    chars.append(c["c"])
                    boxes.append((line_no, c["bbox"]))
            chars.append("\n")
            boxes.append(None)
            line_no += 1
    rebuilt = "".join(chars)
    if rebuilt == unit_text:
        mapped = boxes[start:end]
    else:
        from rapidfuzz.distance import Indel

        index: dict[int, int] = {}
        for op in Indel.opcodes(rebuilt, unit_text):
            if op.tag == "equal":
                index.update(zip(range(op.dest_start, op.dest_end), range(op.src_start, op.src_end)))
        mapped = [boxes[index[i]] if i in index else None for i in range(start, end)]
    lines: dict[int, list[float]] = {}
    for i, box in enumerate(mapped):
        if box is None or unit_text[start + i].isspace():
            continue
        n, (x0, y0, x1, y1) = box
        r = lines.setdefault(n, [x0, y0, x1, y1])
        r[0], r[1], r[2], r[3] = min(r[0], x0), min(r[1], y0), max(r[2], x1), max(r[3], y1)
    return [(page, *r) for _, r in sorted(lines.items())]


def anchor(
    quote: str, units: Sequence[Unit], *, window: int = 1, cutoff: float = CUTOFF, page: int | None = None
) -> Anchor:
    """One-off anchoring (builds the index each call; keep a ``QuoteAnchorer`` for many)."""
    return QuoteAnchorer(units, cutoff=cutoff, window=window).anchor(quote, page=page)
