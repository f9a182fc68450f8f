"""Word questionnaires printed as flat PDFs with the page furniture (#55, fourth round,
``bench word-printed --paged``): a running header and footer on every page and a table row cut by a
page break. Small Word documents written here (a header part, a question table longer than a page
whose header row repeats), printed by the bench's printer with ``paged=True`` and read by the flat PDF
reader: each row one question with its whole text, the running header and footer never a question."""

from __future__ import annotations

import re
import unicodedata

import pymupdf
import pytest
from docx.shared import Inches

from engine.bench.word_printed import print_docx, truth_items
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from tests import word_fixtures as wf

RUNNING = "Acme Borough Council - Invitation to Tender for Managed Cloud Services - Supplier Questionnaire"


def _fold(text: str) -> str:
    return re.sub(r"[\s\-–]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _question(r: int) -> str:
    lines = " ".join(
        f"Describe clause {r}.{k} of how the service keeps the council's records, its backups and its logs."
        for k in range(1, 1 + r % 5)
    )
    return f"Please describe how requirement {r} is met. {lines}".strip()


def _long_table_doc(rows: int = 40):
    """A header part, a lead paragraph, then "No. | Question | Response" over ``rows`` questions of
    one to five lines (so that rows meet the page breaks), the header row repeated on each page."""
    doc = wf.new()
    doc.sections[0].header.paragraphs[0].text = RUNNING
    doc.sections[0].footer.paragraphs[0].text = "Official - Sensitive (when complete)"
    doc.add_paragraph("Part B: Technical questions")
    table = doc.add_table(rows=rows + 1, cols=3)
    for i, width in enumerate((0.6, 3.9, 2.0)):
        table.columns[i].width = Inches(width)
    table.cell(0, 0).text, table.cell(0, 1).text, table.cell(0, 2).text = "No.", "Question", "Response"
    table.rows[0]._tr.get_or_add_trPr().append(wf.element("<w:tblHeader/>"))
    for r in range(1, rows + 1):
        table.cell(r, 0).text, table.cell(r, 1).text = f"B{r}", _question(r)
    return doc


def _printed(tmp_path, rulings: str, paper: str):
    path = wf.save(_long_table_doc(), tmp_path / "paged.docx")
    pdf = tmp_path / "paged.pdf"
    root, drawn = print_docx(path, pdf, rulings, paper, paged=True)
    return pdf, root, drawn


def test_the_paged_printer_draws_the_running_header_and_footer_and_cuts_rows(tmp_path):
    pdf, root, drawn = _printed(tmp_path, "ruled", "A4")
    items = [{"text": _question(r)[:40], "answer": [0, r, 2]} for r in range(1, 41)]
    carried = truth_items(root, drawn, items)
    with pymupdf.open(pdf) as printed:
        pages = [p.get_text() for p in printed]
    assert len(pages) >= 3
    assert all(RUNNING[:40] in t and f"Page {k} of {len(pages)}" in t for k, t in enumerate(pages, 1))
    cut = [r for r in range(1, 41) if _fold(_question(r)) not in _fold(pages[carried[r - 1]["page"] - 1])]
    assert cut, "no row cut by a page break"


@pytest.mark.parametrize(
    ("rulings", "paper"), [("no rulings", "Letter"), ("horizontal rules", "A4"), ("horizontal rules", "Letter")]
)
def test_a_row_cut_by_a_page_break_is_one_question_and_the_running_header_none(tmp_path, rulings, paper):
    """A guard (main's reader reads these too): the running header and footer are no question, a row
    cut at the page break one question with its whole text. (Ruled, this printer's cells are closed
    paths that the reader takes for no rules: a table it finds none of, cut or not; not this family.)"""
    pdf, _, _ = _printed(tmp_path, rulings, paper)
    q = read_pdf_questionnaire(pdf)
    assert [x.id for x in q.questions] == [f"B{r}" for r in range(1, 41)]
    assert [_fold(x.text) for x in q.questions] == [_fold(_question(r)) for r in range(1, 41)]
    assert all(x.text_cell for x in q.questions)


def test_a_running_header_that_asks_is_no_question(tmp_path):
    """A running header that reads like a question (the questionnaire's title ends with "?") and a
    numbered footer, on every page over and under an aligned table: none of them a question. Main's
    reader took the header line of each page for a question."""
    doc = _long_table_doc()
    doc.sections[0].header.paragraphs[0].text = "1. Supplier questionnaire: how will you deliver the managed service?"
    doc.sections[0].footer.paragraphs[0].text = "2.1 Section B: Technical questions (version 3)"
    path = wf.save(doc, tmp_path / "asking.docx")
    pdf = tmp_path / "asking.pdf"
    print_docx(path, pdf, "no rulings", "A4", paged=True)
    q = read_pdf_questionnaire(pdf)
    assert [x.id for x in q.questions] == [f"B{r}" for r in range(1, 41)]


SAQ_ROWS = [
    (f"12.{k}.1", f"Requirement {k} of the information security policy is reviewed once every twelve months.")
    for k in range(1, 5)
]


def _saq_after(lines: int):
    """``lines`` paragraphs of guidance, then a PCI SAQ requirement table whose two header rows
    ("PCI DSS Requirement | Expected Testing | Response (Check one …)" over the four options) are
    marked to repeat, over four requirements with a box under each option."""
    doc = wf.new()
    for _ in range(lines):
        doc.add_paragraph("Guidance to read before the table, a line of it.")
    rows = [(ident, requirement, "Examine policies.") for ident, requirement in SAQ_ROWS]
    wf.saq_table(doc, rows, repeat_header=True)
    return doc


def _paged_pages(tmp_path, doc, rulings: str) -> tuple:
    path = wf.save(doc, tmp_path / "saq.docx")
    pdf = tmp_path / "saq.pdf"
    print_docx(path, pdf, rulings, "A4", paged=True)
    with pymupdf.open(pdf) as printed:
        return pdf, [p.get_text() for p in printed]


def test_the_paged_printer_never_cuts_a_header_row_marked_to_repeat(tmp_path):
    """A word processor never splits a header row marked to repeat: moved whole to the next page when
    it does not fit. The table set at every height of a page's foot: each header row's lines on one
    page. (Main's printer cut the first header row where one of its lines fitted.)"""
    for lines in range(64, 72):
        _, pages = _paged_pages(tmp_path, _saq_after(lines), "no rulings")
        for text in pages:
            assert ("PCI DSS Requirement" in text) == ("each requirement)" in " ".join(text.split())), lines


@pytest.mark.parametrize("rulings", ["no rulings", "horizontal rules"])
def test_a_table_whose_header_would_be_cut_at_a_page_s_foot_reads_every_row(tmp_path, rulings):
    """The SAQ's table set where its first header row started on the page's last lines: printed with
    the header moved whole to the next page, its four requirements read with the four options (main's
    printer cut the header there and the reader read one requirement of four)."""
    pdf, pages = _paged_pages(tmp_path, _saq_after(68), rulings)
    assert "Guidance" in pages[1] and "PCI DSS Requirement" in pages[2] and "Guidance" not in pages[2]
    q = read_pdf_questionnaire(pdf)
    assert [x.id for x in q.questions] == [ident for ident, _ in SAQ_ROWS]
    # (with horizontal rules the header's wrapped "for each" joins an option: not this rule)
    if rulings == "no rulings":
        assert all(x.choices == wf.SAQ_OPTIONS for x in q.questions)
