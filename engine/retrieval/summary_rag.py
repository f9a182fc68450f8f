"""Summary RAG (the Summary-RAG paper) and the atom modes as retrieval strategies over the
knowledge base (``engine.core.config.Strategy``), and what the prompt gets in each.

``summary``: the question is matched against the summary index (one row per document, scored
like the ``weighted`` mode: α·cos_dense + (1−α)·BM25/BM25max) and the top ``SUMMARY_DOCS``
documents are selected; within them the best passages are chosen by the same weighted score
over their chunks (each selected document's best passage first, then the best of the rest up to
top-k). The prompt gets each selected document's summary (cut to the ``SUMMARY_TOKENS``
sentences that match the question best) and then the passages compacted to the drafting budget:
the dual context of the paper's Table 14 best row. ``summary-only`` and ``content-only`` select
the same documents and passages; the prompt gets the summaries alone, or the passages alone
(the ablation). ``atoms`` / ``atom-questions`` rank chunks by their atoms (and atom questions).
What the prompt is given from them is built by engine/drafting/passages.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from engine.core.config import Strategy
from engine.core.types import Chunk, DocumentInfo, Hit
from engine.index.embed.question import QuestionVectors
from engine.index.kb import point_id
from engine.index.kb_indexes import fused
from engine.index.summaries import Summary

SUMMARY_DOCS = 3  # documents selected by their summaries (k = 3)
SUMMARY_STRATEGIES = (Strategy.SUMMARY, Strategy.SUMMARY_ONLY, Strategy.CONTENT_ONLY)


@dataclass(frozen=True)
class DocumentHit:
    """A document selected by its summary."""

    doc: DocumentInfo
    summary: Summary
    score: float


@dataclass(frozen=True)
class Retrieved:
    """What one question retrieved: passages (chunks), and in the summary strategies the
    documents they were chosen within, with their summaries."""

    hits: tuple[Hit, ...]
    documents: tuple[DocumentHit, ...] = ()
    strategy: Strategy | None = None


def by_strategy(kb, question: QuestionVectors, top_k: int, strategy: Strategy) -> Retrieved:
    """The passages for ``question`` in a ``Strategy`` (summary, summary-only, content-only, atoms,
    atom-questions); a ``Mode`` is searched by engine/retrieval/modes.py, and both are chosen by
    engine/retrieval/retrieve.py."""
    dense, text = question.dense_for(kb.encoder), question.text
    if strategy in (Strategy.ATOMS, Strategy.ATOM_QUESTIONS):
        found = kb.indexes.atom_index(strategy).search(dense, top_k, questions=strategy is Strategy.ATOM_QUESTIONS)
        return Retrieved(tuple(Hit(chunk, score) for chunk, score in found), strategy=strategy)
    documents = select_documents(kb, text, dense, SUMMARY_DOCS)
    return Retrieved(
        tuple(passages_within(kb, text, dense, [d.doc for d in documents], top_k)), tuple(documents), strategy
    )


def select_documents(kb, question: str, dense: np.ndarray, k: int = SUMMARY_DOCS) -> list[DocumentHit]:
    """The ``k`` documents whose summaries match ``question`` best."""
    index = kb.indexes.summary_index()
    return [
        DocumentHit(index.docs[row], index.summaries[row], score)
        for row, score in index.rank(question, dense, kb.alpha, k)
    ]


def passages_within(kb, question: str, dense: np.ndarray, docs: Sequence[DocumentInfo], top_k: int) -> list[Hit]:
    """The best ``top_k`` chunks of ``docs`` by the weighted score (exact over their chunks):
    each document's best chunk first, then the best of the rest; best first."""
    ids = [point_id(d.doc_hash, i) for d in docs for i in range(d.chunks)]
    owner = [j for j, d in enumerate(docs) for _ in range(d.chunks)]
    if not ids:
        return []
    vectors = kb.index.dense_vectors(ids)
    cos = np.array([float(vectors[pid] @ dense) if pid in vectors else -1.0 for pid in ids], dtype=np.float32)
    lexical_all = kb.lexical.scores(kb.sparse.bm25_query(question))
    rows = kb.lexical.rows
    lexical = np.array([float(lexical_all[rows[pid]]) if pid in rows else 0.0 for pid in ids], dtype=np.float32)
    scores = fused(kb.alpha, cos, lexical)
    order = list(np.argsort(-scores, kind="stable"))
    chosen: list[int] = []
    for j in range(len(docs)):  # every selected document contributes its best passage
        best = next((i for i in order if owner[i] == j), None)
        if best is not None and len(chosen) < top_k:
            chosen.append(best)
    chosen += [i for i in order if i not in chosen][: max(0, top_k - len(chosen))]
    chosen.sort(key=lambda i: -scores[i])
    payloads = kb.index.payloads([ids[i] for i in chosen])
    return [Hit(Chunk.from_dict(payloads[ids[i]]), float(scores[i])) for i in chosen if ids[i] in payloads]
