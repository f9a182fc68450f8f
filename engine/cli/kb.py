"""``python -m engine kb …``: manage the knowledge base of ``--store`` (add, list, remove, scope,
reindex, summary): the arguments of each subcommand beside its handler."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.cli import common
from engine.cli.common import folder_scope_args, indexing_args, scope_args, store_arg
from engine.core.limits import add_limit_args
from engine.ingest.paths import select_files
from storage.snapshots import set_aside
from storage.vector_store import IndexDamaged, release


def register(p: argparse.ArgumentParser) -> None:
    kb = p.add_subparsers(dest="kb_command", required=True)
    p = kb.add_parser(
        "add",
        help="add files or folders (recursive); exits 1 when any file was refused",
        description="Index files and folders (recursive) in one process. With --scope-folders each file's "
        "scope is the name of the folder that holds it: a company in one command, e.g. `kb add ROOT "
        '--scope-folders --company-folder Instructure --third-party-folder "Amazon Web Services" '
        '"Google Cloud Platform"` (ROOT/Instructure company-wide, the two cloud providers\' folders '
        "third parties', every other folder a product; a file in two product folders belongs to both). "
        "Exit status 1 when any file was refused (the rest is indexed; the last line says how many and "
        "which), 2 when the command cannot run.",
    )
    p.add_argument("paths", nargs="+")
    store_arg(p)
    p.add_argument(
        "--alpha",
        type=float,
        help="dense weight of the hybrid vectors for a new store (default 0.5; change it later with kb reindex)",
    )
    scope_args(p)
    folder_scope_args(
        p,
        "each file's scope is the name of the folder that holds it: --company-folder company-wide, "
        "--third-party-folder third parties', any other folder a product (a file in several product "
        "folders belongs to each); not with --product or --third-party",
    )
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
    p.add_argument(
        "--rewrite-summaries",
        action="store_true",
        help="write again the summaries written another way (extractive ones with --summaries llm); never edited ones",
    )
    add_limit_args(p)
    p.set_defaults(func=cmd_kb_reindex)
    p = kb.add_parser("summary", help="show a document's summary, or replace it with your own (--set)")
    p.add_argument("name")
    store_arg(p)
    p.add_argument("--set", metavar="FILE", help="the new summary from FILE ('-': standard input); it is re-embedded")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_kb_summary)


def _notes(kb) -> None:
    for note in kb.indexes.notes:
        print(f"note: {note}", file=sys.stderr)
    if kb.backup_problem is not None:  # the manifest is written; its snapshot is not (storage/snapshots.py)
        print(f"warning: {kb.backup_problem}", file=sys.stderr)


def cmd_kb_add(args: argparse.Namespace) -> int:
    folders = common.folder_scopes_instead(args, common.scope(args) is not None, "--product and --third-party")
    kb = common.open_kb(args)
    paths = [Path(p) for p in args.paths]
    if folders is not None:
        for name, scope, n in folders.folders(f for f, _ in select_files(paths).files):
            print(f"folder: {name}/ → {scope.label} ({n} file{'' if n == 1 else 's'})")
    report = kb.add(
        paths,
        progress=common.progress_bar(),
        scope=common.scope(args),
        index_modes=args.index_modes or (),
        folders=folders,
    )
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
    if not report.errors:
        return 0
    sys.stdout.flush()  # the count comes last, after the store's line
    names = ", ".join(e.file for e in report.errors)
    n = len(report.errors)
    kept = "; the other files are indexed" if report.added or report.unchanged or report.rescoped else ""
    print(f"refused: {n} file{'' if n == 1 else 's'} not indexed ({names}){kept}", file=sys.stderr)
    return 1


def cmd_kb_list(args: argparse.Namespace) -> int:
    docs = common.open_kb(args).documents()
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
    kb = common.open_kb(args)
    changed = kb.set_scopes({args.name: common.scope(args)})
    print(f"{args.name}: {kb.document(args.name).scope.label}" + ("" if changed else " (unchanged)"))
    return 0


def cmd_kb_remove(args: argparse.Namespace) -> int:
    doc = common.open_kb(args).remove(args.name, progress=common.progress_bar())
    print(f"removed: {doc.name} ({doc.chunks} chunks)")
    return 0


def cmd_kb_reindex(args: argparse.Namespace) -> int:
    try:
        kb = common.open_kb(args)
    except IndexDamaged as exc:  # derived from the stored files: moved aside untouched, built again
        release(exc.file)
        moved = set_aside(Path(exc.file), "damaged")
        print(f"note: {exc.problem}; moved it aside to {moved[0]} and building it again", file=sys.stderr)
        kb = common.open_kb(args)
    kb.reindex(progress=common.progress_bar(), index_modes=args.index_modes, rewrite_summaries=args.rewrite_summaries)
    _notes(kb)
    modes = f", index modes {' '.join(kb.manifest.index_modes)}" if kb.manifest.index_modes else ""
    print(f"re-indexed {len(kb.documents())} documents with {kb.manifest.embedder}, alpha {kb.alpha}{modes}")
    return 0


def cmd_kb_summary(args: argparse.Namespace) -> int:
    kb = common.open_kb(args)
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
