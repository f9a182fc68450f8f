"""Top-k chunks over the knowledge base in one of the hybrid modes (``engine.core.config.Mode``:
dense, paper, concat, sparse, weighted), optionally within a scope (engine/core/scopes.py): the
documents outside it are masked inside the search, never fetched and dropped afterwards. The one
entry point that also takes the strategies (summary, atoms…) is engine/retrieval/retrieve.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from engine.core.config import Mode
from engine.core.scopes import ScopeFilter
from engine.core.types import Chunk, DocumentInfo, Hit
from engine.core.vectors import PointVectors
from engine.index.embed.hybrid import WeightedQuery, query_vectors, weighted_query
from engine.index.embed.question import QuestionVectors
from engine.index.kb import KnowledgeBase, point_ids
from storage.lexical_index import LexicalIndex
from storage.vector_store import FUSION_DEPTH, Scored, VectorIndex


@dataclass(frozen=True)
class Within:
    """The documents a search may return, as each side of the search filters them: their hashes
    (the vector store's payload ``doc_hash``) and their rows of the lexical index."""

    doc_hashes: frozenset[str]
    rows: np.ndarray  # bool per lexical row

    @classmethod
    def of(cls, docs: Sequence[DocumentInfo], lexical: LexicalIndex) -> Within:
        return cls(frozenset(d.doc_hash for d in docs), lexical.mask(point_ids(d.doc_hash, d.chunks) for d in docs))


def search_mode(
    kb: KnowledgeBase, question: QuestionVectors, top_k: int, mode: Mode, scope: ScopeFilter | None = None
) -> list[Hit]:
    """The ``top_k`` chunks that best answer ``question`` in one hybrid ``mode``, best first; with
    ``scope``, only chunks of the documents it allows, masked inside the search. The question and
    ``top_k`` are checked by the caller (engine/retrieval/retrieve.py ``search``)."""
    index, sparse = kb.index, kb.sparse
    allowed = scope.restrict(kb.documents()) if scope is not None else None
    if allowed is not None and not allowed:
        return []
    dense, text = question.dense_for(kb.encoder), question.text
    if mode is Mode.WEIGHTED:
        within = Within.of(allowed, kb.lexical) if allowed is not None else None
        scored = weighted(index, kb.lexical, weighted_query(text, dense, sparse), top_k, kb.alpha, within)
    else:
        hashes = {d.doc_hash for d in allowed} if allowed is not None else None
        scored = index.search(mode, query_vectors(text, dense, sparse, kb.alpha), top_k, hashes)
    return [Hit(Chunk.from_dict(s.payload), s.score) for s in scored]


def weighted(
    index: VectorIndex,
    lexical: LexicalIndex,
    query: WeightedQuery | PointVectors,
    top_k: int,
    alpha: float,
    within: Within | None = None,
) -> list[Scored]:
    """α·cos_dense + (1−α)·BM25/BM25max over the union of the best dense and the best BM25
    candidates, both scores exact for every candidate; only points ``within`` when given."""
    depth = max(FUSION_DEPTH, top_k)
    dense = dict(index.dense_candidates(query.dense, depth, within.doc_hashes if within else None))
    lexical_scores = lexical.scores(query.sparse, within.rows if within else None)
    best_lexical = np.argsort(-lexical_scores)[:depth]
    row = lexical.rows
    lexical_only = [lexical.ids[i] for i in best_lexical if lexical_scores[i] > 0 and lexical.ids[i] not in dense]
    for pid, vector in index.dense_vectors(lexical_only).items():
        dense[pid] = float(vector @ query.dense)
    fused = {pid: alpha * cos + (1.0 - alpha) * float(lexical_scores[row[pid]]) for pid, cos in dense.items()}
    best = sorted(fused, key=fused.get, reverse=True)[:top_k]
    payloads = index.payloads(best)
    return [Scored(payloads[pid], fused[pid]) for pid in best]
