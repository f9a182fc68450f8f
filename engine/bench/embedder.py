"""``bench embedder``: two embedders or more side by side in one run (by default the fp32
all-MiniLM-L6-v2 on PyTorch and its int8 ONNX export, engine/index/embed/onnx_int8.py; add
``all-MiniLM-L6-v2-int8-dynamic`` for the same file on integer MatMuls): encode throughput on real
chunks (what ingestion spends most of its time on), the time of one question's vector (what a
search or a drafted row waits for), and how far their vectors agree.

The chunks are made from the given documents by the knowledge base's chunker (``chunks`` of them,
at most a tenth from one document); the questions are read from a file, one per line. Loading (the models, the chunker) is done before
any clock starts. The runs are interleaved: per round, each embedder encodes every chunk and then
every question once, in alternating order (A B C, C B A, …), so a machine that drifts (these cores are
shared) weighs on both alike. Figures are medians over the rounds, with the median over the rounds
of each embedder's speed-up over the first one in the same round (paired ratios).

Agreement: the cosine of the two vectors of each chunk, and, per question, whether the top 5 chunks
by cosine are the same five (in any order) and how many of them are.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np
from tqdm import tqdm

from engine.core.config import DEFAULT_EMBEDDER, FP32_EMBEDDER, EngineConfig
from engine.core.files import file_hash
from engine.core.types import IngestError
from engine.index.chunking import Chunker
from engine.index.embed.dense import DenseEncoder
from engine.index.embed.onnx_int8 import cores
from engine.ingest import load_document
from engine.ingest.paths import select_files

TOP = 5


def real_chunks(docs: Sequence[str], limit: int, encoder: DenseEncoder, overlap: int) -> tuple[list[str], int]:
    """``limit`` chunk texts of the documents under ``docs`` (files in name order), at most a tenth
    of them from one document (a long one would be the whole sample), and how many documents they
    came from."""
    chunker = Chunker(encoder.token_counter(), encoder.chunk_tokens, overlap)
    texts: list[str] = []
    used = 0
    for path, name in select_files(Path(d) for d in docs).files:
        if len(texts) >= limit:
            break
        try:
            doc = load_document(path, name)
        except IngestError:
            continue
        texts += [c.text for c in chunker.chunk(doc, file_hash(path.read_bytes()))][: max(1, limit // 10)]
        used += 1
    return texts[:limit], used


def _timed_rounds(encoders: list[DenseEncoder], texts: list[str], questions: list[str], rounds: int) -> dict:
    """Per embedder: seconds to encode ``texts`` and per-question milliseconds, per round, and
    the vectors of the last round (chunks, questions)."""
    seconds = {e.name: [] for e in encoders}
    query_ms = {e.name: [] for e in encoders}
    vectors = {}
    for r in tqdm(range(rounds), desc="rounds", file=sys.stderr):
        for encoder in encoders if r % 2 == 0 else encoders[::-1]:
            started = time.perf_counter()
            passages = encoder.encode_passages(texts)
            seconds[encoder.name].append(time.perf_counter() - started)
            times, asked = [], []
            for question in questions:
                t0 = time.perf_counter()
                asked.append(encoder.encode_query(question))
                times.append(1000.0 * (time.perf_counter() - t0))
            query_ms[encoder.name].append(times)
            vectors[encoder.name] = (passages, np.vstack(asked))
    return {"seconds": seconds, "query_ms": query_ms, "vectors": vectors}


def _agreement(base: np.ndarray, base_q: np.ndarray, other: np.ndarray, other_q: np.ndarray) -> dict:
    cos = np.sum(base * other, axis=1)
    top_base = np.argsort(-(base_q @ base.T), axis=1)[:, :TOP]
    top_other = np.argsort(-(other_q @ other.T), axis=1)[:, :TOP]
    overlap = [len(set(a) & set(b)) for a, b in zip(top_base.tolist(), top_other.tolist())]
    query_cos = np.sum(base_q * other_q, axis=1)
    return {
        "chunk_cosine_mean": round(float(cos.mean()), 5),
        "chunk_cosine_min": round(float(cos.min()), 5),
        "question_cosine_mean": round(float(query_cos.mean()), 5),
        f"same_top{TOP}_share": round(sum(o == TOP for o in overlap) / len(overlap), 3),
        f"top{TOP}_overlap_mean": round(statistics.mean(overlap), 3),
    }


def _speed(name: str, first: str, timed: dict, n_texts: int) -> dict:
    """``name``'s throughput and question times, and its paired speed-ups over ``first``."""
    per_round = timed["seconds"][name]
    every = sorted(t for times in timed["query_ms"][name] for t in times)
    return {
        "chunks_per_s": round(n_texts / statistics.median(per_round), 2),
        "chunks_per_s_rounds": [round(n_texts / s, 2) for s in per_round],
        "query_ms_p50": round(statistics.median(every), 2),
        "query_ms_p95": round(every[min(len(every) - 1, int(0.95 * len(every)))], 2),
        "query_ms_p50_rounds": [round(statistics.median(times), 2) for times in timed["query_ms"][name]],
        f"speedup_vs_{first}": round(statistics.median(b / s for b, s in zip(timed["seconds"][first], per_round)), 3),
        f"query_speedup_vs_{first}": round(
            statistics.median(
                statistics.median(b) / statistics.median(q)
                for b, q in zip(timed["query_ms"][first], timed["query_ms"][name])
            ),
            3,
        ),
    }


def bench_embedder(
    docs: Sequence[str],
    questions_file: str,
    chunks: int = 300,
    rounds: int = 3,
    embedders: Sequence[str] = (FP32_EMBEDDER, DEFAULT_EMBEDDER),
) -> dict:
    config = EngineConfig.from_env()
    questions = [q.strip() for q in Path(questions_file).read_text(encoding="utf-8").splitlines() if q.strip()]
    if not questions:
        raise ValueError(f"{questions_file} has no questions (one per line)")
    loaded: list[DenseEncoder] = []
    load_seconds = {}
    for name in embedders:
        started = time.perf_counter()
        loaded.append(DenseEncoder(name, config.batch_size, remembered=0))  # each round encodes, none looks up
        load_seconds[name] = round(time.perf_counter() - started, 2)
    texts, used = real_chunks(docs, chunks, loaded[0], config.chunk_overlap)
    if not texts:
        raise ValueError(f"no chunk could be made from {', '.join(docs)}")
    for encoder in loaded:  # warm-up, not counted: first-call allocations, thread pools
        encoder.encode_passages(texts[: config.batch_size])
        encoder.encode_query(questions[0])
    timed = _timed_rounds(loaded, texts, questions, rounds)
    figures = {
        e.name: {"load_s": load_seconds[e.name], **_speed(e.name, loaded[0].name, timed, len(texts))} for e in loaded
    }
    vectors = timed["vectors"]
    agreement = {e.name: _agreement(*vectors[loaded[0].name], *vectors[e.name]) for e in loaded[1:]}
    return {
        "chunks": len(texts),
        "documents": used,
        "chunk_tokens_mean": round(statistics.mean(len(loaded[0].token_counter()(t)) for t in texts), 1),
        "questions": len(questions),
        "rounds": rounds,
        "cores": cores(),
        "cpu_count": os.cpu_count(),
        "batch_size": config.batch_size,
        "embedders": figures,
        "agreement_with_" + loaded[0].name: agreement,
    }
