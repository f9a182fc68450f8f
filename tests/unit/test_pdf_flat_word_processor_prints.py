"""Flat PDFs as a real word processor prints a Word questionnaire (#55, ``bench word-printed --printer
soffice``): drawn here with PyMuPDF the way LibreOffice draws them, in a real TrueType font (DejaVu Sans),
a table's rules as thin filled rectangles or as lines, a header row shaded, cell padding, and the
processor's own line wrapping. Each test fails on the reader before its rule."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engine.questionnaire.pdf.layout import Box, Line, Word, is_glyph
from engine.questionnaire.pdf.reader import read_pdf_questionnaire

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
SIZE, LEAD, PAD = 10.0, 11.6, 4.0
_FONT = pymupdf.Font(fontfile=str(FONT))


def _lines(text: str, width: float) -> list[str]:
    """``text`` wrapped at words to ``width`` points, as the processor wraps it."""
    out, line = [], ""
    for word in text.split():
        if line and _FONT.text_length(f"{line} {word}", fontsize=SIZE) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return out + [line]


def _rule(page: pymupdf.Page, a: tuple[float, float], b: tuple[float, float], rules: str) -> None:
    if rules == "filled rectangles":  # LibreOffice's borders: thin rectangles filled black
        page.draw_rect(pymupdf.Rect(a[0] - 0.25, a[1] - 0.25, b[0] + 0.25, b[1] + 0.25), color=None, fill=(0, 0, 0))
    else:
        page.draw_line(a, b, color=(0, 0, 0), width=0.5)


def draw_table(page: pymupdf.Page, top: float, widths: list[float], rows: list[list[list[str]]], rules: str) -> float:
    """A ruled table at ``top``: each row's cells (one paragraph a string, wrapped in its cell; a
    cell of one row spanning the table when it is the row's only one). The table's bottom."""
    x0, y = 72.0, top
    for cells in rows:
        spans = widths if len(cells) == len(widths) else [sum(widths)]
        wrapped = [[ln for para in cell for ln in _lines(para, w - 2 * PAD)] for cell, w in zip(cells, spans)]
        height = max(len(w) for w in wrapped) * LEAD + 2 * PAD
        x = x0
        for lines, w in zip(wrapped, spans):
            for k, line in enumerate(lines):
                page.insert_text((x + PAD, y + PAD + SIZE + k * LEAD), line, fontsize=SIZE, fontname="dejavu",
                                 fontfile=str(FONT))  # fmt: skip
            _rule(page, (x, y), (x, y + height), rules)
            x += w
        _rule(page, (x, y), (x, y + height), rules)
        _rule(page, (x0, y), (x, y), rules)
        y += height
    _rule(page, (x0, y), (x0 + sum(widths), y), rules)
    return y


def _read(tmp_path: Path, draw) -> list:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    draw(page)
    path = tmp_path / "printed.pdf"
    doc.save(path)
    return read_pdf_questionnaire(path).questions


ORIGINATION = [
    "Service Provider Corporate",
    "Service Provider System Specific",
    "Configured by Customer (Customer System Specific)",
    "Inherited from pre-existing FedRAMP Authorization for Click here to enter text. , Date of Authorization",
]


@pytest.mark.parametrize("rules", ["filled rectangles", "lines"])
def test_a_label_over_boxes_whose_last_option_wraps_is_one_choice_of_every_option(tmp_path, rules):
    rows = [
        [["AC-2"], ["Control Summary Information"]],
        [["Responsible Role:"]],
        [["Parameter AC-2(a):"]],
        [["Implementation Status (check all that apply):", "☐ Implemented", "☐ Partially implemented", "☐ Planned"]],
        [["Control Origination (check all that apply):", *(f"☐ {o}" for o in ORIGINATION)]],
    ]
    questions = _read(tmp_path, lambda page: draw_table(page, 100, [80, 388], rows, rules))
    by_text = {q.text: q for q in questions}
    origination = by_text["Control Origination (check all that apply)"]
    assert origination.choices == tuple(ORIGINATION)  # the last one's label on two lines: one option
    assert by_text["Implementation Status (check all that apply)"].choices == (
        "Implemented",
        "Partially implemented",
        "Planned",
    )
    assert {"Responsible Role", "Parameter AC-2(a)"} <= set(by_text)


def test_a_line_under_boxes_that_did_not_wrap_is_no_part_of_their_options(tmp_path):
    rows = [
        [["AC-2"], ["Control Summary Information"]],
        [["Responsible Role:"]],
        [["Parameter AC-2(a):"]],
        [["Implementation Status (check all that apply):", "☐ Implemented", "☐ Planned", "Describe the plan."]],
    ]
    questions = _read(tmp_path, lambda page: draw_table(page, 100, [80, 388], rows, "lines"))
    assert all(q.choices != ("Implemented", "Planned Describe the plan.") for q in questions)


BASELINE = [
    [["ID"], ["Control Description"], ["Low"], ["Moderate"], ["High"]],
    [["AC-1"], ["Access Control Policy and Procedures"], ["AC-1"], ["AC-1"], ["AC-1"]],
    [["AC-2"], ["Account Management"], ["AC-2"], ["AC-2 (1) (2) (3) (4) (5) (7) (9)"], ["AC-2 (1) (2) (3) (4) (5) (7) (9) (10) (11)"]],
    [["AC-3"], ["Access Enforcement"], ["AC-3"], ["AC-3"], ["AC-3"]],
    [["AC-4"], ["Information Flow Enforcement"], ["Not Selected"], ["AC-4 (21)"], ["AC-4 (8) (21)"]],
]  # fmt: skip


@pytest.mark.parametrize("rules", ["filled rectangles", "lines"])
def test_a_table_of_ids_whose_every_cell_is_filled_in_short_is_a_listing_not_questions(tmp_path, rules):
    summary = [
        [["AC-2"], ["Control Summary Information"]],
        [["Responsible Role:"]],
        [["Parameter AC-2(a):"]],
        [["Implementation Status (check all that apply):", "☐ Implemented", "☐ Planned"]],
    ]

    def draw(page: pymupdf.Page) -> None:
        bottom = draw_table(page, 80, [50, 150, 60, 104, 104], BASELINE, rules)
        draw_table(page, bottom + 40, [80, 388], summary, rules)

    questions = _read(tmp_path, draw)
    assert [q.text for q in questions] == [
        "Responsible Role",
        "Parameter AC-2(a)",
        "Implementation Status (check all that apply)",
    ]  # no "Account Management", "Access Enforcement" …: the baseline lists controls, it asks nothing


def test_a_table_of_ids_with_an_empty_cell_to_fill_is_still_read_as_questions(tmp_path):
    rows = [[["ID"], ["Control Description"], ["Owner"]]] + [
        [[ident], [name], [""]] for ident, name in [("AC-1", "Access Control Policy"), ("AC-2", "Account Management"),
                                                   ("AC-3", "Access Enforcement")]
    ]  # fmt: skip
    questions = _read(tmp_path, lambda page: draw_table(page, 80, [50, 250, 168], rows, "lines"))
    assert [q.id for q in questions] == ["AC-1", "AC-2", "AC-3"]


CHECKS = [
    ("The filename identifies the document or its purpose", "☐ Yes ☐ No"),
    ("Initial View is set to show “Document Title”", "☐ Yes ☐ No"),
    ("Accessibility Checker displays “Image-only PDF – Failed” error", "☐ Yes ☐ No ☐ NA"),
    ("Accessibility Checker displays “Tagged PDF – Failed” error", "☐ Yes ☐ No ☐ NA"),
]


@pytest.mark.parametrize("language", ["en", "de"])
def test_statements_each_with_boxes_at_a_far_tab_stop_are_one_question_each(tmp_path, language):
    checks = CHECKS if language == "en" else [
        ("Der Dateiname bezeichnet das Dokument oder seinen Zweck", "☐ Ja ☐ Nein"),
        ("Die Anfangsansicht zeigt den Titel des Dokuments", "☐ Ja ☐ Nein"),
        ("Die Barrierefreiheitsprüfung meldet keinen Fehler bei Bildern", "☐ Ja ☐ Nein ☐ NA"),
        ("Die Barrierefreiheitsprüfung meldet keinen Fehler bei Tags", "☐ Ja ☐ Nein ☐ NA"),
    ]  # fmt: skip

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((50, 80), "PDF accessibility checklist", fontsize=14, fontname="dejavu", fontfile=str(FONT))
        for k, (statement, boxes) in enumerate(checks):  # the boxes right-aligned at the margin: a far tab stop
            y = 110 + k * 17
            page.insert_text((51, y), statement, fontsize=SIZE, fontname="dejavu", fontfile=str(FONT))
            x = 556 - _FONT.text_length(boxes, fontsize=SIZE)
            page.insert_text((x, y), boxes, fontsize=SIZE, fontname="dejavu", fontfile=str(FONT))

    questions = _read(tmp_path, draw)
    assert [q.text for q in questions] == [s for s, _ in checks]  # not two statements run into one
    assert [len(q.choices) for q in questions] == [2, 2, 3, 3]


def _line(x: float, y: float, *words: str) -> Line:
    out, at = [], x
    for w in words:
        width = _FONT.text_length(w, fontsize=SIZE) if not "\ue000" <= w[0] <= "\uf8ff" else 6.0
        out.append(Word(Box(at, y, at + width, y + SIZE), w))
        at += width + 3
    return Line(Box(x, y, at - 3, y + SIZE), tuple(out), 0)


@pytest.mark.parametrize("bullet", ["\uf0b7", "\uf0a7", "\uf0d8", "\uf076"])
def test_a_symbol_fonts_list_bullet_printed_in_the_private_use_area_is_a_bullet_not_a_box(bullet):
    """A word processor prints a Symbol or Wingdings bullet as its private-use character (Symbol's •
    U+F0B7, Wingdings' ▪ U+F0A7 …): a resource list under a title is no checklist of statements to tick,
    while Wingdings' box (U+F0A8) stays a box. (PyMuPDF cannot write those characters with a real font,
    so the page's lines are built here as MuPDF reads them from such a print.)"""
    from engine.questionnaire.pdf.flat.lines import item_questions, page_items  # noqa: PLC0415

    assert not is_glyph(bullet) and is_glyph("\uf0a8")
    lines = [_line(72, 100, "Getting", "Started", "with", "PCI")]
    lines += [_line(80, 114 + 12 * k, bullet, *text.split()) for k, text in enumerate(
        ["Guide to Safe Payments", "Common Payment Systems", "Questions to Ask Your Vendors", "Glossary of Terms"])]  # fmt: skip
    lines += [_line(72, 180, "1.", "Does", "the", "merchant", "accept", "only", "card-not-present", "payments?")]
    questions = item_questions(page_items(0, lines, height=792))
    assert [q.text for q in questions] == ["Does the merchant accept only card-not-present payments?"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_row_of_boxes_whose_last_label_wrapped_onto_the_next_line_keeps_it(tmp_path, language):
    first, second, last = (
        ("All files in the PDF Portfolio were tested with the appropriate test process", "All attachments were tested",
         "NA") if language == "en" else
        ("Tous les fichiers du portefeuille PDF ont été testés avec la procédure qui convient", "Toutes les pièces "
         "jointes ont été testées", "Non")
    )  # fmt: skip
    yes_no = "☐ Yes ☐ No ☐" if language == "en" else "☐ Oui ☐ Sans objet ☐"

    def draw(page: pymupdf.Page) -> None:
        font = {"fontsize": SIZE, "fontname": "dejavu", "fontfile": str(FONT)}
        page.insert_text((50, 80), "Preconditions", fontsize=14, fontname="dejavu", fontfile=str(FONT))
        page.insert_text((51, 110), f"{first} {yes_no}", **font)  # the statement fills the line: its last label wraps
        page.insert_text((51, 124), last, **font)
        page.insert_text((51, 141), second, **font)
        end = f"{yes_no} {last}"
        page.insert_text((556 - _FONT.text_length(end, fontsize=SIZE), 141), end, **font)

    questions = _read(tmp_path, draw)
    assert [q.text for q in questions] == [first, second]
    options = ("Yes", "No", "NA") if language == "en" else ("Oui", "Sans objet", "Non")
    assert [q.choices for q in questions] == [options, options]
