"""``python -m engine library …``: the answer library of ``--store``, past answered questionnaires
(import, list, check, retire) and its governance (attention: the pending, stale and conflicting
entries; approve, owner, renew, history; retire-product: the products no longer sold, a setting of
the workspace that the library report reads): the arguments of each subcommand beside its handler.
Every change is made by ``--by`` (default: the workspace's reviewer, engine/cli/review.py) and
recorded with who and when. A damaged library is one ``error:`` line
(storage/library_store.py), never "no library"; after a change the library is snapshotted in
``backups/`` (storage/snapshots.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.cli import common
from engine.cli.common import by_arg, folder_scope_args, product_arg, store_arg
from engine.core.limits import Limits, add_limit_args
from engine.core.people import person_name
from engine.core.types import FileProblem
from engine.index.library import AnswerLibrary, LibraryImportError, entry_language, iso_day, overdue
from engine.ingest.paths import select_files
from engine.questionnaire.formats import FOLDER_SUFFIXES, SUFFIXES
from engine.questionnaire.language import COMPANY_LANGUAGE
from storage.library_store import LIBRARY_WIDE
from storage.snapshots import BackupFailed, take_library


def register(p: argparse.ArgumentParser) -> None:
    lib = p.add_subparsers(dest="library_command", required=True)
    p = lib.add_parser(
        "import",
        help="import past filled questionnaires (.xlsx/.xlsm/.csv, .docx/.docm, .pdf named one by one; a folder: "
        "the ones in it, its PDFs left to the knowledge base); the same file again (same path or same content) "
        "replaces its entries",
        description="Import past filled questionnaires in one process. With --scope-folders each file is "
        "for the product its folder is named after, e.g. `library import ROOT --scope-folders "
        "--company-folder Instructure` (ROOT/Instructure's files company-wide, every other folder's "
        "for that product; a third party's folder is not imported).",
    )
    p.add_argument(
        "paths",
        nargs="+",
        metavar="FILE",
        help="questionnaires, or folders: their .xlsx/.xlsm/.csv/.docx/.docm files (recursive; other files, PDFs "
        "included, are counted, not read: a filled PDF questionnaire is imported when named)",
    )
    store_arg(p)
    product_arg(p, "the product these questionnaires answered for (default: company-wide)")
    folder_scope_args(
        p,
        "each file is for the product its folder is named after: --company-folder's files company-wide, "
        "a --third-party-folder's refused; not with --product",
    )
    add_limit_args(p)
    p.add_argument("--owner", metavar="NAME", help="who owns these answers (default: --by)")
    p.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        help="the questionnaires' date, from which their review-by date is counted (default: each workbook's "
        "own modified date, else today)",
    )
    by_arg(p)
    p.set_defaults(func=cmd_library_import)
    p = lib.add_parser("list", help="list the entries")
    store_arg(p)
    p.add_argument("--all", action="store_true", help="include retired and pending entries")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_library_list)
    p = lib.add_parser("check", help="near-identical questions answered with different choices")
    store_arg(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_library_check)
    p = lib.add_parser(
        "attention", help="the entries to act on: pending approval, past their review-by date, conflicting"
    )
    store_arg(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_library_attention)
    _register_changes(lib)


def _register_changes(lib) -> None:
    """The subcommands that change entries (or the library as a whole), and its history."""
    p = lib.add_parser("retire", help="stop reusing entries (by id, see `library list`)")
    p.add_argument("ids", nargs="+", type=int, metavar="ID")
    store_arg(p)
    by_arg(p)
    p.set_defaults(func=cmd_library_retire)
    p = lib.add_parser("approve", help="approve pending entries: reused from now on")
    p.add_argument("ids", nargs="+", type=int, metavar="ID")
    store_arg(p)
    by_arg(p)
    p.set_defaults(func=cmd_library_approve)
    p = lib.add_parser("owner", help="give entries a new owner")
    p.add_argument("ids", nargs="+", type=int, metavar="ID")
    p.add_argument("--to", required=True, metavar="NAME", help="the new owner (a person or a group)")
    store_arg(p)
    by_arg(p)
    p.set_defaults(func=cmd_library_owner)
    p = lib.add_parser("renew", help="entries reviewed: set their review-by date")
    p.add_argument("ids", nargs="+", type=int, metavar="ID")
    p.add_argument(
        "--until", metavar="YYYY-MM-DD", help="the new review-by date (default: the review period from today)"
    )
    store_arg(p)
    by_arg(p)
    p.set_defaults(func=cmd_library_renew)
    p = lib.add_parser(
        "retire-product",
        help="name products the company no longer sells: their entries are listed to be retired "
        "(`report library --retired-product`); with --undo, sold again",
        description="The retired products are a setting of the workspace (the Knowledge base screen's Library "
        "health → Retired products); each product named or taken off is recorded in `library history`.",
    )
    p.add_argument("products", nargs="+", metavar="PRODUCT", help="a product of the answer library's entries")
    p.add_argument("--undo", action="store_true", help="the products are sold again: no longer retired")
    store_arg(p)
    by_arg(p)
    p.set_defaults(func=cmd_library_retire_product)
    p = lib.add_parser("history", help="who changed the library, and when (one entry's, or all)")
    p.add_argument("ids", nargs="*", type=int, metavar="ID")
    store_arg(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_library_history)


def _by(args: argparse.Namespace) -> str:
    """``--by`` checked as a name, else the workspace's reviewer (its settings, else the OS user)."""
    return person_name(args.by, "--by") if args.by is not None else Settings.load(Path(args.store)).reviewer_name


