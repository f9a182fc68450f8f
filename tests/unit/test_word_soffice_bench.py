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


def test_each_item_takes_the_first_place_after_the_previous_item_holding_its_text(tmp_path):
    pdf = _pdf(
        tmp_path,
        [
            ["Contents", "Organization Name ..... 3", "System Owner ..... 3"],  # a table of contents
            ["1 Introduction", "Responsible Role: (the previous control's)", "AC-1 Parameters"],
            ["Responsible Role:", "Email Address", "The official's name, title and contact information", "Name"],
            ["Title"],
        ],
    )
    items = _items("Organization Name:", "System Owner", "AC-1", "Responsible Role:", "Email Address", "Name")
    carried, missing = truth_pages(pdf, items + _items("Title"))
    assert missing == []
    # the first item reads the contents' line (the rule's known limit); the next ones go on from it, on
    # a page only after the previous item's place ("Responsible Role:" before "AC-1" is not the item's),
    # "Name" on the line it begins, not in the sentence before it (its "title" is not the next item's)
    assert [c["page"] for c in carried] == [1, 1, 2, 3, 3, 3, 4]
    assert carried[0]["text_place"] and not carried[0]["choice"] and carried[0]["places"] == []


def test_an_id_printed_apart_from_its_words_and_an_item_cut_by_a_page_break(tmp_path):
    pdf = _pdf(
        tmp_path,
        [
            ["AC-1 What is the solution and how is it implemented?", "Part a", "Part b"],
            ["PS-2 What is the solution and how is it implemented?", "Part"],  # "Part a" cut by the page break
            ["PS-2 What is the solution and how is it implemented?", "a", "Part b"],
            ["PS-3 Personnel Screening", "PS-3 What is the solution and how is it implemented?", "Part a"],
            ["SV01", "10%", "How will you ensure"],
            ["that the team avoids inequality? Please describe"],
        ],
    )
    items = _items("AC-1 Part a", "AC-1 Part b", "PS-2 Part a", "PS-2 Part b", "PS-3 Part a")
    items += _items("SV01 How will you ensure", "Please describe the team's other work")  # the last printed nowhere
    items += [{"text": "ensure that the team avoids", "choice": [[0, 1, 2]], "options": ["Yes", "No"]}]
    carried, missing = truth_pages(pdf, items)
    assert [(c["text"], c["page"]) for c in carried] == [
        ("AC-1 Part a", 1),
        ("AC-1 Part b", 1),
        ("PS-2 Part b", 3),  # its "Part a" is nowhere whole; PS-3's after "PS-2" is another control's
        ("PS-3 Part a", 4),
        ("SV01 How will you ensure", 5),
        ("ensure that the team avoids", 5),
    ]
    assert missing == ["PS-2 Part a", "Please describe the team's other work"]
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
