"""Profile facts from a product's own documents (engine/index/profile_documents.py) and the profile's
rules around them (engine/index/profile.py): generated PDFs (PyMuPDF) read as the knowledge base reads
them (engine.ingest), the vendor-identity rule, pointers to another row, the loose comparison."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.index.profile import Fact, Profile, fact_key, normalised, row_ids, same_vendor
from engine.index.profile_documents import facts_of_document, facts_of_folder
from engine.ingest import load_document


def pdf(path: Path, pages: list[list[str]]) -> Path:
    """A PDF whose pages hold ``pages``' lines, one text line each."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for i, line in enumerate(lines):
            page.insert_text((72, 72 + 14 * i), line, fontsize=10)
    doc.save(path)
    doc.close()
    return path


AOC = [
    ["Attestation of Compliance for Report on Compliance", "Entity Name: Acme Learning LLC"],
    [
        "Part 1. Contact Information",
        "Part 1a. Assessed Entity",
        "Company name:",
        "Acme Learning LLC",
        "DBA (doing business as):",
        "Not applicable.",
        "Company contact name:",
        "Dana Smith",
        "Company contact title:",
        "Director, Security",
        "Contact phone number:",
        "555-201-3300",
        "Contact e-mail address:",
        "dana@acme.example",
        "Part 1b. Assessor",
        "Company name:",
        "Audit Partners, Inc.",
        "Assessor e-mail address:",
        "lead@auditpartners.example",
        "Contact name:",
        "Lee Assessor",
    ],
]
VPAT = [
    [
        "Acme Transcripts VPAT",
        "Name of Product/Version: Acme Transcripts 2.1",
        "Product Description: Orders",
        "Contact Information:",
        "Sam Lee",
        "Head of Product",
        "555-201-3300 ext 12",
        "sam@acme.example",
        "Notes:",
        "Evaluation Methods Used: manual",
    ]
]


def test_an_attestations_assessed_entity_gives_the_vendor_and_contact_never_the_assessor(tmp_path):
    path = pdf(tmp_path / "Acme AOC.pdf", AOC)
    units = load_document(path).units
    facts = facts_of_document(units, path.name, "Acme")
    assert {k: f.value for k, f in facts.items()} == {
        "vendor_name": "Acme Learning LLC",
        "contact_name": "Dana Smith",
        "contact_title": "Director, Security",
        "contact_phone": "555-201-3300",
        "contact_email": "dana@acme.example",
    }
    fact = facts["contact_email"]
    assert (fact.source, fact.page, fact.product, fact.origin) == ("Acme AOC.pdf", 2, "Acme", "document")
    page_text = units[1].text
    assert page_text[fact.start : fact.start + len(fact.value)] == fact.value  # the offset the highlight uses
    # a field only the assessor's part fills is not the vendor's
    no_contact = [AOC[0], [x for x in AOC[1] if x not in ("Company contact name:", "Dana Smith")]]
    path = pdf(tmp_path / "Acme AOC 2.pdf", no_contact)
    assert "contact_name" not in facts_of_document(load_document(path).units, path.name, "Acme")


def test_an_accessibility_reports_contact_is_the_accessibility_contact(tmp_path):
    path = pdf(tmp_path / "Acme VPAT.pdf", VPAT)
    facts = facts_of_document(load_document(path).units, path.name, "Acme")
    assert {k: f.value for k, f in facts.items()} == {
        "accessibility_contact_name": "Sam Lee",
        "accessibility_contact_title": "Head of Product",
        "accessibility_contact_phone": "555-201-3300 ext 12",
        "accessibility_contact_email": "sam@acme.example",
    }
    # the same block in a document that is not an accessibility report says nothing
    other = pdf(tmp_path / "Acme brochure.pdf", [["Acme brochure"] + VPAT[0][3:]])
    assert facts_of_document(load_document(other).units, other.name, "Acme") == {}


CERTIFICATE = [
    [
        "Texas Risk and Authorization",
        "Management Program Certification",
        "Cloud Service Name",
        "Cloud Service Provider URL",
        "Acme: Acme Transcripts",
        "https://acme.example/transcripts",
        "Cloud Service Description (200 words or less)",
        "Acme Transcripts sends a learner's transcript to any school or employer in minutes. It keeps",
        "every record signed and verifiable.",
        "Certification Status",
        "Level 2 Certification",
        "Certificate ID",
        "TX1234567",
    ]
]


def test_a_cloud_service_certificates_description_is_the_products_description(tmp_path):
    path = pdf(tmp_path / "Acme TX-RAMP Certification.pdf", CERTIFICATE)
    units = load_document(path).units
    facts = facts_of_document(units, path.name, "Acme")
    assert list(facts) == ["product_description"]
    fact = facts["product_description"]
    assert fact.value == (
        "Acme Transcripts sends a learner's transcript to any school or employer in minutes. "
        "It keeps every record signed and verifiable."
    )
    # the value spans two lines of the page: its offsets cover both, for the highlight
    assert units[0].text[fact.start : fact.end].split() == fact.value.split()
    assert (fact.page, fact.origin) == (1, "document")
    # the product's own document's description is the product's; never the company's nor another product's
    profile = Profile({}, {}, {"Acme": facts})
    assert profile.fact("product_description", "Acme") is fact
    assert profile.fact("product_description", "Other") is None
    # a paragraph cut off (no full stop before the next heading) is not read
    cut = [CERTIFICATE[0][:8] + CERTIFICATE[0][9:]]
    path = pdf(tmp_path / "Acme cut.pdf", cut)
    assert facts_of_document(load_document(path).units, path.name, "Acme") == {}
    # a report's "Product Description:" field names the version evaluated: not the description
    path = pdf(tmp_path / "Acme VPAT.pdf", VPAT)
    assert "product_description" not in facts_of_document(load_document(path).units, path.name, "Acme")


