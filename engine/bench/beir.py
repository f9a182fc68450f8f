"""``bench beir``: nDCG@10, nDCG@100 and Recall@100 on BEIR SciFact (5,183 abstracts, the 300
test queries of ``qrels/test.tsv``), as in BEIR/MTEB and the Summary-RAG paper, for:

dense               all-MiniLM-L6-v2 over each document (title + abstract, cut at the model's
                    256 word pieces, as MTEB does)
weighted            the product's default: α·cos_dense + (1−α)·BM25/BM25max over the documents
summary-extractive  documents ranked by their extractive summaries (engine/index/summaries.py),
                    scored as the ``summary`` strategy scores them (weighted over the summary
                    index); the paper's setting, dense over the summaries, is reported beside it
summary-llm         the same with the local LLM's summaries (slow: one LLM call per document,
                    cached in ``--cache DIR`` as they are written, so a killed run resumes)

``limit_docs`` keeps a subset of the corpus: every document judged relevant for a test query,
then the first other documents of corpus.jsonl up to N (all 300 queries are asked); under the
283 judged documents, the first N of them and the queries whose judged documents are all among
them. A smaller corpus gives higher figures than the whole one: compare modes on the same
subset only.
Scoring is exact over every document, in memory.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
from tqdm import tqdm

from engine.core.config import EngineConfig
from engine.core.types import Unit
from engine.drafting.generate import make_generator
from engine.index.embed.dense import DenseEncoder
from engine.index.kb_indexes import WeightedRows
from engine.index.summaries import ExtractiveSummarizer, LlmSummarizer, Summarizer, SummaryStore

MODES = ("dense", "weighted", "summary-extractive", "summary-llm")
DEFAULT_MODES = MODES[:3]  # summary-llm runs the LLM on every document: asked for only
DEPTH = 100

# MTEB (all-MiniLM-L6-v2) and BEIR (BM25) on SciFact; the Summary-RAG paper's nDCG@100 (MiniLM)
REFERENCE = {
    "mteb_minilm": {"nDCG@10": 0.645, "nDCG@100": 0.677},
    "beir_bm25": {"nDCG@10": 0.665},
    "paper_naive_rag": {"nDCG@100": 0.6771},
    "paper_summary_rag": {"nDCG@100": 0.6236},
}


@dataclass(frozen=True)
class Corpus:
    ids: list[str]
    titles: list[str]
    texts: list[str]
    queries: dict[str, str]  # test query id → text
    qrels: dict[str, dict[str, int]]  # query id → {doc id: relevance}

    def document(self, i: int) -> str:
        return f"{self.titles[i]} {self.texts[i]}".strip()


def load_scifact(folder: str | Path) -> Corpus:
    folder = Path(folder)
    needed = [folder / "corpus.jsonl", folder / "queries.jsonl", folder / "qrels" / "test.tsv"]
    for path in needed:
        if not path.is_file():
            raise FileNotFoundError(
                f"{path} is missing: --scifact takes the BEIR SciFact folder (corpus.jsonl, "
                "queries.jsonl, qrels/test.tsv)"
            )
    ids, titles, texts = [], [], []
    for line in needed[0].read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            ids.append(str(d["_id"]))
            titles.append(d.get("title") or "")
            texts.append(d.get("text") or "")
    qrels: dict[str, dict[str, int]] = {}
    for row in needed[2].read_text(encoding="utf-8").splitlines()[1:]:
        if row.strip():
            qid, did, rel = row.split("\t")[:3]
            qrels.setdefault(qid, {})[did] = int(rel)
    queries = {}
    for line in needed[1].read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            if str(d["_id"]) in qrels:
                queries[str(d["_id"])] = d["text"]
    return Corpus(ids, titles, texts, queries, qrels)


def subset(corpus: Corpus, limit_docs: int | None) -> Corpus:
    """Every judged-relevant document, then the first others of the corpus, up to
    ``limit_docs``; under the number of judged documents, the first ``limit_docs`` judged
    documents (in corpus order) and only the queries whose judged documents are all among
    them (the other judged documents are their distractors). ``summarize_corpus`` writes
    summaries in this order, so a killed run's summaries make a subset of their own."""
    if not limit_docs or limit_docs >= len(corpus.ids):
        return corpus
    if limit_docs < 1:
        raise ValueError(f"--limit-docs must be at least 1 (got {limit_docs})")
    relevant = {d for rels in corpus.qrels.values() for d, r in rels.items() if r > 0}
    if limit_docs < len(relevant):
        keep = [i for i, did in enumerate(corpus.ids) if did in relevant][:limit_docs]
        kept = {corpus.ids[i] for i in keep}
        queries = {
            q: t for q, t in corpus.queries.items() if all(d in kept for d, r in corpus.qrels[q].items() if r > 0)
        }
        if not queries:
            raise ValueError(
                f"no test query has all its judged documents among the first {limit_docs}; give a larger --limit-docs"
            )
        pick = lambda xs: [xs[i] for i in keep]  # noqa: E731
        return Corpus(pick(corpus.ids), pick(corpus.titles), pick(corpus.texts), queries, corpus.qrels)
    others = limit_docs - len(relevant)
    keep = []
    for i, did in enumerate(corpus.ids):
        if did in relevant:
            keep.append(i)
        elif others > 0:
            keep.append(i)
            others -= 1
    pick = lambda xs: [xs[i] for i in keep]  # noqa: E731
    return Corpus(pick(corpus.ids), pick(corpus.titles), pick(corpus.texts), corpus.queries, corpus.qrels)


