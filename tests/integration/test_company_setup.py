"""A company in one command (#38): ``kb add ROOT --scope-folders`` indexes a generated tree laid
out like ../shared/data/instructure — a company folder, two product folders (one PDF in both),
a third party's folder — each file in its folder's scope, in one process; a refused file (an
empty PDF, a scanned one) makes the exit status 1 and the last line says how many and which, the
rest indexed. ``library import ROOT --scope-folders`` imports the past questionnaires of such a
tree, each for its folder's product, in one process. Real MiniLM, real Qdrant local mode; the
summaries are extractive (tests/conftest.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import fitz
import pytest

from engine.core.config import EngineConfig
from engine.core.scopes import FolderScopes, Scope
from engine.index.kb import KnowledgeBase
from storage.vector_store import release
from tests.fixtures import QUESTIONS, write_pdf, write_questionnaire

pytestmark = pytest.mark.timeout(600)

TEXTS = {
    "Acme/policy.pdf": "Employees use multi-factor authentication for every system they sign in to.",
    "Alpha/alpha.pdf": "Alpha backups of the production databases are kept for thirty-five days.",
    "Beta/beta.pdf": "Beta encrypts all customer data at rest with AES-256.",
    "Cloud/cloud.pdf": "Customers are notified within seventy-two hours of a confirmed breach.",
}
SHARED = "Production databases are copied to a second region every hour."  # Alpha/ and Beta/ hold it
FLAGS = ["--scope-folders", "--company-folder", "Acme", "--third-party-folder", "Cloud"]


def scanned_pdf(path: Path) -> Path:
    """A PDF whose page is a drawing with no text layer, as a scanned page reads."""
    doc = fitz.open()
    doc.new_page().draw_rect(fitz.Rect(50, 50, 300, 200), color=(0, 0, 0), fill=(0.5, 0.5, 0.5))
    doc.save(path)
    doc.close()
    return path


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "company"
    for name, text in TEXTS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        write_pdf(root / name, [text], header=None)
    shutil.copy(write_pdf(root / "Alpha" / "shared.pdf", [SHARED], header=None), root / "Beta" / "shared.pdf")
    return root


@pytest.fixture()
def cli(encoder, monkeypatch):
    """``python -m engine``'s main, with the session's MiniLM (not a second load)."""
    import engine.cli.common as common
    import engine.cli.main as main

    monkeypatch.setattr(common, "open_kb", lambda args: KnowledgeBase(Path(args.store), common.config(args), encoder))
    monkeypatch.setattr(common, "encoder", lambda args: encoder)
    return main.main


def scopes_in(store: Path, encoder) -> dict[str, Scope]:
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        return {d.name: d.scope for d in kb.documents()}
    finally:
        release(str(store / "qdrant"))


def test_the_folders_scopes_in_one_command(tree, tmp_path, cli, encoder, capsys):
    store = tmp_path / "store"
    assert cli(["kb", "add", str(tree), "--store", str(store), *FLAGS]) == 0
    out, err = capsys.readouterr()
    assert "refused" not in err
    for line in (
        "folder: Acme/ → company-wide (1 file)",
        "folder: Alpha/ → product: Alpha (2 files)",
        "folder: Beta/ → product: Beta (2 files)",
        "folder: Cloud/ → third party: Cloud (1 file)",
        "added: shared.pdf (pdf, 1 pages, 1 chunks, products: Alpha, Beta)",
    ):
        assert line in out, out
    assert scopes_in(store, encoder) == {
        "policy.pdf": Scope(),
        "alpha.pdf": Scope(("Alpha",)),
        "shared.pdf": Scope(("Alpha", "Beta")),  # a file in two product folders belongs to both
        "beta.pdf": Scope(("Beta",)),
        "cloud.pdf": Scope(third_party="Cloud"),
    }
    # the same command again: nothing re-indexed, no scope changed
    assert cli(["kb", "add", str(tree), "--store", str(store), *FLAGS]) == 0
    out = capsys.readouterr().out
    assert "added:" not in out and "is now" not in out and "5 documents" in out
    # no --company-folder: every folder is a product (a narrower scope, never a wider one)
    assert FolderScopes(None, ()).of_files([tree / "Acme" / "policy.pdf"])[tree / "Acme" / "policy.pdf"] == Scope(
        ("Acme",)
    )


def test_a_refused_file_makes_the_exit_status_1_and_is_counted_last(tree, tmp_path, cli, encoder, capsys):
    (tree / "Alpha" / "empty.pdf").write_bytes(b"")
    scanned_pdf(tree / "Beta" / "scan.pdf")
    store = tmp_path / "store"
    assert cli(["kb", "add", str(tree), "--store", str(store), *FLAGS]) == 1
    out, err = capsys.readouterr()
    assert "error: empty.pdf: is empty (0 bytes)" in err
    assert "error: scan.pdf: has no text layer" in err
    assert err.strip().splitlines()[-1] == (
        "refused: 2 files not indexed (empty.pdf, scan.pdf); the other files are indexed"
    )
    assert "5 documents" in out  # what could be indexed is
    assert set(scopes_in(store, encoder)) == {"policy.pdf", "alpha.pdf", "shared.pdf", "beta.pdf", "cloud.pdf"}


def test_the_folder_flags_are_checked(tree, tmp_path, cli, capsys):
    store = str(tmp_path / "store")
    assert cli(["kb", "add", str(tree), "--store", store, "--company-folder", "Acme"]) == 2
    assert "add it" in capsys.readouterr().err
    assert cli(["kb", "add", str(tree), "--store", store, "--scope-folders", "--product", "Alpha"]) == 2
    assert "leave out --product" in capsys.readouterr().err
    assert cli(["library", "import", str(tree), "--store", store, "--scope-folders", "--product", "A"]) == 2
    assert not (tmp_path / "store" / "manifest.json").exists()


def filled_book(path: Path, choice: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    answered = {row: choice for row in range(4, 4 + len(QUESTIONS))}
    return write_questionnaire(path, answered, comments={4: f"As {path.stem} states."})  # each its own bytes


def test_library_import_of_a_tree_each_file_for_its_folders_product(tmp_path, cli, capsys):
    root = tmp_path / "past"
    filled_book(root / "Acme" / "caiq.xlsx", "Yes")
    filled_book(root / "Alpha" / "hecvat alpha.xlsx", "Yes")
    filled_book(root / "Beta" / "hecvat beta.xlsx", "No")
    filled_book(root / "Cloud" / "provider.xlsx", "Yes")  # a third party's answers: not this company's
    write_pdf(root / "Alpha" / "notes.pdf", ["Not a questionnaire."], header=None)
    store = str(tmp_path / "store")
    assert cli(["library", "import", str(root), "--store", store, *FLAGS]) == 0
    out, err = capsys.readouterr()
    assert "imported: hecvat alpha.xlsx (4 entries of 4 questions, for Alpha)" in out
    assert "imported: hecvat beta.xlsx (4 entries of 4 questions, for Beta)" in out
    assert "imported: caiq.xlsx (4 entries of 4 questions)" in out and "12 entries in" in out
    assert "error: provider.xlsx: is in the third party's folder 'Cloud'" in err
    assert f"skipped: {root}: 1 files that are not questionnaires (.pdf ×1)" in err
    assert err.strip().splitlines()[-1] == "not imported: 1 of 4 files (provider.xlsx)"
    assert cli(["library", "list", "--json", "--store", store]) == 0
    products = {(e["file"], e["product"]) for e in json.loads(capsys.readouterr().out)}
    assert products == {("caiq.xlsx", None), ("hecvat alpha.xlsx", "Alpha"), ("hecvat beta.xlsx", "Beta")}
