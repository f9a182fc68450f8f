"""The real Word questionnaires of ../shared/data/questionnaires/docx (issue #48's done-when): the
questions found against the truth counted by reading each document (tests/questionnaire_truth/
docx.json), recall and precision ≥ 95 % per file; every export (each question given a distinct
answer) passes the no-other-change check, and a round trip reads ≥ 95 % of the answers back in
their places; ``inspect --json`` has a spreadsheet's top-level keys. Skipped when the shared data is
absent. Figures and timings: ``python -m engine bench intake`` (docs/benchmarks.md)."""

from __future__ import annotations

import json

import pytest

from engine.bench.document_intake import TRUTH, bench_file
from tests.conftest import SAMPLE_SHEET, inspect_json

TRUTHS = json.loads(TRUTH.read_text(encoding="utf-8"))["files"]


@pytest.mark.parametrize("name", sorted(TRUTHS))
def test_questions_found_exported_and_read_back(shared_data, name):
    path = shared_data / "questionnaires" / "docx" / name
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    figures = bench_file(path, TRUTHS[name]["questions"])
    assert figures["recall"] >= 0.95 and figures["precision"] >= 0.95, figures
    assert "export_error" not in figures, figures["export_error"]  # the no-other-change check passed
    back = figures["round_trip"]
    assert back["texts_back"] >= 0.95 * back["texts"] and back["choices_back"] >= 0.95 * back["choices"], back


def test_inspect_json_has_the_keys_of_a_spreadsheet(shared_data):
    word = shared_data / "questionnaires" / "docx" / "uk_ico_dpia_template.docx"
    doc, book = inspect_json(word), inspect_json(SAMPLE_SHEET)
    assert list(doc) == list(book) and doc["questions"] == 28 and doc["kinds"] == {"text": 28}
    first = doc["sheets"][0]["questions"][0]
    assert {"id", "text", "kind", "choices", "answer_place"} <= set(first)
    assert first["answer_place"]["text"]["kind"] == "table cell"
