"""Command line: ``python -m engine …`` (``--help`` on any command).

The top parser names the command groups (``COMMANDS``, in the order ``--help`` lists them); each
group's module in engine/cli/ (kb.py, library.py, search.py, …) adds its own arguments and
subcommands to its parser (``register``) beside the handlers it dispatches to (``func``). A
group's module is imported only when that command is run or asked for its help, so
``python -m engine --help`` imports none of them (they load qdrant-client, PyTorch, the readers).
What the groups share (``--store``, the model flags, the progress bar, …) is engine/cli/common.py."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from engine.cli.checks import check_arguments
from engine.core.llm import GeneratorError
from engine.core.types import FileProblem
from engine.index.embed.dense import EmbedderError
from engine.index.errors import KnowledgeBaseError
from storage.accounts_store import AccountsStoreError
from storage.library_store import LibraryStoreError
from storage.review_store import ReviewStoreError
from storage.vector_store import StoreLockedError  # qdrant-client itself is imported where a client is made

COMMANDS: tuple[tuple[str, str], ...] = (  # (command, one line of help); its module is engine/cli/<command>.py
    ("kb", "manage the knowledge base"),
    (
        "restore",
        "list (--list) or restore the snapshots of the review store, the answer library and the knowledge-base "
        "manifest kept in STORE/backups",
    ),
    ("library", "the answer library: past answered questionnaires"),
    ("search", "retrieve the chunks that best answer a question"),
    ("demo", "index the bundled sample and answer its first questions"),
    ("inspect", "show the questions, answer cells and dropdowns detected in a questionnaire"),
    ("draft", "draft answers for a questionnaire (resumable)"),
    ("shred", "a solicitation (RFP/RFQ as prose) shredded into its requirements and key facts; compliance matrix"),
    ("review", "show a questionnaire's rows with their version, or decide on one (refused when it changed since)"),
    ("ask", "ask one document a question (embedding-free: the model reads the document)"),
    ("bench", "benchmarks (print JSON)"),
    ("doctor", "check the CPU, the llama.cpp build and the model; print what to report"),
    ("eval", "answer quality on real filled questionnaires (print JSON)"),
    ("profile", "show or set the company and product profiles (facts learned from the library)"),
    ("report", "a questionnaire's coverage and gaps by topic, the answer library's health (XLSX, HTML)"),
    ("accounts", "the accounts of an app served to a team: add, list, remove, passwd"),
    ("serve", "start the review app (this machine only, or --address for a team with accounts)"),
)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; given ``argv``, only the command it names gets its arguments
    (the others are listed by name and help), so only that command's module is imported."""
    named = next((a for a in argv if not a.startswith("-")), "") if argv is not None else None
    parser = argparse.ArgumentParser(prog="python -m engine", description="RFP review assistant engine")
    sub = parser.add_subparsers(dest="command", required=True)
    for command, line in COMMANDS:
        p = sub.add_parser(command, help=line)
        if named is None or named == command:
            importlib.import_module(f"engine.cli.{command}").register(p)  # deferred: see the module docstring
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    try:
        check_arguments(args)  # before any file is read, model loads or heavy module is imported
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    known = (
        KnowledgeBaseError,
        StoreLockedError,
        EmbedderError,
        GeneratorError,
        FileProblem,
        ReviewStoreError,
        LibraryStoreError,
        AccountsStoreError,
        ValueError,
        FileNotFoundError,
    )
    try:
        if writes(args):  # one writer per folder (storage/folder_lock.py): refused here, before anything is read
            from storage.folder_lock import hold  # noqa: PLC0415

            hold(args.store, f"`python -m engine {args.command}`")
        return args.func(args)
    except known as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ninterrupted; {interrupted_means(args)}", file=sys.stderr)  # below a progress bar
        return 130


def writes(args: argparse.Namespace) -> bool:
    """Whether the command writes the stores of its ``--store`` folder: then it holds the folder
    while it runs (the app holds it too), and a second writer is refused naming the first."""
    part = getattr(args, "kb_command", None) or getattr(args, "library_command", None)
    if args.command in ("draft", "demo"):
        return True
    if args.command == "restore":
        return not args.list
    if args.command == "kb":
        return part not in ("list", "summary") or bool(getattr(args, "set", None))
    if args.command == "library":
        return part in ("import", "retire", "approve", "owner", "renew", "retire-product")
    if args.command == "profile":
        return bool(getattr(args, "set", None))
    review = getattr(args, "review_command", None)
    if review == "approval":
        return args.state is not None  # without on/off it only says how many are approved
    return review in ("decide", "assign", "comment", "restore", "packet-import", "approve")


def interrupted_means(args: argparse.Namespace) -> str:
    """What Ctrl-C left behind, said for the command that was stopped."""
    part = getattr(args, "kb_command", None) or getattr(args, "library_command", None)
    if args.command in ("kb", "library") and (part not in ("list", "check", "summary") or getattr(args, "set", None)):
        return "the knowledge base is as it was before this command"
    if args.command == "draft":
        return "the drafts written so far are kept; run the same command again to continue"
    if getattr(args, "cache", None):
        return f"what the model read so far is kept in {args.cache}; run the same command again to resume"
    return "nothing was changed"


if __name__ == "__main__":
    sys.exit(main())
