"""The prompt's passages in the summary strategies (engine/retrieval/summary_rag.py retrieves the
documents and passages; this decides what the model reads of them): each selected document's
summary cut to ``SUMMARY_TOKENS`` before the compacted passages (``summary``), the passages alone
(``content-only``) or the summaries alone (``summary-only``), with the related past answers first.
"""

from __future__ import annotations

from typing import Callable, Sequence

from engine.core.config import Strategy
from engine.core.types import Chunk, DocumentInfo
from engine.drafting.generate.prompt import Passage, approx_tokens, compact_passages
from engine.retrieval.summary_rag import Retrieved

SUMMARY_TOKENS = 60  # prompt tokens of each selected document's summary, at most


def summary_label(rank: int, doc: DocumentInfo) -> str:
    return f"[{rank}] {doc.name} (summary of the document)"


def prompt_passages(
    question: str,
    past: Sequence[Passage],
    retrieved: Retrieved,
    budget: int | None,
    label: Callable[[int, Chunk], str],
    count_tokens: Callable[[str], int] | None = None,
) -> list[Passage]:
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
