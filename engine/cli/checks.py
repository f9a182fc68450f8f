"""Command-line arguments that cannot work, refused before any file is read or model loads.

``python -m engine`` runs :func:`check_arguments` on the parsed arguments of every command:

* ``--limit`` is a number of questions (or paragraphs) to take: 1 or more (0 used to mean
  "all" and -1 "all but one");
* ``--store`` is a folder (it is created when missing; a file there is refused, not a
  FileExistsError traceback);
* an output (``--out``, ``--results``, ``--report``) is never the input questionnaire, nor
  another output of the same command;
* the ``--max-*`` size limits (see engine/core/limits.py) are 1 or more.

Each problem is a ValueError whose message names the flag, the value, the rule and the fix.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from engine.core.limits import Limits

_INPUTS = ("questionnaire", "target")  # the file a command reads answers from / writes answers for
_OUTPUTS = ("out", "results", "report")


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def _same_file(a: str, b: str) -> bool:
    pa, pb = Path(a), Path(b)
    if pa.exists() and pb.exists():
        return os.path.samefile(pa, pb)
    return pa.resolve() == pb.resolve()


def check_arguments(args: argparse.Namespace) -> None:
    """Raise ValueError for the first argument that cannot work (see the module docstring)."""
    limit = getattr(args, "limit", None)
    if limit is not None and limit < 1:
        raise ValueError(
            f"--limit {limit} is not a number of questions to take; give 1 or more, "
            "or leave --limit out to take them all"
        )
    store = getattr(args, "store", None)
    if store:
        existing = next(p for p in (Path(store), *Path(store).absolute().parents) if p.exists())
        if not existing.is_dir():
            where = "" if existing == Path(store) else f" ({existing} is a file)"
            raise ValueError(
                f"--store {store} is not a folder{where}; give a folder for the store "
                "(it is created when it does not exist)"
            )
    inputs = [getattr(args, d) for d in _INPUTS if getattr(args, d, None)]
    outputs = [d for d in _OUTPUTS if getattr(args, d, None)]
    for i, out in enumerate(outputs):
        path = getattr(args, out)
        if any(_same_file(path, source) for source in inputs):
            raise ValueError(
                f"{_flag(out)} {path} is the questionnaire itself; write to a new file "
                "(the questionnaire is never changed)"
            )
        for other in outputs[:i]:
            if _same_file(path, getattr(args, other)):
                raise ValueError(
                    f"{_flag(out)} and {_flag(other)} are the same file {path}; give each output its own file"
                )
    Limits.from_args(args)  # the --max-* flags and RFP_MAX_* variables: 1 or more


__all__ = ["check_arguments"]
