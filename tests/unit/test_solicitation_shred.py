"""A solicitation shredded (engine/questionnaire/solicitation/): requirements, IDs, kinds,
mandatory flags, lead-ins, key facts and bad input, on PDFs and Word files these tests write."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import docx
import pymupdf
import pytest

from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.solicitation import NOT_STATED, Fact, Kind, shred
from engine.questionnaire.solicitation.amendment import compare
from engine.questionnaire.solicitation.pages import collapse
from engine.questionnaire.solicitation.shred import corrected
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def rfp(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "rfp.pdf", [PAGE_ONE, PAGE_TWO])


def by_id(result) -> dict:
    return {r.id: r for r in result.requirements}


def test_every_quote_is_verbatim_on_its_page(rfp: Path) -> None:
    result = shred([rfp])
    with pymupdf.open(rfp) as doc:
        pages = [collapse(p.get_text()) for p in doc]
    assert result.requirements
    for req in result.requirements:
        assert req.quote in pages[req.page - 1], req


def test_requirements_ids_kinds_and_mandatory(rfp: Path) -> None:
    found = by_id(shred([rfp]))
    assert found["1.1"].quote == "Submission: Proposals must be submitted via email to bids@springfield.example."
    assert found["1.1a"].quote == "A cover letter signed by an officer of the firm."
    assert found["1.1a"].lead_in == "The proposal shall include the following:"
    assert found["1.1a"].text.startswith("The proposal shall include the following: A cover letter")
    assert found["1.1b"].kind is Kind.SUBMISSION
    assert found["2.1"].quote == "The Contractor shall mow all parks weekly."
    assert found["2.1-2"].quote == "The Contractor shall submit a monthly report."  # two sentences, two requirements
    assert found["2.1"].kind is Kind.WORK and found["2.1"].mandatory
    assert found["2.2"].mandatory is False  # should
    assert found["3.1a"].kind is Kind.EVALUATION and found["3.1b"].quote == "Price (60 points)"
    assert found["4.1"].kind is Kind.TERMS
    quotes = " ".join(r.quote for r in found.values())
    assert "reserves the right" not in quotes  # the buyer's right, not the offeror's obligation
    assert "governed by the laws" not in quotes  # a framework statement obliges nobody
    assert "The proposal shall include the following:" not in [r.quote for r in found.values()]  # its items count


def test_ids_are_stable_across_runs(rfp: Path) -> None:
    first = [(r.id, r.page, r.quote) for r in shred([rfp]).requirements]
    assert first == [(r.id, r.page, r.quote) for r in shred([rfp]).requirements]


def test_unnumbered_requirements_get_generated_ids(tmp_path: Path) -> None:
    pdf = write_pdf(
        tmp_path / "plain.pdf",
        [["Vendors must hold a business licence.", "The vendor shall provide three references."]],
    )
    assert [r.id for r in shred([pdf]).requirements] == ["R-001", "R-002"]


def test_inline_enumeration_is_split_with_its_lead_in(tmp_path: Path) -> None:
    pdf = write_pdf(
        tmp_path / "inline.pdf",
        [["5.1 All bids must be (i) submitted on the forms provided; (ii) signed in ink; and (iii) sealed."]],
    )
    items = [r for r in shred([pdf]).requirements if r.lead_in]
    assert [r.quote for r in items] == ["submitted on the forms provided;", "signed in ink;", "sealed."]
    assert all(r.lead_in == "All bids must be" and r.mandatory for r in items)


def test_key_facts_each_quoted_with_its_page(rfp: Path) -> None:
    facts = {f.fact: f for f in shred([rfp], today=date(2031, 1, 1)).facts}
    assert "2026-ABC-17" in facts[Fact.SOLICITATION_NUMBER].value and facts[Fact.SOLICITATION_NUMBER].page == 1
    assert "City of Springfield" in facts[Fact.ISSUING_ORGANIZATION].value
    assert "March 3, 2031" in facts[Fact.RESPONSE_DUE].value
    assert "email" in facts[Fact.SUBMISSION_METHOD].value
    assert "ten (10) pages" in facts[Fact.PAGE_LIMITS].value
    assert facts[Fact.SET_ASIDE].value == NOT_STATED and facts[Fact.SET_ASIDE].page == 0


def test_due_date_alert_past_and_within_three_days(rfp: Path) -> None:
    assert shred([rfp], today=date(2031, 1, 1)).alert is None
    soon = shred([rfp], today=date(2031, 3, 1)).alert
    assert soon is not None and soon.days_left == 2 and "in 2 day" in soon.line
    past = shred([rfp], today=date(2031, 4, 1)).alert
    assert past is not None and past.days_left < 0 and "is past" in past.line


def test_word_solicitation_and_a_requirement_in_two_files_listed_once(rfp: Path, tmp_path: Path) -> None:
    sow = tmp_path / "sow.docx"
    document = docx.Document()
    document.add_paragraph("STATEMENT OF OBJECTIVES")
    document.add_paragraph("The Contractor shall mow all parks weekly.")
    document.add_paragraph("The Contractor shall plant 40 trees each spring.")
    document.save(sow)
    result = shred([rfp, sow])
    mow = [r for r in result.requirements if r.quote == "The Contractor shall mow all parks weekly."]
    assert len(mow) == 1 and mow[0].file == "rfp.pdf" and mow[0].also_in == ("sow.docx p.1",)
    trees = [r for r in result.requirements if "40 trees" in r.quote]
    assert trees and trees[0].file == "sow.docx" and trees[0].kind is Kind.WORK


def test_a_solicitation_is_recognised_and_a_questionnaire_is_not(rfp: Path, tmp_path: Path) -> None:
    assert shred([rfp]).looks_like_solicitation
    questions = write_pdf(
        tmp_path / "questionnaire.pdf",
        [[f"{i}. Do you encrypt data at rest? The vendor must answer." for i in range(1, 12)]],
    )
    assert not shred([questions]).looks_like_solicitation


def encrypted(path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((50, 60), "The Contractor shall mow.", fontsize=10)
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    doc.close()
    return path


def scanned(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(50, 50, 250, 250), pixmap=pix)
    doc.save(path)
    doc.close()
    return path


@pytest.mark.parametrize(
    ("make", "problem", "fix"),
    [
        (encrypted, "password", "ask the sender for the password"),
        (scanned, "no text layer", "OCR"),
        (lambda p: write_pdf(p, [["Welcome to our annual picnic.", "Bring a friend."]]), "no requirement", "by hand"),
    ],
)
def test_bad_input_is_one_line_naming_file_problem_and_fix(tmp_path: Path, make, problem: str, fix: str) -> None:
    path = make(tmp_path / "bad.pdf")
    with pytest.raises(QuestionnaireError) as caught:
        shred([path])
    assert caught.value.file == "bad.pdf" and problem in caught.value.problem and fix in caught.value.fix
    run = subprocess.run(
        [sys.executable, "-m", "engine", "shred", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().count("\n") == 0 and run.stderr.startswith("error: bad.pdf:")


def test_an_amendment_lists_added_changed_and_removed_by_quote(rfp: Path, tmp_path: Path) -> None:
    amended_one = [
        line.replace("monthly report", "weekly report") if line.startswith("2.1") else line
        for line in PAGE_ONE
        if not line.startswith("2.2")  # removed
    ]
    amended_two = [*PAGE_TWO, "4.3 The Contractor shall keep records for three years."]  # added
    amended = write_pdf(tmp_path / "rfp_amendment_1.pdf", [amended_one, amended_two])
    before, after = shred([rfp]).requirements, shred([amended]).requirements
    diff = compare(before, after)
    assert [r.quote for r in diff.added] == ["The Contractor shall keep records for three years."]
    assert [r.quote for r in diff.removed] == ["The Contractor should use electric equipment where possible."]
    assert [(a.quote, b.quote) for a, b in diff.changed] == [
        ("The Contractor shall submit a monthly report.", "The Contractor shall submit a weekly report.")
    ]
    assert len(diff.unchanged) == len(before) - 2
    run = subprocess.run(
        [sys.executable, "-m", "engine", "shred", str(amended), "--previous", str(rfp)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "1 added, 1 changed, 1 removed" in run.stdout


def test_the_reviewer_leaves_one_out_and_changes_a_kind(rfp: Path) -> None:
    result = corrected(shred([rfp]), exclude=["2.2"], kinds={"4.1": Kind.WORK})
    found = by_id(result)
    assert "2.2" not in found and found["4.1"].kind is Kind.WORK
    with pytest.raises(QuestionnaireError, match="has no requirement 9.9"):
        corrected(shred([rfp]), exclude=["9.9"])
    run = subprocess.run(
        [sys.executable, "-m", "engine", "shred", str(rfp), "--exclude", "2.2", "--kind", "4.1=work", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    listed = {r["id"]: r["kind"] for r in json.loads(run.stdout)["requirements"]}
    assert "2.2" not in listed and listed["4.1"] == "work"
