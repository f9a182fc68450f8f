"""``bench retrieval``: R@1/R@2/R@5 over the 2,067 SQuAD v1.1 dev paragraphs (the
atomic-units paper's setup: every paragraph is one chunk, every question is asked against all
of them), for each retrieval mode. The product's modes (engine.core.config.Mode) go through the same
vectors and Qdrant queries as the product (an in-memory Qdrant collection); the atomic-unit
modes through engine.index.embed.atoms (exact max-pooled cosine, in memory):

atoms           a paragraph's score is the best cosine of the question with its sentence atoms
atom-questions  the best cosine over its atoms AND their synthetic questions (the local LLM
                writes them; near-duplicates within a paragraph pruned at cosine distance τ);
                the figures of the questions alone are reported beside it

``limit`` keeps the first N paragraphs and the questions about them (a smaller corpus, so the
figures are higher than on all 2,067: compare modes on the same subset only)."""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import Sequence

import numpy as np
from qdrant_client import QdrantClient
from tqdm import tqdm

from engine.core.config import ATOM_MODES, EngineConfig, Mode
from engine.drafting.generate import make_generator
from engine.index.embed import atoms as atomic
from engine.index.embed.dense import DenseEncoder
from engine.index.embed.hybrid import passage_vectors, query_vectors
from engine.index.embed.sparse import SparseModel
from engine.retrieval.modes import weighted
from storage.lexical_index import LexicalIndex
from storage.vector_store import VectorIndex

ATOMS, ATOM_QUESTIONS = ATOM_MODES
MODES = (*(m.value for m in Mode), *ATOM_MODES)
DEFAULT_MODES = (*(m.value for m in Mode), ATOMS)  # atom-questions runs the LLM: asked for only
K = (1, 2, 5)

# Table 3 of the atomic-units paper (all-mpnet-base-v2, SQuAD dev, 2,067 chunks)
REFERENCE = {
    "paper_chunk_text": {"R@1": 65.5, "R@2": 78.9, "R@5": 89.3},
    "paper_atoms": {"R@1": 70.2},  # sentence atoms, question↔atom (issue 5)
    "paper_best_atom_questions": {"R@1": 76.3, "R@2": 85.4, "R@5": 92.6},
}


def load_squad(path: str | Path) -> tuple[list[str], list[str], list[int]]:
    """Paragraphs, questions, and each question's paragraph index."""
    paragraphs, questions, gold, _ = load_squad_answers(path)
    return paragraphs, questions, gold


