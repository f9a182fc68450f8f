"""Lexical side of retrieval, fitted on the knowledge base's chunk texts.

* TF-IDF (lower-case, English stop words, l2-normalised rows) reduced by truncated SVD to
  ``p = min(terms, dense dim)`` components (Eq. 1–2 of the RFP paper); the reduced rows are
  l2-normalised and zero-padded to the dense dimension so they can be mixed with dense
  vectors (Eq. 3) or concatenated.
* BM25 weights for Qdrant's native sparse vectors: a document carries the saturated,
  length-normalised term weight times idf; a query carries ``1/max`` per term, where ``max``
  is the best BM25 score the query could reach (Σ idf·(k1+1) over its terms), so a dot
  product is the BM25 score scaled into [0, 1] and can be weighed against a cosine.

Terms: lower-cased words, English stop words removed, Snowball-stemmed (one analyzer for
TF-IDF and BM25). k1 = 0.9, b = 0.4 (Anserini's defaults); on SQuAD dev stemming and these
parameters add about 1.5 points of BM25 R@1 over unstemmed k1 = 1.2, b = 0.75.

Persisted without pickle: ``params.json`` (parameters + format version), ``vocabulary.json``
(term → column), ``df.npy`` (document frequencies) and ``components.npy`` (SVD).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np
import scipy.sparse as sp

from engine.core.files import write_atomic
from engine.core.vectors import SparseVector

# scikit-learn is imported where it is used: with SciPy's stats and pandas it is ≈ 2 s of CPU that a
# command which reads no index (a refusal, `kb list`, `restore`, the review commands) never needs.
if TYPE_CHECKING:
    from sklearn.feature_extraction.text import CountVectorizer

FORMAT_VERSION = 1
ANALYZER = "words-lower-english_stop-snowball_en"


@dataclass(frozen=True)
class SparseParams:
    dim: int  # dense dimension the SVD output is padded to
    n_docs: int
    avgdl: float
    k1: float = 0.9
    b: float = 0.4
    analyzer: str = ANALYZER
    version: int = FORMAT_VERSION


class _StemmedWords:
    """Lower-cased words without English stop words, Snowball-stemmed (memoised)."""

    def __init__(self) -> None:
        from nltk.stem.snowball import SnowballStemmer
        from sklearn.feature_extraction.text import CountVectorizer

        self.words = CountVectorizer(lowercase=True, stop_words="english").build_analyzer()
        self.stem = SnowballStemmer("english").stem
        self.cache: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        cache, out = self.cache, []
        for word in self.words(text):
            stem = cache.get(word)
            if stem is None:
                stem = cache[word] = self.stem(word)
            out.append(stem)
        return out


_analyzer: _StemmedWords | None = None


def analyzer() -> _StemmedWords:
    global _analyzer
    if _analyzer is None:
        _analyzer = _StemmedWords()
    return _analyzer


def _vectorizer(vocabulary: dict[str, int] | None = None) -> CountVectorizer:
    from sklearn.feature_extraction.text import CountVectorizer

    return CountVectorizer(analyzer=analyzer(), vocabulary=vocabulary, dtype=np.float32)


def _l2_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


class SparseModel:
    """TF-IDF/SVD and BM25 over a fixed vocabulary. Build with :meth:`fit` or :meth:`load`."""

    def __init__(self, vocabulary: dict[str, int], df: np.ndarray, components: np.ndarray, params: SparseParams):
        self.vocabulary = vocabulary
        self.df = df.astype(np.float32)
        self.components = components.astype(np.float32)  # (r, terms), r ≤ min(terms, dim)
        self.params = params
        self._counter = _vectorizer(vocabulary)
        n = params.n_docs
        self.idf = (np.log((1.0 + n) / (1.0 + self.df)) + 1.0).astype(np.float32)  # sklearn's smooth idf
        self.bm25_idf = np.log(1.0 + (n - self.df + 0.5) / (self.df + 0.5)).astype(np.float32)

    # ---- fitting ---------------------------------------------------------------------------
    @classmethod
    def fit(cls, texts: Sequence[str], dim: int, seed: int = 0) -> SparseModel:
        if not texts:
            raise ValueError("cannot fit TF-IDF on an empty corpus")
        counter = _vectorizer()
        try:
            counts = counter.fit_transform(texts)
        except ValueError:  # nothing but stop words and symbols: an empty vocabulary
            counts = sp.csr_matrix((len(texts), 0), dtype=np.float32)
            counter.vocabulary_ = {}
        vocabulary = {term: int(i) for term, i in counter.vocabulary_.items()}
        df = np.bincount(counts.indices, minlength=counts.shape[1]).astype(np.float32)
        lengths = np.asarray(counts.sum(axis=1)).ravel()
        params = SparseParams(dim=dim, n_docs=len(texts), avgdl=float(max(lengths.mean(), 1.0)))
        empty = np.zeros((0, counts.shape[1]), dtype=np.float32)
        model = cls(vocabulary, df, empty, params)
        tfidf = model._tfidf(counts)
        model.components = _svd_components(tfidf, p=min(counts.shape[1], dim), seed=seed)
        return model

    # ---- encodings -------------------------------------------------------------------------
    def _counts(self, texts: Sequence[str]) -> sp.csr_matrix:
        if not self.vocabulary:
            return sp.csr_matrix((len(texts), 0), dtype=np.float32)
        return self._counter.transform(texts).tocsr()

    def _tfidf(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        tfidf = counts.multiply(self.idf[np.newaxis, :]).tocsr()
        norms = np.sqrt(np.asarray(tfidf.multiply(tfidf).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        return sp.csr_matrix(sp.diags(1.0 / norms) @ tfidf, dtype=np.float32)

    def svd(self, texts: Sequence[str]) -> np.ndarray:
        """Reduced TF-IDF rows, l2-normalised, zero-padded to ``params.dim`` (float32)."""
        reduced = np.asarray(self._tfidf(self._counts(texts)) @ self.components.T, dtype=np.float32)
        out = np.zeros((reduced.shape[0], self.params.dim), dtype=np.float32)
        out[:, : reduced.shape[1]] = _l2_rows(reduced)
        return out

    def bm25_passages(self, texts: Sequence[str]) -> list[SparseVector]:
        counts = self._counts(texts)
        p = self.params
        lengths = np.asarray(counts.sum(axis=1)).ravel()
        out: list[SparseVector] = []
        for i in range(counts.shape[0]):
            start, end = counts.indptr[i], counts.indptr[i + 1]
            cols, tf = counts.indices[start:end], counts.data[start:end]
            norm = p.k1 * (1.0 - p.b + p.b * lengths[i] / p.avgdl)
            weights = self.bm25_idf[cols] * tf * (p.k1 + 1.0) / (tf + norm)
            out.append(SparseVector(cols.tolist(), weights.astype(np.float32).tolist()))
        return out

    def bm25_query(self, text: str) -> SparseVector:
        """1/max per distinct query term (see the module docstring)."""
        cols = np.unique(self._counts([text]).indices)
        best = float(self.bm25_idf[cols].sum() * (self.params.k1 + 1.0))
        if best <= 0:
            return SparseVector([], [])
        return SparseVector(cols.tolist(), [1.0 / best] * len(cols))

    # ---- persistence -----------------------------------------------------------------------
    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / "vocabulary.json", json.dumps(self.vocabulary))
        write_atomic(folder / "df.npy", lambda f: np.save(f, self.df))
        write_atomic(folder / "components.npy", lambda f: np.save(f, self.components))
        write_atomic(folder / "params.json", json.dumps(asdict(self.params), indent=1))

    @classmethod
    def load(cls, folder: Path) -> SparseModel:
        params = SparseParams(**json.loads((folder / "params.json").read_text(encoding="utf-8")))
        if params.version != FORMAT_VERSION or params.analyzer != ANALYZER:
            raise ValueError(
                f"{folder}: TF-IDF model format {params.version}, this engine reads {FORMAT_VERSION}; "
                "re-index the knowledge base (python -m engine kb reindex)"
            )
        vocabulary = json.loads((folder / "vocabulary.json").read_text(encoding="utf-8"))
        return cls(vocabulary, np.load(folder / "df.npy"), np.load(folder / "components.npy"), params)


def _svd_components(tfidf: sp.csr_matrix, p: int, seed: int) -> np.ndarray:
    """Top right singular vectors of the TF-IDF matrix: at most ``p`` rows, fewer when the
    corpus has lower rank (a small corpus has no more components than chunks)."""
    rows, cols = tfidf.shape
    rank_bound = min(rows, cols, p)
    if rank_bound == 0:
        return np.zeros((0, cols), dtype=np.float32)
    if min(rows, cols) <= p:  # small corpus: the exact SVD of a thin matrix is cheap
        _, s, vt = np.linalg.svd(tfidf.toarray(), full_matrices=False)
        keep = min(rank_bound, int((s > 1e-6 * max(float(s[0]), 1e-12)).sum()))
        return vt[:keep].astype(np.float32)
    from sklearn.utils.extmath import randomized_svd

    _, _, vt = randomized_svd(tfidf, n_components=rank_bound, n_iter=5, random_state=seed)
    return vt.astype(np.float32)


def sparse_dim_note(model: SparseModel) -> str:
    return f"{len(model.vocabulary)} terms, {model.components.shape[0]} SVD components (padded to {model.params.dim})"
