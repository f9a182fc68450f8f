"""The company and product profiles (engine/index/profile.py, engine/drafting/profile_answers.py) with the real
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

from engine.cli.main import main
from engine.core.config import EngineConfig
from engine.core.scopes import Scope
from engine.core.types import DraftStatus
from engine.drafting.drafter import Drafter
from engine.drafting.profile_answers import ProfileAnswers
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.index.profile import fact_key, learn, row_ids, set_fact
from engine.questionnaire import read_questionnaire
from storage.vector_store import release
from tests.fixtures import QuotingGenerator

QUESTIONS = [
    ("DATE-01", "Date"),
    ("GNRL-01", "Vendor Name"),
    ("GNRL-02", "Product Name"),
    ("GNRL-03", "Product Description"),
    ("GNRL-04", "Web Link to Product Privacy Notice"),
    ("GNRL-08", "Vendor Contact Email"),
]


def general(path: Path, answers: dict[str, str] | None = None) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "General"
    ws.append(["ID", "Question", "Answer"])
    for qid, text in QUESTIONS:
        ws.append([qid, text, (answers or {}).get(qid)])
    wb.save(path)
    return path


COMPANY = {
    "DATE-01": "2024-05-01",
    "GNRL-01": "Instructure",
    "GNRL-04": "inst.bid/privacy",
    "GNRL-08": "Please reach out to your Customer Success Manager.",
}


@pytest.fixture()
def library(tmp_path: Path, encoder):
    lib = AnswerLibrary(tmp_path / "store", encoder)
    for product, extra in (("Canvas Catalog", {"GNRL-04": "https://inst.bid/privacy/"}), ("Canvas Studio", {})):
        lib.import_file(
            general(
                tmp_path / f"{product} HECVAT.xlsx",
                {**COMPANY, **extra, "GNRL-02": product, "GNRL-03": f"{product} does things."},
            ),
            product=product,
        )
    lib.import_file(
        general(
            tmp_path / "Parchment HECVAT.xlsx",
            {
                "DATE-01": "2024-05-02",
                "GNRL-01": "Parchment LLC",
                "GNRL-02": "Parchment Award",
                "GNRL-03": "Digital credentials.",
                "GNRL-04": "parchment.com/privacy",
                "GNRL-08": "erin@parchment.com",
            },
        ),
        product="Parchment",
    )
    yield lib
    lib.close()


def test_facts_are_learned_company_wide_by_agreement_and_per_product(library):
    profile = learn(library.entries())
    assert profile.company["vendor_name"].value == "Instructure" and profile.company["vendor_name"].agreeing == 2
    assert profile.company["privacy_link"].value in (
        "inst.bid/privacy",
        "https://inst.bid/privacy/",
    )  # agree, normalised
    assert "product_name" not in profile.company and "date" not in profile.company
    assert profile.fact("vendor_name", "Parchment").value == "Parchment LLC"
    assert profile.fact("vendor_name", "Impact").value == "Instructure"
    assert profile.fact("product_description", "Impact") is None  # nothing of Impact's own
    assert profile.fact("product_name", "Impact").value == "Impact"
    assert profile.fact("product_description", "Canvas Studio").value == "Canvas Studio does things."
    assert [fact_key(t) for _, t in QUESTIONS] == [
        "date",
        "vendor_name",
        "product_name",
        "product_description",
        "privacy_link",
        "contact_email",
    ]
    assert fact_key("Vendor Accessibility Contact Email") == "accessibility_contact_email"
    # HECVAT 4 words it "Solution Provider …"
    assert [
        fact_key(t)
        for t in (
            "Solution Provider Name",
            "Solution Provider Contact Phone Number",
            "Employee Work Locations (all)",
            "Country of Company Headquarters",
        )
    ] == ["vendor_name", "contact_phone", "work_locations", "headquarters_country"]
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


def test_a_contact_or_link_the_profile_lacks_is_left_for_the_responder_without_the_model(tmp_path, encoder):
    """Documents only (no library, so no learned profile): the contact and link rows are not
    drafted from the documents, which name other people's contacts and links; each is a
    no_context draft naming the fact to set. The vendor name, a fact a document may state, is
    drafted as any other question."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "overview.md").write_text(
        "# Overview\n\n## Company\nInstructure is the vendor. Questions go to privacy@instructure.com.\n",
        encoding="utf-8",
    )
    model = QuotingGenerator()
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), encoder)
    try:
        assert not kb.add([docs]).errors
        drafter = Drafter(kb, model, product="Impact")
        questions = read_questionnaire(general(tmp_path / "impact.xlsx")).questions
        drafts = {q.id: drafter.draft(q) for q in questions if q.id not in ("GNRL-04", "GNRL-08")}
        asked = model.calls
        drafts.update({q.id: drafter.draft(q) for q in questions if q.id in ("GNRL-04", "GNRL-08")})
    finally:
        release(str(tmp_path / "kb" / "qdrant"))
    for qid, fact in (("GNRL-04", "privacy_link"), ("GNRL-08", "contact_email")):
        assert drafts[qid].status is DraftStatus.NO_CONTEXT and drafts[qid].answer == ""
        assert drafts[qid].profile_fact == fact and not drafts[qid].citations
    assert drafts["GNRL-01"].profile_fact is None  # drafted from the documents
    assert asked >= 1 and model.calls == asked  # the model was asked before, not for the contact and the link


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


