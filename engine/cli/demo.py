"""``python -m engine demo``: what `make run` shows until the review UI exists — the bundled
sample knowledge base indexed, and the sample questionnaire's questions answered with the
passages (and PDF pages) that support them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from engine.cli import common
from engine.cli.common import store_arg
from engine.core.location import DEMO, Location
from engine.core.types import Chunk, Progress, SourceKind
from engine.drafting.page_finder import PageFinder
from engine.index.kb import KnowledgeBase
from engine.retrieval.retrieve import search

ASSETS = Path(__file__).resolve().parents[1] / "assets" / "sample"


def register(p: argparse.ArgumentParser) -> None:
    store_arg(p)
    p.add_argument("--questions", type=int, default=6, help="how many sample questions to show")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    run_demo(common.open_kb(args), common.progress_bar(), questions=args.questions)
    return 0


def where(chunk: Chunk, finder: Callable[[str], PageFinder] | None = None) -> str:
    """A citation in words: page (the page finder's, when given), section, or sheet and row."""
    page = finder(chunk.doc).locate(chunk.text).page if finder and chunk.kind is SourceKind.PDF else None
    return Location.of_chunk(chunk, page).label(DEMO)


def run_demo(kb: KnowledgeBase, progress: Progress, questions: int = 6, out=print) -> None:
    sample_kb, questions_file = ASSETS / "kb", ASSETS / "questions.txt"
    report = kb.add([sample_kb], progress=progress)
    for doc in report.added:
        out(f"indexed {doc.name}: {doc.chunks} chunks" + (f", {doc.pages} pages" if doc.pages else ""))
    for error in report.errors:
        out(f"error: {error}")
    total = sum(d.chunks for d in kb.documents())
    out(f"knowledge base: {len(kb.documents())} documents, {total} chunks in {kb.folder}\n")
    finders: dict[str, PageFinder] = {}

    def finder(name: str) -> PageFinder:
        if name not in finders:
            finders[name] = PageFinder(kb.units(name))
        return finders[name]

    lines = [q.strip() for q in questions_file.read_text(encoding="utf-8").splitlines() if q.strip()]
    for question in lines[:questions]:
        out(f"Q: {question}")
        for hit in search(kb, question, top_k=2):
            text = " ".join(hit.chunk.text.split())
            out(f"   {hit.score:.2f}  {hit.chunk.doc}, {where(hit.chunk, finder)}: {text[:160]}…")
        out("")
    out(f'Ask your own: python -m engine search "How long are logs kept?" --store {kb.folder}')
    out(f"Add documents: python -m engine kb add PATH --store {kb.folder}")
