"""How far a drafted choice can be trusted: support (does the evidence speak to the question at
all) and confidence (how sure the choice is), for the drafter and the evaluation alike.

* **Support.** A quote found word for word in the source can still say nothing about the
  question ("Every SEV-1 incident is followed by a post-mortem" under "Have you deployed
  quantum-safe cryptography?"). ``support`` is the best cosine, with the knowledge base's own
  embedder, between the question and a highlightable (verified or repaired) quote. A draft whose
  support is under ``SUPPORT_MIN`` is not a draft: the drafter makes it ``no_context``.
* **Confidence.** ``draft_confidence`` combines the model's probability of its choice against the
  other options at the choice position (read off the grammar-constrained sampler,
  ``GeneratedAnswer.choice_probability``) with the support. A reused past answer's confidence is
  the share of the near-identical past answers that agree with it, times the match score.

The constants were calibrated leave-one-out on the filled Instructure questionnaires (docs/confidence.md,
"Calibration"); ``engine.drafting.records.LOW_CONFIDENCE`` is the threshold under which a draft is shown
as low confidence.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

SUPPORT_MIN = 0.30  # MiniLM cosine of question and best quote under which a draft is unsupported


def support(question_vector: np.ndarray, quote_vectors: np.ndarray) -> float | None:
    """The best cosine between the question and the quotes (unit vectors), None without quotes."""
    if not len(quote_vectors):
        return None
    return float(np.max(np.asarray(quote_vectors, dtype=np.float32) @ np.asarray(question_vector, dtype=np.float32)))


def draft_confidence(choice_probability: float | None, support_score: float | None) -> float | None:
    """A drafted choice's confidence in [0, 1]; None when the backend gave no probability."""
    if choice_probability is None:
        return None
    return float(choice_probability)


def reused_confidence(agreeing: int, total: int, score: float) -> float:
    """A reused answer: the share of the near-identical past answers (with a choice) whose
    choice is the reused one, times the match score."""
    return float((agreeing / total if total else 1.0) * min(1.0, score))


def risk_coverage(points: Sequence[tuple[float, bool]]) -> list[tuple[float, float, float]]:
    """For each threshold (every distinct confidence, highest first): (threshold, coverage,
    precision) over ``points`` = (confidence, right) of the drafted choices, where coverage is
    the share of the points kept (confidence ≥ threshold). Precision among kept points."""
    ranked = sorted(points, key=lambda p: -p[0])
    out: list[tuple[float, float, float]] = []
    right = 0
    for i, (conf, ok) in enumerate(ranked, 1):
        right += ok
        if i == len(ranked) or ranked[i][0] != conf:
            out.append((conf, i / len(ranked), right / i))
    return out
