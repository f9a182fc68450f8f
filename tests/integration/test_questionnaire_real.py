"""The questionnaire reader on the real CAIQ / HECVAT workbooks in ../shared/data (skipped when
absent). The ``_extracted/*.jsonl`` files list each filled questionnaire's questions and
answers: the reader must find exactly those questions, texts and existing answers."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.cli.inspect import summary
from engine.questionnaire import read_questionnaire

# jsonl stem -> (workbook path under instructure/, question count, choice-list of the answer column)
FILLED = {
    "instructure_caiq_v4.0.3": ("Instructure/Instructure CAIQ.xlsx", 261, ("Yes", "No", "NA")),
    "Canvas_Catalog_HECVAT_Lite": ("Canvas Catalog/Canvas Catalog HECVAT Lite.xlsx", 94, ("Yes", "No")),
    "Canvas_Studio_HECVAT_Lite": ("Canvas Studio/Canvas Studio HECVAT Lite.xlsx", 94, ("Yes", "No")),
    "Elevate_Standards_Alignment_HECVAT_Lite": (
        "Elevate Standards Alignment/Elevate Standards Alignment HECVAT Lite.xlsx",
        94,
        ("Yes", "No"),
    ),
    "Intelligent_Insights_HECVAT_Lite": (
        "Intelligent Insights/Intelligent Insights HECVAT Lite.xlsx",
        94,
        ("Yes", "No"),
    ),
    "LearnPlatform_HECVAT_Lite": ("LearnPlatform/LearnPlatform HECVAT Lite.xlsx", 94, ("Yes", "No")),
    "Mastery_Connect_HECVAT_Lite": ("Mastery Connect/Mastery Connect HECVAT Lite.xlsx", 94, ("Yes", "No")),
    "Canvas_Credentials_HECVAT_Full": ("Canvas Credentials/Canvas Credentials HECVAT Full.xlsx", 255, ("Yes", "No")),
    "Parchment_HECVAT_Full_-_All_Products": ("Parchment/Parchment HECVAT Full - All Products.xlsx", 255, ("Yes", "No")),
}


def norm(text) -> str:
    return " ".join(str(text or "").split())


def same_answer(truth: str, found: str | None) -> bool:
    """Equal after whitespace normalisation; the extraction printed dates as "YYYY-MM-DD 00:00:00"
    where the reader gives ISO dates."""
    truth, found = norm(truth), norm(found)
    return truth == found or truth == f"{found} 00:00:00"


@pytest.mark.parametrize("stem", sorted(FILLED))
def test_filled_questionnaire_matches_its_extraction(shared_data: Path, stem):
    relative, count, choices = FILLED[stem]
    truth = [json.loads(line) for line in (shared_data / "instructure/_extracted" / f"{stem}.jsonl").open()]
    truth = [t for t in truth if t["question"]]  # CAIQ's "End of Standard" / copyright lines
    q = read_questionnaire(shared_data / "instructure" / relative)
    assert len(q.sheets) == 1  # the vendor-response sheet; report and evaluation sheets are skipped
    sheet = q.sheets[0]
    assert (sheet.id_col, sheet.question_col, sheet.answer_col) == ("A", "B", "C")
    assert sheet.comment_col == ("E" if "caiq" in stem else "D")
    assert sheet.choices == choices
    assert len(q.questions) == len(truth) == count
    assert [x.id for x in q.questions] == [t["id"] for t in truth]
    # a question cell holding only its row's ID (Parchment's AAAI-11: its lookup formula pasted
    # over) is read with the question beside that ID in another sheet (sheet/question_lookup.py)
    bare = [t["id"] for t in truth if t["question"] == t["id"]]
    assert [norm(x.text) for x in q.questions if x.id not in bare] == [
        norm(t["question"]) for t in truth if t["id"] not in bare
    ]
    assert all(len(x.text.split()) > 3 for x in q.questions if x.id in bare)
    assert all(any(f"{i} B" in n and "only their row's ID" in n for n in q.notes) for i in bare)
    for x, t in zip(q.questions, truth):
        answer = x.existing_choice if x.choice_cell else x.existing_answer
        assert same_answer(t["answer"], answer), (x.id, t["answer"], answer)
        if x.choice_cell:
            assert x.existing_choice in x.choices or x.existing_choice is None, x
            assert same_answer(t["comment"], x.existing_answer), (x.id, t["comment"], x.existing_answer)
        assert re.fullmatch(r"[A-Z]+\d+", x.question_cell) and not x.text.startswith("=")


def test_caiq_every_question_has_a_yes_no_na_dropdown(shared_data: Path):
    q = read_questionnaire(shared_data / "instructure/Instructure/Instructure CAIQ.xlsx")
    (sheet,) = q.sheets
    assert (sheet.sheet, sheet.header_row) == ("CAIQv4.0.3", 2)
    assert all(x.choice_cell == f"C{x.row}" and x.text_cell == f"E{x.row}" for x in q.questions)
    assert Counter(x.existing_choice for x in q.questions) == Counter({"Yes": 259, "No": 2})
    assert (q.questions[0].id, q.questions[-1].id) == ("A&A-01.1", "UEM-14.1")


def test_hecvat_full_resolves_named_and_x14_dropdowns(shared_data: Path):
    """Parchment's Full 3.04 keeps "yes"/"uptime"/"dr" as defined names in ordinary validations
    and three lists on the hidden Values sheet in the x14 extension."""
    q = read_questionnaire(shared_data / "instructure/Parchment/Parchment HECVAT Full - All Products.xlsx")
    lists = Counter(x.choices for x in q.questions if x.choices)
    assert lists[("Yes", "No")] > 200
    assert ("Tier I", "Tier II", "Tier III", "Tier IV", "N/A") in lists  # name "uptime"
    by_cell = {x.choice_cell: x.choices for x in q.questions if x.choice_cell}
    assert by_cell["C33"][0] == "1) Self owned and managed"  # x14: Values!$A$50:$A$56
    assert by_cell["C94"] == ("1) Yes", "2) No")  # x14: Values!$C$26:$C$27
    assert any("Analyst Report" in n and "formulas" in n for n in q.notes)


def test_hecvat_414_blank(shared_data: Path):
    """HECVAT 4.1.4: question cells are VLOOKUP formulas (cached values read), dropdowns only in
    the x14 extension pointing at the hidden 'Auto Responses' sheet, the general-information
    answers of every tab are formulas copying START HERE (not questions), evaluation tabs skipped."""
    q = read_questionnaire(shared_data / "hecvat_blank/HECVAT414.xlsx")
    names = [s.sheet for s in q.sheets]
    assert names == [
        "START HERE",
        "Organization",
        "Product",
        "Infrastructure",
        "IT Accessibility",
        "Case-Specific",
        "AI",
        "Privacy",
    ]
    counts = {s.sheet: len(s.questions) for s in q.sheets}
    assert counts == {
        "START HERE": 22,
        "Organization": 43,
        "Product": 41,
        "Infrastructure": 51,
        "IT Accessibility": 18,
        "Case-Specific": 60,
        "AI": 31,
        "Privacy": 65,
    }
    assert all((s.id_col, s.question_col, s.answer_col, s.comment_col) == ("A", "B", "C", "D") for s in q.sheets)
    assert not any(x.answered for x in q.questions)
    assert all(x.text and not x.text.startswith("=") for x in q.questions)
    org = next(s for s in q.sheets if s.sheet == "Organization")
    assert not any(x.id.startswith("GNRL") for x in org.questions)
    assert org.questions[0].id == "DOCU-01" and org.questions[0].choices == ("Yes", "No")
    lists = Counter(x.choices for x in q.questions)
    assert lists[("Yes", "No")] > 200 and lists[("Yes", "No", "N/A")] > 20
    assert sum(1 for x in q.questions if x.choice_cell) > 280
    notes = " ".join(q.notes)
    for skipped in ("Institution Evaluation", "High-Risk Evaluation", "Privacy Analyst Evaluation"):
        assert f"'{skipped}' skipped" in notes
    text = summary(q)
    assert "sheet 'Privacy': 65 questions" in text and "choices: Yes / No" in text