def ndcg(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    """nDCG@k with graded gains ``rel`` and log2 discounts (as pytrec_eval computes it for BEIR)."""
    dcg = sum(relevant.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    wanted = {d for d, r in relevant.items() if r > 0}
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 0.0


def evaluate(runs: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """Mean nDCG@10, nDCG@100 and Recall@100 over the queries of ``runs`` (query id → ranked doc ids)."""
    n = max(len(runs), 1)
    return {
        "nDCG@10": round(sum(ndcg(r, qrels[q], 10) for q, r in runs.items()) / n, 4),
        "nDCG@100": round(sum(ndcg(r, qrels[q], 100) for q, r in runs.items()) / n, 4),
        "Recall@100": round(sum(recall_at(r, qrels[q], 100) for q, r in runs.items()) / n, 4),
    }


def bench_beir(
    scifact: str,
    modes: Sequence[str] = DEFAULT_MODES,
    limit_docs: int | None = None,
    embedder: str | None = None,
    alpha: float | None = None,
    model: str | None = None,
    llm_url: str | None = None,
    cache: str | None = None,
    chat=None,
) -> dict:
    """The figures of every mode in ``modes`` (see the module docstring). ``chat`` replaces the
    local LLM of ``summary-llm`` (tests)."""
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise ValueError(f"unknown mode {unknown[0]!r}; use one of: {', '.join(MODES)}")
    config = EngineConfig.from_env(embedder=embedder, alpha=alpha)
    corpus = subset(load_scifact(scifact), limit_docs)
    qids = sorted(corpus.queries, key=lambda q: int(q) if q.isdigit() else q)
    encoder = DenseEncoder(config.embedder, config.batch_size)
    dense_q = encoder.encode_queries([corpus.queries[q] for q in qids], progress=True)
    result: dict = {
        "documents": len(corpus.ids),
        "queries": len(qids),
        "embedder": config.embedder,
        "alpha": config.alpha,
        "modes": {},
        "reference": REFERENCE,
    }
    if limit_docs:
        judged = sum(1 for _ in _relevant(corpus))
        result["subset"] = (
            f"the first {judged} documents of corpus.jsonl judged relevant for a test query and the "
            f"{len(qids)} test queries whose judged documents are all among them"
            if judged == len(corpus.ids)
            else f"the {judged} documents judged relevant for the test queries and the first "
            f"{len(corpus.ids) - judged} other documents of corpus.jsonl"
        )
    if "dense" in modes or "weighted" in modes:
        started = time.perf_counter()
        docs = WeightedRows(
            encoder.encode_passages([corpus.document(i) for i in range(len(corpus.ids))], progress=True),
            [corpus.document(i) for i in range(len(corpus.ids))],
            encoder.dim,
        )
        result["index_seconds"] = round(time.perf_counter() - started, 1)
        for mode, a in (("dense", 1.0), ("weighted", config.alpha)):
            if mode in modes:
                result["modes"][mode] = _scored(docs, corpus, qids, dense_q, a)
    for mode in ("summary-extractive", "summary-llm"):
        if mode not in modes:
            continue
        if mode == "summary-llm":
            if chat is None:
                chat = make_generator(model, llm_url)
            summarizer: Summarizer = LlmSummarizer(chat)
        else:
            summarizer = ExtractiveSummarizer()
        summaries, stats = summarize_corpus(corpus, summarizer, cache if mode == "summary-llm" else None)
        rows = WeightedRows(encoder.encode_passages(summaries, progress=True), summaries, encoder.dim)
        figures = _scored(rows, corpus, qids, dense_q, config.alpha)
        figures["dense_over_summaries"] = _scored(rows, corpus, qids, dense_q, 1.0)  # the paper's setting
        figures.update(stats)
        if mode == "summary-llm" and stats["s_per_document"]:
            full = len(load_scifact(scifact).ids) if limit_docs else len(corpus.ids)
            figures["projected_hours_all_documents"] = round(stats["s_per_document"] * full / 3600, 1)
        result["modes"][mode] = figures
    return result


def _relevant(corpus: Corpus):
    judged = {d for rels in corpus.qrels.values() for d, r in rels.items() if r > 0}
    return (d for d in corpus.ids if d in judged)


def _scored(rows: WeightedRows, corpus: Corpus, qids: list[str], dense_q: np.ndarray, alpha: float) -> dict:
    started = time.perf_counter()
    runs = {
        q: [corpus.ids[i] for i, _ in rows.rank(corpus.queries[q], dense_q[j], alpha, DEPTH)]
        for j, q in enumerate(qids)
    }
    figures = evaluate(runs, corpus.qrels)
    figures["ms_per_query"] = round(1000.0 * (time.perf_counter() - started) / max(len(qids), 1), 2)
    return figures


def summarize_corpus(corpus: Corpus, summarizer: Summarizer, cache: str | None) -> tuple[list[str], dict]:
    """Every document's summary (from ``cache`` when written before), and what writing took:
    documents written now, seconds per document, and summary length in words."""
    store = SummaryStore(cache) if cache else None
    out: list[str] = [""] * len(corpus.ids)
    written, seconds, tokens_out = 0, 0.0, 0
    # the judged documents first, then the others in corpus order: whatever a killed run leaves
    # in the cache is what a smaller --limit-docs needs
    judged = set(_relevant(corpus))
    order = sorted(range(len(corpus.ids)), key=lambda i: (corpus.ids[i] not in judged, i))
    for i in tqdm(order, desc=f"summaries ({summarizer.method.value})", unit="doc", file=sys.stderr):
        key = hashlib.sha256(corpus.document(i).encode("utf-8")).hexdigest()
        found = store.get(key) if store else None
        if found is None or found.method is not summarizer.method:
            units = [Unit(t) for t in (corpus.titles[i], corpus.texts[i]) if t]  # the title, then the abstract
            found = summarizer.summarize(key, corpus.titles[i], units)
            if store:
                store.put(found)
            written += 1
            seconds += found.seconds
            tokens_out += found.output_tokens
        out[i] = found.text
    lengths = [len(s.split()) for s in out]
    return out, {
        "summaries_written_now": written,
        "s_per_document": round(seconds / written, 2) if written else None,
        "output_tokens_per_document": round(tokens_out / written, 1) if written and tokens_out else None,
        "summary_words": {"mean": round(float(np.mean(lengths)), 1), "min": min(lengths), "max": max(lengths)}
        if lengths
        else None,
    }