def _existing(args: argparse.Namespace) -> AnswerLibrary:
    library = common.library(args)
    if library is None:
        raise FileNotFoundError(
            f"{args.store} has no answer library; import past filled questionnaires with "
            f"`python -m engine library import FILE --store {args.store}`"
        )
    return library


def cmd_library_import(args: argparse.Namespace) -> int:
    folders = common.folder_scopes_instead(args, args.product is not None, "--product")
    files = _questionnaires(args.paths)
    if not files:
        print(
            f"error: no questionnaires ({', '.join(SUFFIXES)}) in {', '.join(args.paths)}",
            file=sys.stderr,
        )
        return 1
    by, dated = _by(args), iso_day(args.date, "--date") if args.date else None
    owner = person_name(args.owner, "--owner") if args.owner is not None else None
    library = common.library(args, create=True)
    progress = common.progress_bar()
    failed: list[str] = []
    for path in files:
        try:
            if folders is not None and folders.scope_of(path).third_party:
                raise LibraryImportError(
                    path.name,
                    f"is in the third party's folder {path.parent.name!r}: its answers are not this company's",
                    "import it with --product if it is this company's answers, or leave it out",
                )
            product = folders.product_of(path) if folders is not None else args.product
            report = library.import_file(
                path,
                progress=progress,
                product=product,
                limits=Limits.from_args(args),
                owner=owner,
                dated=dated,
                by=by,
            )
        except FileProblem as exc:
            failed.append(path.name)
            print(f"error: {exc}", file=sys.stderr)
            continue
        verb = "re-imported" if report.replaced else "imported"
        skipped = f", {report.skipped} unanswered skipped" if report.skipped else ""
        replaced = f", replacing {_entries(report.replaced)}" if report.replaced else ""
        whose = f", for {product}" if folders is not None and product else ""
        print(
            f"{verb}: {report.file} ({_entries(report.entries)} of {report.questions} questions"
            f"{skipped}{replaced}{whose})"
        )
        for note in report.notes:
            print(f"  note: {note}")
    print(f"{_entries(len(library.entries()))} in {library.store.path}")
    if len(failed) < len(files):
        _snapshot(library)
    if failed and len(files) > 1:
        sys.stdout.flush()
        print(f"not imported: {len(failed)} of {len(files)} files ({', '.join(failed)})", file=sys.stderr)
    return 1 if len(failed) == len(files) else 0