def test_the_profile_command_shows_what_the_products_documents_state(library, encoder, tmp_path, capsys):
    from tests.unit.test_profile_documents import CERTIFICATE, pdf

    library.close()
    store = tmp_path / "store"
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        assert not kb.add_file(pdf(tmp_path / "Acme TX-RAMP.pdf", CERTIFICATE), "Acme TX-RAMP.pdf").errors
        kb.set_scopes({"Acme TX-RAMP.pdf": Scope(products=("Acme",))})
    finally:
        release(str(store / "qdrant"))
    assert main(["profile", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "product Acme, its documents:\n  product_description = Acme Transcripts sends" in out
    assert "(Acme TX-RAMP.pdf, page 1)" in out and "vendor_name = Instructure" in out
    assert main(["profile", "--store", str(store), "--product", "Acme", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert data["documented"]["Acme"]["product_description"]["page"] == 1


def test_a_contact_only_a_third_partys_document_gives_is_removed(tmp_path, encoder, library):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "aws.md").write_text(
        # the sentence names AWS: a provider's text that does not is set aside (#37, drafter.provider_named)
        "# AWS\n\n## Support\nAWS customers report security incidents to aws-security@amazon.com "
        "or https://aws.amazon.com/security at any time.\n",
        encoding="utf-8",
    )
    (docs / "policy.md").write_text(
        "# Policy\n\n## Contact\nReport privacy requests to privacy@instructure.com at any time.\n", encoding="utf-8"
    )
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), encoder)
    try:
        assert not kb.add([docs]).errors
        kb.set_scopes({"aws.md": Scope(third_party="Amazon Web Services")})
        drafter = Drafter(kb, QuotingGenerator(), library=library, product="Impact")
        book = openpyxl.Workbook()
        book.active.append(["ID", "Question", "Answer"])
        # about the provider (asks_provider): a text without a choice sees a provider's passages only then
        book.active.append(
            ["Q-1", "Where does your hosting provider take security incident reports at any time?", None]
        )
        book.active.append(["Q-2", "Where do you send privacy requests at any time?", None])
        book.save(tmp_path / "q.xlsx")
        q1, q2 = read_questionnaire(tmp_path / "q.xlsx").questions
        aws, own = drafter.draft(q1), drafter.draft(q2)
    finally:
        release(str(tmp_path / "kb" / "qdrant"))
    assert aws.citations[0].third_party == "Amazon Web Services"
    assert "amazon.com" not in aws.answer and set(aws.removed) == {
        "aws-security@amazon.com",
        "https://aws.amazon.com/security",
    }
    assert "contact details removed" in aws.trust
    assert "privacy@instructure.com" in own.answer and not own.removed
    assert ProfileAnswers(None).profile().company == {}


def test_profile_rows_of_the_shared_questionnaires_leave_one_out(shared_data, encoder, tmp_path):
    """Four of the vendor's filled questionnaires (../shared/data/instructure): each target's
    GNRL rows from the profile learned from the other three (and the product's own PDFs).
    Instructure's products agree on every company fact; Parchment answers as its own company,
    which only its own documents say."""
    from engine.bench.library_only import profile_rows

    names = [
        "Canvas Catalog/Canvas Catalog HECVAT Lite.xlsx",
        "Canvas Studio/Canvas Studio HECVAT Lite.xlsx",
        "Elevate Standards Alignment/Elevate Standards Alignment HECVAT Lite.xlsx",
        "Parchment/Parchment HECVAT Full - All Products.xlsx",
    ]
    base = shared_data / "instructure"
    result = profile_rows([base / n for n in names], base / "_extracted", tmp_path / "lib", encoder)
    by = {t["product"]: t for t in result["targets"]}
    for product in ("Canvas Studio", "Elevate Standards Alignment"):
        assert (by[product]["rows"], by[product]["answered"], by[product]["right"]) == (15, 14, 14), by[product]
    # Canvas Catalog's TX-RAMP certificate describes it: the vendor's own description is a sentence
    # of that text, so it is answered (cited to the certificate) but not an exact match
    catalog = by["Canvas Catalog"]
    assert (catalog["rows"], catalog["answered"], catalog["right"]) == (15, 15, 14), catalog
    (described,) = catalog["misses"]
    assert described["from"] == "document" and described["answer"].startswith("Canvas Catalog allows you")
    # Parchment's own attestation and VPAT (beside its questionnaire) name Parchment LLC and its
    # contacts; Instructure's answers are never Parchment's
    parchment = by["Parchment"]
    assert (parchment["answered"], parchment["right"]) == (10, 6) and result["overall"]["foreign_contacts"] == 0
    assert not any(
        "instructure" in (m["answer"] or "").lower().replace("@instructure.com", "")
        or "inst.bid" in (m["answer"] or "")
        for m in parchment["misses"]
    )
    assert {m["from"] for m in parchment["misses"] if m["answer"]} == {"document", "product chosen"}
    assert result["by_fact"]["product_description"]["answered"] == 1  # Canvas Catalog's certificate


def rows_book(path: Path, rows: list[tuple[str, str, str | None]]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "General"
    ws.append(["ID", "Question", "Answer"])
    for row in rows:
        ws.append(list(row))
    wb.save(path)
    return path


def test_a_pointer_to_another_row_is_re_pointed_to_the_target_questionnaires_row(tmp_path, encoder):
    """Two HECVAT-numbered questionnaires and a K-12-numbered one answer the contact name "See
    <the e-mail row> …": they agree (the pointer names the fact, not the number), and a target
    numbered either way gets its own e-mail row's number; the model is a stated fake, never called."""
    hecvat = [
        ("GNRL-06", "Vendor Contact Name", "See GNRL-08 for our contact information."),
        ("GNRL-08", "Vendor Contact Email", "Ask your Customer Success Manager."),
    ]
    k12 = [
        ("GNRL-05", "Vendor Contact Name", "See GNRL-07 for our contact information."),
        ("GNRL-07", "Vendor Contact Email", "Ask your Customer Success Manager."),
        ("GNRL-09", "Vendor Data Zone", "United States, Canada"),
    ]
    lib = AnswerLibrary(tmp_path / "store", encoder)
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), encoder)
    try:
        for product, rows in (("A", hecvat), ("B", hecvat), ("C", k12)):  # each names its product: no two alike
            lib.import_file(
                rows_book(tmp_path / f"{product}.xlsx", [*rows, ("GNRL-02", "Product Name", product)]), product=product
            )
        profile = learn(lib.entries())
        assert profile.company["contact_name"].agreeing == 3
        model = QuotingGenerator()
        drafter = Drafter(kb, model, library=lib, product="D")
        target = read_questionnaire(rows_book(tmp_path / "D K12.xlsx", [(i, t, None) for i, t, _ in k12]))
        rows = row_ids(target.questions)
        drafts = {q.id: drafter.draft(q, rows) for q in target.questions}
        other = read_questionnaire(rows_book(tmp_path / "D HECVAT.xlsx", [(i, t, None) for i, t, _ in hecvat]))
        hecvat_drafts = {q.id: drafter.draft(q, row_ids(other.questions)) for q in other.questions}
        no_email_row = drafter.draft(other.questions[0], {"contact_name": "GNRL-06"})
    finally:
        lib.close()
        release(str(tmp_path / "kb" / "qdrant"))
    assert drafts["GNRL-05"].answer == "See GNRL-07 for our contact information."
    assert drafts["GNRL-05"].profile_fact == "contact_name"
    assert hecvat_drafts["GNRL-06"].answer == "See GNRL-08 for our contact information."
    # no row to point to: not answered from the profile, and a contact is never drafted from the documents
    assert no_email_row.status is DraftStatus.NO_CONTEXT and no_email_row.answer == ""
    assert model.calls == 0


