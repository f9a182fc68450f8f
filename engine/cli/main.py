"""Command line: ``python -m engine …`` (``--help`` on any command)."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import Sequence

from engine import bench
from engine.bench.beir import DEFAULT_MODES as BEIR_DEFAULT
from engine.bench.beir import MODES as BEIR_MODES
from engine.bench.library_cli import add_library_evals
from engine.cli import ask as cli_ask
from engine.cli.checks import check_arguments
from engine.cli.doctor import add_doctor_command
from engine.cli.inspect import add_inspect_command, add_questionnaire_args, read_from_args
from engine.cli.profile import add_profile
from engine.core.config import ATOM_MODES, RETRIEVAL_MODES, EngineConfig, Mode, SummaryWriter
from engine.core.limits import Limits, add_limit_args
from engine.core.scopes import FolderScopes, Scope, ScopeFilter
from engine.core.types import FileProblem
from engine.drafting.generate import GeneratorError, make_generator
from engine.drafting.generate.prompt import Evidence
from engine.index.embed.dense import DenseEncoder, EmbedderError
from engine.index.errors import KnowledgeBaseError
from engine.index.kb_indexes import INDEX_MODES
from engine.index.library import LIBRARY_FILE, AnswerLibrary
from engine.llama_build import CPU_SETS
from storage.library_store import LibraryStoreError
from storage.review_store import ReviewStore, ReviewStoreError
from storage.snapshots import restore, set_aside, status, take_review

DEFAULT_STORE = Path("store")


_UNITS = {"reading": "file", "encoding": "chunk", "embedding questions": "question", "drafting": "question",
          "summarising": "call", "writing questions": "atom"}


def _progress_bar():
    """A progress callback drawing one tqdm bar per stage on stderr ("3.20s/question")."""
    from tqdm import tqdm

    bars: dict[str, tqdm] = {}

    def progress(stage: str, done: int, total: int) -> None:
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = tqdm(total=total, desc=stage, unit=_UNITS.get(stage, "step"), file=sys.stderr,
                                     leave=False, dynamic_ncols=True)
        bar.total = total
        bar.n = done
        bar.refresh()
        if done >= total:
            bar.close()

    return progress


def _config(args: argparse.Namespace) -> EngineConfig:
    return EngineConfig.from_env(
        embedder=getattr(args, "embedder", None),
        mode=getattr(args, "mode", None),
        alpha=getattr(args, "alpha", None),
        top_k=getattr(args, "top_k", None),
        summaries=getattr(args, "summaries", None),
    )


def _kb(args: argparse.Namespace):
    from engine.index.kb import KnowledgeBase  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    return KnowledgeBase(Path(args.store), _config(args), llm=_indexing_llm(args), limits=Limits.from_args(args))


def _indexing_llm(args: argparse.Namespace):
    """What writes summaries and atom questions in `kb add` / `kb reindex`: the local LLM
    (loaded only when something has to be written), or None for extractive summaries."""
    if not hasattr(args, "summaries"):
        return None  # not an indexing command
    writer = _config(args).summaries
    if writer is SummaryWriter.EXTRACTIVE and "atom-questions" not in (args.index_modes or ()):
        return None

    return lambda: make_generator(args.model, args.llm_url)


def _notes(kb) -> None:
    for note in kb.indexes.notes:
        print(f"note: {note}", file=sys.stderr)


def _scope(args: argparse.Namespace):
    """The scope named by --product / --third-party / --company; None when none was given."""
    if getattr(args, "company", False):
        return Scope()
    if getattr(args, "third_party", None):
        return Scope(third_party=args.third_party)
    if getattr(args, "products", None):
        return Scope(tuple(args.products))
    return None


def cmd_kb_add(args: argparse.Namespace) -> int:
    kb = _kb(args)
    report = kb.add([Path(p) for p in args.paths], progress=_progress_bar(), scope=_scope(args),
                    index_modes=args.index_modes or ())
    _notes(kb)
    for doc in report.added:
        verb = "replaced" if doc.name in report.replaced else "added"
        where = f", {doc.pages} pages" if doc.pages else ""
        print(f"{verb}: {doc.name} ({doc.kind.value}{where}, {doc.chunks} chunks, {doc.scope.label})")
        for note in doc.notes:
            print(f"  note: {note}")
    for name in report.unchanged:
        print(f"unchanged: {name}")
    for doc in report.rescoped:
        print(f"scope: {doc.name} is now {doc.scope.label}")
    for skipped in report.skipped:
        print(f"skipped: {skipped}", file=sys.stderr)
    for error in report.errors:
        print(f"error: {error}", file=sys.stderr)
    total = sum(d.chunks for d in kb.documents())
    print(f"{len(kb.documents())} documents, {total} chunks in {kb.folder}")
    return 1 if report.errors and not report.added else 0


def cmd_kb_list(args: argparse.Namespace) -> int:
    docs = _kb(args).documents()
    if args.json:
        print(json.dumps([d.to_json() for d in docs], indent=1))
        return 0
    if not docs:
        print(f"no documents in {args.store}; add some with `python -m engine kb add PATH --store {args.store}`")
        return 0
    width = max(len(d.name) for d in docs)
    for d in docs:
        pages = f"{d.pages} p" if d.pages else ""
        print(f"{d.name:<{width}}  {d.kind.value:<5} {pages:>6} {d.chunks:>6} chunks  added {d.added}  {d.scope.label}")
        for note in d.notes:
            print(f"{'':<{width}}  note: {note}")
    return 0


def cmd_kb_scope(args: argparse.Namespace) -> int:
    kb = _kb(args)
    changed = kb.set_scopes({args.name: _scope(args)})
    print(f"{args.name}: {kb.document(args.name).scope.label}" + ("" if changed else " (unchanged)"))
    return 0


def cmd_kb_remove(args: argparse.Namespace) -> int:
    doc = _kb(args).remove(args.name, progress=_progress_bar())
    print(f"removed: {doc.name} ({doc.chunks} chunks)")
    return 0


def cmd_kb_reindex(args: argparse.Namespace) -> int:
    from storage.vector_store import IndexDamaged, release  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    try:
        kb = _kb(args)
    except IndexDamaged as exc:  # derived from the stored files: moved aside untouched, built again
        release(exc.file)
        moved = set_aside(Path(exc.file), "damaged")
        print(f"note: {exc.problem}; moved it aside to {moved[0]} and building it again", file=sys.stderr)
        kb = _kb(args)
    kb.reindex(progress=_progress_bar(), index_modes=args.index_modes, rewrite_summaries=args.rewrite_summaries)
    _notes(kb)
    modes = f", index modes {' '.join(kb.manifest.index_modes)}" if kb.manifest.index_modes else ""
    print(f"re-indexed {len(kb.documents())} documents with {kb.manifest.embedder}, alpha {kb.alpha}{modes}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    if args.list:
        print("\n".join(status(Path(args.store))))
        return 0
    for done in restore(Path(args.store), args.snapshot):
        aside = f"; the file it replaces was moved aside, untouched: {', '.join(p.name for p in done.moved)}" if done.moved else ""
        print(f"restored {done.target} from {done.snapshot.name}{aside}")
    return 0


def cmd_kb_summary(args: argparse.Namespace) -> int:
    kb = _kb(args)
    if args.set is not None:
        text = sys.stdin.read() if args.set == "-" else Path(args.set).read_text(encoding="utf-8")
        summary = kb.indexes.edit_summary(args.name, text)
    else:
        summary = kb.indexes.summary(args.name)
    if args.json:
        print(json.dumps(summary.to_json(), indent=1, ensure_ascii=False))
        return 0
    by = f"{summary.method.value}" + (f", {summary.model}" if summary.model else "")
    print(f"{args.name} ({by}, {len(summary.text.split())} words)\n{summary.text}")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from engine.retrieval.retrieve import search  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    kb = _kb(args)
    scope = ScopeFilter(args.product) if args.product or args.company_wide else None
    hits = search(kb, args.question, top_k=args.top_k, mode=args.mode, scope=scope)
    if args.json:
        print(json.dumps([h.to_json() for h in hits], indent=1, ensure_ascii=False))
        return 0
    for rank, hit in enumerate(hits, 1):
        c = hit.chunk
        where = f"p. {c.page}" if c.page else (f"{c.sheet} row {c.row}" if c.sheet else (c.section or ""))
        text = " ".join(c.text.split())
        print(f"{rank}. {hit.score:.3f}  {c.doc}  {where}\n   {text[:240]}{'…' if len(text) > 240 else ''}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from engine.cli.demo import run_demo  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    run_demo(_kb(args), _progress_bar(), questions=args.questions)
    return 0


def _library(args: argparse.Namespace, kb=None, create: bool = False):
    """The store's answer library; None when the store has none (and ``create`` is not set)."""
    store = Path(args.store)
    if not create and not (store / LIBRARY_FILE).is_file():
        return None
    return AnswerLibrary(store, kb.encoder if kb is not None else (lambda: _encoder(args)))


