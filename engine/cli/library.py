"""``python -m engine library …``: the answer library of ``--store``, past answered questionnaires
(import, list, check, retire): the arguments of each subcommand beside its handler. A damaged
library is one ``error:`` line (storage/library_store.py), never "no library"; after an import
(or a retirement) the library is snapshotted in ``backups/`` (storage/snapshots.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.cli import common
from engine.cli.common import product_arg, store_arg
from engine.core.limits import Limits, add_limit_args
from engine.core.types import FileProblem
from storage.snapshots import BackupFailed, take_library


def register(p: argparse.ArgumentParser) -> None:
    lib = p.add_subparsers(dest="library_command", required=True)
    p = lib.add_parser(
        "import",
        help="import past filled questionnaires (.xlsx/.xlsm/.csv); the same file again "
        "(same path or same content) replaces its entries",
    )
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


def cmd_library_import(args: argparse.Namespace) -> int:
    library = common.library(args, create=True)
    progress = common.progress_bar()
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
    if failed < len(args.paths):
        _snapshot(library)
    return 1 if failed == len(args.paths) else 0


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
    entries = library.entries(include_retired=args.all) if library else []
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
        mark = " (retired)" if e.retired else ""
        print(
            f"#{e.id:<5} {e.qid or '':<10} {_short(e.choice, 8):<8} {_short(e.question, 70):<70}  "
            f"{e.file}, {e.sheet} row {e.row}, {e.origin.value} {e.imported}{mark}"
        )
    return 0


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


def cmd_library_retire(args: argparse.Namespace) -> int:
    library = common.library(args)
    if library is None:
        raise FileNotFoundError(f"{args.store} has no answer library; import files first")
    for entry_id in args.ids:
        e = library.retire(entry_id)
        print(f"retired #{e.id}: {_short(e.question, 90)} ({e.file}, {e.sheet} row {e.row})")
    _snapshot(library)
    return 0