def test_a_product_whose_own_document_names_another_vendor_answers_as_that_vendor(library, tmp_path):
    """Acme's own attestation (a generated PDF in Acme's scope) names "Acme Learning LLC" and its
    contact: Acme's vendor and contact rows are those, cited to the page and highlighted; the
    company's (Instructure's) link and answers are never Acme's. A third party's attestation and
    Impact (no documents of its own) change nothing."""
    from tests.unit.test_profile_documents import AOC, CERTIFICATE, pdf

    docs = tmp_path / "docs"
    docs.mkdir()
    pdf(docs / "Acme AOC.pdf", AOC)
    pdf(docs / "Acme TX-RAMP.pdf", CERTIFICATE)
    pdf(docs / "Cloud AOC.pdf", [AOC[0], [x.replace("Acme Learning LLC", "Cloud Co") for x in AOC[1]]])
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), library.encoder)
    try:
        assert not kb.add([docs]).errors
        kb.set_scopes(
            {
                "Acme AOC.pdf": Scope(products=("Acme",)),
                "Acme TX-RAMP.pdf": Scope(products=("Acme",)),
                "Cloud AOC.pdf": Scope(third_party="Cloud Co"),
            }
        )
        target = read_questionnaire(general(tmp_path / "acme.xlsx"))
        rows = row_ids(target.questions)
        acme = {
            q.id: Drafter(kb, QuotingGenerator(), library=library, product="Acme").draft(q, rows)
            for q in target.questions
        }
        impact = {
            q.id: Drafter(kb, QuotingGenerator(), library=library, product="Impact").draft(q, rows)
            for q in target.questions
        }
    finally:
        release(str(tmp_path / "kb" / "qdrant"))
    assert acme["GNRL-01"].answer == "Acme Learning LLC" and acme["GNRL-01"].profile_fact == "vendor_name"
    cite = acme["GNRL-01"].citations[0]
    assert (cite.file, cite.page, cite.quote) == ("Acme AOC.pdf", 2, "Acme Learning LLC") and cite.rects
    assert acme["GNRL-08"].answer == "dana@acme.example" and "profile fact" in acme["GNRL-08"].trust
    # the company's link is not Acme's, and a link is never drafted from the documents: left for the responder
    assert acme["GNRL-04"].status is DraftStatus.NO_CONTEXT and "inst.bid" not in acme["GNRL-04"].answer
    assert impact["GNRL-01"].answer == "Instructure" and impact["GNRL-08"].answer == COMPANY["GNRL-08"]
    # the product's own certificate describes it: word for word, both lines of the page highlighted
    described = acme["GNRL-03"]
    assert described.answer.startswith("Acme Transcripts sends") and described.profile_fact == "product_description"
    assert described.citations[0].file == "Acme TX-RAMP.pdf" and len(described.citations[0].rects) == 2
    assert (
        "Acme Transcripts" not in impact["GNRL-03"].answer and impact["GNRL-03"].profile_fact != "product_description"
    )
