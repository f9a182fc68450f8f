"""The bench of the shared Word files printed by LibreOffice (#55, engine/bench/word_soffice.py): its
written truth rule (each item's page found by its text, in the document's order) on small PDFs drawn
here with PyMuPDF, the bench skipped with its reason where LibreOffice is absent, and, where ``soffice``
is installed, one small Word document printed by it and read by the flat PDF reader."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from engine.bench.word_soffice import bench_word_soffice, soffice_print, truth_pages
from tests import word_fixtures as wf


def _pdf(tmp_path: Path, pages: list[list[str]]) -> Path:
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=595, height=842)
        for k, line in enumerate(lines):
            page.insert_text((72, 72 + 14 * k), line, fontsize=10)
    out = tmp_path / "printed.pdf"
    doc.save(out)
    return out


def _items(*texts: str) -> list[dict]:
    return [{"text": t, "answer": [0, k, 1]} for k, t in enumerate(texts)]


def test_each_item_takes_the_first_page_at_or_after_the_previous_item_holding_its_text(tmp_path):
    pdf = _pdf(
        tmp_path,
        [
            ["Contents", "Organization Name ..... 3", "System Owner ..... 3"],  # a table of contents
            ["1 Introduction"],
            ["Organization Name", "Street Address", "System Owner"],
        ],
    )
    carried, missing = truth_pages(pdf, _items("Organization Name:", "Street Address", "System Owner"))
    assert missing == []
    # the first item reads the contents' line (the rule's known limit); the next ones go on from it
    assert [c["page"] for c in carried] == [1, 3, 3]
    assert carried[0]["text_place"] and not carried[0]["choice"] and carried[0]["places"] == []


def test_an_id_printed_apart_from_its_words_and_an_item_cut_by_a_page_break(tmp_path):
    pdf = _pdf(
        tmp_path,
        [
            ["AC-1 What is the solution and how is it implemented?", "Part a", "Part b"],
            ["Part a (AC-1's, cut by the page break: before AC-2's ID)", "AC-2 Parameters", "Parameter AC-2(a):"],
            ["AC-2 What is the solution and how is it implemented?", "Part a", "SV01", "10%", "How will you ensure"],
            ["that the team avoids inequality? Please describe"],
        ],
    )
    items = _items("AC-1 Part a", "Parameter AC-2(a):", "AC-2 Part a", "SV01 How will you ensure")
    items += _items("Please describe the team's other work")  # printed nowhere
    items += [{"text": "ensure that the team avoids", "choice": [[0, 1, 2]], "options": ["Yes", "No"]}]
    carried, missing = truth_pages(pdf, items)
    assert [(c["text"], c["page"]) for c in carried] == [
        ("AC-1 Part a", 1),
        ("Parameter AC-2(a):", 2),
        ("AC-2 Part a", 3),
        ("SV01 How will you ensure", 3),
        ("ensure that the team avoids", 3),
    ]
    assert missing == ["Please describe the team's other work"]
    assert carried[-1]["choice"] and carried[-1]["options"] == ["Yes", "No"]


def test_the_bench_is_skipped_with_its_reason_where_libreoffice_is_absent(tmp_path):
    out = bench_word_soffice(folder=tmp_path, program=str(tmp_path / "no-soffice-here"))
    assert out["skipped"].startswith("LibreOffice (soffice) is not installed")
    assert "prints" not in out


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_a_word_table_printed_by_libreoffice_is_read_with_its_pages(tmp_path):
    from engine.questionnaire.pdf.reader import read_pdf_questionnaire  # noqa: PLC0415

    doc = wf.new()
    doc.add_paragraph("Supplier questionnaire")
    table = doc.add_table(rows=3, cols=2)
    table.style = "Table Grid"
    table.cell(0, 0).text, table.cell(0, 1).text = "Question", "Response"
    table.cell(1, 0).text = "Does your organisation hold ISO 27001 certification?"
    table.cell(2, 0).text = "Describe your business continuity arrangements."
    path = wf.save(doc, tmp_path / "questionnaire.docx")
    pdf = soffice_print(path, shutil.which("soffice"), cache=tmp_path / "cache")
    assert soffice_print(path, shutil.which("soffice"), cache=tmp_path / "cache") == pdf  # kept, not printed again
    items = _items("Does your organisation hold ISO 27001", "Describe your business continuity")
    carried, missing = truth_pages(pdf, items)
    assert missing == [] and [c["page"] for c in carried] == [1, 1]
    q = read_pdf_questionnaire(pdf)
    assert [wf.fold(x.text) for x in q.questions] == [wf.fold(t) for t in (
        "Does your organisation hold ISO 27001 certification?",
        "Describe your business continuity arrangements.",
    )]  # fmt: skip
