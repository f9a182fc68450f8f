"""Retrieval's one entry point: the passages for a question in any retrieval mode, optionally
within a scope (engine/core/scopes.py). The mode decides the way, once, here: a hybrid ``Mode``
(dense, paper, concat, sparse, weighted) searches chunks (engine/retrieval/modes.py); a
``Strategy`` (summary, summary-only, content-only, atoms, atom-questions) ranks documents or atoms
first (engine/retrieval/summary_rag.py).

* :func:`search`: the top-k chunks (hits), checked question, within the scope;
* :func:`retrieve`: what one question retrieved (``Retrieved``: hits, and in the summary
  strategies the documents chosen with their summaries), for the drafter's prompt.

Both take the question as text or already embedded (``QuestionVectors``,
engine/index/embed/question.py: the drafter embeds each question once, for the library and here).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from engine.core.config import Mode, Strategy
from engine.core.scopes import ScopeFilter
from engine.core.types import Hit
from engine.index.embed.question import QuestionVectors, question_vectors
from engine.index.kb import KnowledgeBase
from engine.retrieval.modes import search_mode
from engine.retrieval.summary_rag import Retrieved, by_strategy


def search(
    kb: KnowledgeBase,
    question: str | QuestionVectors,
    top_k: int | None = None,
    mode: Mode | Strategy | str | None = None,
    scope: ScopeFilter | None = None,
) -> list[Hit]:
    """The ``top_k`` chunks that best answer ``question``, best first, with provenance; with
    ``scope``, only chunks of the documents it allows (None: every document). A ``Strategy``
    (summary, atoms…) is ranked by engine/retrieval/summary_rag.py, then the scope applied."""
    text = question.text if isinstance(question, QuestionVectors) else question.strip()
    if not text:
        raise ValueError("the question is empty; type the question to search for")
    strategy = Strategy.of(mode or kb.config.mode)
    mode = Mode.parse(mode or kb.config.mode) if strategy is None else None
    top_k = top_k or kb.config.top_k
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1 (got {top_k})")
    kb.index  # an empty knowledge base is refused here, before the embedder loads
    kb.check_compatible()
    question = question_vectors(question, kb.encoder)
    if strategy is not None:
        return list(_in_scope(kb, by_strategy(kb, question, top_k, strategy).hits, scope))
    return search_mode(kb, question, top_k, mode, scope)


def retrieve(
    kb: KnowledgeBase,
    question: str | QuestionVectors,
    top_k: int | None = None,
    mode: Mode | Strategy | str | None = None,
    scope: ScopeFilter | None = None,
) -> Retrieved:
    """The passages for ``question`` in any mode: a ``Mode`` through :func:`search`, a ``Strategy``
    through engine/retrieval/summary_rag.py (the documents it chose with them); with ``scope``,
    only passages of the documents it allows."""
    strategy = Strategy.of(mode or kb.config.mode)
    if strategy is None:
        return Retrieved(tuple(search(kb, question, top_k=top_k, mode=mode, scope=scope)))
    found = by_strategy(kb, question_vectors(question, kb.encoder), top_k or kb.config.top_k, strategy)
    return replace(found, hits=_in_scope(kb, found.hits, scope))


def _in_scope(kb: KnowledgeBase, hits: Sequence[Hit], scope: ScopeFilter | None) -> tuple[Hit, ...]:
    """The hits of the documents ``scope`` allows (None: every document). The one scope filter
    after retrieval: the strategies rank documents first, so another product's are dropped here;
    a hybrid mode searches inside the scope (engine/retrieval/modes.py)."""
    docs = scope.restrict(kb.documents()) if scope is not None else None  # None: every document
    if docs is None:
        return tuple(hits)
    allowed = {d.doc_hash for d in docs}
    return tuple(h for h in hits if h.chunk.doc_hash in allowed)
