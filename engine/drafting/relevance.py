"""Whether a text answers the question it stands under (issue #50): a sentence of the documents, or
the model's wording, is used as an explanation only when it does; a right choice with an empty
explanation is acceptable, a sentence beside the point is not.

The test is cheap, the knowledge base's embedder only (no model call):

* **Against the company's own answers.** When near-identical past questions have explanations (any
  product's: they are only the yardstick, never the text, engine/drafting/cross_product.py; at least
  ``REFERENCES`` of them: one is one product's wording, "Parchment LLC screens staff with Sterling."), the
  text must say what they say: its best cosine with them at least ``REFERENCE_MIN``. That is what
  "answers this question" means for a company that has answered it before — "Instructure provides
  employees with security awareness training upon hire …" against the vendors' "Internal security
  training upon hire and annual …".
* **Against the question.** Without such answers, the text's cosine with the question must reach
  ``QUESTION_MIN``; with them, ``QUESTION_FLOOR`` (a text on another subject that happens to read
  like the past answers is still beside this question), unless it is as close to the question as
  ``QUESTION_STRONG`` ("Every employee completes security awareness training when hired and every
  year after." under "Do employees complete security awareness training every year?", 0.89, against
  one product's "Parchment staff train yearly with KnowBe4.", 0.32).
* **Not the question again.** A text of the model's at ``RESTATES`` or more with the question says
  the question back ("Yes, the company has policy and procedure currently implemented guiding how
  security risks are mitigated until patches can be applied." scores 0.84, "Yes, the Disaster
  Recovery Plan has been tested in the past year." 0.97): it explains nothing beyond the choice,
  and is not used; nor does its closeness to the question stand in for the past answers (``model``:
  the strong bar is a documents' sentence's, whose words are the company's own).

The rules a sentence must pass before (a heading, a fragment without a verb, a definition, one
that opens mid-argument: engine/drafting/explanation_rules.py ``standing_alone``) come first.

Calibrated on the shared filled questionnaires (``python -m engine.bench.relevance``): for every
row with the vendor's own explanation (563 rows of the 8 HECVATs and the CAIQ), the sentence the
drafter picks from the documents, acceptable when it says what the vendor said (cosine 0.35 or more
with the vendor's own explanation; 21 of 28 such judgements agreed with a person's reading). With
no test 63.1 % of the picks are acceptable; with ``REFERENCE_MIN`` 0.50 and ``QUESTION_MIN`` 0.65,
the pair chosen (the most kept at 90 % acceptable), 176 of 195 (90.3 %: the Lites 95.3 % of 150,
the two Fulls 75.6 % of 41); choosing the pair on the other targets for each target in turn, 164
of 185 (88.6 %; Parchment's terse texts 10 of 21). The model's wording has its own bar
(``MODEL_QUESTION_MIN``), read on the leave-one-out drafts (docs/benchmarks.md, "Explanations").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from engine.index.embed.dense import DenseEncoder
from engine.index.embed.sparse import analyzer

# chosen on the shared filled questionnaires (module docstring): the pair whose kept sentences are
# acceptable nine times in ten, keeping the most (0.903 of 195 pooled; 0.886 of 185 leave one target out)
REFERENCE_MIN = 0.50  # cosine with the best of the near-identical past answers' explanations
QUESTION_MIN = 0.65  # cosine with the question, when there are no such explanations
MODEL_QUESTION_MIN = 0.50  # the same for the model's wording, which must also stay under RESTATES
QUESTION_FLOOR = 0.40  # cosine with the question, always
QUESTION_STRONG = 0.70  # cosine with the question that answers it whatever the past answers say
RESTATES = 0.75  # cosine with the question at which the model's text only says the question back
RESTATES_ADDS = 2  # content words of its own a text saying the question back may add ("company", "yes")
# the stems of the model's words around a restated question ("Yes, the company …, as stated in the cited sources")
_SAYS_NOTHING = frozenset({"yes", "compani", "state", "cite", "sourc", "provid", "context", "instructur"})
REFERENCE_WORDS = 5  # a past explanation of fewer words ("Yes.", "See DOCU-04") is no yardstick
# the model is asked to explain a choice only when a sentence of its passages says what the past
# answers say at least this well (explanation.worth_asking, issue #59 item 6; docs/benchmarks.md)
MODEL_HOPE = 0.40
REFERENCES = 2  # past explanations it takes to be the company's answer (one is one product's wording)


@dataclass(frozen=True)
class Relevance:
    """How a text stands to a question: its cosine with the question, and its best cosine with the
    near-identical past answers' explanations (None: there were none)."""

    question: float
    reference: float | None = None
    adds: int | None = None  # the text's content words that are not the question's (None: not counted)

    def to_json(self) -> dict:
        return {
            "question": round(self.question, 4),
            "reference": None if self.reference is None else round(self.reference, 4),
            "adds": self.adds,
        }

    @classmethod
    def from_json(cls, d: dict | None) -> Relevance | None:
        if not d:
            return None
        return cls(float(d["question"]), None if d.get("reference") is None else float(d["reference"]), d.get("adds"))

    @property
    def answers(self) -> bool:
        """A documents' sentence answers the question (module docstring)."""
        if self.reference is not None:
            return self.question >= QUESTION_STRONG or (
                self.question >= QUESTION_FLOOR and self.reference >= REFERENCE_MIN
            )
        return self.question >= QUESTION_MIN

    @property
    def model_answers(self) -> bool:
        """The model's wording answers the question: as a documents' sentence must, without the
        strong bar, and without saying the question back."""
        if self.restates:
            return False
        if self.reference is not None:
            return self.question >= QUESTION_FLOOR and self.reference >= REFERENCE_MIN
        return self.question >= MODEL_QUESTION_MIN

    @property
    def restates(self) -> bool:
        """The text says the question back: as close to it as ``RESTATES``, adding at most
        ``RESTATES_ADDS`` words of its own ("Yes. All customer data is encrypted at rest with
        AES-256 using keys held in a hardware security module." adds six: it answers)."""
        return self.question >= RESTATES and (self.adds is None or self.adds <= RESTATES_ADDS)

    @property
    def score(self) -> float:
        """What candidates are ranked by: the reference's cosine when there is one, else the question's."""
        return self.question if self.reference is None else self.reference


