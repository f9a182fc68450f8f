"""``python -m engine``'s parser (engine/cli/main.py): the top parser imports only the module of
the command named on the command line, and what each command's ``--help`` prints is the same
whether every command group was loaded or only that one."""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys

import pytest

from engine.cli.main import COMMANDS, build_parser
from tests.fixtures import topic_pages, write_pdf


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, child in _subcommands(parser).items():
        found += _paths(child, (*path, name))
    return found


def _help(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser.parse_args(argv)
    return out.getvalue()


def test_every_help_is_the_same_with_only_its_command_loaded():
    full = build_parser()
    assert list(_subcommands(full)) == [name for name, _ in COMMANDS]
    paths = _paths(full)
    assert len(paths) > 30  # every group and subcommand
    for path in paths:
        argv = [*path, "--help"]
        assert _help(build_parser(argv), argv) == _help(full, argv), path


def test_the_top_help_imports_no_command_module():
    code = (
        "import sys, contextlib, io\nfrom engine.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main(['--help'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('engine.cli.') and m not in "
        "('engine.cli.main', 'engine.cli.checks')), 'qdrant_client' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[] False", done.stdout


HEAVY = ("qdrant_client", "sklearn", "pymupdf", "torch", "sentence_transformers", "transformers", "streamlit")


def test_a_command_that_reads_no_document_and_no_index_imports_no_heavy_library(tmp_path):
    """``review mine`` reads the review store alone: Qdrant's client, scikit-learn, PyMuPDF and
    PyTorch are imported where they are used, not by every command (each costs 1-4 s of CPU in
    each process the tests and the users start)."""
    code = (
        "import sys, contextlib, io\nfrom engine.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    rc = main(['review', 'mine', '--as', 'ana', '--store', {str(tmp_path)!r}])\n"
        f"print(rc, [m for m in {HEAVY!r} if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0 []", done.stdout + done.stderr[-2000:]


def test_reading_a_pdf_leaves_pymupdfs_layout_analyser_unloaded(tmp_path):
    """PyMuPDF 2 loads its layout analyser's ONNX models on import (≈ 1 s of CPU); the engine reads
    page text only, so engine/__init__.py keeps it unloaded, and the text is read all the same."""
    pdf = write_pdf(tmp_path / "handbook.pdf", topic_pages())
    code = (
        "import sys\nfrom engine.ingest import load_document\n"
        f"doc = load_document({str(pdf)!r})\n"
        "print(len(doc.units), 'thirty-five days' in ' '.join(u.text for u in doc.units), "
        "sys.modules['pymupdf.layout'], 'pymupdf' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "5 True None True", done.stdout + done.stderr[-2000:]
