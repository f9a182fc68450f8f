"""``python -m engine profile``: show the company and product profiles (engine/index/profile.py) learned
from the answer library of ``--store``, with what the products' own documents in its knowledge base
state (engine/index/profile_documents.py) and the facts set by hand over them, and set facts
(``--set KEY VALUE``, for ``--product NAME`` or the company; an empty VALUE removes a fact set
by hand; ``--set KEY -- VALUE`` for a value that starts with ``-``, such as a phone number
``-2+3``: after ``--`` nothing is read as an option). ``--json`` prints JSON (document facts
under ``documented``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.cli import common
from engine.cli.common import store_arg
from engine.core.scopes import scope_name
from engine.drafting.profile_answers import ProfileAnswers
from engine.index.library import AnswerLibrary
from engine.index.profile import Profile, set_fact


def cmd_profile(args: argparse.Namespace) -> int:
    if args.set is not None and args.value is None:
        raise ValueError(f"--set {args.set} needs a value: --set KEY VALUE (an empty VALUE removes the fact)")
    if args.set is None and args.value is not None:
        raise ValueError(f"the value {args.value!r} is given without --set KEY; set a fact with --set KEY VALUE")
    product = scope_name(args.product, "product") if args.product else None
    library = AnswerLibrary(args.store, lambda: common.encoder(args))
    try:
        if args.set is not None:
            fact = set_fact(library.folder, args.set, args.value, product)
            print(f"{'removed' if not fact.value else 'set'} {fact.key} for {product or 'the company'}", flush=True)
        kb = common.open_kb(args) if (Path(args.store) / "manifest.json").is_file() else None
        profile = ProfileAnswers(library, kb=kb).profile()
    finally:
        library.close()
    if product:
        profile = Profile(
            profile.company,
            {product: profile.products.get(product, {})},
            {product: profile.documented.get(product, {})},
        )
    if args.json:
        print(json.dumps(profile.to_json(), ensure_ascii=False))
        return 0
    sections = [("company", profile.company)] + [(f"product {p}", f) for p, f in sorted(profile.products.items())]
    sections += [(f"product {p}, its documents", f) for p, f in sorted(profile.documented.items()) if f]
    for title, facts in sections:
        print(f"{title}:")
        for key, f in sorted(facts.items()):
            print(f"  {key} = {f.value}  ({f.cited})")
    return 0


def register(p: argparse.ArgumentParser) -> None:
    store_arg(p)
    p.add_argument(
        "--product", metavar="NAME", help="this product's profile (default: the company's and every product's)"
    )
    p.add_argument(
        "--set",
        metavar="KEY",
        help="set the fact KEY to VALUE (an empty VALUE removes it; --set KEY -- VALUE for a value starting with -)",
    )
    p.add_argument("value", nargs="?", metavar="VALUE", help="the value --set gives KEY")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_profile)


__all__ = ["register"]