def _encoder(args: argparse.Namespace):
    """The configured dense encoder, without opening the knowledge base (its Qdrant folder
    admits one process at a time)."""
    config = _config(args)
    return DenseEncoder(config.embedder, config.batch_size)


def cmd_library_import(args: argparse.Namespace) -> int:
    library = _library(args, create=True)
    progress = _progress_bar()
    failed = 0
    for path in map(Path, args.paths):
        try:
            report = library.import_file(path, progress=progress, product=args.product, limits=Limits.from_args(args))
        except FileProblem as exc:
            failed += 1
            print(f"error: {exc}", file=sys.stderr)
            continue
        verb = "re-imported" if report.replaced else "imported"
        skipped = f", {report.skipped} unanswered skipped" if report.skipped else ""
        replaced = f", replacing {_entries(report.replaced)}" if report.replaced else ""
        print(f"{verb}: {report.file} ({_entries(report.entries)} of {report.questions} questions{skipped}{replaced})")
        for note in report.notes:
            print(f"  note: {note}")
    print(f"{_entries(len(library.entries()))} in {library.store.path}")
    return 1 if failed == len(args.paths) else 0


def _entries(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


def _short(text: str | None, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def cmd_library_list(args: argparse.Namespace) -> int:
    library = _library(args)
    entries = library.entries(include_retired=args.all) if library else []
    if args.json:
        print(json.dumps([e.to_json() for e in entries], indent=1, ensure_ascii=False))
        return 0
    if not entries:
        print(f"no answer library in {args.store}; import past filled questionnaires with "
              f"`python -m engine library import FILE --store {args.store}`")
        return 0
    for e in entries:
        mark = " (retired)" if e.retired else ""
        print(f"#{e.id:<5} {e.qid or '':<10} {_short(e.choice, 8):<8} {_short(e.question, 70):<70}  "
              f"{e.file}, {e.sheet} row {e.row}, {e.origin.value} {e.imported}{mark}")
    return 0


def cmd_library_check(args: argparse.Namespace) -> int:
    library = _library(args)
    conflicts = library.conflicts() if library else []
    if args.json:
        print(json.dumps([c.to_json() for c in conflicts], indent=1, ensure_ascii=False))
        return 0
    for c in conflicts:
        counts = ", ".join(f"{choice} ×{n}" for choice, n in c.choices.items())
        print(f"conflict ({counts}; similarity {c.score:.2f}): {_short(c.question, 100)}")
        for e in c.entries:
            print(f"  #{e.id:<5} {e.choice:<8} {e.file}, {e.sheet} row {e.row}{f', ID {e.qid}' if e.qid else ''}")
    entries = len(library.entries()) if library else 0
    print(f"{len(conflicts)} conflict{'' if len(conflicts) == 1 else 's'} among {_entries(entries)}"
          + (f"; retire the wrong answers with `python -m engine library retire ID --store {args.store}`" if conflicts else ""))
    return 0


def cmd_library_retire(args: argparse.Namespace) -> int:
    library = _library(args)
    if library is None:
        raise FileNotFoundError(f"{args.store} has no answer library; import files first")
    for entry_id in args.ids:
        e = library.retire(entry_id)
        print(f"retired #{e.id}: {_short(e.question, 90)} ({e.file}, {e.sheet} row {e.row})")
    return 0


def _warm_up(generator) -> None:
    try:
        generator.warm_up()
    except Exception:  # noqa: BLE001 — the first question meets the same problem and reports it
        pass


def cmd_draft(args: argparse.Namespace) -> int:
    from engine.drafting.drafter import Drafter  # noqa: PLC0415 (defers qdrant-client: --help stays fast)
    from engine.review.draft_run import draft_questionnaire  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    questionnaire = read_from_args(args)
    review = ReviewStore(Path(args.store) / "review.sqlite")  # a damaged one is refused before the model loads
    kb = _kb(args)
    library = _library(args, kb)
    if library is None or not library.entries():
        kb.index  # an empty store fails here, before the model loads
    generator = make_generator(args.model, args.llm_url, evidence=args.evidence)
    warm = threading.Thread(target=_warm_up, args=(generator,), name="warm-up", daemon=True)
    warm.start()  # the system prompt is evaluated while the embedder loads (≈ 11 s, once per process)
    kb.encoder
    warm.join()
    try:
        run = draft_questionnaire(
            questionnaire, Drafter(kb, generator, library=library, product=args.product, mode=args.mode), review,
            results=Path(args.results) if args.results else None, out=Path(args.out) if args.out else None,
            limit=args.limit, redo_answered=args.redo_answered, progress=_progress_bar(),
        )
    finally:
        take_review(review)  # a snapshot after each drafting run (storage/snapshots.py)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(run.counts.items())) or "nothing to draft"
    print(f"{len(run.drafted)} drafted now, {run.resumed} kept from an earlier run ({counts}); "
          f"{run.skipped_answered} already answered in the file" + ("" if args.redo_answered else " (skipped; --redo-answered drafts them)"))
    reused = [d for d in run.drafted if d.reused]
    if reused:
        disputed = sum(d.disputed for d in reused)
        print(f"{len(reused)} reused a past answer from the library"
              + (f"; in {disputed} the near-identical past answers disagree on the choice (review those first: "
                 "\"past_choices\" in the results, a warning on the Review screen)" if disputed else ""))
        crossed = sum(bool(d.from_product) for d in reused)
        if crossed:
            print(f"{crossed} took only the choice of another product's past answer (\"from_product\" and "
                  "\"past_answers\" in the results; the explanation drafted from the documents): review them first")
    facts = sum(bool(d.profile_fact) for d in run.drafted)
    if facts:
        print(f"{facts} answered from the company or product profile (\"profile_fact\"; python -m engine profile)")
    if run.exported:
        print(f"wrote {run.exported}")
    if args.results:
        print(f"wrote {args.results}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    result = bench.run(args)
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from engine.bench.evaluate import evaluate_questionnaire  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    result = evaluate_questionnaire(args.kb, args.library, args.target, args.truth, store=args.store, limit=args.limit,
                                    model=args.model, llm_url=args.llm_url, evidence=args.evidence, report=args.report,
                                    embedder=args.embedder, progress=_progress_bar(), product=args.product,
                                    folders=_folder_scopes(args), mode=args.mode, all_rows=args.all_rows,
                                    drafts=args.drafts)
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


def _folder_scopes(args: argparse.Namespace):
    """--scope-folders: scopes from folder names (FolderScopes), else None."""
    if not args.scope_folders:
        return None
    return FolderScopes(args.company_folder, tuple(args.third_party_folder))


def cmd_leave_one_out(args: argparse.Namespace) -> int:
    from engine.bench.evaluate import leave_one_out  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    result = leave_one_out(args.kb, [tuple(p) for p in args.pair], library=not args.no_library, store=args.store,
                           limit=args.limit, model=args.model, llm_url=args.llm_url, evidence=args.evidence,
                           reports=args.reports, embedder=args.embedder, progress=_progress_bar(), product=args.product,
                           folders=_folder_scopes(args), mode=args.mode, all_rows=args.all_rows, drafts=args.drafts)
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="RFP review assistant engine")
    sub = parser.add_subparsers(dest="command", required=True)

    def store_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--store", default=str(DEFAULT_STORE), help="knowledge-base folder (default: ./store)")
        p.add_argument("--embedder", help="sentence-transformers name or folder (default all-MiniLM-L6-v2)")

    def scope_args(p: argparse.ArgumentParser, company: bool = False) -> None:
        g = p.add_mutually_exclusive_group(required=company)
        g.add_argument("--product", dest="products", action="append", metavar="NAME",
                       help="the documents belong to this product (repeat for several)")
        g.add_argument("--third-party", metavar="NAME", help="the documents are this third party's (e.g. a cloud provider's)")
        if company:
            g.add_argument("--company", action="store_true", help="the document is company-wide")

    def product_arg(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument("--product", metavar="NAME", help=what)

    def model_args(p: argparse.ArgumentParser, evidence: bool = True) -> None:
        g = p.add_mutually_exclusive_group()
        g.add_argument("--model", help="a registered model (qwen2.5-coder-1.5b, the default; smollm2-135m, fast "
                                      "and weak) or the path of any GGUF file")
        g.add_argument("--llm-url", help="an OpenAI-compatible server (llama.cpp server, vLLM, Ollama), e.g. http://127.0.0.1:8080")
        if evidence:  # `ask` and `bench ask` have their own (a different default, several forms)
            p.add_argument("--evidence", choices=[e.value for e in Evidence],
                           help="how the model points at its evidence: the labels of numbered context sentences (sentences, "
                                "the default: every quote is an exact sentence) or quotes copied word for word (quotes)")

    def indexing_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--summaries", choices=[w.value for w in SummaryWriter],
                       help="who writes the document summaries: the local LLM (default, RFP_SUMMARIES; extractive when "
                            "no model can be loaded) or extractive (the documents' central sentences, no LLM)")
        p.add_argument("--index-modes", nargs="+", choices=INDEX_MODES,
                       help="also build these indexes, now and on every later add (atom-questions runs the LLM on every sentence)")
        model_args(p)

    kb = sub.add_parser("kb", help="manage the knowledge base").add_subparsers(dest="kb_command", required=True)
    p = kb.add_parser("add", help="add files or folders (recursive)")
    p.add_argument("paths", nargs="+")
    store_arg(p)
    p.add_argument("--alpha", type=float, help="dense weight of the hybrid vectors for a new store (default 0.5; change it later with kb reindex)")
    scope_args(p)
    indexing_args(p)
    add_limit_args(p)
    p.set_defaults(func=cmd_kb_add)
    p = kb.add_parser("list", help="list the documents")
    store_arg(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_kb_list)
    p = kb.add_parser("remove", help="remove a document by name")
    p.add_argument("name")
    store_arg(p)
    p.set_defaults(func=cmd_kb_remove)
    p = kb.add_parser("scope", help="change a document's scope: a product's, a third party's or company-wide")
    p.add_argument("name")
    store_arg(p)
    scope_args(p, company=True)
    p.set_defaults(func=cmd_kb_scope)
    p = kb.add_parser("reindex", help="rebuild the index (after changing the embedder or alpha)")
    store_arg(p)
    p.add_argument("--alpha", type=float, help="new dense weight of the hybrid vectors")
    indexing_args(p)
    p.add_argument("--rewrite-summaries", action="store_true",
                   help="write again the summaries written another way (extractive ones with --summaries llm); never edited ones")
    add_limit_args(p)
    p.set_defaults(func=cmd_kb_reindex)
    p = kb.add_parser("summary", help="show a document's summary, or replace it with your own (--set)")
    p.add_argument("name")
    store_arg(p)
    p.add_argument("--set", metavar="FILE", help="the new summary from FILE ('-': standard input); it is re-embedded")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_kb_summary)

    p = sub.add_parser("restore", help="list (--list) or restore the snapshots of the review store and the knowledge-base "
                                       "manifest kept in STORE/backups")
    p.add_argument("snapshot", nargs="?", metavar="SNAPSHOT",
                   help="a snapshot's file name (default: the newest good snapshot of review.sqlite, and of "
                        "manifest.json when it is damaged)")
    p.add_argument("--store", default=str(DEFAULT_STORE), help="the workspace or knowledge-base folder (default: ./store)")
    p.add_argument("--list", action="store_true", help="show the snapshots and whether each file reads as a whole")
    p.set_defaults(func=cmd_restore)

    lib = sub.add_parser("library", help="the answer library: past answered questionnaires").add_subparsers(
        dest="library_command", required=True)
    p = lib.add_parser("import", help="import past filled questionnaires (.xlsx/.xlsm/.csv); the same file again "
                                      "(same path or same content) replaces its entries")
    p.add_argument("paths", nargs="+", metavar="FILE")
    store_arg(p)
    product_arg(p, "the product these questionnaires answered for (default: company-wide)")
    add_limit_args(p)
    p.set_defaults(func=cmd_library_import)
    p = lib.add_parser("list", help="list the entries")
    store_arg(p)
    p.add_argument("--all", action="store_true", help="include retired entries")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_library_list)
    p = lib.add_parser("check", help="near-identical questions answered with different choices")
    store_arg(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_library_check)
    p = lib.add_parser("retire", help="stop reusing entries (by id, see `library list`)")
    p.add_argument("ids", nargs="+", type=int, metavar="ID")
    store_arg(p)
    p.set_defaults(func=cmd_library_retire)

    p = sub.add_parser("search", help="retrieve the chunks that best answer a question")
    p.add_argument("question")
    store_arg(p)
    p.add_argument("--top-k", type=int, default=None, help="number of hits (default 5)")
    p.add_argument("--mode", choices=RETRIEVAL_MODES, help="retrieval mode or strategy (default weighted)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--product", metavar="NAME", help="only the documents a questionnaire of this product is drafted from")
    g.add_argument("--company-wide", action="store_true", help="only the documents a company-wide questionnaire is drafted from")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("demo", help="index the bundled sample and answer its first questions")
    store_arg(p)
    p.add_argument("--questions", type=int, default=6, help="how many sample questions to show")
    p.set_defaults(func=cmd_demo)

    add_inspect_command(sub)

    p = sub.add_parser("draft", help="draft answers for a questionnaire (resumable)")
    add_questionnaire_args(p)
    store_arg(p)
    p.add_argument("--out", help="the completed workbook (a copy of the original with the answer cells filled)")
    p.add_argument("--results", help="results.jsonl, one line per question")
    p.add_argument("--limit", type=int, help="draft only the first N questions that would be drafted")
    p.add_argument("--redo-answered", action="store_true", help="also draft questions the file already answers")
    p.add_argument("--top-k", type=int, default=None, help="passages retrieved per question (default 5)")
    p.add_argument("--mode", choices=RETRIEVAL_MODES, help="retrieval mode or strategy (default weighted; summary: "
                                                          "Summary RAG)")
    product_arg(p, "draft for this product: its, company-wide and third-party documents (default: company-wide "
                   "and third-party documents only)")
    model_args(p)
    add_limit_args(p)
    p.set_defaults(func=cmd_draft)
    cli_ask.add_ask_command(sub, store_arg, model_args, _progress_bar)

    bench = sub.add_parser("bench", help="benchmarks (print JSON)").add_subparsers(dest="bench_command", required=True)
    p = bench.add_parser("page-finder", help="page attribution of every chunk of the PDFs under DIR")
    p.add_argument("--pdfs", required=True, nargs="+", help="folders (or PDF files)")
    p.add_argument("--no-dense", action="store_true", help="skip the (slow) dense baseline")
    p.add_argument("--embedder")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    p = bench.add_parser("retrieval", help="R@1/R@2/R@5 on SQuAD v1.1 dev paragraphs")
    p.add_argument("--squad", required=True, help="dev-v1.1.json")
    p.add_argument("--modes", nargs="+", default=[*(m.value for m in Mode), ATOM_MODES[0]], choices=[*(m.value for m in Mode), *ATOM_MODES],
                   help="default: all but atom-questions (it runs the LLM on every sentence: slow on a CPU, see --cache)")
    p.add_argument("--alpha", type=float)
    p.add_argument("--limit", type=int, help="use the first N paragraphs and the questions about them only")
    p.add_argument("--embedder", help="sentence-transformers folder or name (all-mpnet-base-v2 after `make bench-models`)")
    p.add_argument("--cache", help="atom-questions: JSONL file of the generated questions (reused, appended; a killed run resumes)")
    p.add_argument("--questions-per-atom", type=int, help="atom-questions: questions asked per atom (default 3)")
    p.add_argument("--tau", type=float, help="atom-questions: cosine distance under which a question repeats a kept one (default 0.1)")
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = bench.add_parser("beir", help="nDCG@10/@100 and Recall@100 on BEIR SciFact: dense, weighted and Summary RAG")
    p.add_argument("--scifact", required=True, help="the BEIR SciFact folder (corpus.jsonl, queries.jsonl, qrels/test.tsv)")
    p.add_argument("--modes", nargs="+", default=list(BEIR_DEFAULT), choices=BEIR_MODES,
                   help="default: all but summary-llm (one LLM call per document: slow on a CPU, see --cache)")
    p.add_argument("--limit-docs", type=int, help="a subset: the documents judged relevant, then the first others up to N")
    p.add_argument("--alpha", type=float)
    p.add_argument("--embedder")
    p.add_argument("--cache", help="summary-llm: a folder keeping the summaries as they are written (a killed run resumes)")
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    p = bench.add_parser("summaries", help="what summarising each document costs: LLM calls, tokens, seconds")
    p.add_argument("--docs", required=True, nargs="+", help="files or folders")
    p.add_argument("--summaries", choices=[w.value for w in SummaryWriter], default=SummaryWriter.LLM.value)
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    p = bench.add_parser("evidence", help="evidence recall of compacted prompts against whole chunks, on SQuAD v1.1 dev")
    p.add_argument("--squad", required=True, help="dev-v1.1.json")
    p.add_argument("--budgets", nargs="+", type=int, help="passage token budgets to compare (default 150 200 250 350)")
    p.add_argument("--limit", type=int, help="use the first N paragraphs and the questions about them only")
    p.add_argument("--top-k", type=int, help="paragraphs retrieved per question (default: the drafting top-k, 5)")
    p.add_argument("--embedder", help="sentence-transformers folder or name")
    p.add_argument("--model", help="a registered model or GGUF file whose tokenizer counts the tokens (default: qwen2.5-coder-1.5b)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    p = bench.add_parser("latency", help="ingestion throughput and retrieval latency")
    p.add_argument("--docs", required=True, nargs="+", help="folders (or files) of documents")
    p.add_argument("--questions", required=True, help="text file, one question per line")
    p.add_argument("--mode", choices=[m.value for m in Mode])
    p.add_argument("--embedder")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    p = bench.add_parser("quotes", help="quote anchoring: perturbed quotes from the PDFs under DIR")
    p.add_argument("--pdfs", required=True, nargs="+", help="folders (or PDF files)")
    p.add_argument("--quotes", type=int, default=1000, help="how many quotes (default 1000)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    p = bench.add_parser("draft", help="draft a filled questionnaire with its answers hidden and score it")
    store_arg(p)
    p.add_argument("--questionnaire", required=True)
    p.add_argument("--truth", required=True, help="JSONL lines {id, question, answer, comment}")
    p.add_argument("--limit", type=int)
    p.add_argument("--whole-chunks", action="store_true", help="prompt with the whole retrieved chunks (no compaction)")
    model_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    cli_ask.add_bench_ask(bench, model_args, cmd_bench)
    p = bench.add_parser("llama-cpu", help="llama.cpp built for each CPU set, A/B interleaved: tokens/s and s/question")
    p.add_argument("--cpus", nargs="+", choices=sorted(CPU_SETS), default=sorted(CPU_SETS))
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (each set once per round, order alternating)")
    p.add_argument("--questions", type=int, default=6, help="sample questions drafted per set and round (0: tokens/s only)")
    p.add_argument("--model", help="a registered model name or a GGUF path (default: the default model)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
    add_doctor_command(sub)

    ev = sub.add_parser("eval", help="answer quality on real filled questionnaires (print JSON)")
    ev = ev.add_subparsers(dest="eval_command", required=True)

    def eval_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--kb", nargs="+", default=[], help="knowledge-base documents (files or folders)")
        p.add_argument("--store", help="keep the knowledge base in this folder between runs (default: a temporary one)")
        p.add_argument("--embedder")
        p.add_argument("--mode", choices=RETRIEVAL_MODES, help="retrieval mode or strategy of the drafts (default weighted; "
                                                              "summary: Summary RAG, with the model's summaries)")
        model_args(p)
        product_arg(p, "the product the target is drafted for (default: company-wide, or with --scope-folders "
                       "the target's folder)")
        p.add_argument("--scope-folders", action="store_true",
                       help="each document's scope is its folder's name: --company-folder company-wide, "
                            "--third-party-folder third parties', any other folder a product; library files "
                            "and the target are for their folder's product")
        p.add_argument("--company-folder", default=FolderScopes.company, metavar="NAME",
                       help=f"with --scope-folders: the company-wide folder (default {FolderScopes.company!r})")
        p.add_argument("--third-party-folder", nargs="+", default=list(FolderScopes.third_parties), metavar="NAME",
                       help="with --scope-folders: the third parties' folders (default: "
                            + ", ".join(repr(t) for t in FolderScopes.third_parties) + ")")
        p.add_argument("--json", action="store_true")

    p = ev.add_parser("questionnaire", help="draft a filled questionnaire with its answers hidden, with a knowledge "
                                            "base and an answer library built for the run, and score it")
    eval_args(p)
    p.add_argument("--library", nargs="*", default=[], help="past filled questionnaires for the answer library")
    p.add_argument("--target", required=True, help="the filled questionnaire to draft (its answers are hidden)")
    p.add_argument("--truth", required=True, help="JSONL lines {id, question, answer, comment} of the target")
    p.add_argument("--limit", type=int, help="score the first N Yes/No questions only")
    p.add_argument("--report", help="also write an HTML report (confusion table, one row per question)")
    p.add_argument("--all-rows", action="store_true", help="draft every row, and report per row type (profile, "
                                                           "gated, dropdown, narrative; engine/bench/rows.py); "
                                                           "--limit then counts rows")
    p.add_argument("--drafts", help="with --all-rows: write every drafted row to this JSONL file (for "
                                    "python -m engine.bench.leaks)")
    p.set_defaults(func=cmd_eval)
    p = ev.add_parser("leave-one-out", help="each filled questionnaire in turn as the target, the others as its "
                                            "answer library; figures per target and over all")
    eval_args(p)
    p.add_argument("--pair", nargs=2, action="append", required=True, metavar=("FILLED", "TRUTH"),
                   help="a filled questionnaire and its JSONL truth file (repeat for each questionnaire)")
    p.add_argument("--no-library", action="store_true", help="the documents alone: no target gets a library")
    p.add_argument("--limit", type=int, help="score the first N Yes/No questions of each target only")
    p.add_argument("--reports", help="a folder for one HTML report per target")
    p.add_argument("--all-rows", action="store_true", help="draft every row of each target, and report per row type")
    p.add_argument("--drafts", help="with --all-rows: write every target's drafted rows to this JSONL file (for "
                                    "python -m engine.bench.leaks)")
    p.set_defaults(func=cmd_leave_one_out)

    add_library_evals(ev)  # eval cross-product, eval profile: no language model

    add_profile(sub, store_arg)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        check_arguments(args)  # before any file is read, model loads or heavy module is imported
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from storage.vector_store import StoreLockedError  # noqa: PLC0415 (defers qdrant-client: --help stays fast)

    known = (KnowledgeBaseError, StoreLockedError, EmbedderError, GeneratorError, FileProblem,
             ReviewStoreError, LibraryStoreError, ValueError, FileNotFoundError)
    try:
        return args.func(args)
    except known as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ninterrupted; {interrupted_means(args)}", file=sys.stderr)  # below a progress bar
        return 130


def interrupted_means(args: argparse.Namespace) -> str:
    """What Ctrl-C left behind, said for the command that was stopped."""
    part = getattr(args, "kb_command", None) or getattr(args, "library_command", None)
    if args.command in ("kb", "library") and (part not in ("list", "check", "summary") or getattr(args, "set", None)):
        return "the knowledge base is as it was before this command"
    if args.command == "draft":
        return "the drafts written so far are kept; run the same command again to continue"
    if getattr(args, "cache", None):
        return f"what the model read so far is kept in {args.cache}; run the same command again to resume"
    return "nothing was changed"


if __name__ == "__main__":
    sys.exit(main())
