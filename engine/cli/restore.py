"""``python -m engine restore``: list (``--list``) or restore the snapshots of the review store,
the answer library and the knowledge-base manifest that storage/snapshots.py keeps in
``STORE/backups``. With no snapshot named: every damaged one of them from its newest good
snapshot (the review store when none is damaged); a file it replaces is moved aside, untouched."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.cli.common import DEFAULT_STORE
from storage.snapshots import restore, status


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "snapshot",
        nargs="?",
        metavar="SNAPSHOT",
        help="a snapshot's file name (default: the newest good snapshot of each damaged file among review.sqlite, "
        "library.sqlite and manifest.json; of review.sqlite when none is damaged)",
    )
    p.add_argument(
        "--store", default=str(DEFAULT_STORE), help="the workspace or knowledge-base folder (default: ./store)"
    )
    p.add_argument("--list", action="store_true", help="show the snapshots and whether each file reads as a whole")
    p.set_defaults(func=cmd_restore)


def cmd_restore(args: argparse.Namespace) -> int:
    if args.list:
        print("\n".join(status(Path(args.store))))
        return 0
    for done in restore(Path(args.store), args.snapshot):
        aside = (
            f"; the file it replaces was moved aside, untouched: {', '.join(p.name for p in done.moved)}"
            if done.moved
            else ""
        )
        print(f"restored {done.target} from {done.snapshot.name}{aside}")
    return 0
