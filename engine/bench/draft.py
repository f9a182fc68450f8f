"""``bench draft``: draft a filled questionnaire with its answers hidden (the file's own
answers are never read: every question is drafted as if blank, against the knowledge base
only) and score the choices against the truth file's answers."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tqdm import tqdm

from engine.anchoring import AnchorLabel
from engine.config import EngineConfig
from engine.generate import make_generator
from engine.kb import KnowledgeBase
from engine.pipeline import PROMPT_BUDGET, Drafter, to_draft
from engine.questionnaire import read_questionnaire
from storage.review_store import DraftStatus


def load_truth(path: str | Path) -> dict[str, dict]:
    """Truth lines ``{id, question, answer, comment}`` by id."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return {d["id"]: d for d in map(json.loads, filter(str.strip, lines)) if d.get("id")}


def bench_draft(store: str, questionnaire: str, truth: str, limit: int | None = None, model: str | None = None,
                llm_url: str | None = None, whole_chunks: bool = False, embedder: str | None = None) -> dict:
    kb = KnowledgeBase(Path(store), EngineConfig.from_env(embedder=embedder))
    kb.index  # a clear error when the store is empty
    expected = load_truth(truth)
    q = read_questionnaire(Path(questionnaire))
    # the truth's Yes/No questions the reader found, in questionnaire order
    questions = [x for x in to_draft(q, redo_answered=True, limit=None)[0]
                 if x.id in expected and _yes_no(expected[x.id]["answer"]) and x.choices]
    questions = questions[:limit] if limit else questions
    if not questions:
        raise ValueError(f"no Yes/No question of {truth} was found in {questionnaire}; check the ids with `python -m engine inspect`")
    drafter = Drafter(kb, make_generator(model, llm_url), budget_tokens=None if whole_chunks else PROMPT_BUDGET)
    right = no_context = quotes = supported = tokens = 0
    per_class: dict[str, list[int]] = {"Yes": [0, 0], "No": [0, 0]}
    started = time.perf_counter()
    for question in tqdm(questions, desc="drafting", file=sys.stderr):
        draft = drafter.draft(question)
        truth_choice = _yes_no(expected[question.id]["answer"])
        ok = (draft.choice or "").strip().lower() == truth_choice.lower()
        right += ok
        per_class[truth_choice][0] += ok
        per_class[truth_choice][1] += 1
        no_context += draft.status is DraftStatus.NO_CONTEXT
        quotes += len(draft.citations)
        supported += sum(c.label is not AnchorLabel.UNVERIFIED for c in draft.citations)
        tokens += draft.prompt_tokens
    seconds = time.perf_counter() - started
    n = len(questions)
    recalls = [r / t for r, t in per_class.values() if t]
    return {
        "questions": n,
        "choice_accuracy": round(100.0 * right / n, 1),
        "balanced_accuracy": round(100.0 * sum(recalls) / len(recalls), 1),
        "yes_recall": _pct(*per_class["Yes"]),
        "no_recall": _pct(*per_class["No"]),
        "no_context_rate": round(100.0 * no_context / n, 1),
        "verified_quote_rate": round(100.0 * supported / quotes, 1) if quotes else None,
        "s_per_question": round(seconds / n, 2),
        "prompt_tokens_per_question": round(tokens / n, 1),
        "prompt": "whole chunks" if whole_chunks else "compacted",
    }


def _yes_no(answer: str | None) -> str | None:
    value = (answer or "").strip().lower()
    return {"yes": "Yes", "no": "No"}.get(value)


def _pct(right: int, total: int) -> float | None:
    return round(100.0 * right / total, 1) if total else None
