"""The ``eval`` subcommands that need no language model, only the answer library and MiniLM
(engine/bench/library_only.py): ``eval cross-product`` (how often another product's past
choice is right, the calibration of engine/drafting/cross_product.py) and ``eval profile`` (profile rows
answered from a profile learned leave-one-out, engine/index/profile.py). Both print JSON."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from engine.bench.library_only import cross_product, profile_rows
from engine.core.scopes import FolderScopes
from engine.index.embed.dense import DenseEncoder


def _folders(args: argparse.Namespace):
    return FolderScopes(args.company_folder, tuple(args.third_party_folder))


def cmd_cross_product(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = cross_product(args.filled, Path(args.store or tmp), DenseEncoder(args.embedder or "all-MiniLM-L6-v2"),
                               _folders(args))
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


def cmd_profile_eval(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = profile_rows(args.filled, Path(args.truth_dir), Path(args.store or tmp),
                              DenseEncoder(args.embedder or "all-MiniLM-L6-v2"), _folders(args),
                              documents=not args.no_documents)
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


def add_library_evals(ev) -> None:
    """Add the library-only evaluations to the ``eval`` subparsers."""
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--company-folder", default=FolderScopes.company, metavar="NAME",
                       help=f"the company-wide folder (default {FolderScopes.company!r}); any other folder is a product")
        p.add_argument("--third-party-folder", nargs="+", default=list(FolderScopes.third_parties), metavar="NAME")
        p.add_argument("--store", help="keep the answer library in this folder (default: a temporary one)")
        p.add_argument("--embedder")
        p.add_argument("--json", action="store_true")

    p = ev.add_parser("cross-product", help="leave-one-out: how often other products' near-identical past choices "
                                            "are the target's (no language model)")
    p.add_argument("filled", nargs="+", help="filled questionnaires, each in its product's folder")
    common(p)
    p.set_defaults(func=cmd_cross_product)
    p = ev.add_parser("profile", help="leave-one-out: the targets' general-information rows answered from the "
                                      "profile learned from the other questionnaires (no language model)")
    p.add_argument("filled", nargs="+", help="filled questionnaires, each in its product's folder")
    p.add_argument("--truth-dir", required=True, help="JSONL truth files {id, question, answer}, named after each "
                                                      "file (spaces as _); a file without one: its own answers")
    p.add_argument("--no-documents", action="store_true", help="leave out the facts the products' own PDFs state")
    common(p)
    p.set_defaults(func=cmd_profile_eval)


__all__ = ["add_library_evals"]
