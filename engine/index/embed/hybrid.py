"""Hybrid vectors from a unit dense vector B̂ and a unit (or zero) reduced TF-IDF vector T̂.

The same functions serve passages and questions, so a question is embedded exactly as a
chunk is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from engine.core.vectors import PointVectors, SparseVector
from engine.index.embed.sparse import SparseModel


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float32)


def paper_vectors(dense: np.ndarray, svd: np.ndarray, alpha: float) -> np.ndarray:
    """Eq. 3 of the RFP paper, α·B/‖B‖ + (1−α)·T/‖T‖, scaled to unit length so that a dot
    product is the paper's cosine."""
    return _unit_rows(alpha * dense + (1.0 - alpha) * svd)


def concat_vectors(dense: np.ndarray, svd: np.ndarray, alpha: float) -> np.ndarray:
    """[√α·B̂, √(1−α)·T̂]: the dot product of two such rows is α·cos_B + (1−α)·cos_T."""
    return np.hstack([np.sqrt(alpha) * dense, np.sqrt(1.0 - alpha) * svd]).astype(np.float32)


def passage_vectors(texts: Sequence[str], dense: np.ndarray, sparse: SparseModel, alpha: float) -> list[PointVectors]:
    svd = sparse.svd(texts)
    paper = paper_vectors(dense, svd, alpha)
    concat = concat_vectors(dense, svd, alpha)
    bm25 = sparse.bm25_passages(texts)
    return [PointVectors(dense[i], paper[i], concat[i], bm25[i]) for i in range(len(texts))]


@dataclass(frozen=True)
class WeightedQuery:
    """What the ``weighted`` mode reads of a question: its dense and its BM25 vector (the
    TF-IDF/SVD encoding the other modes need is not computed)."""

    dense: np.ndarray
    sparse: SparseVector


def weighted_query(text: str, dense: np.ndarray, sparse: SparseModel) -> WeightedQuery:
    return WeightedQuery(dense, sparse.bm25_query(text))


def query_vectors(text: str, dense: np.ndarray, sparse: SparseModel, alpha: float) -> PointVectors:
    svd = sparse.svd([text])
    row = dense[np.newaxis, :]
    return PointVectors(
        dense, paper_vectors(row, svd, alpha)[0], concat_vectors(row, svd, alpha)[0], sparse.bm25_query(text)
    )
