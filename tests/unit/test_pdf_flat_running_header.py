"""A running header of two lines (#55, the NIST SP 800-171 SSP printed by LibreOffice): the same two lines
at the top of every page, the second below the furniture's band (flat/furniture.py), are the page's
furniture and never a question; a table's header row repeated at the top of each page under them is the
header of the table's columns and stays one. Drawn here with PyMuPDF; fails on the reader before the rule."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.questionnaire.pdf.flat.furniture import running_lines, without_running
from engine.questionnaire.pdf.layout import PageText
from engine.questionnaire.pdf.reader import read_pdf_questionnaire

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
SIZE = 10.0
HEADER = ("Controlled Unclassified Information (CUI)", "ACME SYSTEM SECURITY PLAN", "Last Updated: 4 May 2026")
COLUMNS = (72.0, 140.0, 400.0, 540.0)  # ID | Requirement | Response


def _text(page: pymupdf.Page, x: float, y: float, text: str, size: float = SIZE) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname="dejavu", fontfile=str(FONT))


def _row(page: pymupdf.Page, top: float, cells: tuple[str, str, str], height: float = 22.0) -> float:
    """A ruled row of the table at ``top`` (rules as thin filled rectangles, as LibreOffice draws them)."""
    for x, cell in zip(COLUMNS, cells):
        _text(page, x + 4, top + 14, cell)
    for x in COLUMNS:
        page.draw_rect(pymupdf.Rect(x - 0.25, top, x + 0.25, top + height), color=None, fill=(0, 0, 0))
    for y in (top, top + height):
        page.draw_rect(pymupdf.Rect(COLUMNS[0], y - 0.25, COLUMNS[-1], y + 0.25), color=None, fill=(0, 0, 0))
    return top + height


def _document(path: Path) -> Path:
    """Five pages: a two-line running header (the second line's two phrases at the margins, below the 7 %
    band), a page number at the foot, a table of requirements whose header row repeats at each page's top."""
    doc = pymupdf.open()
    n = 0
    for number in range(1, 6):
        page = doc.new_page(width=612, height=792)
        _text(page, 200, 50, HEADER[0], 12)  # in the band (55 pt)
        _text(page, 58, 66, HEADER[1])  # its second line: 56 .. 68 pt, under the band
        _text(page, 400, 66, HEADER[2])
        _text(page, 300, 760, str(number))
        top = 70.0  # the table's header row a few points under the running header's, as LibreOffice prints it
        if number == 1:
            _text(page, 72, 100, "Security requirements", 14)
            top = 120.0
        y = _row(page, top, ("ID", "Requirement", "Response"))
        for _ in range(5):
            n += 1
            y = _row(page, y, (f"R-{n}", f"Do you review access rights {n}?", ""))
    doc.save(path)
    return path


def test_a_running_header_of_two_lines_is_furniture_and_a_repeated_table_header_row_is_not(tmp_path: Path) -> None:
    doc = pymupdf.open(_document(tmp_path / "header.pdf"))
    texts = [(PageText.of(page), page.rect.height) for page in doc]
    running = running_lines(texts)
    for text, height in texts[1:]:
        kept = " | ".join(ln.text for ln in without_running(text, height, running)[0].lines)
        assert "SECURITY PLAN" not in kept and "Last Updated" not in kept and "Unclassified" not in kept
        assert kept.startswith("ID") and "Requirement" in kept  # the table's header row stays


def test_the_table_under_a_running_header_of_two_lines_is_read_whole(tmp_path: Path) -> None:
    questions = read_pdf_questionnaire(_document(tmp_path / "header.pdf")).questions
    texts = [q.text for q in questions]
    assert not any("SECURITY PLAN" in t or "Last Updated" in t for t in texts)
    assert [t for t in texts if t.startswith("Do you review")] == [
        f"Do you review access rights {n}?" for n in range(1, 26)
    ]
