"""``python -m engine search QUESTION``: the chunks of the knowledge base that best answer a
question, with their scores and where they are (``--json`` for the hits as JSON)."""

from __future__ import annotations

import argparse
import json

from engine.cli import common
from engine.cli.common import store_arg
from engine.core.config import RETRIEVAL_MODES
from engine.core.location import SEARCH, Location
from engine.core.scopes import ScopeFilter
from engine.retrieval.retrieve import search


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("question")
    store_arg(p)
    p.add_argument("--top-k", type=int, default=None, help="number of hits (default 5)")
    p.add_argument("--mode", choices=RETRIEVAL_MODES, help="retrieval mode or strategy (default weighted)")
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--product", metavar="NAME", help="only the documents a questionnaire of this product is drafted from"
    )
    g.add_argument(
        "--company-wide", action="store_true", help="only the documents a company-wide questionnaire is drafted from"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)


def cmd_search(args: argparse.Namespace) -> int:
    kb = common.open_kb(args)
    scope = ScopeFilter(args.product) if args.product or args.company_wide else None
    hits = search(kb, args.question, top_k=args.top_k, mode=args.mode, scope=scope)
    if args.json:
        print(json.dumps([h.to_json() for h in hits], indent=1, ensure_ascii=False))
        return 0
    for rank, hit in enumerate(hits, 1):
        c = hit.chunk
        where = Location.of_chunk(c).label(SEARCH)
        text = " ".join(c.text.split())
        print(f"{rank}. {hit.score:.3f}  {c.doc}  {where}\n   {text[:240]}{'…' if len(text) > 240 else ''}")
    return 0
