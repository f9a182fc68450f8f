"""The real PDF questionnaires of ../shared/data/questionnaires/pdf against the questions counted by
reading them (tests/questionnaire_truth/pdf.json): recall and precision of the questions found
≥ 95 % per file, every form's export passing the no-other-change check, and a round trip (every
question answered, exported, read back) finding every answer where it belongs; the filled AWS and
GCP CAIQ PDFs read with all 261 questions and their answers, a sample of 20 rows each read by eye.
The figures come from engine/bench/pdf_intake.py, the PDF half of ``python -m engine bench intake --json``
(docs/benchmarks.md)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.bench.pdf_intake import TRUTH, bench_file, bench_filled
from tests.conftest import ROOT, SAMPLE_SHEET, inspect_json

TRUTH_FILES = json.loads(TRUTH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(TRUTH_FILES["files"]))
def test_questions_found_and_answers_written_back(shared_data, name, tmp_path):
    path = shared_data / "questionnaires" / "pdf" / name
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    figures = bench_file(path, TRUTH_FILES["files"][name], tmp_path)
    assert figures["recall"] >= 0.95 and figures["precision"] >= 0.95, figures
    trip = figures.get("round_trip")
    if trip is not None:  # every file but the solicitation, which has no question
        assert trip["wrong"] == [] and not str(trip["check"]).startswith("failed"), trip
    if "labels" in figures:
        assert figures["labels"]["read"] >= 0.9 * figures["labels"]["of"], figures["labels"]


@pytest.mark.parametrize("name", sorted(TRUTH_FILES["filled"]))
def test_filled_caiq_answers_read_as_past_answers(shared_data, name):
    path = shared_data / "instructure" / name
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    figures = bench_filled(path, TRUTH_FILES["filled"][name])
    assert figures["found"] == figures["truth"] == figures["with_choice"] == 261, figures
    assert figures["sample_right"] == figures["sample"] == 20, figures


def test_aws_caiq_pages_read_alike_with_pymupdfs_layout_analyser_loaded(shared_data, tmp_path):
    """Pages 4-11 of the AWS CAIQ read in a process that imports pymupdf before engine, which loads
    PyMuPDF's layout analyser (a test file doing so made the whole file read 254 of 261 questions in
    the tests after it, "01.1" for BCR-01.1): the IDs are those of the rows, every one."""
    path = shared_data / "instructure" / "Amazon Web Services" / "AWS CAIQ.pdf"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    excerpt = tmp_path / "aws_caiq_pages_4_11.pdf"
    code = (
        "import pymupdf, json\n"
        "assert pymupdf._get_layout is not None, 'the layout analyser did not load'\n"
        "from engine.questionnaire.pdf.reader import read_pdf_questionnaire\n"
        f"doc = pymupdf.open()\ndoc.insert_pdf(pymupdf.open({str(path)!r}), from_page=3, to_page=10)\n"
        f"doc.save({str(excerpt)!r})\n"
        f"print(json.dumps([x.id for x in read_pdf_questionnaire({str(excerpt)!r}).questions]))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    ids = json.loads(done.stdout.strip().splitlines()[-1])
    expected = ["A&A-01.1", "A&A-01.2", "A&A-02.1", "A&A-03.1", "A&A-04.1", "A&A-05.1", "A&A-06.1", "A&A-06.2"]
    expected += ["AIS-01.1", "AIS-01.2", "AIS-02.1", "AIS-03.1", "AIS-04.1", "AIS-05.1", "AIS-05.2", "AIS-06.1"]
    expected += ["AIS-06.2", "AIS-07.1", "AIS-07.2", "BCR-01.1", "BCR-01.2", "BCR-02.1", "BCR-03.1"]
    assert ids == expected


@pytest.mark.parametrize(
    "name, count, kinds, place",
    [
        ("fedramp_agency_package_request_form_acroform.pdf", 26, {"text": 25, "choice": 1}, "pdf field"),
        ("openchain_iso18974_self_certification_checklist_flat.pdf", 32, {"choice": 32}, "response document"),
    ],
)
def test_inspect_json_has_the_keys_of_a_spreadsheet(shared_data, name, count, kinds, place):
    """``python -m engine inspect FILE.pdf --json``: the same top-level keys as a spreadsheet's, every
    question with its ID, location (its page), text, kind, choices and answer place."""
    pdf = shared_data / "questionnaires" / "pdf" / name
    if not pdf.is_file():
        pytest.skip(f"{pdf} is absent")
    doc, book = inspect_json(pdf), inspect_json(SAMPLE_SHEET)
    assert list(doc) == list(book) and doc["questions"] == count and doc["kinds"] == kinds
    first = doc["sheets"][0]["questions"][0]
    assert {"id", "location", "text", "kind", "choices", "answer_place"} <= set(first)
    assert first["location"] == "page 1" and place in json.dumps(first["answer_place"])
