"""Top-k retrieval over the knowledge base in any of the hybrid modes."""

from __future__ import annotations

import numpy as np

from engine.config import Mode, Strategy
from engine.embed.hybrid import PointVectors, WeightedQuery, query_vectors, weighted_query
from engine.kb import KnowledgeBase
from engine.types import Chunk, Hit
from storage.lexical_index import LexicalIndex
from storage.vector_store import FUSION_DEPTH, Scored, VectorIndex


def search(kb: KnowledgeBase, question: str, top_k: int | None = None, mode: Mode | Strategy | str | None = None) -> list[Hit]:
    """The ``top_k`` chunks that best answer ``question``, best first, with provenance. A
    ``Strategy`` (summary, atoms…) is retrieved by engine/summary_rag.py."""
    question = question.strip()
    if not question:
        raise ValueError("the question is empty; type the question to search for")
    strategy = Strategy.of(mode or kb.config.mode)
    mode = Mode.parse(mode or kb.config.mode) if strategy is None else None
    top_k = top_k or kb.config.top_k
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1 (got {top_k})")
    kb.check_compatible()
    if strategy is not None:
        from engine.summary_rag import retrieve

        return list(retrieve(kb, question, top_k, strategy).hits)
    index, sparse = kb.index, kb.sparse
    dense = kb.encoder.encode_query(question)
    if mode is Mode.WEIGHTED:
        scored = weighted(index, kb.lexical, weighted_query(question, dense, sparse), top_k, kb.alpha)
    else:
        scored = index.search(mode, query_vectors(question, dense, sparse, kb.alpha), top_k)
    return [Hit(Chunk.from_dict(s.payload), s.score) for s in scored]


def weighted(
    index: VectorIndex, lexical: LexicalIndex, query: WeightedQuery | PointVectors, top_k: int, alpha: float
) -> list[Scored]:
    """α·cos_dense + (1−α)·BM25/BM25max over the union of the best dense and the best BM25
    candidates, both scores exact for every candidate."""
    depth = max(FUSION_DEPTH, top_k)
    dense = dict(index.dense_candidates(query.dense, depth))
    lexical_scores = lexical.scores(query.sparse)
    best_lexical = np.argsort(-lexical_scores)[:depth]
    row = lexical.rows
    lexical_only = [lexical.ids[i] for i in best_lexical if lexical_scores[i] > 0 and lexical.ids[i] not in dense]
    for pid, vector in index.dense_vectors(lexical_only).items():
        dense[pid] = float(vector @ query.dense)
    fused = {pid: alpha * cos + (1.0 - alpha) * float(lexical_scores[row[pid]]) for pid, cos in dense.items()}
    best = sorted(fused, key=fused.get, reverse=True)[:top_k]
    payloads = index.payloads(best)
    return [Scored(payloads[pid], fused[pid]) for pid in best]