def references(texts: Sequence[str], encoder: DenseEncoder) -> np.ndarray | None:
    """The past explanations as unit rows of ``encoder``'s space (those of ``REFERENCE_WORDS``
    words or more, each once); None when there are fewer than ``REFERENCES``."""
    kept = list(dict.fromkeys(t.strip() for t in texts if len(t.split()) >= REFERENCE_WORDS))
    if len(kept) < REFERENCES:
        return None
    return np.asarray(encoder.encode_passages(kept), dtype=np.float32)


def relevance_of(vectors: np.ndarray, question: np.ndarray, past: np.ndarray | None) -> list[Relevance]:
    """The relevance of each text (``vectors``: unit rows) to the question (``question``: its unit
    vector) and the past explanations (``past``, from :func:`references`)."""
    asked = np.asarray(vectors, dtype=np.float32) @ question
    best = (np.asarray(vectors, dtype=np.float32) @ past.T).max(axis=1) if past is not None else None
    return [Relevance(float(q), None if best is None else float(best[i])) for i, q in enumerate(asked)]


def relevance(
    text: str, question: np.ndarray, past: np.ndarray | None, encoder: DenseEncoder, asked: str | None = None
) -> Relevance:
    """The relevance of one ``text``; with ``asked`` (the question's text), the words it adds."""
    judged = relevance_of(encoder.encode_passages([text]), question, past)[0]
    if asked is None:
        return judged
    words = analyzer()
    return replace(judged, adds=len(set(words(text)) - set(words(asked)) - _SAYS_NOTHING))


__all__ = [
    "MODEL_HOPE",
    "MODEL_QUESTION_MIN",
    "QUESTION_FLOOR",
    "QUESTION_MIN",
    "QUESTION_STRONG",
    "REFERENCE_MIN",
    "RESTATES",
    "Relevance",
    "references",
    "relevance",
    "relevance_of",
]
