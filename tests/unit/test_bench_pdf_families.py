"""The PDF family generator of ``bench pdf-families`` (engine/bench/pdf_families.py): the truth it records
is what it drew (each row's ID and first words on its page, a form row's fields on its page), every
value of every axis is drawn as often as the others, and the bench's JSON has its figures per family
beside the baseline."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pymupdf

from engine.bench.pdf_families import CHECKLISTS, FAMILIES, IDS, MARKS, PAGING, bench_pdf_families, draw, variants


def _plain(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def test_the_truth_is_what_the_generator_drew(tmp_path):
    for family in FAMILIES:
        for v in variants(family, 3):
            path = tmp_path / f"{family.replace(', ', '_').replace(' ', '-')}-{v.name}.pdf"
            items = draw(v, path)
            assert len(items) == 8
            with pymupdf.open(path) as doc:
                for item in items:
                    page = doc[item["page"] - 1]
                    text = _plain(page.get_text())
                    assert _plain(item["id"]) in text, (path.name, item)
                    assert _plain(" ".join(item["text"].split()[:2]))[:8] in text, (path.name, item)
                    names = {w.field_name for w in page.widgets()}
                    assert {
                        *item.get("choice_fields", ()),
                        *([item["text_field"]] if "text_field" in item else []),
                    } <= names


def test_a_row_broken_across_the_page_break_has_its_words_on_both_pages_and_its_truth_on_the_first(tmp_path):
    v = next(v for v in variants("text table, ruled", 24) if v.paging == PAGING[3] and v.id_place == "own column")
    items = draw(v, tmp_path / "broken.pdf")
    broken = items[4]  # the last row of the first page
    assert broken["page"] == 1 and broken["text"].endswith(v.language.more)
    with pymupdf.open(tmp_path / "broken.pdf") as doc:
        first, second = _plain(doc[0].get_text()), _plain(doc[1].get_text())
    whole = _plain(broken["text"])
    assert whole not in first and whole[:12] in first and whole[-12:] in second


def test_a_numbered_checklists_truth_is_a_question_per_number_with_its_options(tmp_path):
    for family in CHECKLISTS:
        for v in variants(family, 6):
            items = draw(v, tmp_path / f"{v.name}.pdf")
            assert [i["id"] for i in items] == [v.ids.format(n=n, a=chr(96 + n)).rstrip(".)") for n in range(1, 9)]
            assert all(i["choices"] == list(v.options) for i in items)
            assert {i["page"] for i in items} == ({1, 2} if v.paging == "two pages" else {1})


def test_every_value_of_an_axis_is_drawn_as_often_as_the_others():
    drawn = variants("option table, ruled", 24)
    assert Counter(v.ids for v in drawn) == {ids: 6 for ids in IDS}
    assert Counter(v.marks for v in drawn) == {mark: 8 for mark in MARKS}
    assert drawn == variants("option table, ruled", 24)  # the same rule, the same files


def test_the_bench_gives_each_familys_figures_beside_the_baseline():
    out = bench_pdf_families(1, ("text table, ruled",))
    family = out["families"]["text table, ruled"]
    assert family["truth"] == 8 and family["files"] == 1
    assert {"recall", "precision", "usable", "baseline", "intake_seconds", "refused", "placeholders_taken"} <= set(
        family
    )
    assert out["all"]["truth"] == 8


def test_a_web_forms_guidance_panels_are_drawn_but_no_part_of_its_questions(tmp_path):
    from engine.bench.pdf_layouts import SIDEBAR_LABELS, WEB, WEB_TEXT

    for v in variants(WEB, 8):
        path = tmp_path / f"{v.name}.pdf"
        items = draw(v, path)
        code = v.language.code
        with pymupdf.open(path) as doc:
            text = _plain(" ".join(page.get_text() for page in doc))
            assert doc.page_count >= 2
        assert _plain(WEB_TEXT[code][1])[:20] in text and any(_plain(x) in text for x in SIDEBAR_LABELS[code])
        for item in items:
            assert WEB_TEXT[code][1][:20] not in item["text"] and "(" not in item["text"]
            assert _plain(item["text"])[:12] in text
        assert [i["id"] for i in items] == (
            [str(n) for n in range(1, 9)] if dict(v.layout)["numbering"] == "numbered" else [""] * 8
        )


def test_the_columns_and_japanese_families_record_their_labels_and_numbers(tmp_path):
    for v in variants("questions in three columns", 6) + variants("Japanese checklist", 6):
        items = draw(v, tmp_path / f"{v.name}.pdf")
        assert len(items) == 8 and not any(i["text"].endswith((":", "：")) for i in items)
        if v.family == "Japanese checklist":
            assert [i["id"] for i in items][:2] in (["1", "2"], ["1.1", "1.2"])
            assert all(i["choices"] == ["はい", "いいえ"] for i in items)
