"""``python -m engine eval …``: answer quality on real filled questionnaires, printed as JSON.
``eval questionnaire`` and ``eval leave-one-out`` draft with a knowledge base and an answer
library built for the run (engine/bench/evaluate.py); ``eval cross-product``, ``eval profile`` and
``eval company-narratives`` need no language model, only the answer library and MiniLM (engine/bench/library_only.py): how
often another product's past choice is right (the calibration of engine/drafting/cross_product.py),
and profile rows answered from a profile learned leave-one-out (engine/index/profile.py)."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from engine.bench.company_narratives import narratives as company_narratives
from engine.bench.evaluate import evaluate_questionnaire, leave_one_out
from engine.bench.library_only import cross_product, profile_rows
from engine.bench.unasked import Unasked
from engine.cli import common
from engine.cli.common import folder_scope_args, folder_scopes, model_args, print_json, product_arg
from engine.core.config import RETRIEVAL_MODES
from engine.core.scopes import FolderScopes


def register(p: argparse.ArgumentParser) -> None:
    ev = p.add_subparsers(dest="eval_command", required=True)
    p = ev.add_parser(
        "questionnaire",
        help="draft a filled questionnaire with its answers hidden, with a knowledge "
        "base and an answer library built for the run, and score it",
    )
    _eval_args(p)
    p.add_argument("--library", nargs="*", default=[], help="past filled questionnaires for the answer library")
    p.add_argument("--target", required=True, help="the filled questionnaire to draft (its answers are hidden)")
    p.add_argument("--truth", required=True, help="JSONL lines {id, question, answer, comment} of the target")
    p.add_argument("--limit", type=int, help="score the first N Yes/No questions only")
    p.add_argument("--report", help="also write an HTML report (confusion table, one row per question)")
    p.add_argument(
        "--all-rows",
        action="store_true",
        help="draft every row, and report per row type (profile, "
        "gated, dropdown, narrative; engine/bench/rows.py); "
        "--limit then counts rows",
    )
    p.add_argument(
        "--drafts",
        help="with --all-rows: write every drafted row to this JSONL file (for python -m engine.bench.leaks)",
    )
    p.add_argument(
        "--qualifiers-reviewed",
        action="store_true",
        help="with --all-rows: a reviewer answers each qualifier with the vendor's own answer as soon "
        "as it is drafted, and the sections follow it (the time when the qualifiers are answered first)",
    )
    p.set_defaults(func=cmd_eval)
    p = ev.add_parser(
        "leave-one-out",
        help="each filled questionnaire in turn as the target, the others as its "
        "answer library; figures per target and over all",
    )
    _eval_args(p)
    p.add_argument(
        "--pair",
        nargs=2,
        action="append",
        required=True,
        metavar=("FILLED", "TRUTH"),
        help="a filled questionnaire and its JSONL truth file (repeat for each questionnaire)",
    )
    p.add_argument("--no-library", action="store_true", help="the documents alone: no target gets a library")
    p.add_argument("--limit", type=int, help="score the first N Yes/No questions of each target only")
    p.add_argument("--reports", help="a folder for one HTML report per target")
    p.add_argument("--all-rows", action="store_true", help="draft every row of each target, and report per row type")
    p.add_argument(
        "--drafts",
        help="with --all-rows: write every target's drafted rows to this JSONL file (for python -m engine.bench.leaks)",
    )
    p.set_defaults(func=cmd_leave_one_out)
    _library_evals(ev)  # eval cross-product, eval profile: no language model


def _eval_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kb", nargs="+", default=[], help="knowledge-base documents (files or folders)")
    p.add_argument("--store", help="keep the knowledge base in this folder between runs (default: a temporary one)")
    p.add_argument("--embedder")
    p.add_argument(
        "--mode",
        choices=RETRIEVAL_MODES,
        help="retrieval mode or strategy of the drafts (default weighted; "
        "summary: Summary RAG, with the model's summaries)",
    )
    model_args(
        p,
        no_model="draft without the language model (engine/bench/unasked.py): every choice from the answer library "
        "and every text from the documents' sentences or past answers as shipped, the rows only the model would "
        "draft left undrafted; minutes instead of hours (the Review-first calibration, docs/confidence.md)",
    )
    product_arg(
        p, "the product the target is drafted for (default: company-wide, or with --scope-folders the target's folder)"
    )
    folder_scope_args(
        p,
        "each document's scope is its folder's name: --company-folder company-wide, "
        "--third-party-folder third parties', any other folder a product; library files "
        "and the target are for their folder's product",
        FolderScopes.company,
        FolderScopes.third_parties,
    )
    p.add_argument("--json", action="store_true")


def cmd_eval(args: argparse.Namespace) -> int:
    result = evaluate_questionnaire(
        args.kb,
        args.library,
        args.target,
        args.truth,
        store=args.store,
        limit=args.limit,
        model=args.model,
        llm_url=args.llm_url,
        generator=Unasked() if args.no_model else None,
        evidence=args.evidence,
        report=args.report,
        embedder=args.embedder,
        progress=common.progress_bar(),
        product=args.product,
        folders=folder_scopes(args),
        mode=args.mode,
        all_rows=args.all_rows,
        drafts=args.drafts,
        qualifiers_reviewed=args.qualifiers_reviewed,
    )
    return print_json(result, args)


def cmd_leave_one_out(args: argparse.Namespace) -> int:
    result = leave_one_out(
        args.kb,
        [tuple(p) for p in args.pair],
        library=not args.no_library,
        store=args.store,
        limit=args.limit,
        model=args.model,
        llm_url=args.llm_url,
        generator=Unasked() if args.no_model else None,
        evidence=args.evidence,
        reports=args.reports,
        embedder=args.embedder,
        progress=common.progress_bar(),
        product=args.product,
        folders=folder_scopes(args),
        mode=args.mode,
        all_rows=args.all_rows,
        drafts=args.drafts,
    )
    return print_json(result, args)


def _library_evals(ev) -> None:
    """``eval cross-product`` and ``eval profile``: the answer library and MiniLM, no language model."""

    def library_args(p: argparse.ArgumentParser) -> None:
        folder_scope_args(p, None, FolderScopes.company, FolderScopes.third_parties)
        p.add_argument("--store", help="keep the answer library in this folder (default: a temporary one)")
        p.add_argument("--embedder")
        p.add_argument("--json", action="store_true")

    p = ev.add_parser(
        "cross-product",
        help="leave-one-out: how often other products' near-identical past choices "
        "are the target's (no language model)",
    )
    p.add_argument("filled", nargs="+", help="filled questionnaires, each in its product's folder")
    library_args(p)
    p.set_defaults(func=cmd_cross_product)
    p = ev.add_parser(
        "profile",
        help="leave-one-out: the targets' general-information rows answered from the "
        "profile learned from the other questionnaires (no language model)",
    )
    p.add_argument("filled", nargs="+", help="filled questionnaires, each in its product's folder")
    p.add_argument(
        "--truth-dir",
        required=True,
        help="JSONL truth files {id, question, answer}, named after each "
        "file (spaces as _); a file without one: its own answers",
    )
    p.add_argument("--no-documents", action="store_true", help="leave out the facts the products' own PDFs state")
    library_args(p)
    p.set_defaults(func=cmd_profile_eval)
    p = ev.add_parser(
        "company-narratives",
        help="leave-one-out: the targets' narratives other products answered alike, and how many "
        "the drafter reuses as the company's text (no language model)",
    )
    p.add_argument("filled", nargs="+", help="filled questionnaires, each in its product's folder")
    library_args(p)
    p.set_defaults(func=cmd_company_narratives)


def cmd_cross_product(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = cross_product(args.filled, Path(args.store or tmp), common.encoder(args), folder_scopes(args))
    return print_json(result, args)


def cmd_company_narratives(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = company_narratives(args.filled, Path(args.store or tmp), common.encoder(args), folder_scopes(args))
    if not args.json:  # the figures only; --json: every row too
        result["targets"] = [{k: v for k, v in t.items() if k != "rows"} for t in result["targets"]]
    return print_json(result, args)


def cmd_profile_eval(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = profile_rows(
            args.filled,
            Path(args.truth_dir),
            Path(args.store or tmp),
            common.encoder(args),
            folder_scopes(args),
            documents=not args.no_documents,
        )
    return print_json(result, args)
