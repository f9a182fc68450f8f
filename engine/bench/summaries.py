"""``bench summaries``: what summarising documents costs, file by file: the pages and words read,
the LLM calls of the map-reduce (engine/index/summaries.py), the tokens in and out, the seconds (the
model loaded before the clock starts), and the summary itself. The budget to check: a 300-page
PDF in no more than two minutes on two cores."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Sequence

from engine.core.config import SummaryWriter
from engine.drafting.generate import make_generator
from engine.index.summaries import ExtractiveSummarizer, LlmSummarizer
from engine.ingest import load_document
from engine.ingest.paths import select_files


def bench_summaries(
    docs: Sequence[str],
    writer: str = SummaryWriter.LLM.value,
    model: str | None = None,
    llm_url: str | None = None,
    chat=None,
) -> dict:
    selected = select_files(Path(d) for d in docs)
    if selected.errors:
        raise selected.errors[0]
    files = [path for path, _ in selected.files]
    if SummaryWriter.parse(writer) is SummaryWriter.LLM:
        if chat is None:
            chat = make_generator(model, llm_url)
        summarizer = LlmSummarizer(chat)
    else:
        summarizer = ExtractiveSummarizer()
    rows = []
    for path in files:
        started = time.perf_counter()
        doc = load_document(path, path.name)
        loaded = time.perf_counter() - started
        summary = summarizer.summarize(path.name, path.name, doc.units)
        rows.append(
            {
                "file": path.name,
                "pages": doc.pages,
                "words": sum(len(u.text.split()) for u in doc.units),
                "calls": summarizer.calls(doc.units),
                "sections": summary.sections,
                "input_tokens": summary.input_tokens,
                "output_tokens": summary.output_tokens,
                "read_seconds": round(loaded, 2),
                "summary_seconds": round(summary.seconds, 1),
                "summary_words": len(summary.text.split()),
                "summary": summary.text,
            }
        )
    return {"writer": getattr(summarizer, "name", writer), "documents": rows}
