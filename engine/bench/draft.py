"""``bench draft``: draft a filled questionnaire with its answers hidden (the file's own
answers are never read: every question is drafted as if blank, against an existing store's
knowledge base only) and score the choices against the truth file's answers. ``eval
questionnaire`` (engine/bench/evaluate.py) is the same scoring with a store built for the run
and an answer library."""

from __future__ import annotations

from pathlib import Path

from engine.bench.evaluate import load_truth, score, scored_questions
from engine.core.config import EngineConfig
from engine.drafting.drafter import PROMPT_BUDGET, Drafter
from engine.drafting.generate import make_generator
from engine.index.kb import KnowledgeBase


def bench_draft(
    store: str,
    questionnaire: str,
    truth: str,
    limit: int | None = None,
    model: str | None = None,
    llm_url: str | None = None,
    whole_chunks: bool = False,
    embedder: str | None = None,
    evidence: str | None = None,
) -> dict:
    """``evidence``: how the model points at its evidence, ``quotes`` (copied word for word) or
    ``sentences`` (labels of numbered sentences); default the generator's (``sentences``)."""
    kb = KnowledgeBase(Path(store), EngineConfig.from_env(embedder=embedder))
    kb.index  # a clear error when the store is empty
    expected = load_truth(truth)
    questions = scored_questions(questionnaire, expected, limit)
    generator = make_generator(model, llm_url, evidence=evidence)
    drafter = Drafter(kb, generator, budget_tokens=None if whole_chunks else PROMPT_BUDGET)
    figures = score(drafter, questions, expected).summary()
    figures.pop("reused_rate")  # no library here
    figures["prompt"] = "whole chunks" if whole_chunks else "compacted"
    figures["evidence"] = generator.evidence.value
    return figures
