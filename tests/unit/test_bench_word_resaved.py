"""The resaved-Word bench (engine/bench/word_resaved.py, issue #55): its truth transfer, a rule of the two
documents' texts, checked on generated documents; the bench skips with its reason without LibreOffice."""

from __future__ import annotations

from pathlib import Path

from engine.bench.word_resaved import bench_word_resaved, carry
from tests.word_fixtures import add, new, para, save, table, text


def _original(tmp_path: Path) -> Path:
    doc = new()
    add(doc, para(text("Intro")))
    add(doc, para(text("Describe your service.")))
    add(doc, para())
    add(doc, table([["ID", "Question", "Answer"], ["1", "Name?", ""], ["2", "Owner?", ""]]))
    return save(doc, tmp_path / "a.docx")


def _saved(tmp_path: Path) -> Path:
    """The same document as another processor could save it: a paragraph more at the top, the symbol
    glyph written as text, the table's rows in another order."""
    doc = new()
    add(doc, para(text("Title \uf0a8")))
    add(doc, para(text("Intro")))
    add(doc, para(text("Describe your service.")))
    add(doc, para())
    add(doc, table([["ID", "Question", "Answer"], ["2", "Owner?", "x"], ["1", "Name?", ""]]))
    return save(doc, tmp_path / "b.docx")


def test_paragraphs_carried_by_text_in_order_and_cells_by_address_or_text(tmp_path):
    items = [
        {"text": "Describe", "answer": ["p", 3]},
        {"text": "Name?", "answer": [0, 1, 1]},
        {"text": "Owner", "answer": [0, 2, 2]},
        {"text": "Header", "choice": [[0, 0, 2]]},
    ]
    carried, lost = carry(_original(tmp_path), _saved(tmp_path), items)
    # ["p", 3] (the empty paragraph after "Describe") is the saved file's 4th paragraph; "Name?" moved to
    # row 2, found by its text; an empty cell at the same address is taken as the same cell (the rule's
    # word: a cell whose text is the original's keeps its address)
    assert carried[0]["answer"] == ["p", 4]
    assert carried[1]["answer"] == [0, 2, 1]
    assert carried[2]["answer"] == [0, 2, 2]
    assert carried[3]["choice"] == [[0, 0, 2]]
    assert lost == 0


def test_a_cell_whose_text_is_nowhere_in_its_table_is_not_carried(tmp_path):
    items = [{"text": "Gone", "answer": [0, 1, 0]}]
    doc = new()
    add(doc, table([["ID", "Question", "Answer"], ["9", "Name?", ""]]))
    carried, lost = carry(_original(tmp_path), save(doc, tmp_path / "c.docx"), items)
    assert (carried, lost) == ([], 1)


def test_skips_with_its_reason_without_libreoffice(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no soffice on the path
    out = bench_word_resaved(folder=tmp_path)
    assert "soffice" in out["skipped"] and out["files"] == []
