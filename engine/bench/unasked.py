"""The model left out of an evaluation (``eval questionnaire|leave-one-out --no-model``): what the
drafts are without a word of the language model's.

:class:`Unasked` stands where the generator would and finds no context for every question it is
given, so the drafter keeps everything it drafts without the model exactly as it ships it: each
choice reused from the answer library (this product's past answers, other products', disputed or
not), each text from the documents' own sentences or a past answer, the qualifiers the documents
state and the profile facts; the rows only the model would draft stay undrafted, and no
explanation of another product's choice is written. This is what the Review-first calibration of
the other products' strata is measured on (engine/drafting/risk.py ``CALIBRATION``,
docs/confidence.md): the 8 shared HECVATs' leave-one-out in about ten minutes on 2 cores, where the
model's run takes hours.
"""

from __future__ import annotations

from typing import Sequence

from engine.drafting.generate.backends import DEFAULT_EVIDENCE
from engine.drafting.generate.prompt import GeneratedAnswer, Passage


class Unasked:
    """A generator that is never asked anything it answers: every reply is "insufficient context",
    no choice, no text, no tokens (module docstring)."""

    name = "no model (--no-model)"
    evidence = DEFAULT_EVIDENCE

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        choices: Sequence[str],
        *,
        several: bool = False,
        context: str | None = None,
        text: bool = True,
    ) -> GeneratedAnswer:
        return GeneratedAnswer(
            quotes=(),
            answer="",
            choice=None,
            insufficient_context=True,
            prompt_tokens=0,
            completion_tokens=0,
            seconds=0.0,
        )

    def choose(self, question: str, passages: Sequence[Passage], choices: Sequence[str], **how) -> GeneratedAnswer:
        return self.generate(question, passages, choices)

    def forget(self, context: str) -> None:
        """Nothing is kept between calls."""

    def warm_up(self) -> None:
        """Nothing to load."""


__all__ = ["Unasked"]
