"""``python -m engine ask DOC "QUESTION" …``: ask one document (a file, or a document of the
knowledge base of ``--store``) one or more questions, embedding-free (engine/drafting/ask.py):
its parser and its work. (``bench ask`` is in engine/cli/bench.py.)"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from engine.cli import common
from engine.cli.common import model_args, store_arg
from engine.drafting import generate  # generate.make_generator looked up when called (the tests replace it)
from engine.drafting.ask import (
    CONTEXT_TOKENS,
    MAX_QUESTION_CHARS,
    SUBDOC_WORDS,
    WINDOW,
    AskDocument,
    AskError,
    AskOptions,
    DocumentAsker,
    check_question,
)
from engine.drafting.generate.prompt import Evidence
from engine.index.kb import KnowledgeBase

EXCERPT_CHARS = 400  # characters of each excerpt printed (``--json`` has them whole)


def register(p: argparse.ArgumentParser) -> None:
    """``ask DOC "QUESTION" …``."""
    p.description = (
        "The local model reads the document part by part, quotes what answers the question, "
        "the quotes are found in the document and widened to sentence windows, and the answer "
        "is written from them. Several questions in one call reuse the document's KV prefix."
    )
    p.add_argument("doc", metavar="DOC", help="a knowledge-base document name (see `kb list`) or a file path")
    p.add_argument(
        "questions",
        nargs="+",
        metavar="QUESTION",
        help=f"one or more questions (at most {MAX_QUESTION_CHARS:,} characters each)",
    )
    store_arg(p)
    p.add_argument("--window", type=int, default=WINDOW, help=f"sentences either side of a quote (default {WINDOW})")
    p.add_argument(
        "--subdoc-words",
        type=int,
        default=SUBDOC_WORDS,
        help=f"words per part the model reads at once (default {SUBDOC_WORDS:,})",
    )
    p.add_argument(
        "--evidence",
        choices=[e.value for e in Evidence],
        default=Evidence.QUOTES.value,
        help="the model quotes word for word (default) or gives the numbers of sentences",
    )
    p.add_argument("--workers", type=int, default=1, help="parts read at once (with --llm-url: the server's slots)")
    p.add_argument("--no-answer", action="store_true", help="only the excerpts, no answer")
    model_args(p, evidence=False)
    p.add_argument("--json", action="store_true", help="one JSON object per question")
    p.set_defaults(func=lambda args: cmd_ask(args, common.progress_bar()))


def open_document(doc: str, store: str):
    """DOC as a file path, else as a document of the knowledge base in ``store``."""
    path = Path(doc)
    if path.is_file():
        return AskDocument.from_file(path)
    if not (Path(store) / "manifest.json").is_file():
        raise AskError(
            doc,
            f"is not a file, and {store} holds no knowledge base",
            "pass the path of a document, or a document name with --store DIR (see `kb list`)",
        )
    return AskDocument.from_kb(KnowledgeBase(Path(store)), doc)


def cmd_ask(args: argparse.Namespace, progress) -> int:
    options = AskOptions(
        window=args.window, subdoc_words=args.subdoc_words, evidence=args.evidence, workers=args.workers
    )
    questions = [check_question(q) for q in args.questions]  # refused before the model loads
    doc = open_document(args.doc, args.store)
    asker = DocumentAsker(doc, generate.make_generator(args.model, args.llm_url, n_ctx=CONTEXT_TOKENS), options)
    for question in questions:
        result = asker.ask(question, answer=not args.no_answer, progress=progress)
        if args.json:
            print(json.dumps(result.to_json(), ensure_ascii=False))
        else:
            print_result(result)
    return 0


def print_result(result) -> None:
    t = result.timing
    print(f"Q: {result.question}")
    if result.answer:
        print(textwrap.fill(f"A: {result.answer}", width=100, subsequent_indent="   "))
    for e in result.excerpts:
        offsets = "; ".join(f"{'p. ' + str(s.page) + ' ' if s.page else ''}chars {s.start}–{s.end}" for s in e.spans)
        where = f"{e.where()}, " if e.where() else ""
        cited = " (cited)" if e.number in result.cited else ""
        print(f"[{e.number}] {e.file}, {where}{offsets} · {e.label.value}{cited}")
        text = " ".join(e.text.split())
        print(
            textwrap.indent(
                textwrap.fill(text[:EXCERPT_CHARS] + ("…" if len(text) > EXCERPT_CHARS else ""), 96), "    "
            )
        )
    for quote in result.dropped:
        print(f"not in the document (dropped): “{quote}”")
    first = (
        f"first question of this document: read {t.parts} part{'s' if t.parts != 1 else ''}"
        if t.first
        else "the parts were read before"
    )
    print(
        f"{t.seconds:.1f} s (excerpts {t.excerpts_seconds:.1f} s, answer {t.answer_seconds:.1f} s; {first})\n",
        file=sys.stdout,
    )