def load_squad_answers(path: str | Path) -> tuple[list[str], list[str], list[int], list[list[str]]]:
    """``load_squad`` and each question's reference answer texts."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    paragraphs: list[str] = []
    questions: list[str] = []
    gold: list[int] = []
    answers: list[list[str]] = []
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                questions.append(qa["question"])
                gold.append(len(paragraphs))
                answers.append([a["text"] for a in qa.get("answers", [])])
            paragraphs.append(paragraph["context"])
    return paragraphs, questions, gold, answers


def first_paragraphs(paragraphs: list[str], questions: list[str], gold: list[int], n: int):
    """The first ``n`` paragraphs and only the questions about them."""
    keep = [i for i, g in enumerate(gold) if g < n]
    return paragraphs[:n], [questions[i] for i in keep], [gold[i] for i in keep]


def recall(ranked: Sequence[Sequence[int]], gold: Sequence[int]) -> dict[str, float]:
    """R@k in percent: the share of questions whose paragraph is among the first k."""
    return {f"R@{k}": round(100.0 * sum(g in r[:k] for r, g in zip(ranked, gold)) / max(len(gold), 1), 1) for k in K}


def bench_retrieval(
    squad: str,
    modes: Sequence[str] = DEFAULT_MODES,
    alpha: float | None = None,
    limit: int | None = None,
    embedder: str | None = None,
    cache: str | None = None,
    model: str | None = None,
    llm_url: str | None = None,
    questions_per_atom: int = atomic.QUESTIONS_PER_ATOM,
    tau: float = atomic.TAU,
) -> dict:
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise ValueError(f"unknown retrieval mode {unknown[0]!r}; use one of: {', '.join(MODES)}")
    config = EngineConfig.from_env(embedder=embedder, alpha=alpha)
    paragraphs, questions, gold = load_squad(squad)
    if limit:
        paragraphs, questions, gold = first_paragraphs(paragraphs, questions, gold, limit)
    encoder = DenseEncoder(config.embedder, config.batch_size)
    dense_q = encoder.encode_queries(questions, progress=True)
    results: dict[str, dict] = {}
    timings: dict[str, float] = {}
    product_modes = [Mode.parse(m) for m in modes if m not in (ATOMS, ATOM_QUESTIONS)]
    if product_modes:
        results.update(_product_modes(paragraphs, questions, gold, dense_q, encoder, config, product_modes, timings))
    if ATOMS in modes or ATOM_QUESTIONS in modes:
        results.update(
            _atom_modes(
                paragraphs, gold, dense_q, encoder, modes, timings, cache, model, llm_url, questions_per_atom, tau
            )
        )
    return {
        "paragraphs": len(paragraphs),
        "questions": len(questions),
        "embedder": config.embedder,
        "alpha": config.alpha,
        "index_seconds": {name: round(seconds, 1) for name, seconds in timings.items()},
        "modes": {m: results[m] for m in modes},
        "reference": REFERENCE,
    }


class SquadIndex:
    """The SQuAD paragraphs in an in-memory Qdrant collection with the product's vectors, and
    the questions' query vectors: ranked by the product's retrieval modes."""

    def __init__(
        self, paragraphs: list[str], questions: list[str], dense_q, encoder: DenseEncoder, config: EngineConfig
    ) -> None:
        dense_p = encoder.encode_passages(paragraphs, progress=True)
        sparse = SparseModel.fit(paragraphs, dim=encoder.dim)
        vectors = passage_vectors(paragraphs, dense_p, sparse, config.alpha)
        self.index = VectorIndex.create(QdrantClient(":memory:"), "squad", encoder.dim)
        ids = [str(uuid.UUID(int=i)) for i in range(len(paragraphs))]
        for start in range(0, len(ids), 512):
            self.index.upsert(
                ids[start : start + 512],
                vectors[start : start + 512],
                [{"i": i} for i in range(start, min(start + 512, len(ids)))],
            )
        self.lexical = LexicalIndex.build(ids, [v.sparse for v in vectors], len(sparse.vocabulary))
        self.queries = [query_vectors(q, dense_q[i], sparse, config.alpha) for i, q in enumerate(questions)]
        self.alpha = config.alpha

    def ranked(self, mode: Mode, k: int = 5) -> list[list[int]]:
        """Per question, the indexes of its top ``k`` paragraphs, best first."""
        out = []
        for query in tqdm(self.queries, desc=mode.value, file=sys.stderr):
            if mode is Mode.WEIGHTED:
                scored = weighted(self.index, self.lexical, query, k, self.alpha)
            else:
                scored = self.index.search(mode, query, k)
            out.append([s.payload["i"] for s in scored])
        return out


def _product_modes(paragraphs, questions, gold, dense_q, encoder, config, modes, timings) -> dict[str, dict]:
    started = time.perf_counter()
    squad = SquadIndex(paragraphs, questions, dense_q, encoder, config)
    timings["paragraphs"] = time.perf_counter() - started
    results: dict[str, dict] = {}
    for mode in modes:
        t0 = time.perf_counter()
        ranked = squad.ranked(mode)
        results[mode.value] = {**recall(ranked, gold), "ms_per_query": _ms(t0, len(questions))}
    return results


def _atom_modes(paragraphs, gold, dense_q, encoder, modes, timings, cache, model, llm_url, n, tau) -> dict[str, dict]:
    chat = None
    if ATOM_QUESTIONS in modes:
        chat = make_generator(model, llm_url)
    started = time.perf_counter()
    units = atomic.build_atom_units(paragraphs, encoder, chat, n=n, tau=tau, cache=cache)
    generation = units.generation
    timings["atoms"] = time.perf_counter() - started - (generation.seconds if generation else 0.0)
    results: dict[str, dict] = {}
    if ATOMS in modes:
        t0 = time.perf_counter()
        ranked = units.index(len(paragraphs), questions=False).search(dense_q, max(K))
        results[ATOMS] = {**recall(ranked, gold), "ms_per_query": _ms(t0, len(dense_q)), "atoms": len(units.atoms)}
    if chat is not None:
        t0 = time.perf_counter()
        ranked = units.index(len(paragraphs)).search(dense_q, max(K))
        ms = _ms(t0, len(dense_q))
        alone = units.questions_index(len(paragraphs)).search(dense_q, max(K))
        dense_p = encoder.encode_passages(paragraphs, progress=True)
        both = with_paragraph(units.index(len(paragraphs)), dense_q, dense_p, max(K))
        results[ATOM_QUESTIONS] = {
            **recall(ranked, gold),
            "ms_per_query": ms,
            "questions_only": recall(alone, gold),
            "with_paragraph": recall(both, gold),
            "atoms": len(units.atoms),
            "questions_generated": units.questions_written,
            "questions_kept": len(units.questions),
            "tau": tau,
            "questions_per_atom": n,
            "generator": chat.name,
            "atoms_generated_now": generation.generated,
            "s_per_atom": None if generation.seconds_per_atom is None else round(generation.seconds_per_atom, 2),
        }
    return results


def with_paragraph(
    index: atomic.MaxIndex, dense_q: np.ndarray, dense_p: np.ndarray, k: int, batch: int = 256
) -> list[list[int]]:
    """Per question, the ``k`` best paragraphs by the mean of the paragraph's own cosine and
    its best atom or question cosine (the paragraph's cosine alone where it has none): the
    synthetic questions as evidence added to the paragraph, not in its place. Exploratory,
    reported beside ``atom-questions`` (docs/benchmarks.md)."""
    ranked: list[list[int]] = []
    k = min(k, len(dense_p))
    for start in range(0, len(dense_q), batch):
        queries = dense_q[start : start + batch].astype(np.float32)
        own = queries @ dense_p.T.astype(np.float32)
        units = index.scores(queries)
        scores = np.where(np.isneginf(units), own, (own + units) / 2)
        ranked.extend(np.argsort(-scores, axis=1, kind="stable")[:, :k].tolist())
    return ranked


def _ms(t0: float, n: int) -> float:
    return round(1000.0 * (time.perf_counter() - t0) / max(n, 1), 2)
