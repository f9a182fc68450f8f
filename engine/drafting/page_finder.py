"""Document Page Finder (Algorithm 1 of the RFP paper).

For a chunk — or any text — from a PDF, fit TF-IDF on that file's pages and return the page
with the highest cosine to the text, with the runner-up. A dense baseline (page vectors from
the same embedder) exists for the benchmark.

Two refinements over the paper's bag of words, both measured with ``bench page-finder``:
word uni- and bigrams with sublinear tf, and a re-ranking of the best TF-IDF candidates by
how many of the text's word trigrams each page holds (alone, or together with a neighbouring
page, for text that runs over a page break). Reports and scanned forms repeat whole
blocks page after page; word order tells those pages apart where word counts cannot.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from engine.core.types import PageMatch, Unit

CANDIDATES = 5  # TF-IDF pages re-ranked by trigram overlap
_WORD = re.compile(r"\w+")


def _trigrams(text: str) -> frozenset[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    if len(words) < 3:
        return frozenset([tuple(words)]) if words else frozenset()
    return frozenset(zip(words, words[1:], words[2:]))


def _match(order: Sequence[int], scores: np.ndarray, numbers: Sequence[int]) -> PageMatch:
    best = order[0]
    if len(order) == 1:
        return PageMatch(numbers[best], float(scores[best]))
    second = order[1]
    return PageMatch(numbers[best], float(scores[best]), numbers[second], float(scores[second]))


class PageFinder:
    """TF-IDF over one document's pages. ``pages`` are the PDF's page units (with text)."""

    def __init__(self, pages: Sequence[Unit]) -> None:
        units = [u for u in pages if u.page is not None and u.text.strip()]
        if not units:
            raise ValueError("the page finder needs at least one page with text")
        self.numbers = [int(u.page) for u in units]
        texts = [u.text for u in units]
        # deferred: scikit-learn (with SciPy, ≈ 1-2 s) is paid by the commands that locate pages, not by every
        # command that imports the drafting package (review, library, profile, …)
        from sklearn.feature_extraction.text import TfidfVectorizer  # noqa: PLC0415

        self.vectorizer = TfidfVectorizer(
            lowercase=True, token_pattern=r"(?u)\b\w+\b", ngram_range=(1, 2), sublinear_tf=True
        )
        try:
            self.matrix = self.vectorizer.fit_transform(texts)
        except ValueError:  # pages with no words at all (only symbols)
            self.vectorizer = TfidfVectorizer(lowercase=True, analyzer="char_wb", ngram_range=(2, 4))
            self.matrix = self.vectorizer.fit_transform(texts)
        self.trigrams = [_trigrams(t) for t in texts]

    def locate(self, text: str) -> PageMatch:
        """The page that best holds ``text``, and the runner-up."""
        return self.locate_many([text])[0]

    def locate_many(self, texts: Sequence[str]) -> list[PageMatch]:
        scores = (self.vectorizer.transform(texts) @ self.matrix.T).toarray()
        return [self._rank(text, row) for text, row in zip(texts, scores)]

    def _rank(self, text: str, scores: np.ndarray) -> PageMatch:
        by_tfidf = [int(i) for i in np.argsort(-scores, kind="stable")]
        wanted = _trigrams(text)
        if not wanted:
            return _match(by_tfidf, scores, self.numbers)
        head = by_tfidf[:CANDIDATES]

        def overlap(i: int) -> tuple[float, float]:
            own = len(wanted & self.trigrams[i])
            spread = max(
                (
                    len(wanted & (self.trigrams[i] | self.trigrams[j]))
                    for j in (i - 1, i + 1)
                    if 0 <= j < len(self.trigrams)
                ),
                default=own,
            )
            return (max(own, spread) / len(wanted), own / len(wanted))

        ranked = sorted(head, key=overlap, reverse=True)  # stable: ties keep the TF-IDF order
        return _match(ranked + by_tfidf[CANDIDATES:], scores, self.numbers)


class DensePageFinder:
    """The dense baseline: cosine between the text's and each page's embedding."""

    def __init__(self, pages: Sequence[Unit], encoder) -> None:
        units = [u for u in pages if u.page is not None and u.text.strip()]
        self.numbers = [int(u.page) for u in units]
        self.encoder = encoder
        self.matrix = encoder.encode_passages([u.text for u in units])

    def locate_many(self, texts: Sequence[str]) -> list[PageMatch]:
        scores = self.encoder.encode_passages(list(texts)) @ self.matrix.T
        return [_match([int(i) for i in np.argsort(-row, kind="stable")], row, self.numbers) for row in scores]
