"""``bench page-finder``: every chunk made from the PDFs is located by the page finder and
compared with its true page (a chunk spanning two pages is right if either is returned)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Sequence

from tqdm import tqdm

from engine.core.config import EngineConfig
from engine.core.files import file_hash
from engine.core.types import IngestError
from engine.drafting.page_finder import DensePageFinder, PageFinder
from engine.index.chunking import Chunker
from engine.index.embed.dense import DenseEncoder
from engine.ingest import load_document


def pdf_files(paths: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        files += sorted(p.rglob("*.pdf")) if p.is_dir() else [p]
    return files


def bench_page_finder(paths: Sequence[str], dense: bool = True, embedder: str | None = None) -> dict:
    config = EngineConfig.from_env(embedder=embedder)
    encoder = DenseEncoder(config.embedder, config.batch_size)
    chunker = Chunker(encoder.token_counter(), encoder.chunk_tokens, config.chunk_overlap)
    chunker.warm_up()
    files = pdf_files(paths)
    n_chunks = tfidf_right = dense_right = 0
    seconds = 0.0
    skipped: list[str] = []
    misses: list[dict] = []
    for path in tqdm(files, desc="PDFs", file=sys.stderr):
        try:
            doc = load_document(path)
        except IngestError as exc:
            skipped.append(str(exc))
            continue
        chunks = chunker.chunk(doc, file_hash(path.read_bytes()))
        texts = [c.text for c in chunks]
        started = time.perf_counter()
        finder = PageFinder(doc.units)
        found = [finder.locate(t) for t in texts]  # one call per chunk, as the review screen does
        seconds += time.perf_counter() - started
        for chunk, match in zip(chunks, found):
            if match.page in chunk.pages:
                tfidf_right += 1
            elif len(misses) < 20:
                misses.append(
                    {
                        "file": doc.name,
                        "chunk": chunk.index,
                        "pages": list(chunk.pages),
                        "found": match.page,
                        "runner_up": match.runner_up,
                    }
                )
        if dense and chunks:
            dense_found = DensePageFinder(doc.units, encoder).locate_many(texts)
            dense_right += sum(m.page in c.pages for c, m in zip(chunks, dense_found))
        n_chunks += len(chunks)
    result = {
        "files": len(files) - len(skipped),
        "chunks": n_chunks,
        "tfidf_accuracy": round(100.0 * tfidf_right / max(n_chunks, 1), 2),
        "dense_accuracy": round(100.0 * dense_right / max(n_chunks, 1), 2) if dense else None,
        "ms_per_chunk": round(1000.0 * seconds / max(n_chunks, 1), 3),
    }
    if skipped:
        result["skipped"] = skipped
    if misses:
        result["tfidf_misses"] = misses
    return result
