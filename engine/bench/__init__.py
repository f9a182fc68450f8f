"""Benchmarks: each returns a dict of JSON figures (the CLI prints it)."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> dict:
    if args.bench_command == "page-finder":
        from engine.bench.page_finder import bench_page_finder

        return bench_page_finder(args.pdfs, dense=not args.no_dense, embedder=args.embedder)
    if args.bench_command == "retrieval":
        from engine.bench.retrieval import bench_retrieval

        atom_options = {"tau": args.tau, "questions_per_atom": args.questions_per_atom}
        return bench_retrieval(args.squad, modes=args.modes, alpha=args.alpha, limit=args.limit, embedder=args.embedder,
                               cache=args.cache, model=args.model, llm_url=args.llm_url,
                               **{k: v for k, v in atom_options.items() if v is not None})
    if args.bench_command == "beir":
        from engine.bench.beir import bench_beir

        return bench_beir(args.scifact, modes=args.modes, limit_docs=args.limit_docs, embedder=args.embedder,
                          alpha=args.alpha, model=args.model, llm_url=args.llm_url, cache=args.cache)
    if args.bench_command == "summaries":
        from engine.bench.summaries import bench_summaries

        return bench_summaries(args.docs, writer=args.summaries, model=args.model, llm_url=args.llm_url)
    if args.bench_command == "latency":
        from engine.bench.latency import bench_latency

        return bench_latency(args.docs, args.questions, mode=args.mode, embedder=args.embedder)
    if args.bench_command == "quotes":
        from engine.bench.quotes import bench_quotes

        return bench_quotes(args.pdfs, n=args.quotes)
    if args.bench_command == "draft":
        from engine.bench.draft import bench_draft

        return bench_draft(args.store, args.questionnaire, args.truth, limit=args.limit, model=args.model,
                           llm_url=args.llm_url, whole_chunks=args.whole_chunks, embedder=args.embedder,
                           evidence=args.evidence)
    if args.bench_command == "evidence":
        from engine.bench.evidence import BUDGETS, bench_evidence

        return bench_evidence(args.squad, budgets=args.budgets or BUDGETS, limit=args.limit, top_k=args.top_k,
                              embedder=args.embedder, model=args.model)
    if args.bench_command == "ask":
        from engine.bench.ask import bench_ask

        return bench_ask(args.policyqa, limit=args.limit, policies_kept=args.policies, evidence=args.evidence, window=args.window,
                         subdoc_words=args.subdoc_words, answer=args.answer, cache=args.cache, embedder=args.embedder,
                         model=args.model, llm_url=args.llm_url, cached_only=args.cached_only)
    if args.bench_command == "llama-cpu":
        from engine.bench.llama_cpu import bench_llama_cpu

        return bench_llama_cpu(args.cpus, rounds=args.rounds, questions=args.questions, model=args.model)
    raise ValueError(f"unknown benchmark {args.bench_command!r}")