def _questionnaires(paths: list[str]) -> list[Path]:
    """The files named, and the questionnaires in the folders named (recursive, engine/ingest/paths.py:
    no links, no hidden files; a folder's PDFs are the knowledge base's documents, not questionnaires:
    ``FOLDER_SUFFIXES``); one ``skipped:`` line per folder for its other files, and for anything else
    its selection skipped."""
    files: list[Path] = []
    for path in map(Path, paths):
        if not path.is_dir() or path.is_symlink():
            files.append(path)  # read as a questionnaire (a problem is its error: line)
            continue
        selected = select_files([path])
        found = [f for f, _ in selected.files if f.suffix.lower() in FOLDER_SUFFIXES]
        others = Counter(
            f.suffix.lower() or "(no extension)" for f, _ in selected.files if f.suffix.lower() not in FOLDER_SUFFIXES
        )
        files += found
        for line in selected.skipped:
            print(f"skipped: {line}", file=sys.stderr)
        if others:
            kinds = ", ".join(f"{ext} ×{n}" for ext, n in sorted(others.items()))
            pdfs = (
                "; a filled PDF questionnaire is imported when named: library import FILE.pdf"
                if ".pdf" in others
                else ""
            )
            print(
                f"skipped: {path}: {sum(others.values())} files that are not questionnaires ({kinds}){pdfs}",
                file=sys.stderr,
            )
    return files


def _snapshot(library) -> None:
    """A snapshot of the library in ``backups/`` after it changed; one ``warning:`` line when it
    cannot be written (backups never block: the import is done)."""
    try:
        take_library(library.store)
    except BackupFailed as exc:
        print(f"warning: {exc}", file=sys.stderr)


