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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from engine.core.config import Mode, Strategy
from engine.drafting.generate.prompt import Passage, approx_tokens, compact_passages
from engine.index.kb_indexes import fused
from engine.index.summaries import Summary
from engine.core.types import Chunk, DocumentInfo, Hit

SUMMARY_DOCS = 3  # documents selected by their summaries (k = 3)
SUMMARY_TOKENS = 60  # prompt tokens of each selected document's summary, at most
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


def retrieve(kb, question: str, top_k: int | None = None, mode: Mode | Strategy | str | None = None) -> Retrieved:
    """The passages for ``question`` in any mode: a ``Mode`` through ``engine.retrieval.retrieve.search``,
    a ``Strategy`` here."""
    from engine.retrieval.retrieve import search

    strategy = Strategy.of(mode or kb.config.mode)
    if strategy is None:
        return Retrieved(tuple(search(kb, question, top_k=top_k, mode=mode)))
    top_k = top_k or kb.config.top_k
    dense = kb.encoder.encode_query(question)
    if strategy in (Strategy.ATOMS, Strategy.ATOM_QUESTIONS):
        found = kb.indexes.atom_index(strategy).search(dense, top_k, questions=strategy is Strategy.ATOM_QUESTIONS)
        return Retrieved(tuple(Hit(chunk, score) for chunk, score in found), strategy=strategy)
    documents = select_documents(kb, question, dense, SUMMARY_DOCS)
    return Retrieved(tuple(passages_within(kb, question, dense, [d.doc for d in documents], top_k)), tuple(documents), strategy)


def select_documents(kb, question: str, dense: np.ndarray, k: int = SUMMARY_DOCS) -> list[DocumentHit]:
    """The ``k`` documents whose summaries match ``question`` best."""
    index = kb.indexes.summary_index()
    return [DocumentHit(index.docs[row], index.summaries[row], score) for row, score in index.rank(question, dense, kb.alpha, k)]


def passages_within(kb, question: str, dense: np.ndarray, docs: Sequence[DocumentInfo], top_k: int) -> list[Hit]:
    """The best ``top_k`` chunks of ``docs`` by the weighted score (exact over their chunks):
    each document's best chunk first, then the best of the rest; best first."""
    from engine.index.kb import point_id

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


def summary_label(rank: int, doc: DocumentInfo) -> str:
    return f"[{rank}] {doc.name} (summary of the document)"


def prompt_passages(question: str, past: Sequence[Passage], retrieved: Retrieved, budget: int | None,
                    label: Callable[[int, Chunk], str], count_tokens: Callable[[str], int] | None = None) -> list[Passage]:
    """The prompt's passages for a summary strategy: the related past answers and the
    passages compacted to ``budget`` (``content-only``, and the second part of ``summary``),
    each selected document's summary cut to ``SUMMARY_TOKENS`` before them (``summary``), or
    the summaries alone compacted to ``budget`` (``summary-only``)."""
    count = count_tokens or approx_tokens

    def compact(passages: list[Passage], tokens: int | None) -> list[Passage]:
        return compact_passages(question, passages, tokens, count_tokens=count) if tokens and passages else passages

    docs = retrieved.documents
    if retrieved.strategy is Strategy.SUMMARY_ONLY:
        summaries = [Passage(summary_label(i, d.doc), d.summary.text) for i, d in enumerate(docs, len(past) + 1)]
        return compact([*past, *summaries], budget)
    summaries = []
    if retrieved.strategy is Strategy.SUMMARY:
        for i, d in enumerate(docs, len(past) + 1):
            summaries += compact([Passage(summary_label(i, d.doc), d.summary.text)], SUMMARY_TOKENS)
    first = len(past) + len(summaries) + 1
    content = [*past, *(Passage(label(i, h.chunk), h.chunk.text) for i, h in enumerate(retrieved.hits, first))]
    compacted = compact(content, budget)
    shown_past = [p for p in compacted if p.label in {q.label for q in past}]
    return shown_past + summaries + [p for p in compacted if p not in shown_past]
