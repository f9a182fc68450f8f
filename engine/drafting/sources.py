"""The answer sources a question is drafted from, in one ordered list (``Drafter.SOURCES``,
engine/drafting/drafter.py): the first source that applies and drafts gives the draft; a source
that applies but finds nothing after all (a stated qualifier the documents do not state) passes
the question on to the next. A new source is one more entry in that list.

* :class:`Asking` — one question being drafted and what the sources share about it, each worked
  out once, when a source first asks for it: the question's vectors, the past answers that match
  it, the reused one, the retrieved passages.
* :class:`AnswerSource` — a source: its name (as docs/drafting.md and the tests call it), when it
  applies, and how it drafts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

import numpy as np

from engine.drafting.records import Draft
from engine.drafting.relevance import references
from engine.index.embed.question import QuestionVectors
from engine.index.kb import KnowledgeBase
from engine.index.library import PASSAGE_SCORE, AnswerLibrary, LibraryHit, near_hits, reused_hit
from engine.questionnaire import Question
from engine.questionnaire.qualifiers import Qualifier
from engine.retrieval.summary_rag import Retrieved


class Drafter(Protocol):
    """What the sources share of the drafter (engine/drafting/drafter.py ``Drafter``)."""

    kb: KnowledgeBase
    library: AnswerLibrary | None
    product: str | None

    def retrieve(self, question: str | QuestionVectors) -> Retrieved: ...


@dataclass(frozen=True)
class Asking:
    """One question being drafted by ``drafter``: the question, its key, the qualifier it is (when
    it switches sections), its questionnaire's general-information rows and file, when drafting
    began; and, worked out once on first use, what several sources read."""

    drafter: Drafter
    q: Question
    key: str
    started: float
    qualifier: Qualifier | None = None
    rows: Mapping[str, str] | None = None
    source: Path | None = None

    @cached_property
    def asked(self) -> QuestionVectors:
        """The question embedded once, by the encoder asked first (the library's when there is one;
        the same model as the knowledge base's in a store)."""
        d = self.drafter
        return QuestionVectors.of(self.q.text, d.library.encoder if d.library else d.kb.encoder)

    @cached_property
    def past(self) -> list[LibraryHit]:
        """The past answers whose questions match at ``PASSAGE_SCORE`` or more, this product's first."""
        d = self.drafter
        if d.library is None:
            return []
        return d.library.match(self.asked, top_k=None, min_score=PASSAGE_SCORE, product=d.product)

    @cached_property
    def reuse(self) -> LibraryHit | None:
        """The near-identical past answer reuse would take (engine/index/library.py), if any."""
        return reused_hit(self.past, product=self.drafter.product)

    @cached_property
    def near(self) -> list[LibraryHit]:
        """The near-identical past answers reuse chose among."""
        return near_hits(self.past, product=self.drafter.product)

    @cached_property
    def references(self) -> np.ndarray | None:
        """The near-identical past answers' explanations as unit rows of the knowledge base's
        embedder: the yardstick of whether a text answers the question (engine/drafting/relevance.py)."""
        return references([h.entry.answer or "" for h in self.near], self.drafter.kb.encoder)

    @cached_property
    def question(self) -> np.ndarray:
        """The question's unit vector in the knowledge base's embedder's space."""
        return self.asked.dense_for(self.drafter.kb.encoder)

    @cached_property
    def retrieved(self) -> Retrieved:
        """The passages retrieved for the question within the drafter's scope."""
        return self.drafter.retrieve(self.asked)


@dataclass(frozen=True)
class AnswerSource:
    """One source of an answer: ``name``; ``applies`` (whether it speaks to the question at all)
    and ``draft`` (its draft, or None when it finds nothing after all: the next source is asked).
    Both take the drafter and the question being asked."""

    name: str
    applies: Callable[[Any, Asking], bool]
    draft: Callable[[Any, Asking], Draft | None]


def always(drafter: Drafter, asking: Asking) -> bool:
    """A source that is asked for every question (it decides itself whether it has an answer)."""
    return True


__all__ = ["AnswerSource", "Asking", "always"]
