"""``eval questionnaire --all-rows --scope-folders --drafts FILE``: every drafted row checked for
another product's names, people and contacts (engine/bench/leaks.py), the choices taken from
another product's past answer counted and labelled, every drafted row written to FILE, and the
HTML report's section; then ``python -m engine.bench.leaks`` over FILE finds a leak written into it.

The LLM is ``QuotingGenerator``, a stated fake (it quotes the company's handbook and answers Yes):
this test is about the check and the records of the evaluation, not generation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bench.evaluate import evaluate_questionnaire
from engine.bench.leaks import main as leaks_main
from engine.core.scopes import FolderScopes
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf
from tests.unit.test_qualifiers import ROWS, hecvat_like

pytestmark = pytest.mark.timeout(600)

OWN = {
    "GNRL-01": ("Instructure", None),
    "QUAL-01": ("No", ""),
    "QUAL-05": ("Yes", ""),
    "QUAL-07": ("4) AWS", ""),
    "PCID-01": ("Yes", "Card data goes to our PCI DSS Level 1 processor."),
    "DCTR-15": ("Yes", "Administrators sign in with hardware security keys."),
}
STUDIO_PAYS = "Canvas Studio takes credit card payments for premium plans through its payment gateway."
PARCHMENT = {
    **OWN,
    "GNRL-01": ("Parchment LLC", None),
    "PCID-01": ("Yes", "Parchment's gateway; questions to erin.elliott@parchment.com or 480-719-1646."),
    "DCTR-15": ("Yes", "See https://status.parchment.com; Erin Elliott approves admin access."),
}


def test_every_drafted_row_is_checked_recorded_and_checked_again(tmp_path: Path, capsys):
    (tmp_path / "Instructure").mkdir()
    write_pdf(tmp_path / "Instructure" / "handbook.pdf", topic_pages())
    for folder in ("Canvas Studio", "Parchment"):
        (tmp_path / folder).mkdir()
    # the product's own statement that it takes card payments: its card-data qualifier is answered from it
    write_pdf(tmp_path / "Canvas Studio" / "payments.pdf", [STUDIO_PAYS], header=None)
    target = hecvat_like(tmp_path / "Canvas Studio" / "Canvas Studio HECVAT.xlsx", OWN)
    past = hecvat_like(tmp_path / "Parchment" / "Parchment HECVAT.xlsx", PARCHMENT)
    truth = tmp_path / "truth.jsonl"
    truth.write_text(
        "".join(
            json.dumps(
                {
                    "id": i,
                    "question": t,
                    "answer": OWN.get(i, ("", ""))[0] or "",
                    "comment": OWN.get(i, ("", ""))[1] or "",
                }
            )
            + "\n"
            for i, t in ROWS
        )
    )
    report, drafts = tmp_path / "report.html", tmp_path / "drafts.jsonl"
    figures = evaluate_questionnaire(
        [str(tmp_path / "Instructure"), str(tmp_path / "Canvas Studio")],
        [str(past)],
        str(target),
        str(truth),
        report=str(report),
        generator=QuotingGenerator(),
        all_rows=True,
        folders=FolderScopes(),
        drafts=str(drafts),
    )
    rows = figures["rows"]
    assert figures["product"] == "Canvas Studio"
    # Parchment's choices are taken (only its past answers exist), its text never: nothing of it in any row
    assert rows["other_product_mentions"] == {
        "rows": 0,
        "ids": [],
        "examples": [],
        "by_kind": {"product": 0, "person": 0, "contact": 0},
    }
    assert rows["foreign_contacts"]["rows"] == 0
    crossed = rows["from_other_product"]
    assert crossed["rows"] >= 3 and crossed["labelled"] == crossed["rows"]  # PCID-01, DCTR-15, QUAL-07
    assert {"PCID-01", "DCTR-15", "QUAL-07"} <= set(crossed["ids"])
    lines = {x["id"]: x for x in map(json.loads, drafts.read_text(encoding="utf-8").splitlines())}
    # the PHI and card-data qualifiers: from the product's own documents (engine/drafting/regulated.py)
    assert (lines["QUAL-05"]["choice"], lines["QUAL-05"]["from_product"]) == ("Yes", None)
    assert lines["QUAL-05"]["trust"][0].startswith("documents mention card data")
    assert lines["QUAL-01"]["choice"] == "No" and lines["QUAL-01"]["trust"][0].startswith("no document mentions")
    assert set(lines) >= {i for i, _ in ROWS} - {"HIPA-01", "HIPA-02", "DCTR-01", "DCTR-03"}  # the gated ones too
    pcid = lines["PCID-01"]
    assert (pcid["target"], pcid["product"], pcid["row_type"]) == (
        "Canvas Studio HECVAT.xlsx",
        "Canvas Studio",
        "yes_no",
    )
    assert pcid["from_product"] == "Parchment" and pcid["past_answers"] == ["Parchment's HECVAT: Yes"]
    assert pcid["confidence"] is not None and "from another product (Parchment)" in pcid["trust"]
    assert "parchment" not in (pcid["answer"] or "").lower()
    page = report.read_text(encoding="utf-8")
    assert ">Other products' names, people and contacts<" in page
    assert "choice from another product: Parchment&#x27;s HECVAT: Yes" in page  # the Yes/No question's row
    # the command finds a leak written into a finished run's drafts
    pcid["answer"] = "Our gateway; ask erin.elliott@parchment.com."
    drafts.write_text("".join(json.dumps(x) + "\n" for x in lines.values()), encoding="utf-8")
    assert leaks_main([str(drafts), "--library", str(past), "--kb", str(tmp_path / "Instructure")]) == 0
    (checked,) = json.loads(capsys.readouterr().out)["targets"]
    assert checked["other_product_mentions"]["examples"] == ["PCID-01: erin.elliott@parchment.com"]
    assert checked["foreign_contacts"]["ids"] == ["PCID-01"]
    assert checked["from_other_product"]["rows"] == crossed["rows"]


def test_leave_one_out_sums_the_checks_and_writes_every_targets_drafts(tmp_path: Path):
    from engine.bench.evaluate import leave_one_out

    (tmp_path / "Instructure").mkdir()
    write_pdf(tmp_path / "Instructure" / "handbook.pdf", topic_pages())
    pairs = []
    for product, answers in (("Canvas Studio", OWN), ("Parchment", PARCHMENT)):
        (tmp_path / product).mkdir()
        book = hecvat_like(tmp_path / product / f"{product} HECVAT.xlsx", answers)
        truth = tmp_path / f"{product}.jsonl"
        truth.write_text(
            "".join(
                json.dumps(
                    {
                        "id": i,
                        "question": t,
                        "answer": answers.get(i, ("", ""))[0] or "",
                        "comment": answers.get(i, ("", ""))[1] or "",
                    }
                )
                + "\n"
                for i, t in ROWS
            )
        )
        pairs.append((str(book), str(truth)))
    drafts = tmp_path / "drafts.jsonl"
    result = leave_one_out(
        [str(tmp_path / "Instructure")],
        pairs,
        generator=QuotingGenerator(),
        all_rows=True,
        folders=FolderScopes(),
        drafts=str(drafts),
    )
    summary = result["summary"]
    assert summary["other_product_mentions"] == {
        "rows": 0,
        "targets": {"Canvas Studio HECVAT.xlsx": 0, "Parchment HECVAT.xlsx": 0},
    }
    assert summary["foreign_contacts"]["rows"] == 0
    crossed = summary["from_other_product"]
    assert crossed["rows"] > 0 and crossed["labelled"] == crossed["rows"]
    targets = {json.loads(line)["target"] for line in drafts.read_text(encoding="utf-8").splitlines()}
    assert targets == {"Canvas Studio HECVAT.xlsx", "Parchment HECVAT.xlsx"}
