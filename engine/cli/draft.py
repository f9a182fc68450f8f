"""``python -m engine draft QUESTIONNAIRE``: draft answers for a questionnaire from the knowledge
base and the answer library of ``--store`` (resumable: the drafts are kept in the review store,
and the same command again continues), write the completed workbook (``--out``) and one JSON
line per question (``--results``), and say what was drafted, reused and kept. A snapshot that
cannot be written in ``backups/`` afterwards is one ``warning:`` line on stderr; the drafts and
``--out`` are written and the exit status is 0 (storage/snapshots.py).

The store is opened as the app opens a workspace (engine/app/workspace.py ``Workspace``, its
``draft_file``), with the configuration of the flags and the ``RFP_*`` environment variables
(``_workspace``) instead of the workspace's settings.json."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.app.settings import GeneratorConfig, Settings
from engine.app.workspace import Workspace
from engine.cli import common
from engine.cli.common import model_args, product_arg, store_arg
from engine.cli.inspect import add_questionnaire_args, read_from_args
from engine.core.config import RETRIEVAL_MODES
from engine.core.limits import add_limit_args
from engine.core.people import person_name
from engine.core.types import DraftStatus
from engine.questionnaire import Questionnaire
from engine.questionnaire.language import AnswerIn, Language, LanguageSetting
from engine.questionnaire.places import response_only
from engine.review.draft_run import DraftRun


def register(p: argparse.ArgumentParser) -> None:
    add_questionnaire_args(p)
    store_arg(p)
    p.add_argument(
        "--out",
        help="the completed file: a copy of the original with the answer cells or places filled (a flat PDF, "
        "which has no answer places: OUT.docx, a Word response document with each question and its answer)",
    )
    p.add_argument(
        "--results",
        help="results.jsonl, one line per draft: a row the explanations pass drafts again has a second, "
        "newer line (the last line of a row is its draft)",
    )
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
    p.add_argument("--by", metavar="NAME", help="whose drafting run it is (default: your login name)")
    p.add_argument(
        "--language",
        choices=[lang.value for lang in Language],
        help="the questionnaire's language, when detection got it wrong (default: detected; `inspect` shows it)",
    )
    p.add_argument(
        "--answer-language",
        choices=[a.value for a in AnswerIn],
        help="questionnaire: answers translated into the questionnaire's language (the default); company: "
        "kept in English. Kept with the questionnaire for later runs",
    )
    p.set_defaults(func=cmd_draft)


def cmd_draft(args: argparse.Namespace) -> int:
    questionnaire = read_from_args(args)
    ws = _workspace(args)
    run = ws.draft_file(
        questionnaire,
        product=args.product,
        results=Path(args.results) if args.results else None,
        out=Path(args.out) if args.out else None,
        limit=args.limit,
        redo_answered=args.redo_answered,
        progress=common.progress_bar(),
        by=person_name(args.by, "--by") if args.by is not None else None,
        language=_language(args),
    )
    _say(run, args, questionnaire)
    if ws.backup_problem is not None:  # backups never block: the drafts and --out are written (storage/snapshots.py)
        print(f"warning: {ws.backup_problem}", file=sys.stderr)
    return 0


def _language(args: argparse.Namespace) -> LanguageSetting | None:
    """The responder's language setting from ``--language`` and ``--answer-language`` (None: neither given)."""
    if args.language is None and args.answer_language is None:
        return None
    return LanguageSetting(Language.parse(args.language), AnswerIn(args.answer_language or AnswerIn.QUESTIONNAIRE))


def _workspace(args: argparse.Namespace) -> Workspace:
    """The store opened as the app opens it, configured by the flags and the environment (the
    folder's settings.json, the app's, is neither read nor written)."""
    generator = GeneratorConfig(args.model, args.llm_url, args.evidence)
    return Workspace(args.store, Settings(common.config(args), generator))


def _say(run: DraftRun, args: argparse.Namespace, questionnaire: Questionnaire) -> None:
    """What the run did, in a few lines: drafted (the rows a qualifier switched off counted apart:
    "204 drafted now, 51 not required"), kept, reused, answered from the profile, written."""
    counts = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in sorted(run.counts.items()))
    off = sum(d.status is DraftStatus.NOT_REQUIRED for d in run.drafted)  # counted apart: not drafted
    apart = f", {off} not required (a qualifier's answer switches them off)" if off else ""
    print(
        f"{len(run.drafted) - off} drafted now{apart}, {run.resumed} kept from an earlier run "
        f"({counts or 'nothing to draft'}); "
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
    if run.exported and response_only(questionnaire.places):
        print(
            f"wrote {run.exported}: {questionnaire.path.name} is a flat PDF (no form fields to fill), so its answers "
            "are in this Word response document, each question with its number, page and answer"
        )
    elif run.exported:
        print(f"wrote {run.exported}")
    if run.exported and run.unwritten:
        n = len(run.unwritten)
        print(f"{n} answer{'s were' if n != 1 else ' was'} not written (the others are in the file):")
        for u in run.unwritten:
            print(f"  {u.line()}")
    if args.results:
        print(f"wrote {args.results}")
