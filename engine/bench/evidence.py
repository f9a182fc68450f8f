"""``bench evidence``: does the evidence survive prompt compaction? SQuAD v1.1 dev, where every
question has its reference answers: each question is retrieved against all paragraphs (the
product's weighted mode, top-k as in drafting), its top-k paragraphs become the prompt's
passages, whole or compacted to each token budget (engine.drafting.generate.compact_passages, as
``draft`` does), and the evidence recall is the share of questions whose reference answer (any
of SQuAD's, case and spacing ignored) is in the passages shown. ``recall_kept`` divides a
budget's recall by the whole chunks' recall. Tokens are counted with the generator model's own
tokenizer (the default model unless ``--model``). ``limit`` keeps the first N paragraphs and
the questions about them."""

from __future__ import annotations

import re
import sys
import time
from typing import Sequence

from tqdm import tqdm

from engine.bench.retrieval import SquadIndex, first_paragraphs, load_squad_answers, recall
from engine.core.config import EngineConfig, Mode
from engine.drafting.drafter import PROMPT_BUDGET
from engine.drafting.generate import LlamaCppGenerator, Passage, compact_passages
from engine.index.embed.dense import DenseEncoder

BUDGETS = tuple(sorted({150, 200, 350, PROMPT_BUDGET}))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def bench_evidence(
    squad: str,
    budgets: Sequence[int] = BUDGETS,
    limit: int | None = None,
    top_k: int | None = None,
    embedder: str | None = None,
    model: str | None = None,
) -> dict:
    config = EngineConfig.from_env(embedder=embedder, top_k=top_k)
    paragraphs, questions, gold, answers = load_squad_answers(squad)
    if limit:
        keep = [i for i, g in enumerate(gold) if g < limit]
        answers = [answers[i] for i in keep]
        paragraphs, questions, gold = first_paragraphs(paragraphs, questions, gold, limit)
    encoder = DenseEncoder(config.embedder, config.batch_size)
    dense_q = encoder.encode_queries(questions, progress=True)
    ranked = SquadIndex(paragraphs, questions, dense_q, encoder, config).ranked(Mode.WEIGHTED, config.top_k)
    count = LlamaCppGenerator(model).count_tokens
    tokens = {i: count(p) for i, p in enumerate(paragraphs) if any(i in r for r in ranked)}
    shown: dict[str, list[bool]] = {"whole": [], **{str(b): [] for b in budgets}}
    spent: dict[str, list[int]] = {k: [] for k in shown}
    seconds: dict[str, float] = {str(b): 0.0 for b in budgets}
    for question, top, refs in tqdm(list(zip(questions, ranked, answers)), desc="compaction", file=sys.stderr):
        refs = [_norm(a) for a in refs if a.strip()]
        passages = [Passage(f"[{n}] squad paragraph {i}", paragraphs[i]) for n, i in enumerate(top, 1)]
        shown["whole"].append(any(a in _norm(" ".join(p.text for p in passages)) for a in refs))
        spent["whole"].append(sum(tokens[i] for i in top))
        for budget in budgets:
            t0 = time.perf_counter()
            compact = compact_passages(question, passages, budget, count_tokens=count)
            seconds[str(budget)] += time.perf_counter() - t0
            text = " … ".join(p.text for p in compact)
            shown[str(budget)].append(any(a in _norm(text) for a in refs))
            spent[str(budget)].append(sum(count(p.text) for p in compact))
    n = max(len(questions), 1)

    def figures(key: str) -> dict:
        return {
            "evidence_recall": round(100.0 * sum(shown[key]) / n, 1),
            "passage_tokens": round(sum(spent[key]) / n, 1),
        }

    whole = figures("whole")
    compacted = {}
    for budget in budgets:
        f = figures(str(budget))
        f["recall_kept"] = (
            round(f["evidence_recall"] / whole["evidence_recall"], 3) if whole["evidence_recall"] else None
        )
        f["ms_per_question"] = round(1000.0 * seconds[str(budget)] / n, 2)
        compacted[str(budget)] = f
    return {
        "paragraphs": len(paragraphs),
        "questions": len(questions),
        "top_k": config.top_k,
        "retrieval": recall(ranked, gold),
        "whole": whole,
        "compacted": compacted,
        "draft_budget": PROMPT_BUDGET,
    }
