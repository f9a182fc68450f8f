"""The PDF family generator of ``bench pdf-families`` (engine/bench/pdf_families.py): the truth it records
is what it drew (each row's ID and first words on its page, a form row's fields on its page), every
value of every axis is drawn as often as the others, and the bench's JSON has its figures per family
beside the baseline."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pymupdf

from engine.bench.pdf_families import FAMILIES, IDS, MARKS, bench_pdf_families, draw, variants


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
