"""What the command groups of ``python -m engine`` share: the arguments several commands take
(``--store``, the scope flags, the folder-scope flags, ``--product``, the model flags, the
indexing flags; the ``--max-*`` limits are engine/core/limits.py's ``add_limit_args``), the tqdm
progress bar, and the objects built from parsed arguments: the engine configuration, the
knowledge base, the answer library, the dense encoder and the scope (or the folders' scopes).
Each command group (engine/cli/kb.py, library.py, …) imports this module and calls through it
(``common.open_kb(args)``), so a test can replace one of them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from tqdm import tqdm

from engine.app.settings import Settings
from engine.core.config import EngineConfig, SummaryWriter
from engine.core.limits import Limits
from engine.core.scopes import FolderScopes, Scope
from engine.drafting.generate import make_generator
from engine.drafting.generate.prompt import Evidence
from engine.index.embed.dense import DenseEncoder
from engine.index.kb import KnowledgeBase
from engine.index.kb_indexes import INDEX_MODES
from engine.index.library import AnswerLibrary, has_library

DEFAULT_STORE = Path("store")

_UNITS = {
    "reading": "file",
    "encoding": "chunk",
    "embedding questions": "question",
    "drafting": "question",
    "explaining": "explanation",
    "summarising": "call",
    "writing questions": "atom",
}


# ---- shared arguments --------------------------------------------------------------------------
def store_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=str(DEFAULT_STORE), help="knowledge-base folder (default: ./store)")
    p.add_argument(
        "--embedder",
        help="sentence-transformers name or folder (default all-MiniLM-L6-v2), or all-MiniLM-L6-v2-int8 "
        "(the same model as int8 ONNX, no PyTorch)",
    )


def scope_args(p: argparse.ArgumentParser, company: bool = False) -> None:
    g = p.add_mutually_exclusive_group(required=company)
    g.add_argument(
        "--product",
        dest="products",
        action="append",
        metavar="NAME",
        help="the documents belong to this product (repeat for several)",
    )
    g.add_argument(
        "--third-party", metavar="NAME", help="the documents are this third party's (e.g. a cloud provider's)"
    )
    if company:
        g.add_argument("--company", action="store_true", help="the document is company-wide")


def folder_scope_args(
    p: argparse.ArgumentParser, switch: str | None, company: str | None = None, third_parties: Sequence[str] = ()
) -> None:
    """``--scope-folders`` (its help ``switch``; None: no switch, scopes always come from the
    folders) and the folders' names, ``--company-folder`` and ``--third-party-folder``, with
    these defaults (``eval``'s name ../shared/data/instructure's; ``kb add`` and ``library
    import`` none: every folder is then a product)."""
    if switch is not None:
        p.add_argument("--scope-folders", action="store_true", help=switch)
    when = "with --scope-folders: " if switch is not None else ""
    p.add_argument(
        "--company-folder",
        default=company,
        metavar="NAME",
        help=f"{when}the folder whose files are company-wide (default "
        + (repr(company) if company else "none")
        + "); any folder not named here or as a third party's is a product",
    )
    p.add_argument(
        "--third-party-folder",
        nargs="+",
        default=list(third_parties),
        metavar="NAME",
        help=f"{when}the folders whose files are third parties' (default "
        + (", ".join(repr(t) for t in third_parties) or "none")
        + ")",
    )


def folder_scopes(args: argparse.Namespace) -> FolderScopes | None:
    """The scopes from folder names of ``folder_scope_args``; None without ``--scope-folders``."""
    if not getattr(args, "scope_folders", True):
        return None
    return FolderScopes(args.company_folder, tuple(args.third_party_folder))


def folder_scopes_instead(args: argparse.Namespace, one_scope: bool, flags: str) -> FolderScopes | None:
    """``folder_scopes`` where ``--scope-folders`` stands instead of one scope for every file
    (``kb add``, ``library import``): ValueError for the folder names without it, or for it
    beside ``flags`` (``one_scope``: they were given)."""
    if not args.scope_folders:
        if args.company_folder is not None or args.third_party_folder:
            raise ValueError("--company-folder and --third-party-folder name folders for --scope-folders; add it")
        return None
    if one_scope:
        raise ValueError(
            f"--scope-folders takes each file's scope from its folder; leave out {flags} "
            "(or --scope-folders to give every file that one)"
        )
    return folder_scopes(args)


def product_arg(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--product", metavar="NAME", help=what)


def model_args(p: argparse.ArgumentParser, evidence: bool = True, no_model: str | None = None) -> None:
    """--model or --llm-url (or, where ``no_model`` gives its help, --no-model: none at all)."""
    g = p.add_mutually_exclusive_group()
    if no_model:
        g.add_argument("--no-model", action="store_true", help=no_model)
    g.add_argument(
        "--model",
        help="a registered model (qwen2.5-coder-1.5b, the default; smollm2-135m, fast "
        "and weak) or the path of any GGUF file",
    )
    g.add_argument(
        "--llm-url", help="an OpenAI-compatible server (llama.cpp server, vLLM, Ollama), e.g. http://127.0.0.1:8080"
    )
    if evidence:  # `ask` and `bench ask` have their own (a different default, several forms)
        p.add_argument(
            "--evidence",
            choices=[e.value for e in Evidence],
            help="how the model points at its evidence: the labels of numbered context sentences (sentences, "
            "the default: every quote is an exact sentence) or quotes copied word for word (quotes)",
        )


def indexing_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--summaries",
        choices=[w.value for w in SummaryWriter],
        help="who writes the document summaries: the local LLM (default, RFP_SUMMARIES; extractive when "
        "no model can be loaded) or extractive (the documents' central sentences, no LLM)",
    )
    p.add_argument(
        "--index-modes",
        nargs="+",
        choices=INDEX_MODES,
        help="also build these indexes, now and on every later add (atom-questions runs the LLM on every sentence)",
    )
    model_args(p)


# ---- what the arguments build ------------------------------------------------------------------
def progress_bar():
    """A progress callback drawing one tqdm bar per stage on stderr ("3.20s/question")."""
    bars: dict[str, tqdm] = {}

    def progress(stage: str, done: int, total: int) -> None:
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = tqdm(
                total=total,
                desc=stage,
                unit=_UNITS.get(stage, "step"),
                file=sys.stderr,
                leave=False,
                dynamic_ncols=True,
            )
        bar.total = total
        bar.n = done
        bar.refresh()
        if done >= total:
            bar.close()

    return progress


def config(args: argparse.Namespace) -> EngineConfig:
    return EngineConfig.from_env(
        embedder=getattr(args, "embedder", None),
        mode=getattr(args, "mode", None),
        alpha=getattr(args, "alpha", None),
        top_k=getattr(args, "top_k", None),
        summaries=getattr(args, "summaries", None),
    )


def open_kb(args: argparse.Namespace) -> KnowledgeBase:
    return KnowledgeBase(Path(args.store), config(args), llm=indexing_llm(args), limits=Limits.from_args(args))


def indexing_llm(args: argparse.Namespace):
    """What writes summaries and atom questions in `kb add` / `kb reindex`: the local LLM
    (loaded only when something has to be written), or None for extractive summaries."""
    if not hasattr(args, "summaries"):
        return None  # not an indexing command
    writer = config(args).summaries
    if writer is SummaryWriter.EXTRACTIVE and "atom-questions" not in (args.index_modes or ()):
        return None

    return lambda: make_generator(args.model, args.llm_url)


def library(args: argparse.Namespace, kb=None, create: bool = False) -> AnswerLibrary | None:
    """The store's answer library; None when the store has none (and ``create`` is not set). A
    damaged one (the file emptied beside its ``-wal``, or only the ``-wal``) is not "none": it
    raises ``LibraryStoreDamaged``, one ``error:`` line."""
    store = Path(args.store)
    if not create and not has_library(store):
        return None
    policy = Settings.load(store).library  # the workspace's review period and admission (settings.json)
    return AnswerLibrary(store, kb.encoder if kb is not None else (lambda: encoder(args)), policy)


def encoder(args: argparse.Namespace) -> DenseEncoder:
    """The configured dense encoder, without opening the knowledge base (its Qdrant folder
    admits one process at a time)."""
    cfg = config(args)
    return DenseEncoder(cfg.embedder, cfg.batch_size)


def scope(args: argparse.Namespace) -> Scope | None:
    """The scope named by --product / --third-party / --company; None when none was given."""
    if getattr(args, "company", False):
        return Scope()
    if getattr(args, "third_party", None):
        return Scope(third_party=args.third_party)
    if getattr(args, "products", None):
        return Scope(tuple(args.products))
    return None


def print_json(result: dict, args: argparse.Namespace) -> int:
    """A benchmark's or evaluation's figures: one line with ``--json``, else indented."""
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


def by_arg(p: argparse.ArgumentParser) -> None:
    """A writing command's ``--by NAME``: whose decision, comment or library change it is."""
    p.add_argument(
        "--by",
        metavar="NAME",
        help="who does it (default: the reviewer of the workspace's settings, else your login name)",
    )
