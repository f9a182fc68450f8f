"""``bench retrieval``: R@1/R@2/R@5 over the 2,067 SQuAD v1.1 dev paragraphs (the
atomic-units paper's setup: every paragraph is one chunk, every question is asked against all
of them), for each retrieval mode, through the same vectors and Qdrant queries as the product
(an in-memory Qdrant collection)."""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import Sequence

from qdrant_client import QdrantClient
from tqdm import tqdm

from engine.config import EngineConfig, Mode
from engine.embed.dense import DenseEncoder
from engine.embed.hybrid import passage_vectors, query_vectors
from engine.embed.sparse import SparseModel
from engine.retrieve import weighted
from storage.lexical_index import LexicalIndex
from storage.vector_store import VectorIndex

# Table 3 of the atomic-units paper (all-mpnet-base-v2, SQuAD dev, 2,067 chunks)
REFERENCE = {
    "paper_chunk_text": {"R@1": 65.5, "R@2": 78.9, "R@5": 89.3},
    "paper_best_atom_questions": {"R@1": 76.3, "R@2": 85.4, "R@5": 92.6},
}


def load_squad(path: str | Path) -> tuple[list[str], list[str], list[int]]:
    """Paragraphs, questions, and each question's paragraph index."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    paragraphs: list[str] = []
    questions: list[str] = []
    gold: list[int] = []
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                questions.append(qa["question"])
                gold.append(len(paragraphs))
            paragraphs.append(paragraph["context"])
    return paragraphs, questions, gold


def bench_retrieval(squad: str, modes: Sequence[str], alpha: float | None = None, limit: int | None = None, embedder: str | None = None) -> dict:
    config = EngineConfig.from_env(embedder=embedder, alpha=alpha)
    paragraphs, questions, gold = load_squad(squad)
    if limit:
        questions, gold = questions[:limit], gold[:limit]
    encoder = DenseEncoder(config.embedder, config.batch_size)
    started = time.perf_counter()
    dense_p = encoder.encode_passages(paragraphs, progress=True)
    sparse = SparseModel.fit(paragraphs, dim=encoder.dim)
    vectors = passage_vectors(paragraphs, dense_p, sparse, config.alpha)
    client = QdrantClient(":memory:")
    index = VectorIndex.create(client, "squad", encoder.dim)
    ids = [str(uuid.UUID(int=i)) for i in range(len(paragraphs))]
    for start in range(0, len(ids), 512):
        index.upsert(ids[start : start + 512], vectors[start : start + 512], [{"i": i} for i in range(start, min(start + 512, len(ids)))])
    lexical = LexicalIndex.build(ids, [v.sparse for v in vectors], len(sparse.vocabulary))
    index_seconds = time.perf_counter() - started
    dense_q = encoder.encode_queries(questions, progress=True)
    queries = [query_vectors(q, dense_q[i], sparse, config.alpha) for i, q in enumerate(questions)]
    results: dict[str, dict] = {}
    for mode in map(Mode.parse, modes):
        hits = {1: 0, 2: 0, 5: 0}
        t0 = time.perf_counter()
        for query, answer in tqdm(list(zip(queries, gold)), desc=mode.value, file=sys.stderr):
            if mode is Mode.WEIGHTED:
                scored = weighted(index, lexical, query, 5, config.alpha)
            else:
                scored = index.search(mode, query, 5)
            ranked = [s.payload["i"] for s in scored]
            for k in hits:
                hits[k] += answer in ranked[:k]
        results[mode.value] = {f"R@{k}": round(100.0 * v / len(questions), 1) for k, v in hits.items()}
        results[mode.value]["ms_per_query"] = round(1000.0 * (time.perf_counter() - t0) / len(questions), 2)
    return {
        "paragraphs": len(paragraphs),
        "questions": len(questions),
        "embedder": config.embedder,
        "alpha": config.alpha,
        "index_seconds": round(index_seconds, 1),
        "modes": results,
        "reference": REFERENCE,
    }
