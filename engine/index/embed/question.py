"""A question embedded once: ``QuestionVectors``, the per-question context drafting builds before
it asks anything and passes down to the answer library (engine/index/library.py ``match``), to
retrieval (engine/retrieval: every mode and strategy) and to the support of the quotes
(engine/drafting/confidence.py), so the dense encoder reads each question once.

What each reader computes from the text with its own model stays with it: the knowledge base's
BM25 and TF-IDF/SVD vectors of the question (fitted on its chunks), the summary index's, the
library's TF-IDF over past questions. A reader on another embedder than the one that made the
dense vector encodes the text itself (``dense_for``): another model, another vector space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.index.embed.dense import DenseEncoder, model_id


@dataclass(frozen=True, eq=False)
class QuestionVectors:
    """A question's text (surrounding whitespace removed, as every reader strips it) and its unit
    dense vector (read-only: shared by every reader), made by the embedder ``model``
    (``model_id``)."""

    text: str
    dense: np.ndarray
    model: str

    @classmethod
    def of(cls, text: str, encoder: DenseEncoder) -> QuestionVectors:
        """``text`` embedded by ``encoder`` (the readers check an empty question themselves)."""
        text = text.strip()
        dense = encoder.encode_query(text)
        dense.setflags(write=False)
        return cls(text, dense, model_id(encoder))

    def dense_for(self, encoder: DenseEncoder) -> np.ndarray:
        """The dense vector in ``encoder``'s space: this one when ``encoder`` is the embedder that
        made it, else ``encoder``'s own encoding of the text."""
        return self.dense if model_id(encoder) == self.model else encoder.encode_query(self.text)


def question_vectors(question: str | QuestionVectors, encoder: DenseEncoder) -> QuestionVectors:
    """``question`` as it is when already embedded, else embedded by ``encoder`` (the entry points
    that also take a plain string: the CLI's search, the library screen, benchmarks)."""
    return question if isinstance(question, QuestionVectors) else QuestionVectors.of(question, encoder)