def _entries(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


def _short(text: str | None, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def cmd_library_list(args: argparse.Namespace) -> int:
    library = common.library(args)
    entries = library.entries(include_retired=args.all, include_pending=args.all) if library else []
    if args.json:
        print(json.dumps([e.to_json() for e in entries], indent=1, ensure_ascii=False))
        return 0
    if not entries:
        print(
            f"no answer library in {args.store}; import past filled questionnaires with "
            f"`python -m engine library import FILE --store {args.store}`"
        )
        return 0
    for e in entries:
        print(_line(e))
    return 0


def _line(e) -> str:
    """One entry: id, question ID, choice, question, where from, owner, review-by date and state;
    the language it is written in when it is not English (issue #58: "in German")."""
    marks = [
        m for m, on in (("retired", e.retired), ("pending", e.pending), ("stale", not e.retired and overdue(e))) if on
    ]
    written = entry_language(e)
    marks += [f"in {written.label}"] if written not in (None, COMPANY_LANGUAGE) else []
    mark = f" ({', '.join(marks)})" if marks else ""
    return (
        f"#{e.id:<5} {e.qid or '':<10} {_short(e.choice, 8):<8} {_short(e.question, 70):<70}  "
        f"{e.file}, {e.sheet} row {e.row}, {e.origin.value} {e.imported}; owner {e.owner or '(none)'}, "
        f"review by {e.review_by} (dated {e.dated}, {e.dated_from.value}){mark}"
    )


def cmd_library_check(args: argparse.Namespace) -> int:
    library = common.library(args)
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
    print(
        f"{len(conflicts)} conflict{'' if len(conflicts) == 1 else 's'} among {_entries(entries)}"
        + (
            f"; retire the wrong answers with `python -m engine library retire ID --store {args.store}`"
            if conflicts
            else ""
        )
    )
    return 0


def cmd_library_attention(args: argparse.Namespace) -> int:
    """The pending, stale and conflicting entries, each list with the commands that act on it."""
    library = common.library(args)
    if library is None:
        print(
            json.dumps({"pending": [], "stale": [], "conflicts": []})
            if args.json
            else f"no answer library in {args.store}"
        )
        return 0
    found = library.attention()
    if args.json:
        print(json.dumps(found.to_json(), indent=1, ensure_ascii=False))
        return 0
    store = f"--store {args.store}"
    print(f"pending approval: {len(found.pending)}" + (f" (`library approve ID {store}`)" if found.pending else ""))
    for e in found.pending:
        print("  " + _line(e))
    print(
        f"stale (past the review-by date): {len(found.stale)}"
        + (f" (`library renew ID {store}` once reviewed, or `library retire ID`)" if found.stale else "")
    )
    for e in found.stale:
        print("  " + _line(e))
    print(
        f"conflicting: {len(found.conflicts)}"
        + (f" (retire the wrong answers: `library retire ID {store}`)" if found.conflicts else "")
    )
    for c in found.conflicts:
        counts = ", ".join(f"{choice} ×{n}" for choice, n in c.choices.items())
        print(f"  {_short(c.question, 90)} ({counts}; similarity {c.score:.2f})")
        for e in c.entries:
            print("    " + _line(e))
    return 0


def _act(args: argparse.Namespace, verb: str, act) -> int:
    """``act(library, id, by)`` for each id, one line each, then a snapshot of the library."""
    library, by = _existing(args), _by(args)
    for entry_id in args.ids:
        e = act(library, entry_id, by)
        print(f"{verb} #{e.id} by {by}: {_short(e.question, 80)} ({e.file}, {e.sheet} row {e.row})")
    _snapshot(library)
    return 0


def cmd_library_retire(args: argparse.Namespace) -> int:
    return _act(args, "retired", lambda library, i, by: library.retire(i, by))


def cmd_library_approve(args: argparse.Namespace) -> int:
    return _act(args, "approved", lambda library, i, by: library.approve(i, by))


def cmd_library_owner(args: argparse.Namespace) -> int:
    owner = person_name(args.to, "--to")
    return _act(args, f"owner {owner} for", lambda library, i, by: library.set_owner(i, owner, by))


def cmd_library_renew(args: argparse.Namespace) -> int:
    until = iso_day(args.until, "--until") if args.until else None
    return _act(args, "renewed", lambda library, i, by: library.renew(i, by, until))


def _named(name: str, known: list[str], what: str) -> str:
    """``name`` as ``known`` spells it (case and spaces aside); ValueError naming the choices."""
    found = next((k for k in known if " ".join(k.split()).casefold() == " ".join(name.split()).casefold()), None)
    if found is None:
        listed = ", ".join(known) if known else "none"
        raise ValueError(f"{name!r} is not {what} ({listed}); name one of them")
    return found


def cmd_library_retire_product(args: argparse.Namespace) -> int:
    library, by = _existing(args), _by(args)
    retired = list(library.policy.retired_products)
    if args.undo:
        named = [_named(p, retired, "a retired product") for p in args.products]
        chosen = [p for p in retired if p not in named]
    else:
        products = sorted({e.product for e in library.entries(True, True) if e.product}, key=str.casefold)
        named = [_named(p, products, "a product of the answer library") for p in args.products]
        chosen = retired + [p for p in dict.fromkeys(named) if p not in retired]
    library.close()
    ws = Workspace(Path(args.store))
    try:
        ws.set_retired_products(chosen, by)
        for product in dict.fromkeys(named):
            entries = [e for e in ws.library.entries(include_pending=True) if e.product == product]
            if args.undo:
                print(f"{product} is sold again (by {by}): its {_entries(len(entries))} are no longer listed to retire")
            else:
                print(f"{product} is retired (by {by}): {_entries(len(entries))} still in use")
        if not args.undo and any(e.product in named for e in ws.library.entries(include_pending=True)):
            print(
                f"list them: `report library --retired-product --store {args.store}`; retire them: `library retire ID`"
            )
    finally:
        ws.library.close()
        ws.review_store.close()
    return 0


def cmd_library_history(args: argparse.Namespace) -> int:
    library = common.library(args)
    changes = [] if library is None else [c for i in (args.ids or [None]) for c in library.changes(i)]
    if args.json:
        print(json.dumps([c.to_json() for c in changes], indent=1, ensure_ascii=False))
        return 0
    for c in changes:
        where = "library" if c.entry == LIBRARY_WIDE else f"#{c.entry}"  # a product retired: the library's
        print(f"{c.at}  {where:<7} {c.action.value:<8} by {c.by}" + (f": {c.detail}" if c.detail else ""))
    print(f"{len(changes)} change{'' if len(changes) == 1 else 's'}")
    return 0
