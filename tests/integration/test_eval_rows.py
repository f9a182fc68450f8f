"""``eval questionnaire --all-rows``: every row of a HECVAT-shaped target drafted (qualifiers
first, switched-off sections not drafted) and scored per row type, with the HTML report's
section per row type.

The LLM is ``QuotingGenerator``, a stated fake: every question here is reused from the past
questionnaire (the library), so this test is about the scoring per row type, not generation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bench.evaluate import evaluate_questionnaire
from engine.bench.rows import RowScores, RowTruth, normalised, same_option
from engine.questionnaire.row_types import RowType
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf
from tests.unit.test_qualifiers import ROWS, hecvat_like

pytestmark = pytest.mark.timeout(600)

FILLED = {
    "GNRL-01": ("Acme Learning", None),
    "QUAL-01": ("No", ""),
    "QUAL-05": ("Yes", ""),
    "QUAL-07": ("4) AWS", ""),
    "PCID-01": ("Yes", "Card data is handled by our PCI DSS Level 1 payment processor."),
    "DCTR-15": ("Yes", "Administrators sign in with hardware security keys."),
}


def test_every_row_is_scored_per_row_type(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    target = hecvat_like(tmp_path / "target.xlsx", FILLED)
    past = hecvat_like(tmp_path / "past.xlsx", {**FILLED, "DCTR-15": ("Yes", "Administrators use security keys.")})
    truth = tmp_path / "truth.jsonl"
    truth.write_text(
        "".join(
            json.dumps(
                {
                    "id": i,
                    "question": t,
                    "answer": FILLED.get(i, ("", ""))[0] or "",
                    "comment": FILLED.get(i, ("", ""))[1] or "",
                }
            )
            + "\n"
            for i, t in ROWS
        )
    )
    report = tmp_path / "report.html"
    fake = QuotingGenerator()
    figures = evaluate_questionnaire(
        [str(docs)], [str(past)], str(target), str(truth), report=str(report), generator=fake, all_rows=True
    )
    rows = figures["rows"]
    assert rows["row_types"] == {"yes_no": 4, "dropdown": 1, "profile": 1, "narrative": 0, "gated": 4}
    # QUAL-01 = No (reused) switched the two HIPAA rows off; QUAL-07 = AWS the two physical data-centre rows
    assert rows["gated"] == {
        "blank_in_truth": 4,
        "left_not_required": 4,
        "rate": 100.0,
        "wrongly_off": 0,
        "wrongly_off_ids": [],
    }
    assert rows["profile"]["accuracy"] == 100.0 and rows["dropdown"]["accuracy"] == 100.0
    info = rows["text"]["additional_information"]
    assert info["rows"] == 2 and info["drafted"] == 2 and info["draft"] > 0.8  # reused from the past file
    assert info["question_baseline"] < info["draft"] and info["past_answer_baseline"] == info["draft"]
    assert figures["questions"] == 4 and figures["balanced_accuracy"] == 100.0  # the Yes/No figures, as before
    assert rows["minutes"] >= 0 and fake.calls == 0
    page = report.read_text(encoding="utf-8")
    for section in (
        "Rows by type",
        "Profile rows",
        "Gated rows",
        "Dropdowns beyond Yes/No",
        "Narratives and Additional Information",
        "Time",
    ):
        assert f">{section}<" in page


def test_a_row_switched_off_although_the_vendor_answered_it_is_counted(tmp_path: Path):
    answered = RowTruth("HIPA-01", "S!B2", RowType.YES_NO, "Training?", "Yes", "")
    from engine.bench.rows import Drafted

    scores = RowScores([(answered, Drafted(None, "", "not_required"))])
    figures = scores.figures()
    assert figures["gated"]["wrongly_off"] == 1 and figures["gated"]["wrongly_off_ids"] == ["HIPA-01"]
    assert same_option("4) AWS", "4") and same_option("Tier IV", "tier iv") and not same_option("1) Yes", "2) No")
    assert normalised("https://www.inst.bid/privacy/") == normalised("inst.bid/privacy")
