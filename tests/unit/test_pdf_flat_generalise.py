"""Flat PDFs of the #55 families drawn by ``bench pdf-families``'s generator (engine/bench/pdf_families.py),
read by the product and compared row by row with what the generator drew: a requirement row broken
across a page break (the rest of its text at the next page's top, under the header repeated or not)
is one question with its whole text; a numbered checklist ("1." / "1.2" / "a)", its options' marks
beside each question or below it, as boxes or as "Yes / No" to circle) is a question per number with
its options as one choice; a page set in two columns is read column by column. And a page of labels
beside their values is not taken for two columns."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from engine.bench.pdf_families import CHECKLISTS, variants
from engine.bench.pdf_families import draw as draw_variant
from engine.questionnaire.pdf.layout import PageText
from engine.questionnaire.pdf.questions import page_of_row
from engine.questionnaire.pdf.reader import read_pdf_questionnaire

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # ☐


def _fold(text: str) -> str:
    return re.sub(r"[\s\-–]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _read_as_drawn(v, tmp_path) -> tuple[list[tuple], list[tuple]]:
    """(what the generator drew, what the product read): each question's page, ID, text and choices."""
    path = tmp_path / f"{v.family.replace(', ', '_').replace(' ', '-')}_{v.name}.pdf"
    items = draw_variant(v, path)
    q = read_pdf_questionnaire(path)
    drawn = [(i["page"], _fold(i["id"]), _fold(i["text"]), tuple(map(_fold, i.get("choices", ())))) for i in items]
    read = [(page_of_row(x.row), _fold(x.id or ""), _fold(x.text), tuple(map(_fold, x.choices))) for x in q.questions]
    return drawn, read


def _pick(family: str, count: int = 60, **axes: str) -> list:
    """The family's variants (of its first ``count``) whose axes hold these values."""
    out = [v for v in variants(family, count) if all(v.axes().get(k.replace("_", " ")) == x for k, x in axes.items())]
    assert out, (family, axes)
    return out


_BROKEN = [
    (family, id_place)
    for family in ("option table, ruled", "option table, aligned", "text table, ruled", "text table, aligned")
    for id_place in ("own column", "in the requirement")
    if (family, id_place) != ("text table, ruled", "own column")  # main's reader joined that one already
]


@pytest.mark.parametrize(("family", "id_place"), _BROKEN)
@pytest.mark.parametrize("paging", ["row broken, header repeated", "row broken, header not repeated"])
def test_a_row_broken_across_the_page_break_is_one_question_with_its_whole_text(tmp_path, family, paging, id_place):
    v = _pick(family, pages=paging, id_place=id_place)[0]
    drawn, read = _read_as_drawn(v, tmp_path)
    assert [r[1:3] for r in read] == [d[1:3] for d in drawn], v.name
    if family.startswith("option"):
        assert all(r[3] == d[3] for r, d in zip(read, drawn)), v.name


@pytest.mark.parametrize("numbering", ["1.", "1.1", "a)"])
@pytest.mark.parametrize("marks", ["glyph", "square", "words"])
def test_a_numbered_checklist_is_a_question_per_number_its_marks_one_choice(tmp_path, numbering, marks):
    for place in ("beside", "below"):
        v = _pick(CHECKLISTS[0], ids=numbering, marks=marks, marks_place=place)[0]
        drawn, read = _read_as_drawn(v, tmp_path)
        assert [r[1:] for r in read] == [d[1:] for d in drawn], v.name


@pytest.mark.parametrize("place", ["beside", "below"])
@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_a_page_in_two_columns_is_read_column_by_column(tmp_path, place, language):
    v = _pick(CHECKLISTS[1], marks_place=place, language=language)[0]
    drawn, read = _read_as_drawn(v, tmp_path)
    assert [r[1:] for r in read] == [d[1:] for d in drawn], v.name


def test_labels_beside_their_values_are_not_two_columns(tmp_path):
    from engine.questionnaire.pdf.flat.columns import column_parts  # the module of two-column pages (#55)

    doc = pymupdf.open()
    page = doc.new_page()
    for k, (name, value) in enumerate(
        [
            ("Company name:", "Example Services Limited, registered in England and Wales"),
            ("Registered address:", "1 High Street, Exampletown, EX1 2AB, United Kingdom of Great Britain"),
            ("Contact:", "Jane Example, Head of Security and Compliance for the whole group"),
            ("Telephone:", "+44 20 7946 0000 (switchboard, weekdays from nine to five)"),
            ("Email:", "security@example.com, compliance@example.com, privacy@example.com"),
        ]
    ):
        page.insert_text((60, 100 + 14 * k), name, fontsize=9)
        page.insert_text((200, 100 + 14 * k), value, fontsize=9)
    path = tmp_path / "labels.pdf"
    doc.save(path)
    with pymupdf.open(path) as doc:
        lines = list(PageText.of(doc[0]).lines)
        assert column_parts(lines, doc[0].rect.width) == [lines]


def test_a_sidebar_of_guidance_beside_the_questions_is_not_a_second_column(tmp_path):
    """The CCS RM6264 web form printed: numbered questions on the left, a "Guidance" panel of running
    text on the right; read as one column (as main's reader does), its options running over pages."""
    from engine.questionnaire.pdf.flat.columns import column_parts

    doc = pymupdf.open()
    page = doc.new_page()
    left = [
        "4. In accordance with the selection questionnaire,",
        "please confirm you have all of the insurances in",
        "place, and that you agree to provide evidence.",
        "☐ Yes",
        "☐ No",
        "5. Please confirm if your organisation has been",
        "appointed to this agreement and removed from it.",
    ]
    right = [
        "Guidance",
        "Once you are appointed you will be required to provide",
        "copies of your insurance certificates. However, if you wish",
        "you can upload them below now, or at any later time, in the",
        "portal's documents section, where you can also replace them.",
    ]
    for k, line in enumerate(left):
        page.insert_text((50, 100 + 14 * k), line, fontsize=8, fontname="dejavu", fontfile=str(_DEJAVU))
    for k, line in enumerate(right):
        page.insert_text((330, 104 + 14 * k), line, fontsize=8)
    path = tmp_path / "sidebar.pdf"
    doc.save(path)
    with pymupdf.open(path) as doc:
        lines = list(PageText.of(doc[0]).lines)
        assert column_parts(lines, doc[0].rect.width) == [lines]
