"""The vector records the index makes and the stores keep: ``SparseVector`` (a BM25/TF-IDF row:
indices and weights) and ``PointVectors`` (every vector of one chunk or question, one per
retrieval mode). The encoders that make them are in engine/index/embed/; the stores that keep
them (storage/vector_store.py, storage/lexical_index.py) import only this, so storage stays
below the engine's feature packages."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SparseVector:
    indices: list[int]
    values: list[float]


@dataclass(frozen=True)
class PointVectors:
    """Every vector of one chunk or one question, one per retrieval mode."""

    dense: np.ndarray
    paper: np.ndarray
    concat: np.ndarray
    sparse: SparseVector
