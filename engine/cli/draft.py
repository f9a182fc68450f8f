"""``python -m engine draft QUESTIONNAIRE``: draft answers for a questionnaire from the knowledge
base and the answer library of ``--store`` (resumable: the drafts are kept in the review store,
and the same command again continues), write the completed workbook (``--out``) and one JSON
line per question (``--results``), and say what was drafted, reused and kept.

The command wires its own objects rather than engine/app/workspace.py's ``Workspace``: it takes
the generator's ``--evidence`` form, the retrieval ``--mode`` and the configuration from its
flags and the environment (not the workspace's settings.json), and it opens no answer library
when the store has none."""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from engine.cli import common
from engine.cli.common import model_args, product_arg, store_arg
from engine.cli.inspect import add_questionnaire_args, read_from_args
from engine.core.config import RETRIEVAL_MODES
from engine.core.limits import add_limit_args
from engine.drafting.drafter import Drafter
from engine.drafting.generate import make_generator
from engine.review.draft_run import DraftRun, draft_questionnaire
from storage.review_store import ReviewStore
from storage.snapshots import take_review


def register(p: argparse.ArgumentParser) -> None:
    add_questionnaire_args(p)
    store_arg(p)
    p.add_argument("--out", help="the completed workbook (a copy of the original with the answer cells filled)")
    p.add_argument("--results", help="results.jsonl, one line per question")
    p.add_argument("--limit", type=int, help="draft only the first N questions that would be drafted")
    p.add_argument("--redo-answered", action="store_true", help="also draft questions the file already answers")
    p.add_argument("--top-k", type=int, default=None, help="passages retrieved per question (default 5)")
    p.add_argument(
        "--mode", choices=RETRIEVAL_MODES, help="retrieval mode or strategy (default weighted; summary: Summary RAG)"
    )
    product_arg(
        p,
        "draft for this product: its, company-wide and third-party documents (default: company-wide "
        "and third-party documents only)",
    )
    model_args(p)
    add_limit_args(p)
    p.set_defaults(func=cmd_draft)


def _warm_up(generator) -> None:
    try:
        generator.warm_up()
    except Exception:  # noqa: BLE001 — the first question meets the same problem and reports it
        pass


def cmd_draft(args: argparse.Namespace) -> int:
    questionnaire = read_from_args(args)
    review = ReviewStore(Path(args.store) / "review.sqlite")  # a damaged one is refused before the model loads
    kb = common.open_kb(args)
    library = common.library(args, kb)
    if library is None or not library.entries():
        kb.index  # an empty store fails here, before the model loads
    generator = make_generator(args.model, args.llm_url, evidence=args.evidence)
    warm = threading.Thread(target=_warm_up, args=(generator,), name="warm-up", daemon=True)
    warm.start()  # the system prompt is evaluated while the embedder loads (≈ 11 s, once per process)
    kb.encoder
    warm.join()
    try:
        run = draft_questionnaire(
            questionnaire,
            Drafter(kb, generator, library=library, product=args.product, mode=args.mode),
            review,
            results=Path(args.results) if args.results else None,
            out=Path(args.out) if args.out else None,
            limit=args.limit,
            redo_answered=args.redo_answered,
            progress=common.progress_bar(),
        )
    finally:
        take_review(review)  # a snapshot after each drafting run (storage/snapshots.py)
    _say(run, args)
    return 0


def _say(run: DraftRun, args: argparse.Namespace) -> None:
    """What the run did, in a few lines: drafted, kept, reused, answered from the profile, written."""
    counts = ", ".join(f"{n} {status}" for status, n in sorted(run.counts.items())) or "nothing to draft"
    print(
        f"{len(run.drafted)} drafted now, {run.resumed} kept from an earlier run ({counts}); "
        f"{run.skipped_answered} already answered in the file"
        + ("" if args.redo_answered else " (skipped; --redo-answered drafts them)")
    )
    reused = [d for d in run.drafted if d.reused]
    if reused:
        disputed = sum(d.disputed for d in reused)
        print(
            f"{len(reused)} reused a past answer from the library"
            + (
                f"; in {disputed} the near-identical past answers disagree on the choice (review those first: "
                '"past_choices" in the results, a warning on the Review screen)'
                if disputed
                else ""
            )
        )
        crossed = sum(bool(d.from_product) for d in reused)
        if crossed:
            print(
                f'{crossed} took only the choice of another product\'s past answer ("from_product" and '
                '"past_answers" in the results; the explanation drafted from the documents): review them first'
            )
    facts = sum(bool(d.profile_fact) for d in run.drafted)
    if facts:
        print(f'{facts} answered from the company or product profile ("profile_fact"; python -m engine profile)')
    if run.exported:
        print(f"wrote {run.exported}")
    if args.results:
        print(f"wrote {args.results}")
