"""Flat PDFs of the layouts engine/bench/pdf_layouts.py draws (#55), read by the product and compared
question by question with what the generator drew: a web form printed, its guidance panels (beside
a question or below its options; a label and a rule, a box or a shaded panel) kept out of its
questions, its options running onto the next page kept, its unnumbered labels over an answer box or
options read as questions; unnumbered questions in two columns and questions in three read column by
column; Japanese checklists numbered with full-width digits, their "□はい　□いいえ" or "はい／いいえ" read
as one choice. Each of these failed on main's reader (docs/benchmarks.md, #55)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from engine.bench.pdf_drawing import BOX_FONT
from engine.bench.pdf_families import draw, variants
from engine.bench.pdf_layouts import JA_MARKS, JA_NUMBERS, SIDEBARS, WEB_TEXT
from engine.questionnaire.pdf.questions import page_of_row
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.records import QuestionnaireError

RM6264 = Path("../shared/data/questionnaires/pdf/uk_ccs_rm6264_dps_registration_questionnaire_web_printout.pdf")


def _fold(text: str) -> str:
    return re.sub(r"[\s\-–]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _pick(family: str, count: int = 24, **axes: str) -> list:
    out = [v for v in variants(family, count) if all(v.axes().get(k.replace("_", " ")) == x for k, x in axes.items())]
    assert out, (family, axes)
    return out


def _read_as_drawn(v, tmp_path) -> tuple[list[tuple], list[tuple], list[str]]:
    """(what the generator drew, what the product read, the texts read): page, ID, text, choices."""
    path = tmp_path / f"{v.name}.pdf"
    items = draw(v, path)
    q = read_pdf_questionnaire(path)
    drawn = [(i["page"], _fold(i["id"]), _fold(i["text"]), tuple(map(_fold, i.get("choices", ())))) for i in items]
    read = [(page_of_row(x.row), _fold(x.id or ""), _fold(x.text), tuple(map(_fold, x.choices))) for x in q.questions]
    if len(read) == len(drawn):  # a text question that asks Yes or No ("Does …?" over a box) may offer them too
        read = [r if d[3] else (*r[:3], ()) for r, d in zip(read, drawn)]
    return drawn, read, [x.text for x in q.questions]


@pytest.mark.parametrize("sidebar", SIDEBARS)
def test_a_web_forms_guidance_panel_is_no_part_of_its_questions(tmp_path, sidebar):
    for v in _pick("web form printout", sidebar=sidebar)[:2]:
        drawn, read, texts = _read_as_drawn(v, tmp_path)
        assert read == drawn, v.axes()
        guidance = WEB_TEXT[v.language.code][1]
        assert not any(w in t for t in texts for w in ("Guidance", "Help", "Hinweis", guidance[:20])), texts


@pytest.mark.parametrize("numbering", ["numbered", "unnumbered"])
def test_a_web_forms_options_running_onto_the_next_page_stay_its_questions(tmp_path, numbering):
    for v in _pick("web form printout", numbering=numbering, **{"break": "inside options"})[:3]:
        drawn, read, _ = _read_as_drawn(v, tmp_path)
        assert read == drawn, v.axes()
        assert len(drawn[3][3]) == 4  # the fourth question's four options, two on each page


@pytest.mark.parametrize("family", ["unnumbered questions, two columns", "questions in three columns"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_questions_set_in_columns_are_read_column_by_column(tmp_path, family, language):
    for v in _pick(family, language=language)[:3]:
        drawn, read, _ = _read_as_drawn(v, tmp_path)
        assert read == drawn, v.axes()


def test_a_japanese_checklist_is_a_question_per_number_with_hai_iie(tmp_path):
    for numbering in JA_NUMBERS:  # "１．", "（１）", "１．１"
        for marks in JA_MARKS:  # "□はい　□いいえ", drawn squares, "はい／いいえ"
            for v in _pick("Japanese checklist", 60, numbering=numbering, marks=marks)[:2]:
                drawn, read, _ = _read_as_drawn(v, tmp_path)
                assert read == drawn, v.axes()


@pytest.mark.skipif(not RM6264.exists(), reason="the shared questionnaires are not here")
def test_the_ccs_rm6264_guidance_sidebar_is_out_of_its_questions():
    q = read_pdf_questionnaire(RM6264)
    by_id = {x.id: x.text for x in q.questions}
    assert by_id["51"].endswith("following a Contract Termination?")
    assert not any(re.search(r"\bGuidance\b", x.text) for x in q.questions)  # 14 texts ended "… Guidance"
    assert len(q.questions) == 154  # as before: the sidebar neither adds nor loses a question


def test_a_list_of_circle_bullets_under_a_heading_is_no_choice(tmp_path):
    """ "○" before each line of a list under a heading ending ":" (a SOC 3 report's "Advanced LMS
    functionality:") are bullets, not a question's radios; under a question that asks they are its options."""

    def page(head: str) -> Path:
        doc = pymupdf.open()
        p = doc.new_page()
        p.insert_text((40, 60), head, fontsize=10)
        for k, item in enumerate(("legacy content migration tools", "rubrics", "learning outcomes")):
            p.insert_text((50, 80 + 16 * k), "○", fontsize=9, fontname="dejavu", fontfile=str(BOX_FONT))
            p.insert_text((64, 80 + 16 * k), item, fontsize=9)
        path = tmp_path / f"{len(head)}.pdf"
        doc.save(path)
        return path

    with pytest.raises(QuestionnaireError):
        read_pdf_questionnaire(page("Advanced LMS functionality:"))
    q = read_pdf_questionnaire(page("Which of these tools does your product offer?"))
    assert [(x.text, x.choices) for x in q.questions] == [
        (
            "Which of these tools does your product offer?",
            ("legacy content migration tools", "rubrics", "learning outcomes"),
        )
    ]
