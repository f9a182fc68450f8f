"""The company and product profiles (engine/profile.py, engine/profile_answers.py) with the real
answer library (real all-MiniLM-L6-v2, SQLite) and generated past questionnaires (openpyxl):
facts the company's questionnaires agree on become company facts, a product's own questionnaire
gives its product facts; profile questions are answered from the profile without the model and
cited; the date is the drafting date; the ``profile`` command shows and sets facts; a link or
e-mail only a third party's document gives is taken out of a generated draft.

The LLM is a stated fake (``QuotingGenerator``): these tests are about where profile answers and
contact details come from, not generation; the fake counts its calls (none for profile rows)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import openpyxl
import pytest

from engine.__main__ import main
from engine.config import EngineConfig
from engine.kb import KnowledgeBase
from engine.library import AnswerLibrary
from engine.pipeline import Drafter
from engine.profile import fact_key, learn, set_fact
from engine.profile_answers import ProfileAnswers
from engine.questionnaire import read_questionnaire
from engine.scopes import Scope
from storage.vector_store import release
from tests.fixtures import QuotingGenerator

QUESTIONS = [("DATE-01", "Date"), ("GNRL-01", "Vendor Name"), ("GNRL-02", "Product Name"),
             ("GNRL-03", "Product Description"), ("GNRL-04", "Web Link to Product Privacy Notice"),
             ("GNRL-08", "Vendor Contact Email")]


def general(path: Path, answers: dict[str, str] | None = None) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "General"
    ws.append(["ID", "Question", "Answer"])
    for qid, text in QUESTIONS:
        ws.append([qid, text, (answers or {}).get(qid)])
    wb.save(path)
    return path


COMPANY = {"DATE-01": "2024-05-01", "GNRL-01": "Instructure", "GNRL-04": "inst.bid/privacy",
           "GNRL-08": "Please reach out to your Customer Success Manager."}


@pytest.fixture()
def library(tmp_path: Path, encoder):
    lib = AnswerLibrary(tmp_path / "store", encoder)
    for product, extra in (("Canvas Catalog", {"GNRL-04": "https://inst.bid/privacy/"}), ("Canvas Studio", {})):
        lib.import_file(general(tmp_path / f"{product} HECVAT.xlsx",
                                {**COMPANY, **extra, "GNRL-02": product, "GNRL-03": f"{product} does things."}),
                        product=product)
    lib.import_file(general(tmp_path / "Parchment HECVAT.xlsx", {
        "DATE-01": "2024-05-02", "GNRL-01": "Parchment LLC", "GNRL-02": "Parchment Award",
        "GNRL-03": "Digital credentials.", "GNRL-04": "parchment.com/privacy", "GNRL-08": "erin@parchment.com"}),
        product="Parchment")
    yield lib
    lib.close()


def test_facts_are_learned_company_wide_by_agreement_and_per_product(library):
    profile = learn(library.entries())
    assert profile.company["vendor_name"].value == "Instructure" and profile.company["vendor_name"].agreeing == 2
    assert profile.company["privacy_link"].value in ("inst.bid/privacy", "https://inst.bid/privacy/")  # agree, normalised
    assert "product_name" not in profile.company and "date" not in profile.company
    assert profile.fact("vendor_name", "Parchment").value == "Parchment LLC"
    assert profile.fact("vendor_name", "Impact").value == "Instructure"
    assert profile.fact("product_description", "Impact") is None  # nothing of Impact's own
    assert profile.fact("product_name", "Impact").value == "Impact"
    assert profile.fact("product_description", "Canvas Studio").value == "Canvas Studio does things."
    assert [fact_key(t) for _, t in QUESTIONS] == ["date", "vendor_name", "product_name", "product_description",
                                                  "privacy_link", "contact_email"]
    assert fact_key("Vendor Accessibility Contact Email") == "accessibility_contact_email"
    # HECVAT 4 words it "Solution Provider …"
    assert [fact_key(t) for t in ("Solution Provider Name", "Solution Provider Contact Phone Number",
                                  "Employee Work Locations (all)", "Country of Company Headquarters")] == [
        "vendor_name", "contact_phone", "work_locations", "headquarters_country"]
    assert fact_key("Do you have a vendor name policy for all of your subcontractors and suppliers?") is None


def test_profile_rows_are_answered_from_the_profile_without_the_model(library, tmp_path):
    model = QuotingGenerator()
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), library.encoder)
    try:
        drafter = Drafter(kb, model, library=library, product="Impact")
        drafter.profile.today = date(2026, 11, 24)
        target = read_questionnaire(general(tmp_path / "impact.xlsx"))
        drafts = {q.id: drafter.draft(q) for q in target.questions}
    finally:
        release(str(tmp_path / "kb" / "qdrant"))
    assert drafts["DATE-01"].answer == "2026-11-24" and drafts["DATE-01"].profile_fact == "date"
    assert drafts["GNRL-01"].answer == "Instructure" and drafts["GNRL-01"].profile_fact == "vendor_name"
    cite = drafts["GNRL-01"].citations[0]
    assert cite.file.endswith("HECVAT.xlsx") and "Parchment" not in cite.file and cite.quote == "Instructure"
    assert drafts["GNRL-02"].answer == "Impact"
    assert drafts["GNRL-08"].answer == COMPANY["GNRL-08"]
    assert "profile fact" in drafts["GNRL-01"].trust
    assert model.calls == 0  # the description (no fact for Impact) found nothing: no model either
    assert not any("parchment" in d.answer.lower() for d in drafts.values())


def test_the_profile_command_shows_and_sets_facts(library, tmp_path, capsys):
    library.close()
    store = str(tmp_path / "store")
    assert main(["profile", "--store", store, "--product", "Impact", "--set", "support_hours", "9-5 MT", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert data["products"]["Impact"]["support_hours"]["value"] == "9-5 MT"
    assert data["company"]["vendor_name"]["value"] == "Instructure"
    set_fact(store, "vendor_name", "Instructure, Inc.")  # by hand: over the learned fact
    assert main(["profile", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "vendor_name = Instructure, Inc.  (profile)" in out and "support_hours = 9-5 MT" in out
    assert (tmp_path / "store" / "profile.json").exists()


def test_a_contact_only_a_third_partys_document_gives_is_removed(tmp_path, encoder, library):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "aws.md").write_text("# AWS\n\n## Support\nReport security incidents to aws-security@amazon.com "
                                 "or https://aws.amazon.com/security at any time.\n", encoding="utf-8")
    (docs / "policy.md").write_text("# Policy\n\n## Contact\nReport privacy requests to privacy@instructure.com "
                                    "at any time.\n", encoding="utf-8")
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), encoder)
    try:
        assert not kb.add([docs]).errors
        kb.set_scopes({"aws.md": Scope(third_party="Amazon Web Services")})
        drafter = Drafter(kb, QuotingGenerator(), library=library, product="Impact")
        book = openpyxl.Workbook()
        book.active.append(["ID", "Question", "Answer"])
        book.active.append(["Q-1", "Where do you report security incidents at any time?", None])
        book.active.append(["Q-2", "Where do you send privacy requests at any time?", None])
        book.save(tmp_path / "q.xlsx")
        q1, q2 = read_questionnaire(tmp_path / "q.xlsx").questions
        aws, own = drafter.draft(q1), drafter.draft(q2)
    finally:
        release(str(tmp_path / "kb" / "qdrant"))
    assert aws.citations[0].third_party == "Amazon Web Services"
    assert "amazon.com" not in aws.answer and set(aws.removed) == {"aws-security@amazon.com", "https://aws.amazon.com/security"}
    assert "contact details removed" in aws.trust
    assert "privacy@instructure.com" in own.answer and not own.removed
    assert ProfileAnswers(None).profile().company == {}


def test_profile_rows_of_the_shared_questionnaires_leave_one_out(shared_data, encoder, tmp_path):
    """Four of the vendor's filled questionnaires (../shared/data/instructure): each target's
    GNRL rows from the profile learned from the other three. Instructure's products agree on
    every company fact; Parchment answers as its own company, which nothing else says."""
    from engine.bench.library_only import profile_rows

    names = ["Canvas Catalog/Canvas Catalog HECVAT Lite.xlsx", "Canvas Studio/Canvas Studio HECVAT Lite.xlsx",
             "Elevate Standards Alignment/Elevate Standards Alignment HECVAT Lite.xlsx",
             "Parchment/Parchment HECVAT Full - All Products.xlsx"]
    base = shared_data / "instructure"
    result = profile_rows([base / n for n in names], base / "_extracted", tmp_path / "lib", encoder)
    by = {t["product"]: t for t in result["targets"]}
    for product in ("Canvas Catalog", "Canvas Studio", "Elevate Standards Alignment"):
        assert (by[product]["rows"], by[product]["answered"], by[product]["right"]) == (15, 14, 14), by[product]
    assert by["Parchment"]["right"] == 0 and result["overall"]["foreign_contacts"] == 0
    assert result["by_fact"]["product_description"]["answered"] == 0