def test_documents_that_disagree_on_a_fact_give_neither_value(tmp_path):
    folder = tmp_path / "Acme"
    folder.mkdir()
    pdf(folder / "Acme AOC 2023.pdf", AOC)
    newer = [AOC[0], [line.replace("555-201-3300", "555-999-0000") for line in AOC[1]]]
    pdf(folder / "Acme AOC 2024.pdf", newer)
    facts = facts_of_folder(folder, "Acme")
    assert "contact_phone" not in facts and facts["contact_email"].value == "dana@acme.example"


def test_a_product_of_another_vendor_never_gets_the_companys_facts():
    company = {
        "vendor_name": Fact("vendor_name", "Instructure", "a.xlsx", sheet="S", row=2),
        "privacy_link": Fact("privacy_link", "inst.bid/privacy", "a.xlsx", sheet="S", row=3),
        "contact_email": Fact("contact_email", "Ask your CSM.", "a.xlsx", sheet="S", row=4),
    }
    documented = {
        "Acme": {
            "vendor_name": Fact("vendor_name", "Acme Learning LLC", "aoc.pdf", "Acme", page=2, start=0),
            "contact_email": Fact("contact_email", "dana@acme.example", "aoc.pdf", "Acme", page=2),
        },
        "Catalog": {
            "vendor_name": Fact("vendor_name", "Instructure, Inc.", "pci.pdf", "Catalog", page=2),
            "contact_email": Fact("contact_email", "security@x.example", "pci.pdf", "Catalog", page=2),
        },
    }
    profile = Profile(company).with_documents(documented)
    assert profile.other_vendor("Acme") and not profile.other_vendor("Catalog") and not profile.other_vendor("Impact")
    assert profile.fact("vendor_name", "Acme").value == "Acme Learning LLC"
    assert profile.fact("contact_email", "Acme").value == "dana@acme.example"
    assert profile.fact("privacy_link", "Acme") is None  # the company's link is another vendor's: blank
    assert "inst.bid/privacy" not in profile.values("Acme")
    # the same vendor: the company's questionnaires' answers win over a document's
    assert profile.fact("contact_email", "Catalog").value == "Ask your CSM."
    assert profile.fact("privacy_link", "Catalog").value == "inst.bid/privacy"
    assert same_vendor("Instructure, Inc.", "instructure") and not same_vendor("Parchment LLC", "Instructure")


def test_a_pointer_to_another_row_is_re_pointed_to_the_targets_row():
    fact = Fact(
        "contact_name",
        "See GNRL-08 for our contact.",
        "a.xlsx",
        sheet="S",
        row=2,
        qid="GNRL-06",
        refers=(("GNRL-08", "contact_email"),),
    )
    k12 = [{"id": "GNRL-05", "question": "Vendor Contact Name"}, {"id": "GNRL-07", "question": "Vendor Contact Email"}]
    assert row_ids(k12) == {"contact_name": "GNRL-05", "contact_email": "GNRL-07"}
    assert fact.value_for(row_ids(k12)) == "See GNRL-07 for our contact."
    assert fact.value_for({"contact_name": "GNRL-05"}) is None  # no row to point to: no answer
    assert Fact("vendor_name", "Instructure", "a.xlsx").value_for(None) == "Instructure"


def test_wordings_and_loose_comparison():
    assert fact_key("Vendor Data Zone") == "hosting_regions" and fact_key("Institution Data Zone") is None
    assert fact_key("Vendor Hosting Regions") == "hosting_regions"
    assert normalised("Director, Information Security") == normalised("Director Information Security")
    assert normalised("https://www.inst.bid/privacy/") == normalised("inst.bid/privacy")
    assert normalised("jweaver@parchment.com\u200b") == "jweaver@parchment.com"
    assert normalised("480-719-1646") != normalised("1-602-421-5233")


def test_a_word_label_read_with_its_context_is_a_profile_row_when_it_names_the_vendor():
    """The Word reader gives a label its section or table title ("Supplier questionnaire: Vendor
    Name"); the label alone names the fact when it names the vendor or its product itself, never
    when the context could be another party's ("Subcontractor: Company Name") or a person's."""
    assert fact_key("Supplier questionnaire: Vendor Name") == "vendor_name"
    assert fact_key("General information: Product Description") == "product_description"
    assert fact_key("Subcontractor: Company Name") is None
    assert fact_key("Information System Owner: Date") is None and fact_key("ISSO: Contact Email") is None
