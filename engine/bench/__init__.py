"""Benchmarks: each returns a dict of JSON figures (the CLI prints it).

``run`` dispatches ``python -m engine bench <name>`` to the runner of that name below; each runner
imports its benchmark module when called (deferred: the modules load models and data libraries,
and ``--help`` or another benchmark needs none of them)."""

from __future__ import annotations

import argparse
from typing import Callable


def _page_finder(args: argparse.Namespace) -> dict:
    from engine.bench.page_finder import bench_page_finder

    return bench_page_finder(args.pdfs, dense=not args.no_dense, embedder=args.embedder)


def _retrieval(args: argparse.Namespace) -> dict:
    from engine.bench.retrieval import bench_retrieval

    atom_options = {"tau": args.tau, "questions_per_atom": args.questions_per_atom}
    return bench_retrieval(args.squad, modes=args.modes, alpha=args.alpha, limit=args.limit, embedder=args.embedder,
                           cache=args.cache, model=args.model, llm_url=args.llm_url,
                           **{k: v for k, v in atom_options.items() if v is not None})


def _beir(args: argparse.Namespace) -> dict:
    from engine.bench.beir import bench_beir

    return bench_beir(args.scifact, modes=args.modes, limit_docs=args.limit_docs, embedder=args.embedder,
                      alpha=args.alpha, model=args.model, llm_url=args.llm_url, cache=args.cache)


def _summaries(args: argparse.Namespace) -> dict:
    from engine.bench.summaries import bench_summaries

    return bench_summaries(args.docs, writer=args.summaries, model=args.model, llm_url=args.llm_url)


def _latency(args: argparse.Namespace) -> dict:
    from engine.bench.latency import bench_latency

    return bench_latency(args.docs, args.questions, mode=args.mode, embedder=args.embedder)


def _quotes(args: argparse.Namespace) -> dict:
    from engine.bench.quotes import bench_quotes

    return bench_quotes(args.pdfs, n=args.quotes)


def _draft(args: argparse.Namespace) -> dict:
    from engine.bench.draft import bench_draft

    return bench_draft(args.store, args.questionnaire, args.truth, limit=args.limit, model=args.model,
                       llm_url=args.llm_url, whole_chunks=args.whole_chunks, embedder=args.embedder,
                       evidence=args.evidence)


def _evidence(args: argparse.Namespace) -> dict:
    from engine.bench.evidence import BUDGETS, bench_evidence

    return bench_evidence(args.squad, budgets=args.budgets or BUDGETS, limit=args.limit, top_k=args.top_k,
                          embedder=args.embedder, model=args.model)


def _ask(args: argparse.Namespace) -> dict:
    from engine.bench.ask import bench_ask

    return bench_ask(args.policyqa, limit=args.limit, policies_kept=args.policies, evidence=args.evidence, window=args.window,
                     subdoc_words=args.subdoc_words, answer=args.answer, cache=args.cache, embedder=args.embedder,
                     model=args.model, llm_url=args.llm_url, cached_only=args.cached_only)


def _llama_cpu(args: argparse.Namespace) -> dict:
    from engine.bench.llama_cpu import bench_llama_cpu

    return bench_llama_cpu(args.cpus, rounds=args.rounds, questions=args.questions, model=args.model)


RUNNERS: dict[str, Callable[[argparse.Namespace], dict]] = {
    "page-finder": _page_finder,
    "retrieval": _retrieval,
    "beir": _beir,
    "summaries": _summaries,
    "latency": _latency,
    "quotes": _quotes,
    "draft": _draft,
    "evidence": _evidence,
    "ask": _ask,
    "llama-cpu": _llama_cpu,
}


def run(args: argparse.Namespace) -> dict:
    """The figures of the benchmark ``args.bench_command`` names, run with ``args``' options."""
    runner = RUNNERS.get(args.bench_command)
    if runner is None:
        raise ValueError(f"unknown benchmark {args.bench_command!r}: one of {', '.join(RUNNERS)}")
    return runner(args)
