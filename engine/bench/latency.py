"""``bench latency``: end-to-end ingestion throughput beside the dense model's raw encode
throughput on the same chunk texts in the same run, then retrieval time per question.

One-time loading (the model, the sentence tokenizer) is done before either clock starts."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from tqdm import tqdm

from engine.core.config import EngineConfig
from engine.index.embed.dense import DenseEncoder
from engine.index.kb import KnowledgeBase
from engine.retrieval.retrieve import search
from storage.vector_store import release


def bench_latency(
    docs: Sequence[str], questions_file: str, mode: str | None = None, embedder: str | None = None
) -> dict:
    config = EngineConfig.from_env(embedder=embedder, mode=mode)
    questions = [q.strip() for q in Path(questions_file).read_text(encoding="utf-8").splitlines() if q.strip()]
    if not questions:
        raise ValueError(f"{questions_file} has no questions (one per line)")
    encoder = DenseEncoder(
        config.embedder, config.batch_size, remembered=0
    )  # the raw encode after ingestion encodes again
    with tempfile.TemporaryDirectory(prefix="rfp-bench-") as tmp:
        kb = KnowledgeBase(Path(tmp) / "store", config, encoder)
        kb.chunker  # load the tokenizer and NLTK before the clock starts
        started = time.perf_counter()
        report = kb.add([Path(d) for d in docs])
        ingest_seconds = time.perf_counter() - started
        texts = [c.text for d in kb.documents() for c in kb.chunks(d.name)]
        started = time.perf_counter()
        encoder.encode_passages(texts)
        encode_seconds = time.perf_counter() - started
        search(kb, questions[0])  # warm-up, not counted
        timings = []
        for question in tqdm(questions, desc="questions", file=sys.stderr):
            t0 = time.perf_counter()
            search(kb, question)
            timings.append(1000.0 * (time.perf_counter() - t0))
        release(str(kb.folder / "qdrant"))
    timings.sort()
    ingest_rate = len(texts) / ingest_seconds
    encode_rate = len(texts) / encode_seconds
    return {
        "documents": len(report.added),
        "skipped": [str(e) for e in report.errors],
        "chunks": len(texts),
        "questions": len(questions),
        "mode": config.mode.value,
        "p50_ms": round(statistics.median(timings), 2),
        "p95_ms": round(timings[min(len(timings) - 1, int(0.95 * len(timings)))], 2),
        "ingest_chunks_per_s": round(ingest_rate, 2),
        "encode_chunks_per_s": round(encode_rate, 2),
        "ingest_vs_encode": round(ingest_rate / encode_rate, 3),
    }
