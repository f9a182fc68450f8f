"""``python -m engine bench …``: the benchmarks (engine/bench/), each printing its figures as JSON.
Each benchmark's flags are declared once, in the function that adds its parser here, beside the
one call that hands them to the benchmark's function."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from engine.bench.ask import bench_ask
from engine.bench.beir import DEFAULT_MODES as BEIR_DEFAULT
from engine.bench.beir import MODES as BEIR_MODES
from engine.bench.beir import bench_beir
from engine.bench.document_intake import TRUTH, bench_intake
from engine.bench.draft import bench_draft
from engine.bench.embedder import bench_embedder
from engine.bench.evidence import BUDGETS, bench_evidence
from engine.bench.export_all import bench_export_all
from engine.bench.families import FAMILIES, bench_families
from engine.bench.latency import bench_latency
from engine.bench.llama_cpu import bench_llama_cpu
from engine.bench.llama_slots import bench_llama_slots
from engine.bench.page_finder import bench_page_finder
from engine.bench.pdf_families import FAMILIES as PDF_FAMILIES
from engine.bench.pdf_families import bench_pdf_families
from engine.bench.pdf_intake import TRUTH as PDF_TRUTH
from engine.bench.pdf_reprints import KINDS as REPRINTS
from engine.bench.pdf_reprints import bench_pdf_reprints
from engine.bench.quotes import bench_quotes
from engine.bench.retrieval import bench_retrieval
from engine.bench.shred import bench_shred
from engine.bench.summaries import bench_summaries
from engine.bench.translated import LANGUAGES, bench_translated
from engine.bench.word_printed import bench_word_printed
from engine.bench.word_resaved import bench_word_resaved
from engine.bench.word_rewrites import KINDS as REWRITE_KINDS
from engine.bench.word_rewrites import bench_word_rewrites
from engine.bench.word_soffice import bench_word_soffice
from engine.cli.common import model_args, print_json, store_arg
from engine.core.config import ATOM_MODES, DEFAULT_EMBEDDER, FP32_EMBEDDER, Mode, SummaryWriter
from engine.drafting.ask import SUBDOC_WORDS, WINDOW
from engine.drafting.generate.prompt import Evidence
from engine.llama_build import CPU_SETS
from engine.questionnaire.formats import SUFFIXES


def register(p: argparse.ArgumentParser) -> None:
    bench = p.add_subparsers(dest="bench_command", required=True)
    for add in (
        _page_finder,
        _retrieval,
        _beir,
        _summaries,
        _evidence,
        _latency,
        _embedder,
        _quotes,
        _draft,
        _translated,
        _intake,
        _families,
        _pdf_families,
        _word_rewrites,
        _word_resaved,
        _pdf_reprints,
        _word_printed,
        _export_all,
        _shred,
        _ask,
        _llama_cpu,
        _llama_slots,
    ):
        add(bench)  # in this order in `bench --help`


def _prints(run: Callable[[argparse.Namespace], dict]) -> Callable[[argparse.Namespace], int]:
    """The command's handler: the benchmark's figures printed as JSON."""
    return lambda args: print_json(run(args), args)


def _page_finder(bench) -> None:
    p = bench.add_parser("page-finder", help="page attribution of every chunk of the PDFs under DIR")
    p.add_argument("--pdfs", required=True, nargs="+", help="folders (or PDF files)")
    p.add_argument("--no-dense", action="store_true", help="skip the (slow) dense baseline")
    p.add_argument("--embedder")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_prints(lambda a: bench_page_finder(a.pdfs, dense=not a.no_dense, embedder=a.embedder)))


def _retrieval(bench) -> None:
    p = bench.add_parser("retrieval", help="R@1/R@2/R@5 on SQuAD v1.1 dev paragraphs")
    p.add_argument("--squad", required=True, help="dev-v1.1.json")
    p.add_argument(
        "--modes",
        nargs="+",
        default=[*(m.value for m in Mode), ATOM_MODES[0]],
        choices=[*(m.value for m in Mode), *ATOM_MODES],
        help="default: all but atom-questions (it runs the LLM on every sentence: slow on a CPU, see --cache)",
    )
    p.add_argument("--alpha", type=float)
    p.add_argument("--limit", type=int, help="use the first N paragraphs and the questions about them only")
    p.add_argument(
        "--embedder", help="sentence-transformers folder or name (all-mpnet-base-v2 after `make bench-models`)"
    )
    p.add_argument(
        "--cache", help="atom-questions: JSONL file of the generated questions (reused, appended; a killed run resumes)"
    )
    p.add_argument("--questions-per-atom", type=int, help="atom-questions: questions asked per atom (default 3)")
    p.add_argument(
        "--tau",
        type=float,
        help="atom-questions: cosine distance under which a question repeats a kept one (default 0.1)",
    )
    model_args(p)
    p.add_argument("--json", action="store_true")

    def run(a: argparse.Namespace) -> dict:
        atom_options = {"tau": a.tau, "questions_per_atom": a.questions_per_atom}
        return bench_retrieval(
            a.squad,
            modes=a.modes,
            alpha=a.alpha,
            limit=a.limit,
            embedder=a.embedder,
            cache=a.cache,
            model=a.model,
            llm_url=a.llm_url,
            **{k: v for k, v in atom_options.items() if v is not None},
        )

    p.set_defaults(func=_prints(run))


def _beir(bench) -> None:
    p = bench.add_parser("beir", help="nDCG@10/@100 and Recall@100 on BEIR SciFact: dense, weighted and Summary RAG")
    p.add_argument(
        "--scifact", required=True, help="the BEIR SciFact folder (corpus.jsonl, queries.jsonl, qrels/test.tsv)"
    )
    p.add_argument(
        "--modes",
        nargs="+",
        default=list(BEIR_DEFAULT),
        choices=BEIR_MODES,
        help="default: all but summary-llm (one LLM call per document: slow on a CPU, see --cache)",
    )
    p.add_argument(
        "--limit-docs", type=int, help="a subset: the documents judged relevant, then the first others up to N"
    )
    p.add_argument("--alpha", type=float)
    p.add_argument("--embedder")
    p.add_argument(
        "--cache", help="summary-llm: a folder keeping the summaries as they are written (a killed run resumes)"
    )
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_beir(
                a.scifact,
                modes=a.modes,
                limit_docs=a.limit_docs,
                embedder=a.embedder,
                alpha=a.alpha,
                model=a.model,
                llm_url=a.llm_url,
                cache=a.cache,
            )
        )
    )


def _intake(bench) -> None:
    p = bench.add_parser(
        "intake",
        help="Word and PDF questionnaires: questions found (recall, precision against the truth files), intake and "
        "export seconds, the no-other-change check and the round trip, per file; the filled CAIQ PDFs read as past "
        "answers",
    )
    p.add_argument(
        "--folder", default=str(Path("..") / "shared" / "data" / "questionnaires"),
        help="folder of .docx/.docm/.pdf questionnaires, searched recursively (default ../shared/data/questionnaires)",
    )  # fmt: skip
    p.add_argument(
        "--truth", default=str(TRUTH), help="the Word truth file (default tests/questionnaire_truth/docx.json)"
    )
    p.add_argument(
        "--pdf-truth", default=str(PDF_TRUTH), help="the PDF truth file (default tests/questionnaire_truth/pdf.json)"
    )
    p.add_argument(
        "--filled", default=str(Path("..") / "shared" / "data" / "instructure"),
        help="folder of the filled CAIQ PDFs the PDF truth samples (default ../shared/data/instructure)",
    )  # fmt: skip
    p.add_argument("--file", help="only the files whose name holds this")
    p.add_argument("--repeat", type=int, default=3, help="Word timings: best of N reads and exports (default 3)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_intake(Path(a.folder), Path(a.truth), a.repeat, a.file, Path(a.pdf_truth), Path(a.filled))
        )
    )


def _families(bench) -> None:
    p = bench.add_parser(
        "families",
        help="Word questionnaires of the families that go wrong (response boxes, Yes/No tables, a Japanese checklist, "
        "an attestation form, long tables, paragraph forms), generated by a written rule with their truth and read back: recall, precision, usable "
        "per family beside the trivial '?' baseline",
    )
    p.add_argument("--variants", type=int, default=20, help="variants generated per family (default 20)")
    p.add_argument("--family", choices=FAMILIES, help="only this family")
    p.add_argument("--keep", help="a folder to keep the generated documents in (default: a temporary one)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_prints(lambda a: bench_families(a.variants, a.family, Path(a.keep) if a.keep else None)))


def _pdf_families(bench) -> None:
    p = bench.add_parser(
        "pdf-families",
        help="PDF questionnaires of the #55 families drawn by a written rule (option and text tables, ruled or aligned "
        "by text position, forms over a table, numbered checklists in one column or two, web forms printed with guidance "
        "panels, questions in two or three columns, Japanese checklists), the truth recorded as drawn: recall, precision, usable per family and "
        "per axis value, beside the '?' baseline, intake seconds",
    )
    p.add_argument("--variants", type=int, default=24, help="variants drawn per family (default 24)")
    p.add_argument("--family", nargs="+", choices=PDF_FAMILIES, default=list(PDF_FAMILIES), help="only these families")
    p.add_argument("--keep", help="a folder to leave the drawn PDFs in (default: a temporary folder, removed)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(lambda a: bench_pdf_families(a.variants, tuple(a.family), Path(a.keep) if a.keep else None))
    )


def _word_rewrites(bench) -> None:
    p = bench.add_parser(
        "word-rewrites",
        help="the shared Word files with a truth rewritten as another author could write them (header words, box "
        "kinds, column orders, split tables, spacers, plain headers, IDs), their truth carried over by each rewrite's "
        "rule, read back: per rewrite kind, recall / precision / usable before and after, questions read the same",
    )
    p.add_argument("--variants", type=int, default=24, help="rewritten files (default 24)")
    _word_folder(p)
    p.add_argument("--kind", choices=REWRITE_KINDS, help="only the variants that use this rewrite")
    p.add_argument("--keep", help="a folder to keep the rewritten documents in (default: a temporary one)")
    p.add_argument("--no-round-trip", action="store_true", help="skip writing answers and reading them back")
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_word_rewrites(
                a.variants, Path(a.folder), Path(a.keep) if a.keep else None, not a.no_round_trip, a.kind
            )
        )
    )


def _word_folder(p) -> None:
    """The ``--folder`` of the shared Word questionnaires, for the benches that rewrite or save them again."""
    p.add_argument(
        "--folder", default=str(Path("..") / "shared" / "data" / "questionnaires" / "docx"),
        help="folder of the shared Word questionnaires (default ../shared/data/questionnaires/docx)",
    )  # fmt: skip


def _word_resaved(bench) -> None:
    p = bench.add_parser(
        "word-resaved",
        help="the shared Word files with a truth saved by LibreOffice (another word processor's XML), their truth "
        "carried to the saved file by the cells' and paragraphs' texts, read back: recall / precision / usable before "
        "and after the save, the export's check and round trip (skipped without soffice)",
    )
    _word_folder(p)
    p.add_argument("--saved", help="a folder of the same files already saved (default: save them with soffice)")
    p.add_argument("--file", help="only the files whose name holds this")
    p.add_argument("--keep", help="a folder to keep the saved documents in (default: a temporary one)")
    p.add_argument("--no-round-trip", action="store_true", help="skip writing answers and reading them back")
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_word_resaved(
                Path(a.folder),
                Path(a.saved) if a.saved else None,
                Path(a.keep) if a.keep else None,
                a.file,
                not a.no_round_trip,
            )
        )
    )


def _pdf_reprints(bench) -> None:
    p = bench.add_parser(
        "pdf-reprints",
        help="the shared flat PDF questionnaires and the drawn families' variants re-printed as other tools do (other "
        "paper, margins, a running header and footer, a watermark, two pages on one, a page cut in two, a rotated page), "
        "the truth carried over by the reprint's rule: recall, precision, usable, same as the original, per kind",
    )
    p.add_argument("--variants", type=int, default=24, help="variants drawn per family (default 24)")
    p.add_argument("--kind", nargs="+", choices=REPRINTS, default=list(REPRINTS), help="only these reprints")
    p.add_argument("--keep", help="a folder to leave the last reprints in (default: a temporary folder, removed)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(lambda a: bench_pdf_reprints(a.variants, tuple(a.kind), Path(a.keep) if a.keep else None))
    )


def _word_printed(bench) -> None:
    p = bench.add_parser(
        "word-printed",
        help="the shared Word questionnaires with a truth printed as flat PDFs (ruled, not ruled, horizontal rules; A4, "
        "Letter), the truth carried by the printing's rule, read by the flat PDF reader: recall, precision, usable",
    )
    p.add_argument("--variants", type=int, default=2, help="variants printed per file (default 2, at most 6)")
    p.add_argument("--folder", help="folder of the shared Word questionnaires (default the shared data's docx)")
    p.add_argument("--file", help="only the files whose name holds this")
    p.add_argument("--keep", help="a folder to leave the printed PDFs in (default: a temporary one, removed)")
    p.add_argument(
        "--paged", action="store_true", help="the same variants with a running header and footer, rows cut at pages"
    )
    p.add_argument(
        "--printer", choices=("own", "soffice"), default="own",
        help="own: the bench's PyMuPDF printer in --variants variants (default); soffice: each file printed once by "
        "LibreOffice, the truth's pages found by the items' text (skipped where soffice is not installed)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_prints(_word_printed_run))


def _word_printed_run(a: argparse.Namespace) -> dict:
    folder, keep = Path(a.folder) if a.folder else None, Path(a.keep) if a.keep else None
    if a.printer == "soffice":
        return bench_word_soffice(folder, keep, a.file)
    return bench_word_printed(a.variants, folder, keep, a.file, a.paged)


def _export_all(bench) -> None:
    p = bench.add_parser(
        "export-all",
        help="every question of every questionnaire of the folders (Word, PDF form, spreadsheet) answered (No where "
        "offered) and exported, strict (one refused answer refuses the file: the baseline) and tolerant (it is left "
        "out and listed), per file, with the no-other-change check's own seconds",
    )
    p.add_argument(
        "--folder", nargs="+", default=[str(Path("..") / "shared" / "data" / "questionnaires")],
        help="folders of questionnaires, searched recursively (default ../shared/data/questionnaires)",
    )  # fmt: skip
    p.add_argument(
        "--suffixes", nargs="+", default=list(SUFFIXES), help=f"only these formats (default: {' '.join(SUFFIXES)})"
    )
    p.add_argument("--file", help="only the files whose name holds this")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_prints(lambda a: bench_export_all([Path(f) for f in a.folder], a.file, a.suffixes)))


def _shred(bench) -> None:
    p = bench.add_parser("shred", help="solicitations shredded against their truth lists, beside the cue-word baseline")
    p.add_argument("--data", help="the shared data folder (default: $RFP_SHARED_DATA, else ../shared/data)")
    p.add_argument("--repeat", type=int, default=2, help="shreds per file; the fastest is reported")
    p.add_argument("--json", action="store_true", help="one line of JSON")
    p.set_defaults(func=_prints(lambda a: bench_shred(a.data, repeat=a.repeat)))


def _summaries(bench) -> None:
    p = bench.add_parser("summaries", help="what summarising each document costs: LLM calls, tokens, seconds")
    p.add_argument("--docs", required=True, nargs="+", help="files or folders")
    p.add_argument("--summaries", choices=[w.value for w in SummaryWriter], default=SummaryWriter.LLM.value)
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(lambda a: bench_summaries(a.docs, writer=a.summaries, model=a.model, llm_url=a.llm_url))
    )


def _evidence(bench) -> None:
    p = bench.add_parser(
        "evidence", help="evidence recall of compacted prompts against whole chunks, on SQuAD v1.1 dev"
    )
    p.add_argument("--squad", required=True, help="dev-v1.1.json")
    p.add_argument("--budgets", nargs="+", type=int, help="passage token budgets to compare (default 150 200 250 350)")
    p.add_argument("--limit", type=int, help="use the first N paragraphs and the questions about them only")
    p.add_argument("--top-k", type=int, help="paragraphs retrieved per question (default: the drafting top-k, 5)")
    p.add_argument("--embedder", help="sentence-transformers folder or name")
    p.add_argument(
        "--model",
        help="a registered model or GGUF file whose tokenizer counts the tokens (default: qwen2.5-coder-1.5b)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_evidence(
                a.squad, budgets=a.budgets or BUDGETS, limit=a.limit, top_k=a.top_k, embedder=a.embedder, model=a.model
            )
        )
    )


def _latency(bench) -> None:
    p = bench.add_parser("latency", help="ingestion throughput and retrieval latency")
    p.add_argument("--docs", required=True, nargs="+", help="folders (or files) of documents")
    p.add_argument("--questions", required=True, help="text file, one question per line")
    p.add_argument("--mode", choices=[m.value for m in Mode])
    p.add_argument("--embedder")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_prints(lambda a: bench_latency(a.docs, a.questions, mode=a.mode, embedder=a.embedder)))


def _embedder(bench) -> None:
    p = bench.add_parser(
        "embedder",
        help="embedders interleaved (default the fp32 MiniLM and the default int8 one): chunks/s, ms per question, agreement",
    )
    p.add_argument("--docs", required=True, nargs="+", help="folders (or files) of documents to chunk")
    p.add_argument("--questions", required=True, help="text file, one question per line")
    p.add_argument("--chunks", type=int, default=300, help="encode the first N chunks (default 300)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    p.add_argument(
        "--embedders", nargs="+", default=[FP32_EMBEDDER, DEFAULT_EMBEDDER], help="two or more, the first the reference"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_embedder(a.docs, a.questions, chunks=a.chunks, rounds=a.rounds, embedders=a.embedders)
        )
    )


def _quotes(bench) -> None:
    p = bench.add_parser("quotes", help="quote anchoring: perturbed quotes from the PDFs under DIR")
    p.add_argument("--pdfs", required=True, nargs="+", help="folders (or PDF files)")
    p.add_argument("--quotes", type=int, default=1000, help="how many quotes (default 1000)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_prints(lambda a: bench_quotes(a.pdfs, n=a.quotes)))


def _draft(bench) -> None:
    p = bench.add_parser("draft", help="draft a filled questionnaire with its answers hidden and score it")
    store_arg(p)
    p.add_argument("--questionnaire", required=True)
    p.add_argument("--truth", required=True, help="JSONL lines {id, question, answer, comment}")
    p.add_argument("--limit", type=int)
    p.add_argument("--whole-chunks", action="store_true", help="prompt with the whole retrieved chunks (no compaction)")
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_draft(
                a.store,
                a.questionnaire,
                a.truth,
                limit=a.limit,
                model=a.model,
                llm_url=a.llm_url,
                whole_chunks=a.whole_chunks,
                embedder=a.embedder,
                evidence=a.evidence,
            )
        )
    )


def _translated(bench) -> None:
    p = bench.add_parser(
        "translated",
        help="the translated HECVAT set (de, fr, es, nl, ja) drafted beside its English original and scored (#58)",
    )
    store_arg(p)
    p.add_argument("--dir", default="../shared/data/translated", help="the translated set's folder (truth.jsonl)")
    p.add_argument("--product", default="Canvas Credentials", help="the product drafted for")
    p.add_argument("--languages", nargs="*", default=list(LANGUAGES), choices=LANGUAGES)
    p.add_argument("--yesno", type=int, default=20, help="the first N Yes/No rows (0: all 50)")
    p.add_argument("--text", type=int, default=0, help="the first N text rows (at most 10)")
    p.add_argument("--ids", nargs="*", default=[], help="only these rows of those chosen (e.g. DOCU-11 ITAC-03)")
    p.add_argument("--drafts", help="write every draft as JSON lines here")
    p.add_argument("--no-retrieval", action="store_true", help="skip the model-free comparison of retrieval")
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_translated(
                a.store,
                a.dir,
                a.product,
                a.languages,
                yesno=a.yesno or None,
                text=a.text,
                model=a.model,
                llm_url=a.llm_url,
                drafts_out=a.drafts,
                retrieval=not a.no_retrieval,
                ids=a.ids,
            )
        )
    )


def _ask(bench) -> None:
    p = bench.add_parser(
        "ask",
        help="ask-a-document on PolicyQA: character precision / recall / F1 of the excerpts, "
        "embedding-free against hybrid retrieval",
    )
    p.add_argument("--policyqa", required=True, help="PolicyQA test.json (SQuAD format)")
    p.add_argument("--limit", type=int, help="the first N questions, taken in turn from each policy (default: all)")
    p.add_argument("--policies", type=int, help="keep only the questions of the first P policies")
    p.add_argument(
        "--evidence",
        nargs="+",
        choices=[e.value for e in Evidence],
        default=[e.value for e in Evidence],
        help="the embedding-free variants to run (default both)",
    )
    p.add_argument("--window", type=int, default=WINDOW, help=f"sentence window of the excerpts (default {WINDOW})")
    p.add_argument("--subdoc-words", type=int, default=SUBDOC_WORDS)
    p.add_argument("--answer", action="store_true", help="also write each answer (timed; not scored)")
    p.add_argument("--cache", help="JSONL file of the model's readings (reused, appended: a killed run resumes)")
    p.add_argument(
        "--cached-only", action="store_true", help="score only the questions the cache has readings of (no model)"
    )
    p.add_argument("--embedder", help="sentence-transformers folder or name for the hybrid rows")
    model_args(p, evidence=False)
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(
            lambda a: bench_ask(
                a.policyqa,
                limit=a.limit,
                policies_kept=a.policies,
                evidence=a.evidence,
                window=a.window,
                subdoc_words=a.subdoc_words,
                answer=a.answer,
                cache=a.cache,
                embedder=a.embedder,
                model=a.model,
                llm_url=a.llm_url,
                cached_only=a.cached_only,
            )
        )
    )


def _llama_cpu(bench) -> None:
    p = bench.add_parser("llama-cpu", help="llama.cpp built for each CPU set, A/B interleaved: tokens/s and s/question")
    p.add_argument("--cpus", nargs="+", choices=sorted(CPU_SETS), default=sorted(CPU_SETS))
    p.add_argument(
        "--rounds", type=int, default=3, help="interleaved rounds (each set once per round, order alternating)"
    )
    p.add_argument(
        "--questions", type=int, default=6, help="sample questions drafted per set and round (0: tokens/s only)"
    )
    p.add_argument("--model", help="a registered model name or a GGUF path (default: the default model)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(
        func=_prints(lambda a: bench_llama_cpu(a.cpus, rounds=a.rounds, questions=a.questions, model=a.model))
    )


def _llama_slots(bench) -> None:
    p = bench.add_parser(
        "llama-slots", help="llama.cpp's llama-server (make llama-server) with 1 slot against N: calls sent at once"
    )
    p.add_argument("--slots", nargs="+", type=int, default=[1, 4], help="the --parallel values compared")
    p.add_argument("--calls", type=int, default=4, help="drafting calls sent at the same time")
    p.add_argument("--rounds", type=int, default=2, help="rounds (the slot counts in alternating order)")
    p.add_argument("--model", help="a registered model name or a GGUF path (default: the default model)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_prints(lambda a: bench_llama_slots(a.slots, calls=a.calls, rounds=a.rounds, model=a.model)))
