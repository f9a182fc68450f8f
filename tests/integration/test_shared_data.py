"""The engine on real third-party documents from ../shared/data (skipped when absent)."""

from __future__ import annotations

import pytest

from engine.bench.page_finder import bench_page_finder
from engine.bench.retrieval import load_squad
from engine.ingest import load_document


def test_page_finder_on_real_pdfs(shared_data):
    pdfs = [shared_data / "pdfs" / "infSecPol.pdf", shared_data / "pdfs" / "Remote Access Policy.pdf"]
    result = bench_page_finder([str(p) for p in pdfs], dense=False)
    assert result["files"] == 2 and result["chunks"] > 40
    assert result["tfidf_accuracy"] == 100.0


def test_real_questionnaires_and_pdfs_load(shared_data):
    caiq = next((shared_data / "instructure").rglob("*CAIQ*.xlsx"), None)
    if caiq is None:
        pytest.skip("no CAIQ workbook under instructure/")
    doc = load_document(caiq)
    assert len(doc.units) > 200 and all(u.sheet and u.row for u in doc.units)
    assert not any(line.split(": ", 1)[-1].startswith("=") for u in doc.units for line in u.text.splitlines())
    blank = load_document(shared_data / "hecvat_blank" / "HECVAT414.xlsx")
    assert any("hidden" in note for note in blank.notes)


def test_squad_dev_has_the_papers_corpus(shared_data):
    paragraphs, questions, gold = load_squad(shared_data / "squad" / "dev-v1.1.json")
    assert (len(paragraphs), len(questions)) == (2067, 10570)
    assert max(gold) == 2066
