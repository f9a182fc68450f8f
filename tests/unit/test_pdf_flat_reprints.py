"""Flat PDF questionnaires printed by other hands (#55, engine/bench/pdf_reprints.py): a page turned by
/Rotate, two pages on one sheet, a page printed reduced are read as the page printed at its size.
Each fixture is a drawn family's variant re-printed; main's reader refused the rotated pages (no
horizontal text) and read a sheet of two pages as one page."""

from __future__ import annotations

import re
import unicodedata

from engine.bench.pdf_families import draw, variants
from engine.bench.pdf_reprints import reprint
from engine.questionnaire.pdf.reader import read_pdf_questionnaire


def _fold(text: str) -> str:
    return re.sub(r"[\s\-–]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _read(tmp_path, family: str, pick, kind: str):
    v = next(v for v in variants(family, 24) if pick(v))
    original = tmp_path / "original.pdf"
    items = draw(v, original)
    reprint(original, kind, tmp_path / "reprint.pdf")
    q = read_pdf_questionnaire(tmp_path / "reprint.pdf")
    return items, q


def _same(items, q) -> None:
    assert [(_fold(i["id"]), _fold(i["text"])) for i in items] == [
        (_fold(x.id or ""), _fold(x.text)) for x in q.questions
    ]


def test_a_page_turned_by_rotate_is_read_as_a_viewer_shows_it(tmp_path):
    items, q = _read(tmp_path, "option table, ruled", lambda v: v.paging == "one page", "rotated")
    _same(items, q)
    assert all(list(x.choices) == items[0]["choices"] for x in q.questions)


def test_two_pages_on_one_sheet_are_read_page_by_page(tmp_path):
    items, q = _read(tmp_path, "numbered checklist", lambda v: v.paging == "two pages", "two pages on one")
    _same(items, q)  # not the left page's lines joined to the right's
    assert {x.row // 1000 for x in q.questions} == {1}


def test_three_columns_printed_reduced_are_still_three_columns(tmp_path):
    items, q = _read(tmp_path, "questions in three columns", lambda v: v.orientation == "portrait", "two pages on one")
    _same(items, q)


def test_a_guidance_panel_without_a_label_or_labelled_note_is_no_part_of_a_question(tmp_path):
    from engine.bench.pdf_layouts import PANELS

    for v in variants(PANELS, 12):  # every panel style with no label, "Note:" alone and "Note: …"
        path = tmp_path / f"{v.name}.pdf"
        items = draw(v, path)
        q = read_pdf_questionnaire(path)
        assert [_fold(i["text"]) for i in items] == [_fold(x.text) for x in q.questions], v.name
        assert [i.get("choices", []) for i in items] == [list(x.choices) for x in q.questions], v.name


def test_three_columns_of_unequal_width_are_three_not_two(tmp_path):
    from engine.bench.pdf_layouts import UNEQUAL

    for v in [v for v in variants(UNEQUAL, 12) if dict(v.layout)["widths"] == "2:1:1"]:
        path = tmp_path / f"{v.name}.pdf"
        items = draw(v, path)
        q = read_pdf_questionnaire(path)
        assert [_fold(i["text"]) for i in items] == [_fold(x.text) for x in q.questions], v.name


def test_a_row_broken_across_pages_printed_lower_on_the_paper_is_still_one_question(tmp_path):
    items, q = _read(
        tmp_path, "two-row header, row broken, ruled", lambda v: "not repeated" in v.paging, "wide margins"
    )
    _same(items, q)  # the running header no longer in the paper's top 7 %: the table still starts its page
